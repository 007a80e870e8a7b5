package gate_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gate"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
	"github.com/modelgen/modelgen/schema"
)

// The tests in this file run the real generation pipeline (model.Load,
// schema.Build, openapi.Build: what the openapi backend does, without the
// CLI above it) on two versions of Go types in a temporary module, and then
// the gate on the two documents. The base types are
// testdata/generated/shop.go.txt: Order holds an Owner (with the tenant
// key) directly, Lines as list elements (with a state machine and
// role-restricted fields) and Extras under additionalProperties.

// generate writes the types as package shop of a fresh module and returns
// the OpenAPI document of version version the pipeline builds for it.
func generate(t *testing.T, version, types string) string {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/shop\n\ngo 1.26\n")
	testkit.WriteFile(t, filepath.Join(dir, "shop", "types.go"), types)
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	set := schema.Build(m, model.TargetOpenAPI)
	diags := append(append(model.Diagnostics(nil), m.Diags...), set.Diags...)
	if diags.HasErrors() || len(m.Packages) != 1 {
		t.Fatalf("generating the contract: %d packages\n%v\ntypes:\n%s", len(m.Packages), diags, types)
	}
	pk := m.Packages[0]
	title := pk.Group
	if title == "" {
		title = pk.Path
	}
	doc, _, err := openapi.Build(set, []*model.Package{pk}, openapi.Info{Title: title, Version: version})
	if err != nil {
		t.Fatal(err)
	}
	data, err := openapi.YAML(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func baseTypes(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "generated", "shop.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// rename renames the list-element type Line to OrderLine and the directly
// held Owner to Party: the places in the contract stay, the names change.
var rename = []string{
	"[]Line ", "[]OrderLine ", "type Line struct", "type OrderLine struct", "// Line is", "// OrderLine is",
	" Owner  ", " Party  ", "type Owner struct", "type Party struct", "// Owner holds", "// Party holds",
}

const machine = `state:"initial=Open;Open->Shipped:Ship;Shipped->Returned:Return;Open->Returned:Cancel;Returned->Open:Reopen"`

// gateRun runs the gate CLI on two documents and returns its exit code and
// output.
func gateRun(t *testing.T, base, revision string, args ...string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "base.yaml"), base)
	testkit.WriteFile(t, filepath.Join(dir, "revision.yaml"), revision)
	var out, errOut bytes.Buffer
	code := gate.Command(append([]string{"-C", dir, "--base", "base.yaml", "--revision", "revision.yaml", "--format", "json"}, args...), &out, &errOut)
	if code == gate.ExitError {
		return code, errOut.String()
	}
	var report struct {
		Changes []struct{ ID, Where, Message, Impact string }
		Verdict struct {
			Violations []struct{ ID, Message string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	// One line per change, "id @ where: message", then the violations.
	var lines []string
	for _, c := range report.Changes {
		lines = append(lines, fmt.Sprintf("%s %s @ %s: %s", c.Impact, c.ID, c.Where, c.Message))
	}
	for _, v := range report.Verdict.Violations {
		lines = append(lines, "FAIL "+v.ID+": "+v.Message)
	}
	return code, strings.Join(lines, "\n")
}

func withVersion(t *testing.T, doc, from, to string) string {
	t.Helper()
	line := "\n  version: " + from + "\n"
	if strings.Count(doc, line) != 1 {
		t.Fatalf("the document has no single %q line", strings.TrimSpace(line))
	}
	return strings.Replace(doc, line, "\n  version: "+to+"\n", 1)
}

func TestGeneratedContracts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	base := baseTypes(t)
	baseDoc := generate(t, "1.0.0", base)
	breaking := func(edits ...string) []string { return edits }
	cases := []struct {
		name     string
		edits    []string
		breaking bool
		want     []string // changes the report must hold
	}{
		{"rename alone", rename, false, []string{
			"component-renamed", "POST /models/shop/Order request → .lines[]: component `Line` was renamed `OrderLine`; its shape is unchanged",
			"component `Owner` was renamed `Party`; its shape is unchanged"}},

		{"rename + optional property added", append(rename,
			"\tTenantID string `json:\"tenantId\" access:\"tenant,read=*,write=-\"`\n",
			"\tTenantID string `json:\"tenantId\" access:\"tenant,read=*,write=-\"`\n\tDivision string `json:\"division,omitempty\" access:\"read=*,write=clerk\"`\n"), false, []string{
			"component `Owner` was renamed `Party`; its shape changed too",
			"additive new-optional-request-property @ POST /models/shop/Order: added the new optional request property `owner/division`"}},
		{"rename + required request property added", append(rename,
			"\tTenantID string `json:\"tenantId\" access:\"tenant,read=*,write=-\"`\n",
			"\tTenantID string `json:\"tenantId\" access:\"tenant,read=*,write=-\"`\n\tDivision string `json:\"division\" access:\"read=*,write=clerk\"`\n"), true, []string{
			"breaking new-required-request-property @ POST /models/shop/Order: added the new required request property `owner/division`"}},
		{"rename + transition removed + auditor's read dropped (the bypass once reported)", append(rename,
			";Open->Returned:Cancel", "", "`json:\"sku\" access:\"read=clerk|auditor,", "`json:\"sku\" access:\"read=clerk,"), true, []string{
			"breaking state-machine-transition-removed @ POST /models/shop/Order request → .lines[].state: state machine `LineState`: transition `Open -Cancel-> Returned` was removed",
			"breaking access-read-role-removed @ POST /models/shop/Order request → .lines[].sku: role `auditor` can no longer read this property"}},
		{"rename + transition removed", breaking(append(rename, ";Open->Returned:Cancel", "")...), true, []string{
			"state-machine-transition-removed", "POST /models/shop/Order request → .lines[].state", "`Open -Cancel-> Returned` was removed"}},
		{"rename + transition added", append(rename, ";Returned->Open:Reopen", ";Returned->Open:Reopen;Shipped->Open:Recall"), false, []string{
			"state-machine-transition-added", "`Shipped -Recall-> Open` was added"}},
		{"rename + state removed", append(rename, machine, `state:"initial=Open;Open->Shipped:Ship;Shipped->Open:Reopen"`,
			"\tReturned LineState = \"Returned\"\n", ""), true, []string{
			"state-machine-state-removed", "state `Returned` was removed", "POST /models/shop/Order request → .lines[].state"}},
		{"rename + state added", append(rename, machine, `state:"initial=Open;Open->Shipped:Ship;Shipped->Returned:Return;Open->Returned:Cancel;Returned->Open:Reopen;Returned->Lost:Lose"`,
			"\tReturned LineState = \"Returned\"\n", "\tReturned LineState = \"Returned\"\n\tLost LineState = \"Lost\"\n"), true, []string{
			"additive state-machine-state-added @ POST /models/shop/Order request → .lines[].state: state machine `LineState`: state `Lost` was added",
			"breaking response-property-enum-value-added @ POST /models/shop/Order: added the new `Lost` enum value to the `lines/items/state` response property"}},
		{"rename + initial changed", append(rename, "initial=Open;", "initial=Shipped;"), true, []string{
			"state-machine-initial-changed", "initial state changed from `Open` to `Shipped`"}},
		{"rename + read role removed", append(rename, "`json:\"sku\" access:\"read=clerk|auditor,", "`json:\"sku\" access:\"read=clerk,"), true, []string{
			"access-read-role-removed", "POST /models/shop/Order request → .lines[].sku: role `auditor` can no longer read this property"}},
		{"rename + write role removed", append(rename, "`json:\"sku\" access:\"read=clerk|auditor,write=clerk\"", "`json:\"sku\" access:\"read=clerk|auditor,write=-\""), true, []string{
			"access-write-role-removed", "POST /models/shop/Order request → .lines[].sku: role `clerk` can no longer write this property"}},
		{"rename + write role added", append(rename, "`json:\"tenantId\" access:\"tenant,read=*,write=-\"", "`json:\"tenantId\" access:\"tenant,read=*,write=clerk\""), false, []string{
			"access-write-role-added", "POST /models/shop/Order request → .owner.tenantId: role `clerk` may now write this property"}},
		{"rename + tenant key moved", append(rename, "`json:\"tenantId\" access:\"tenant,read=*,write=-\"", "`json:\"tenantId\" access:\"read=*,write=-\"",
			"`json:\"region\" access:\"read=*,", "`json:\"region\" access:\"tenant,read=*,"), true, []string{
			"access-tenant-key-changed", "POST /models/shop/Order request → .owner.tenantId: this property is no longer the tenant key",
			"POST /models/shop/Order request → .region: this property is now the tenant key"}},

		{"state field moved into a nested type", []string{
			"\tState LineState `json:\"state\" " + machine + " access:\"read=*,write=clerk\"`\n",
			"\tProgress Progress `json:\"progress\" access:\"read=*,write=clerk\"`\n}\n\n// Progress is nested.\ntype Progress struct {\n\tState LineState `json:\"state\" " + machine + " access:\"read=*,write=clerk\"`\n",
		}, true, []string{"request-property-removed", "response-required-property-removed"}},
		{"field moved from the resource into the list element", []string{
			"\tRegion string           `json:\"region\" access:\"read=*,write=clerk\"`\n", "",
			"\tSKU   string", "\tRegion string `json:\"region\" access:\"read=*,write=clerk\"`\n\tSKU   string",
		}, true, []string{"response-required-property-removed", "region"}},
		{"a nested copy added, the field kept", []string{
			"\tSKU   string    `json:\"sku\" access:\"read=clerk|auditor,write=clerk\"`\n",
			"\tSKU   string    `json:\"sku\" access:\"read=clerk|auditor,write=clerk\"`\n\tItem *Item `json:\"item,omitempty\" access:\"read=*,write=clerk\"`\n",
			"// Extra is", "// Item is nested.\ntype Item struct {\n\tSKU string `json:\"sku\" access:\"read=clerk|auditor,write=clerk\"`\n}\n\n// Extra is",
		}, false, []string{"additive new-optional-request-property @ POST /models/shop/Order: added the new optional request property `lines/items/item`"}},

		{"only under additionalProperties: read role removed", []string{
			"`json:\"note\" access:\"read=clerk|auditor,", "`json:\"note\" access:\"read=clerk,"}, true, []string{
			"access-read-role-removed", "POST /models/shop/Order request → .extras{}.note: role `auditor` can no longer read this property"}},
		{"only under additionalProperties: write role added", []string{
			"`json:\"note\" access:\"read=clerk|auditor,write=clerk\"", "`json:\"note\" access:\"read=clerk|auditor,write=clerk|auditor\""}, false, []string{
			"access-write-role-added", "POST /models/shop/Order request → .extras{}.note: role `auditor` may now write this property"}},
	}
	// oasdiff counts a new enum value in a response as an ERR (clients may
	// not know it). Before the gate merged allOf, oasdiff capped it at WARN
	// (the state's schema is under allOf), which --warn-is-additive demoted;
	// merged, it stays breaking even with the flag.
	args := map[string][]string{"rename + state added": {"--warn-is-additive"}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The minimum passing bump, and the one below it.
			pass, fail := "1.1.0", "1.0.1"
			if tc.breaking {
				pass, fail = "2.0.0", "1.1.0"
			}
			revDoc := generate(t, fail, testkit.Replace(t, base, tc.edits...))
			code, out := gateRun(t, baseDoc, revDoc, args[tc.name]...)
			t.Logf("%s:\n%s", fail, out)
			if code != gate.ExitViolation || !strings.Contains(out, "version-bump-too-small") {
				t.Errorf("at %s: exit %d, want 1 with version-bump-too-small", fail, code)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the report lacks %q", w)
				}
			}
			if code, out := gateRun(t, baseDoc, withVersion(t, revDoc, fail, pass), args[tc.name]...); code != gate.ExitPass {
				t.Errorf("at %s: exit %d, want 0\n%s", pass, code, out)
			}
		})
	}
}

