// Package exact declares one resource whose spec holds the Go shapes where
// validator's own semantics decide what a schema may say: elements of lists
// and maps with and without dive, optional structs, durations, fixed
// arrays, named byte slices, uint64 at its limits and quoted parameters of
// the conditional keywords. The agreement test (TestExactShapes) proves the
// generated schemas and validator agree on them.
//
// +groupName=exact.agree.modelgen.dev
package exact

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Item has rules validator checks only where it validates an Item: as a
// field of a struct it validates, or as an element after dive.
type Item struct {
	Name string `json:"name" validate:"required,max=5"`
	Note string `json:"note,omitempty" validate:"omitempty,min=2"`
	// Sub is validated whenever its Item is.
	Sub *Leaf `json:"sub,omitempty"`
}

// Leaf is nested in Item.
type Leaf struct {
	Code string `json:"code,omitempty" validate:"omitempty,len=2"`
}

// ItemList is a named list of items: a field of it validates the items
// only after a dive, as a plain slice.
type ItemList []Item

// Blob is a named byte slice: base64 in JSON.
type Blob []byte

// Exact is the resource of the shapes.
//
// +kubebuilder:object:root=true
type Exact struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ExactSpec `json:"spec"`
}

// ExactSpec holds one field per shape.
type ExactSpec struct {
	// elements without dive: validator never looks at them
	Items    []Item           `json:"items,omitempty"`
	Pointers []*Item          `json:"pointers,omitempty"`
	ByName   map[string]Item  `json:"byName,omitempty"`
	Bounded  []Item           `json:"bounded,omitempty" validate:"omitempty,max=2"`
	Nested   [][]Item         `json:"nested,omitempty" validate:"dive"`
	PtrMap   map[string]*Item `json:"ptrMap,omitempty" validate:"omitempty,min=1"`
	Named    ItemList         `json:"named,omitempty"`
	// elements after dive: validator checks each one as a struct
	Dived    []Item          `json:"dived,omitempty" validate:"dive"`
	DivedPtr []*Item         `json:"divedPtr,omitempty" validate:"omitempty,dive"`
	DivedMap map[string]Item `json:"divedMap,omitempty" validate:"dive"`
	Deep     [][]Item        `json:"deep,omitempty" validate:"dive,dive"`
	NamedDiv ItemList        `json:"namedDiv,omitempty" validate:"dive"`
	// a struct field is validated, without a tag too; "-" skips it
	Direct  *Item `json:"direct,omitempty"`
	Skipped *Item `json:"skipped,omitempty" validate:"-"`
	// durations after omitempty: 0 passes
	Wait    time.Duration            `json:"wait,omitempty" validate:"omitempty,gte=1s"`
	Timeout time.Duration            `json:"timeout" validate:"omitempty,gte=1s,lte=1h"`
	Waits   []time.Duration          `json:"waits,omitempty" validate:"dive,omitempty,gte=1s"`
	ByStep  map[string]time.Duration `json:"byStep,omitempty" validate:"dive,omitempty,gt=1ms"`
	MaybeW  *time.Duration           `json:"maybeW,omitempty" validate:"omitempty,gte=1s"`
	// fixed arrays: encoding/json zero-fills a short JSON array and drops
	// the items past N
	Pair     [2]int    `json:"pair" validate:"len=2"`
	PairMax  [2]int    `json:"pairMax" validate:"max=5,min=1"`
	PairOpt  [2]string `json:"pairOpt,omitempty" validate:"dive,max=3"`
	PairMust [2]int    `json:"pairMust" validate:"dive,gte=1"`
	// quoted parameters of the conditional keywords, split as oneof's
	Mode    string `json:"mode,omitempty" validate:"omitempty,oneof=on off 'x y'"`
	OnNote  string `json:"onNote,omitempty" validate:"required_if=Mode 'on'"`
	XYNote  string `json:"xyNote,omitempty" validate:"required_if=Mode 'x y'"`
	OffNote string `json:"offNote,omitempty" validate:"required_unless=Mode 'off'"`
	NotOn   string `json:"notOn,omitempty" validate:"excluded_if='Mode' 'on'"`
	OnlyXY  string `json:"onlyXY,omitempty" validate:"excluded_unless=Mode 'x y'"`
	// uint64 bounds beyond int64
	Big    uint64 `json:"big,omitempty" validate:"lte=10000000000000000000"`
	BigMax uint64 `json:"bigMax,omitempty" validate:"lte=9223372036854775807"`
	Int64  int64  `json:"int64,omitempty" validate:"lte=9223372036854775807,gte=-9223372036854775808"`
	Huge   uint64 `json:"huge,omitempty"`
	// an optional struct value: validator skips the zero struct
	Opt     Item  `json:"opt,omitempty" validate:"omitempty"`
	OptZero Leaf  `json:"optZero,omitempty" validate:"omitempty"`
	OptPtr  *Item `json:"optPtr,omitempty" validate:"omitempty"`
	// a marker as loose as the tag changes nothing
	// +kubebuilder:validation:MaxLength=10
	Label string `json:"label,omitempty" validate:"omitempty,min=2,max=6"`
	// a named byte slice with a cross-field keyword
	Blob     Blob   `json:"blob,omitempty"`
	BlobWith Blob   `json:"blobWith,omitempty" validate:"required_with=Mode"`
	BlobMax  Blob   `json:"blobMax,omitempty" validate:"omitempty,max=4"`
	BlobPtr  *Blob  `json:"blobPtr,omitempty" validate:"excluded_with=Blob"`
	Blobs    []Blob `json:"blobs,omitempty" validate:"dive,min=1"`
	// a named integer type with bounds: 1.0 and 1e1 are integers to the
	// schemas, and encoding/json refuses them for Port as for int32
	Port    Port   `json:"port,omitempty" validate:"omitempty,gte=1,lte=65535"`
	Ports   []Port `json:"ports,omitempty" validate:"dive,gte=1"`
	Replica Count  `json:"replica,omitempty" validate:"omitempty,lte=300"`
	// a struct value without a validate tag: validator walks into it
	// whether the JSON has it or not, so omitempty and omitzero on the json
	// tag do not make it optional when its zero value fails Item's rules
	Untagged  Item `json:"untagged,omitempty"`
	UntaggedZ Item `json:"untaggedZ,omitzero"`
	// its zero value passes Leaf's rules: optional
	LeafOpt Leaf `json:"leafOpt,omitempty"`
}

// Port is a named integer type.
type Port int32

// Count is a named unsigned integer type.
type Count uint16
