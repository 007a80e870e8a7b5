package rbac_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/modelgen/modelgen/rbac"
	"github.com/modelgen/modelgen/rbac/internal/testtypes"
)

// TestNilInputsAreErrors: a nil object, a nil guard, a guard without a
// store or a type, and a nil table return an error that denies
// (ErrInvalid and ErrDenied); nothing panics.
func TestNilInputsAreErrors(t *testing.T) {
	subj := rbac.Subject{Tenant: "acme", Roles: []string{"admin"}}
	doc := func() *testtypes.Doc { return &testtypes.Doc{Tenant: "acme", Title: "x"} }
	guards := map[string]*rbac.Guard[testtypes.Doc]{
		"nil guard":        nil,
		"zero guard":       {},
		"no store":         rbac.NewGuard(nil, testtypes.DocAccess),
		"zero store":       rbac.NewGuard(&rbac.Store{}, testtypes.DocAccess),
		"no type":          rbac.NewGuard[testtypes.Doc](rbac.NewStore(nil), nil),
		"type without fns": rbac.NewGuard(rbac.NewStore(nil), rbac.NewType(testtypes.DocAccess.Table(), rbac.Funcs[testtypes.Doc]{})),
		"type, no table":   rbac.NewGuard(rbac.NewStore(nil), rbac.NewType[testtypes.Doc](nil, rbac.Funcs[testtypes.Doc]{})),
	}
	good := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	invalid := func(what string, err error) {
		t.Helper()
		var ie *rbac.InvalidError
		if !errors.As(err, &ie) || !errors.Is(err, rbac.ErrInvalid) || !errors.Is(err, rbac.ErrDenied) {
			t.Errorf("%s: want an InvalidError that denies, got %v", what, err)
		}
	}
	for name, g := range guards {
		d := doc()
		invalid(name+": Filter", g.Filter(subj, d))
		if d.Title != "" {
			t.Errorf("%s: Filter failed without zeroing the object", name)
		}
		list := []testtypes.Doc{*doc()}
		invalid(name+": FilterList", g.FilterList(subj, list))
		if list[0].Title != "" {
			t.Errorf("%s: FilterList failed without zeroing the list", name)
		}
		invalid(name+": CheckWrite", g.CheckWrite(subj, doc(), doc()))
		_, err := g.StripWrite(subj, doc(), doc())
		invalid(name+": StripWrite", err)
		_, _, err = g.Paths(subj)
		invalid(name+": Paths", err)
		_ = g.Type()
	}
	invalid("Filter(nil)", good.Filter(subj, nil))
	invalid("CheckWrite(old, nil)", good.CheckWrite(subj, doc(), nil))
	invalid("CheckWrite(nil, nil)", good.CheckWrite(subj, nil, nil))
	_, err := good.StripWrite(subj, doc(), nil)
	invalid("StripWrite(old, nil)", err)
	if err := good.FilterList(subj, nil); err != nil {
		t.Errorf("FilterList of no objects: %v", err)
	}
	_, err = rbac.NewPolicy(rbac.PolicyDoc{}, testtypes.DocAccess.Table(), nil)
	invalid("NewPolicy with a nil table", err)
	var p *rbac.Policy
	if js, err := json.Marshal(p); err != nil || string(js) != "null" {
		t.Errorf("a nil policy marshals to %s, %v", js, err)
	}
	if (&rbac.Store{}).Policy() != nil || (*rbac.Type[testtypes.Doc])(nil).Table() != nil {
		t.Error("the accessors of zero values are not nil")
	}
}

// TestShapeKeptWithoutWriteRights: null and {} are different JSON, so a
// list or map element of pointer type that turns from one to the other is
// a change of the list or map. A subject that may not write the list is
// refused and StripWrite restores the element's shape; a subject that may
// write it is not.
func TestShapeKeptWithoutWriteRights(t *testing.T) {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	old := func() *testtypes.Doc {
		return &testtypes.Doc{Tenant: "acme",
			Refs:     []*testtypes.Item{nil, {}},
			PtrByKey: map[string]*testtypes.Item{"a": nil, "b": {}}}
	}
	flipped := func() *testtypes.Doc {
		return &testtypes.Doc{Tenant: "acme",
			Refs:     []*testtypes.Item{{}, nil},
			PtrByKey: map[string]*testtypes.Item{"a": {}, "b": nil}}
	}
	viewer := rbac.Subject{Tenant: "acme", Roles: []string{"viewer"}}
	var we *rbac.WriteError
	if err := docs.CheckWrite(viewer, old(), flipped()); !errors.As(err, &we) || !reflect.DeepEqual(we.Paths, []string{"ptrByKey", "refs"}) {
		t.Errorf("a viewer flipping null and {}: want a WriteError naming ptrByKey and refs, got %v", err)
	}
	cur := flipped()
	if _, err := docs.StripWrite(viewer, old(), cur); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(old())
	if got, _ := json.Marshal(cur); string(got) != string(want) {
		t.Errorf("after StripWrite by a viewer:\n got %s\nwant %s", got, want)
	}
	// the admin may write both containers
	admin := rbac.Subject{Tenant: "acme", Roles: []string{"admin"}}
	if err := docs.CheckWrite(admin, old(), flipped()); err != nil {
		t.Errorf("an admin flipping null and {}: %v", err)
	}
	// an editor may write refs but not ptrByKey
	editor := rbac.Subject{Tenant: "acme", Roles: []string{"editor"}}
	if err := docs.CheckWrite(editor, old(), flipped()); !errors.As(err, &we) || !reflect.DeepEqual(we.Paths, []string{"ptrByKey"}) {
		t.Errorf("an editor flipping null and {}: want a WriteError naming ptrByKey, got %v", err)
	}
}

// TestNilAndEmptyDifferWithoutOmitempty: a slice or map field without
// omitempty is null when nil and [] or {} when empty; turning one into the
// other is a change of the field, refused to a subject that may not write
// it and undone by StripWrite. With omitempty both are left out, so it is
// no change.
func TestNilAndEmptyDifferWithoutOmitempty(t *testing.T) {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	viewer := rbac.Subject{Tenant: "acme", Roles: []string{"viewer"}}
	editor := rbac.Subject{Tenant: "acme", Roles: []string{"editor"}}
	old := func() *testtypes.Doc {
		return &testtypes.Doc{Tenant: "acme", Tags: []string{}, Lines: []testtypes.Item{}}
	}
	flipped := func() *testtypes.Doc { return &testtypes.Doc{Tenant: "acme", Notes: []string{}} }
	var we *rbac.WriteError
	if err := docs.CheckWrite(viewer, old(), flipped()); !errors.As(err, &we) || !reflect.DeepEqual(we.Paths, []string{"lines", "notes"}) {
		t.Errorf("a viewer turning null into [] and back: want a WriteError naming lines and notes (not tags, which omits both), got %v", err)
	}
	cur := flipped()
	if _, err := docs.StripWrite(viewer, old(), cur); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(old())
	if got, _ := json.Marshal(cur); string(got) != string(want) {
		t.Errorf("after StripWrite by a viewer:\n got %s\nwant %s", got, want)
	}
	if err := docs.CheckWrite(editor, old(), flipped()); err != nil {
		t.Errorf("an editor may write notes and lines: %v", err)
	}
}
