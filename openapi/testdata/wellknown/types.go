package wellknown

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Widget carries every well-known type.
//
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetList is a list of widgets.
//
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// TLS is a type that properties named like schema keywords refer to.
type TLS struct {
	Cert string `json:"cert,omitempty"`
}

// Chain is a named list: a field of it refers to its component.
type Chain []TLS

// WidgetSpec holds the well-known types and the keyword-named properties.
type WidgetSpec struct {
	Port     intstr.IntOrString        `json:"port"`
	Size     resource.Quantity         `json:"size"`
	Started  metav1.Time               `json:"started,omitempty"`
	Precise  metav1.MicroTime          `json:"precise,omitempty"`
	Timeout  metav1.Duration           `json:"timeout,omitempty"`
	Raw      runtime.RawExtension      `json:"raw,omitempty"`
	Value    apiextensionsv1.JSON      `json:"value,omitempty"`
	Object   unstructured.Unstructured `json:"object,omitempty"`
	Selector *metav1.LabelSelector     `json:"selector,omitempty"`
	Default  *TLS                      `json:"default,omitempty"`
	Enum     *TLS                      `json:"enum,omitempty"`
	Example  *TLS                      `json:"example,omitempty"`
	Ref      *TLS                      `json:"$ref,omitempty"`
	Type     *TLS                      `json:"type,omitempty"`
	Props    map[string]TLS            `json:"properties,omitempty"`
	Items    []TLS                     `json:"items,omitempty"`
	// +optional
	Chain   Chain   `json:"chain,omitempty"`
	Ratio32 float32 `json:"ratio32"`
	Ratio64 float64 `json:"ratio64"`
	Small   int8    `json:"small"`
	Medium  int16   `json:"medium"`
	Count32 int32   `json:"count32"`
	Count64 int64   `json:"count64"`
	Count   int     `json:"count"`
	Byte    uint8   `json:"byte"`
	Word    uint16  `json:"word"`
	Long    uint32  `json:"long"`
	Huge    uint64  `json:"huge"`
}
