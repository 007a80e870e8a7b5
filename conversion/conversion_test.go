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

// TestPointersToZeroValues: a pointer to a zero value is set (it differs
// from nil, in Go and in JSON), so it is kept and restored; the rest of the
// object keeps its Go values (an empty list stays empty, not nil).
func TestPointersToZeroValues(t *testing.T) {
	type spec struct {
		Ptr   *string  `json:"ptr,omitempty"`
		Count *int64   `json:"count,omitempty"`
		Leaf  *item    `json:"leaf,omitempty"`
		Empty []string `json:"empty,omitempty"`
		ByID  map[int]item
	}
	type object struct {
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              spec `json:"spec"`
	}
	ps := [][]string{{"spec", "ptr"}, {"spec", "count"}, {"spec", "leaf"}, {"spec", "ByID", Each, "note"}}
	empty, zero := "", int64(0)
	from := object{Spec: spec{Ptr: &empty, Count: &zero, Leaf: &item{}, ByID: map[int]item{7: {Name: "a", Note: "n"}}}}
	var to object
	if err := Save(&to, "v9", &from, ps); err != nil {
		t.Fatal(err)
	}
	want := `{"spec":{"ByID":{"7":{"note":"n"}},"count":0,"leaf":{"name":""},"ptr":""}}`
	if got := to.Annotations[AnnotationPrefix+"v9"]; got != want {
		t.Fatalf("annotation %s, want %s", got, want)
	}
	back := object{Spec: spec{Empty: []string{}, ByID: map[int]item{7: {Name: "a"}}}}
	back.Annotations = to.Annotations
	if err := Take(&back, "v9", ps); err != nil {
		t.Fatal(err)
	}
	if back.Spec.Ptr == nil || *back.Spec.Ptr != "" || back.Spec.Count == nil || *back.Spec.Count != 0 || back.Spec.Leaf == nil {
		t.Errorf("the pointers to zero values were not restored: %+v", back.Spec)
	}
	if back.Spec.Empty == nil {
		t.Error("Take changed a field it does not restore: the empty list became nil")
	}
	if back.Spec.ByID[7].Note != "n" {
		t.Errorf("the map value of an integer key was not restored: %+v", back.Spec.ByID)
	}
	if back.Annotations != nil {
		t.Errorf("annotations %v, want none", back.Annotations)
	}
}

type hidden struct {
	Note string `json:"note,omitempty"`
}

// TestUnexportedEmbedded: a field promoted from an unexported embedded
// struct is JSON's (encoding/json promotes it), and so kept and restored.
func TestUnexportedEmbedded(t *testing.T) {
	type object struct {
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              struct {
			hidden
		} `json:"spec"`
	}
	ps := [][]string{{"spec", "note"}}
	var from, to object
	from.Spec.Note = "n"
	if err := Save(&to, "v9", &from, ps); err != nil {
		t.Fatal(err)
	}
	if got := to.Annotations[AnnotationPrefix+"v9"]; got != `{"spec":{"note":"n"}}` {
		t.Fatalf("annotation %s", got)
	}
	if err := Take(&to, "v9", ps); err != nil || to.Spec.Note != "n" {
		t.Fatalf("restored %q, %v", to.Spec.Note, err)
	}
}
