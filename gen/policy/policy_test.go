package policy

import (
	"testing"

	"github.com/modelgen/modelgen/model"
)

// docType loads the rbac test types: Doc holds every access shape.
func docType(t *testing.T) *model.TypeAccess {
	t.Helper()
	m, err := model.Load(model.Config{Patterns: []string{"../../rbac/internal/testtypes"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	for _, tr := range m.Access.Sorted() {
		if tr.Type.Name == "Doc" {
			return tr
		}
	}
	t.Fatal("no Doc")
	return nil
}

func docKind(tr *model.TypeAccess) Kind {
	k := KindOf(tr)
	k.Group, k.Version, k.Plural, k.Status = "test.modelgen.io", "v1", "docs", false
	return k
}

func TestDocPolicyCompiles(t *testing.T) {
	tr := docType(t)
	data, diags := ForType(tr, docKind(tr), DefaultSettings())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if testing.Verbose() {
		t.Log(string(data))
	}
}
