package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Sample exercises the mapped validate keywords.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Sample struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec SampleSpec `json:"spec"`
}

// SampleSpec holds one field per keyword family.
type SampleSpec struct {
	// Strings: lengths in runes, equality, patterns.
	Name      string `json:"name" validate:"required,min=3,max=8"`
	Code      string `json:"code,omitempty" validate:"omitempty,len=4"`
	Greater   string `json:"greater,omitempty" validate:"omitempty,gt=2,lt=6"`
	Exact     string `json:"exact,omitempty" validate:"omitempty,eq=yes"`
	NotNo     string `json:"notNo,omitempty" validate:"ne=no"`
	Letters   string `json:"letters,omitempty" validate:"omitempty,alpha"`
	AlphaNum  string `json:"alphaNum,omitempty" validate:"omitempty,alphanum"`
	Numeric   string `json:"numeric,omitempty" validate:"omitempty,numeric"`
	Hex       string `json:"hex,omitempty" validate:"omitempty,hexadecimal"`
	Color     string `json:"color,omitempty" validate:"omitempty,hexcolor"`
	Phone     string `json:"phone,omitempty" validate:"omitempty,e164"`
	Encoded   string `json:"encoded,omitempty" validate:"omitempty,base64"`
	ID        string `json:"id,omitempty" validate:"omitempty,uuid4"`
	Digest    string `json:"digest,omitempty" validate:"omitempty,sha256"`
	Text      string `json:"text,omitempty" validate:"omitempty,printascii"`
	Version   string `json:"version,omitempty" validate:"omitempty,semver"`
	Host      string `json:"host,omitempty" validate:"omitempty,hostname_rfc1123"`
	Email     string `json:"email,omitempty" validate:"omitempty,email"`
	Prefixed  string `json:"prefixed,omitempty" validate:"omitempty,startswith=ab,endswith=yz"`
	Contains  string `json:"contains,omitempty" validate:"omitempty,contains=mid,excludes=bad"`
	Choice    string `json:"choice" validate:"required,oneof=red green 'light blue'"`
	NotChoice string `json:"notChoice,omitempty" validate:"noneof=admin root"`
	FoldCase  string `json:"foldCase,omitempty" validate:"omitempty,oneofci=alpha beta"`
	Flag      string `json:"flag,omitempty" validate:"omitempty,boolean"`
	IP        string `json:"ip,omitempty" validate:"omitempty,ipv4"`
	Network   string `json:"network,omitempty" validate:"omitempty,cidr"`

	// Numbers: integer and non-integer bounds, required means non-zero.
	Count    int32   `json:"count" validate:"required,gte=1,lte=10"`
	Ratio    float64 `json:"ratio,omitempty" validate:"omitempty,gt=0.5,lt=1.5"`
	Amount   float64 `json:"amount" validate:"required,gte=0.01"`
	Level    int64   `json:"level,omitempty" validate:"omitempty,oneof=1 2 3"`
	Latitude float64 `json:"latitude,omitempty" validate:"latitude"`
	Enabled  bool    `json:"enabled,omitempty" validate:"omitempty"`
	Accepted bool    `json:"accepted" validate:"required"`

	// Slices and maps: item and entry counts, unique items, element rules, keys.
	Tags   []string          `json:"tags,omitempty" validate:"omitempty,min=1,max=3,unique,dive,min=2,max=5"`
	Labels map[string]string `json:"labels,omitempty" validate:"omitempty,max=2,dive,keys,alpha,endkeys,max=4"`

	// Cross-field rules.
	Password string `json:"password,omitempty"`
	Confirm  string `json:"confirm,omitempty" validate:"eqfield=Password"`
	Min      int32  `json:"min,omitempty"`
	Max      int32  `json:"max,omitempty" validate:"gtefield=Min"`
	Mode     string `json:"mode,omitempty" validate:"omitempty,oneof=auto manual"`
	Manual   string `json:"manual,omitempty" validate:"required_if=Mode manual"`
	Primary  string `json:"primary,omitempty"`
	Backup   string `json:"backup,omitempty" validate:"excluded_without=Primary"`
}

// SampleList is a list of Samples.
//
// +kubebuilder:object:root=true
type SampleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Sample `json:"items"`
}
