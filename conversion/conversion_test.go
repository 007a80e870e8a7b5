package conversion

import (
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type item struct {
	Name string `json:"name"`
	Note string `json:"note,omitempty"`
}

type obj struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Size  int64             `json:"size"`
		Extra string            `json:"extra,omitempty"`
		Items []item            `json:"items,omitempty"`
		Tags  map[string]item   `json:"tags,omitempty"`
		Set   map[string]string `json:"set,omitempty"`
		Plain string            `json:"plain"`
	} `json:"spec"`
}

var paths = [][]string{{"spec", "extra"}, {"spec", "items", Each, "note"}, {"spec", "tags", Each, "note"}}

// TestSaveTake: the fields at the paths survive in the annotation and come
// back where the other version lacked them; the annotation is then gone.
func TestSaveTake(t *testing.T) {
	var from obj
	from.Spec.Size = 1 << 60
	from.Spec.Extra = "x"
	from.Spec.Items = []item{{Name: "a"}, {Name: "b", Note: "n"}}
	from.Spec.Tags = map[string]item{"k": {Name: "k", Note: "m"}}
	var to obj
	if err := Save(&to, "v9", &from, paths); err != nil {
		t.Fatal(err)
	}
	got := to.Annotations[AnnotationPrefix+"v9"]
	want := `{"spec":{"extra":"x","items":[null,{"note":"n"}],"tags":{"k":{"note":"m"}}}}`
	if got != want {
		t.Fatalf("annotation %s, want %s", got, want)
	}
	// the other version's object, without the fields
	back := from
	back.Spec.Extra = ""
	back.Spec.Items = []item{{Name: "a"}, {Name: "b"}}
	back.Spec.Tags = map[string]item{"k": {Name: "k"}}
	back.Annotations = to.Annotations
	if err := Take(&back, "v9", paths); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(from)
	b, _ := json.Marshal(back)
	if string(a) != string(b) {
		t.Fatalf("restored\n%s\nwant\n%s", b, a)
	}
}

// TestSaveNothingSet: no set field (absent, or written as "" without
// omitempty), no annotation.
func TestSaveNothingSet(t *testing.T) {
	var from, to obj
	from.Spec.Items = []item{{Name: "a"}}
	if err := Save(&to, "v9", &from, append(paths, []string{"spec", "plain"})); err != nil {
		t.Fatal(err)
	}
	if to.Annotations != nil {
		t.Fatalf("annotations %v, want none", to.Annotations)
	}
}
