package ext

import (
	"encoding/json"
	"go/build"
	"reflect"
	"strings"
	"testing"
)

// What Encode writes, Decode reads back unchanged, through JSON as the
// document carries it.
func TestRoundTrip(t *testing.T) {
	m := StateMachine{Version: Version, Name: "Phase", Initial: "A", States: []string{"A", "B"},
		Transitions: []Transition{{From: "A", Event: "Go", To: "B"}}}
	a := Access{Version: Version, Read: []string{"auditor"}, Write: []string{}, Tenant: true}
	gotM, err := DecodeStateMachine(viaJSON(t, m.Encode()))
	if err != nil || !reflect.DeepEqual(gotM, m) {
		t.Errorf("state machine: %+v, %v; want %+v", gotM, err, m)
	}
	gotA, err := DecodeAccess(viaJSON(t, a.Encode()))
	if err != nil || !reflect.DeepEqual(gotA, a) {
		t.Errorf("access: %+v, %v; want %+v", gotA, err, a)
	}
	if v := m.Encode()["version"]; v != Version {
		t.Errorf("encoded version = %v", v)
	}
	if _, ok := (Access{}).Encode()["tenant"]; ok {
		t.Error("tenant is written for a property that is not the tenant key")
	}
}

func viaJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestVersions(t *testing.T) {
	legacy := map[string]any{"read": []any{"r"}, "write": []any{}}
	if a, err := DecodeAccess(legacy); err != nil || a.Version != 1 {
		t.Errorf("unversioned value: %+v, %v; want version 1", a, err)
	}
	future := map[string]any{"version": Version + 1, "read": []any{"r"}, "write": []any{}}
	if _, err := DecodeAccess(future); err == nil || !strings.Contains(err.Error(), "upgrade modelgen") {
		t.Errorf("a later version: err = %v", err)
	}
	unknown := map[string]any{"version": 1, "read": []any{}, "write": []any{}, "delete": []any{"r"}}
	if _, err := DecodeAccess(unknown); err == nil || !strings.Contains(err.Error(), `"delete"`) {
		t.Errorf("an unknown field: err = %v", err)
	}
}

func TestCheck(t *testing.T) {
	bad := map[string]any{"name": "P", "initial": "Gone", "states": []any{"A"},
		"transitions": []any{map[string]any{"from": "A", "event": "", "to": "B"}}}
	_, err := DecodeStateMachine(bad)
	for _, want := range []string{`initial "Gone" is not one of the states`, `transitions[0].to "B"`, "transitions[0].event is empty"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	if _, err := DecodeAccess(map[string]any{"read": []any{""}, "write": []any{}}); err == nil {
		t.Error("an empty role name is accepted")
	}
}

// The generator and the gate share this package; it stays dependency-free
// so that reading the format never pulls in either.
func TestStandardLibraryOnly(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") {
			t.Errorf("imports %s", imp)
		}
	}
}
