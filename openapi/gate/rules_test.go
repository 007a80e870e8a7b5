package gate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
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

const walkDoc = `openapi: 3.0.3
info: {title: t, version: 1.0.0}
paths: {}
components:
  schemas:
    Order:
      type: object
      properties:
        status: {$ref: '#/components/schemas/Status', x-modelgen-access: {read: [viewer], write: []}}
        items:
          type: array
          items:
            type: object
            properties:
              state:
                type: string
                x-modelgen-state-machine: {name: Item, initial: A, states: [A, B], transitions: [{from: A, event: Go, to: B}]}
        labels:
          type: object
          additionalProperties:
            type: string
            x-modelgen-access: {read: [r], write: []}
        merged:
          allOf:
            - type: object
              properties:
                secret: {type: string, x-modelgen-access: {read: [admin], write: [admin]}}
    Status:
      type: object
      properties:
        phase:
          type: string
          x-modelgen-state-machine: {name: Phase, initial: New, states: [New, Done], transitions: [{from: New, event: Finish, to: Done}]}
`

func TestCollectExtensionsWalk(t *testing.T) {
	ext, err := collectExtensions(loadDoc(t, walkDoc))
	if err != nil {
		t.Fatal(err)
	}
	var machines, access []string
	for at, m := range ext.machines {
		machines = append(machines, at.String()+"="+m.Name)
	}
	for at, a := range ext.access {
		access = append(access, at.String()+"="+strings.Join(a.Read, ","))
	}
	slices.Sort(machines)
	slices.Sort(access)
	// Status.phase is found once, under its own component, not again
	// through Order.status's $ref.
	if want := []string{"Order.items[].state=Item", "Status.phase=Phase"}; !slices.Equal(machines, want) {
		t.Errorf("machines %v, want %v", machines, want)
	}
	// An extension next to a $ref belongs to the referring property.
	if want := []string{"Order.labels{}=r", "Order.merged.secret=admin", "Order.status=viewer"}; !slices.Equal(access, want) {
		t.Errorf("access %v, want %v", access, want)
	}
	if !ext.sites[site{"Order", "status"}] {
		t.Error("the $ref property Order.status is not recorded as present")
	}
}

func TestDiffExtensionsPresence(t *testing.T) {
	machine := stateMachine{Name: "P", Initial: "A", States: []string{"A"}}
	access := accessRule{Read: []string{"r"}}
	at := site{"S", "f"}
	present := func(m map[site]stateMachine, a map[site]accessRule) *extensions {
		return &extensions{sites: map[site]bool{at: true}, machines: m, access: a}
	}
	absent := &extensions{sites: map[site]bool{}, machines: map[site]stateMachine{}, access: map[site]accessRule{}}
	with := present(map[site]stateMachine{at: machine}, map[site]accessRule{at: access})
	without := present(map[site]stateMachine{}, map[site]accessRule{})
	cases := []struct {
		name           string
		base, revision *extensions
		want           []string
	}{
		{"extensions dropped, property kept", with, without, []string{RuleStateMachineRemoved, RuleAccessRemoved}},
		{"extensions added to an existing property", without, with, []string{RuleStateMachineAdded, RuleAccessAdded}},
		{"property removed with its extensions (oasdiff reports it)", with, absent, nil},
		{"property added with its extensions (oasdiff reports it)", absent, with, nil},
		{"unchanged", with, with, nil},
	}
	for _, tc := range cases {
		if got := ids(diffExtensions(tc.base, tc.revision)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCompareMachines(t *testing.T) {
	old := stateMachine{Name: "P", Initial: "A", States: []string{"A", "B", "C"}, Transitions: []transition{
		{"A", "go", "B"}, {"B", "go", "C"}, {"B", "back", "A"},
	}}
	cur := stateMachine{Name: "P", Initial: "B", States: []string{"A", "B", "D"}, Transitions: []transition{
		{"A", "go", "B"}, {"B", "go", "A"}, {"B", "back", "A"}, {"B", "skip", "D"},
	}}
	var got []string
	for _, c := range compareMachines(site{"S", "phase"}, old, cur) {
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
	doc := loadDoc(t, `openapi: 3.0.3
info: {title: t, version: 1.0.0}
paths: {}
components:
  schemas:
    S:
      allOf:
        - properties: {f: {type: string, x-modelgen-access: {read: [a], write: []}}}
        - properties: {f: {type: string, x-modelgen-access: {read: [b], write: []}}}
`)
	_, err := collectExtensions(doc)
	if err == nil || !strings.Contains(err.Error(), "conflicting values for S.f") {
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
