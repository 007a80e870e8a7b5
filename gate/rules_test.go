package gate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"

	"github.com/modelgen/modelgen/openapi/ext"
)

// TestRuleTable audits the gate's rule table, as oasdiff audits its own:
// unique ids that do not collide with oasdiff's, a description each, change
// rules with a message format, and every "removed" change rule paired with an
// "added" twin of the opposite impact.
func TestRuleTable(t *testing.T) {
	oasdiffIDs := checker.GetAllRuleIds()
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] || slices.Contains(oasdiffIDs, r.ID) {
			t.Errorf("%s: duplicate id", r.ID)
		}
		seen[r.ID] = true
		if r.Description == "" || r.Level.String() == enumString(levelNames, Level(0)) {
			t.Errorf("%s: missing description or level", r.ID)
		}
		if (r.Impact == ImpactNone) != (r.Format == "") {
			t.Errorf("%s: a change rule needs a format, a verdict rule none", r.ID)
		}
		if (r.Impact == ImpactBreaking) != (r.Level == LevelError) && r.Impact != ImpactNone {
			t.Errorf("%s: breaking rules are errors, additive rules info", r.ID)
		}
	}
	for _, r := range Rules() {
		if !strings.HasSuffix(r.ID, "-removed") || r.Impact == ImpactNone {
			continue
		}
		twin, ok := ruleByID[strings.TrimSuffix(r.ID, "-removed")+"-added"]
		if !ok || twin.Impact == r.Impact {
			t.Errorf("%s: no added twin with the opposite impact", r.ID)
		}
	}
}

func loadDoc(t *testing.T, yaml string) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return doc
}

// walkDoc reaches Order from an operation; every kind of place the walk
// enters carries an extension. NAME is replaced to rename components.
const walkDoc = `openapi: 3.0.3
info: {title: t, version: 1.0.0}
paths:
  /orders:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/OrderNAME'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/OrderNAME'}
components:
  schemas:
    OrderNAME:
      type: object
      properties:
        status: {$ref: '#/components/schemas/StatusNAME', x-modelgen-access: {read: [viewer READ], write: []}}
        items:
          type: array
          items: {$ref: '#/components/schemas/LineNAME'}
        labels:
          type: object
          additionalProperties:
            type: string
            x-modelgen-access: {read: [r READ], write: []}
        merged:
          allOf:
            - type: object
              properties:
                secret: {type: string, x-modelgen-access: {read: [admin READ], write: [admin]}}
        either:
          oneOf:
            - type: object
              properties:
                code: {type: string, x-modelgen-access: {read: [admin READ], write: []}}
        parent: {$ref: '#/components/schemas/OrderNAME'}
    LineNAME:
      type: object
      properties:
        state:
          type: string
          x-modelgen-state-machine: {name: Item, initial: A, states: [A, B], transitions: [{from: A, event: Go, to: B}TRANSITION]}
    StatusNAME:
      type: object
      properties:
        phase:
          type: string
          x-modelgen-state-machine: {name: Phase, initial: New, states: [New, Done], transitions: [{from: New, event: Finish, to: Done}REOPEN]}
`

