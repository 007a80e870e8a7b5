// Package markersonly is a package controller-gen handles today: kubebuilder
// markers only, no validate tags. modelgen must give the same CRD.
//
// +groupName=compat.example.com
package markersonly

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Widget is a thing with markers.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=wd,categories=all
// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=`.spec.size`
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// Color is a widget color.
// +kubebuilder:validation:Enum=red;green;blue
type Color string

// WidgetSpec is the desired widget.
// +kubebuilder:validation:XValidation:rule="self.minReplicas <= self.maxReplicas",message="min must not exceed max"
type WidgetSpec struct {
	// Size in units.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	Size int32 `json:"size"`
	// Name of the widget.
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:Pattern=`^[a-z]+$`
	// +optional
	Name  string `json:"name,omitempty"`
	Color Color  `json:"color"`
	// +listType=map
	// +listMapKey=name
	Ports []Port `json:"ports,omitempty"`
	// +listType=set
	Tags        []string           `json:"tags,omitempty"`
	Memory      resource.Quantity  `json:"memory"`
	Target      intstr.IntOrString `json:"target"`
	Since       metav1.Time        `json:"since,omitempty"`
	Timeout     metav1.Duration    `json:"timeout,omitempty"`
	MinReplicas int32              `json:"minReplicas"`
	MaxReplicas int32              `json:"maxReplicas"`
	// +kubebuilder:default=standard
	Class    string            `json:"class,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Nested   *Nested           `json:"nested,omitempty"`
	Embedded `json:",inline"`
}

// Port is a named port.
type Port struct {
	Name string `json:"name"`
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`
}

// Nested is a pointer target.
type Nested struct {
	Deep []string `json:"deep,omitempty"`
}

// Embedded is inlined into the spec.
type Embedded struct {
	Region string `json:"region,omitempty"`
}

// WidgetStatus is the observed widget.
type WidgetStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	Ready      bool               `json:"ready,omitempty"`
}

// WidgetList is a list of widgets.
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
