package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SynthModule writes a module with one API package of n kinds (the shape
// hack/bench-generation.sh uses), each with a
// spec (string bounds, an optional int32 with a minimum, a map, a list map
// of a shared struct, an enum), a status with conditions, and a list type,
// requiring what this checkout requires (resolved from the module cache).
func SynthModule(b testing.TB, n int) string {
	b.Helper()
	dir := b.TempDir()
	root := Root(b)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		b.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(mod), "\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		b.Fatal(err)
	}
	var src strings.Builder
	src.WriteString(`// Package v1 is a synthetic API.
// +groupName=synth.example.com
// +kubebuilder:object:generate=true
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Item is shared by every kind.
type Item struct {
	// +kubebuilder:validation:MinLength=1
	Name  string ` + "`json:\"name\"`" + `
	Value string ` + "`json:\"value,omitempty\"`" + `
}
`)
	for i := range n {
		k := fmt.Sprintf("Kind%04d", i)
		fmt.Fprintf(&src, `
// %[1]s is synthetic kind number %[2]d.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Mode",type=string,JSONPath=`+"`.spec.mode`"+`
type %[1]s struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`
	Spec   %[1]sSpec   `+"`json:\"spec\"`"+`
	Status %[1]sStatus `+"`json:\"status,omitempty\"`"+`
}

// %[1]sSpec is the desired state.
type %[1]sSpec struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Name string `+"`json:\"name\"`"+`
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas *int32 `+"`json:\"replicas,omitempty\"`"+`
	Labels map[string]string `+"`json:\"labels,omitempty\"`"+`
	// +listType=map
	// +listMapKey=name
	Items []Item `+"`json:\"items,omitempty\"`"+`
	// +kubebuilder:validation:Enum=Fast;Slow
	Mode string `+"`json:\"mode,omitempty\"`"+`
}

// %[1]sStatus is the observed state.
type %[1]sStatus struct {
	Conditions []metav1.Condition `+"`json:\"conditions,omitempty\"`"+`
	ObservedGeneration int64 `+"`json:\"observedGeneration,omitempty\"`"+`
}

// %[1]sList is a list of %[1]s.
// +kubebuilder:object:root=true
type %[1]sList struct {
	metav1.TypeMeta `+"`json:\",inline\"`"+`
	metav1.ListMeta `+"`json:\"metadata,omitempty\"`"+`
	Items []%[1]s `+"`json:\"items\"`"+`
}
`, k, i)
	}
	for path, data := range map[string]string{
		"go.mod":          "module example.com/synth\n" + rest,
		"go.sum":          string(sum),
		"api/v1/types.go": src.String(),
	} {
		path = filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