func walkVariant(t *testing.T, name, read string, transitions bool) *extensions {
	t.Helper()
	back, reopen := "", ""
	if transitions {
		back, reopen = ", {from: B, event: Back, to: A}", ", {from: Done, event: Reopen, to: New}"
	}
	doc := strings.NewReplacer("NAME", name, "READ", read, "TRANSITION", back, "REOPEN", reopen).Replace(walkDoc)
	x, err := collectExtensions(loadDoc(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// The walk compares by place: renaming every component changes no place, so
// removing a transition or a read role under the renamed components is
// found exactly as without the rename, through $ref, items,
// additionalProperties, allOf and oneOf, and through a $ref cycle
// (Order.parent) without looping.
func TestStructureWalk(t *testing.T) {
	base := walkVariant(t, "", ", auditor", true)
	for _, rename := range []string{"", "V2"} {
		t.Run("rename="+rename, func(t *testing.T) {
			rev := walkVariant(t, rename, "", false)
			changes, _, err := compareStructure(base, rev)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, c.ID+" @ "+c.Where)
			}
			slices.Sort(got)
			want := []string{
				"access-read-role-removed @ POST /orders request → .either.code",
				"access-read-role-removed @ POST /orders request → .labels{}",
				"access-read-role-removed @ POST /orders request → .merged.secret",
				"access-read-role-removed @ POST /orders request → .status",
				"state-machine-transition-removed @ POST /orders request → .items[].state",
				"state-machine-transition-removed @ POST /orders request → .status.phase",
			}
			if rename != "" {
				want = append(want,
					"component-renamed @ POST /orders request",
					"component-renamed @ POST /orders request → .items[]",
					"component-renamed @ POST /orders request → .status")
				slices.Sort(want)
			}
			if !slices.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, c := range changes {
				if c.ID == RuleComponentRenamed && !strings.HasSuffix(c.Message, "its shape is unchanged") {
					t.Errorf("%s: %s", c.Where, c.Message)
				}
			}
		})
	}
}

func TestDiffFactsPresence(t *testing.T) {
	machine := &ext.StateMachine{Name: "P", Initial: "A", States: []string{"A"}}
	access := &ext.Access{Read: []string{"r"}}
	tenant := &ext.Access{Read: []string{"r"}, Tenant: true}
	at := place{body: "GET /x response 200"}.child(".f")
	with := facts{machine: machine, access: access}
	cases := []struct {
		name     string
		old, cur facts
		want     []string
	}{
		{"extensions dropped, property kept", with, facts{}, []string{RuleStateMachineRemoved, RuleAccessRemoved}},
		{"extensions added to an existing property", facts{}, with, []string{RuleStateMachineAdded, RuleAccessAdded}},
		{"unchanged", with, with, nil},
		{"became the tenant key", facts{access: access}, facts{access: tenant}, []string{RuleAccessTenantKeyChanged}},
		{"no longer the tenant key", facts{access: tenant}, facts{access: access}, []string{RuleAccessTenantKeyChanged}},
		{"tenant key with its access rule removed", facts{access: tenant}, facts{}, []string{RuleAccessRemoved, RuleAccessTenantKeyChanged}},
	}
	for _, tc := range cases {
		if got := ids(diffFacts(at, tc.old, tc.cur)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCompareMachines(t *testing.T) {
	old := ext.StateMachine{Name: "P", Initial: "A", States: []string{"A", "B", "C"}, Transitions: []ext.Transition{
		{From: "A", Event: "go", To: "B"}, {From: "B", Event: "go", To: "C"}, {From: "B", Event: "back", To: "A"},
	}}
	cur := ext.StateMachine{Name: "P", Initial: "B", States: []string{"A", "B", "D"}, Transitions: []ext.Transition{
		{From: "A", Event: "go", To: "B"}, {From: "B", Event: "go", To: "A"}, {From: "B", Event: "back", To: "A"}, {From: "B", Event: "skip", To: "D"},
	}}
	var got []string
	for _, c := range compareMachines(place{body: "GET /s response 200"}.child(".phase"), old, cur) {
		got = append(got, c.ID+": "+c.Message)
	}
	want := []string{
		"state-machine-initial-changed: state machine `P`: initial state changed from `A` to `B`",
		"state-machine-state-removed: state machine `P`: state `C` was removed",
		"state-machine-state-added: state machine `P`: state `D` was added",
		"state-machine-transition-removed: state machine `P`: transition `B -go-> C` was removed",
		"state-machine-transition-added: state machine `P`: transition `B -go-> A` was added",
		"state-machine-transition-added: state machine `P`: transition `B -skip-> D` was added",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestConflictingExtensions(t *testing.T) {
	doc := `openapi: 3.0.3
info: {title: t, version: 1.0.0}
paths: {}
components:
  schemas:
    S:
      allOf:
        - properties: {f: {type: string, x-modelgen-access: {read: [a], write: []}}}
        - properties: {f: {type: string, x-modelgen-access: {read: [b], write: []}}}
`
	x, err := collectExtensions(loadDoc(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = compareStructure(x, x)
	if err == nil || !strings.Contains(err.Error(), "components.schemas.S → .f: conflicting values of x-modelgen-access") {
		t.Errorf("err = %v, want a conflict at S.f", err)
	}
}

func TestParseVersion(t *testing.T) {
	valid := map[string][3]int{
		"1.2.3": {1, 2, 3}, "v1.2.3": {1, 2, 3}, "0.3.0": {0, 3, 0},
		"2.0.0-rc.1": {2, 0, 0}, "1.2.3+build.5": {1, 2, 3},
	}
	for raw, want := range valid {
		v, err := parseVersion(raw)
		if err != nil || [3]int{v.major, v.minor, v.patch} != want {
			t.Errorf("parseVersion(%q) = %+v, %v", raw, v, err)
		}
	}
	for _, raw := range []string{"", "1", "1.2", "v1", "01.2.3", "1.2.3.4", "latest", "vv1.2.3", " 1.2.3", "99999999999999999999.0.0"} {
		if _, err := parseVersion(raw); err == nil {
			t.Errorf("parseVersion(%q) accepted", raw)
		}
	}
}

func TestBumped(t *testing.T) {
	base, _ := parseVersion("1.2.3")
	for b, want := range map[Bump]string{BumpNone: "1.2.3", BumpPatch: "1.2.4", BumpMinor: "1.3.0", BumpMajor: "2.0.0"} {
		if got := bumped(base, b, false); got != want {
			t.Errorf("bumped(1.2.3, %s) = %s, want %s", b, got, want)
		}
	}
	if got := bumped(base, BumpMajor, true); got != "v2.0.0" {
		t.Errorf("with v: %s", got)
	}
}
