package model_test

import (
	"path/filepath"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// TestDeclared is the one "is this name already declared" rule the
// statemachine, rbac and webhook backends share: a package-level
// declaration in the user's files is one (with its position), a declaration
// in any zz_generated.* file is not (the run replaces those files, whichever
// backend wrote them), and neither is a method or an unknown name.
func TestDeclared(t *testing.T) {
	m, err := model.Load(model.Config{Dir: "testdata", Patterns: []string{"./declared"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Packages) != 1 {
		t.Fatalf("want the declared package, got %d packages (%v)", len(m.Packages), m.Diags)
	}
	pk := m.Packages[0]
	for _, c := range []struct {
		caller, name string
		line         int // 0: not declared
	}{
		{"statemachine", "PhaseEvent", 18},
		{"statemachine", "PhaseMachine", 0}, // zz_generated.statemachine.go
		{"statemachine", "Reopen", 0},       // a method
		{"rbac", "OrderAccess", 21},
		{"rbac", "InvoiceAccess", 0},  // its own generated file
		{"rbac", "ShipmentAccess", 0}, // another backend's generated file
		{"webhook", "OrderWebhook", 24},
		{"webhook", "InvoiceWebhook", 0},
		{"webhook", "NoSuchWebhook", 0},
	} {
		pos, ok := pk.Declared(c.name)
		switch {
		case c.line == 0 && ok:
			t.Errorf("%s: %s is declared at %s; want not declared", c.caller, c.name, pos)
		case c.line != 0 && (!ok || filepath.Base(pos.File) != "types.go" || pos.Line != c.line || pos.Col != 6 && pos.Col != 5):
			t.Errorf("%s: %s: got %v, %v; want types.go:%d", c.caller, c.name, pos, ok, c.line)
		}
	}
	var none model.Package
	if _, ok := none.Declared("Order"); ok {
		t.Error("a package that was not type-checked declares nothing")
	}
}