// kubeTypes hold the fields whose rules the generator can write only as
// Kubernetes extensions (CEL rules and list types), which oasdiff does not
// read.
const kubeTypes = `// Package shop is a fixture of the gate's end-to-end tests.
package shop

// Order is an order.
//
// +modelgen:model
type Order struct {
	Region string ` + "`" + `json:"region,omitempty" validate:"omitempty,ip"` + "`" + `
	Blob   []byte ` + "`" + `json:"blob,omitempty" validate:"max=10"` + "`" + `
	Color  string ` + "`" + `json:"color,omitempty" validate:"omitempty,oneofci=red green blue"` + "`" + `
	Ref    string ` + "`" + `json:"ref,omitempty"` + "`" + `
	Tags   []string ` + "`" + `json:"tags,omitempty"` + "`" + `
}
`

// TestGeneratedKubernetesRules: each change the API server enforces through
// x-kubernetes-validations or x-kubernetes-list-type needs its bump, in both
// directions. A removed rule is additive; a replaced rule is breaking both
// ways, because the gate cannot prove that one CEL expression allows more
// than another; a list type change is breaking both ways (server-side apply
// merges the list differently).
func TestGeneratedKubernetesRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	cases := []struct {
		name              string
		edits             []string
		forward, backward string // the rule id each way
		backwardBreaking  bool
	}{
		{"required_with added", []string{"`json:\"ref,omitempty\"`", "`json:\"ref,omitempty\" validate:\"required_with=Color\"`"},
			"x-kubernetes-validation-added", "x-kubernetes-validation-removed", false},
		{"[]byte max narrowed", []string{"validate:\"max=10\"", "validate:\"max=2\""},
			"x-kubernetes-validation-changed", "x-kubernetes-validation-changed", true},
		{"oneofci narrowed", []string{"oneofci=red green blue", "oneofci=red green"},
			"x-kubernetes-validation-changed", "x-kubernetes-validation-changed", true},
		{"ip to ipv4", []string{"omitempty,ip\"", "omitempty,ipv4\""},
			"x-kubernetes-validation-changed", "x-kubernetes-validation-changed", true},
		{"listType=set added", []string{"\tTags   []string", "\t// +listType=set\n\tTags   []string"},
			"x-kubernetes-list-type-changed", "x-kubernetes-list-type-changed", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plain, tightened := kubeTypes, testkit.Replace(t, kubeTypes, tc.edits...)
			for _, dir := range []struct {
				name     string
				from, to string
				id       string
				breaking bool
			}{{"forward", plain, tightened, tc.forward, true}, {"backward", tightened, plain, tc.backward, tc.backwardBreaking}} {
				pass, fail := "1.1.0", "1.0.1"
				if dir.breaking {
					pass, fail = "2.0.0", "1.1.0"
				}
				baseDoc := generate(t, "1.0.0", dir.from)
				revDoc := generate(t, fail, dir.to)
				code, out := gateRun(t, baseDoc, revDoc)
				if code != gate.ExitViolation || !strings.Contains(out, dir.id) || !strings.Contains(out, "version-bump-too-small") {
					t.Errorf("%s at %s: exit %d, want 1 with %s\n%s", dir.name, fail, code, dir.id, out)
				}
				if code, out := gateRun(t, baseDoc, withVersion(t, revDoc, fail, pass)); code != gate.ExitPass {
					t.Errorf("%s at %s: exit %d, want 0\n%s", dir.name, pass, code, out)
				}
			}
		})
	}
}
