// Package shapes declares one resource whose spec holds every JSON shape
// whose name or form encoding/json decides: the agreement test
// (TestJSONShapes) proves the generated schemas and validator agree on
// them, so a schema that names a property differently from encoding/json
// shows up as a divergence.
//
// +groupName=shapes.agree.modelgen.dev
package shapes

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Promoted is embedded by value: its fields are the spec's own.
type Promoted struct {
	Promoted string `json:"promoted,omitempty" validate:"omitempty,max=3"`
}

// Optional is embedded by pointer: its fields are the spec's own when set.
type Optional struct {
	Note string `json:"note,omitempty" validate:"omitempty,max=3"`
}

// Shadowed is embedded beside a field of the spec that hides its own, with
// the same type, json options and tags.
type Shadowed struct {
	Tier string `json:"tier,omitempty" validate:"omitempty,max=3"`
}

// Label is a string type embedded without a tag: encoding/json names the
// property after the type.
type Label string

// Shapes is the resource of the shapes.
//
// +kubebuilder:object:root=true
type Shapes struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ShapesSpec `json:"spec"`
}

// ShapesSpec holds one field per shape.
type ShapesSpec struct {
	// an empty name keeps the Go name
	Named string `json:",omitempty" validate:"omitempty,max=3"`
	Bare  int    `json:"" validate:"gte=0,lte=5"`
	// "-," is the name "-"; "-" is no property at all
	Dash    string `json:"-," validate:"omitempty,max=3"`
	Skipped string `json:"-" validate:"max=3"`
	// unexported: no property, even with a tag
	hidden string `json:"hidden"`
	// a fixed-size array
	Triple [3]int `json:"triple" validate:"dive,gte=1"`
	// promoted fields, by value and by pointer
	Promoted
	*Optional
	Label `validate:"omitempty,max=3"`
	// two fields named "dup": encoding/json ignores both
	Dup1 string `json:"dup" validate:"omitempty,max=3"`
	Dup2 string `json:"dup"`
	// a tagged field beats an untagged one of the same name
	Title string `validate:"omitempty,max=3"`
	Name  string `json:"Title" validate:"omitempty,max=2"`
	// a promoted field hidden by one of the same schema
	Shadowed
	Tier string `json:"tier,omitempty" validate:"omitempty,max=3"`
}

var _ = ShapesSpec{}.hidden
