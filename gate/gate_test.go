package gate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
)

// withVersion returns the testdata document with its info.version replaced,
// written to a temporary file.
func withVersion(t *testing.T, name, version string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "compat", name))
	if err != nil {
		t.Fatal(err)
	}
	const line = "\n  version: 1.2.0\n"
	if strings.Count(string(data), line) != 1 {
		t.Fatalf("%s: want exactly one %q line", name, strings.TrimSpace(line))
	}
	out := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(out, []byte(strings.Replace(string(data), line, "\n  version: "+version+"\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func ids(changes []Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.ID)
	}
	return out
}

// Expected verdicts from base 1.2.0, written out per case family.
var (
	breakingFrom120 = map[string]bool{"1.2.0": false, "1.2.1": false, "1.3.0": false, "2.0.0": true}
	additiveFrom120 = map[string]bool{"1.2.0": false, "1.2.1": false, "1.3.0": true, "2.0.0": true}
	noneFrom120     = map[string]bool{"1.2.0": true, "1.2.1": true, "1.3.0": true, "2.0.0": true}
)

func TestCompatTable(t *testing.T) {
	cases := []struct {
		file      string
		wantIDs   []string // rule ids that must be among the changes
		needed    Bump
		suggested string
		verdicts  map[string]bool // revision info.version -> passes
	}{
		{"response-property-removed.yaml", []string{"response-required-property-removed"}, BumpMajor, "2.0.0", breakingFrom120},
		{"required-request-property-added.yaml", []string{"new-required-request-property"}, BumpMajor, "2.0.0", breakingFrom120},
		{"max-length-lowered.yaml", []string{"request-property-max-length-decreased"}, BumpMajor, "2.0.0", breakingFrom120},
		{"enum-narrowed.yaml", []string{"request-property-enum-value-removed"}, BumpMajor, "2.0.0", breakingFrom120},
		{"type-changed.yaml", []string{"request-property-type-changed", "response-property-type-changed"}, BumpMajor, "2.0.0", breakingFrom120},
		{"path-removed.yaml", []string{"api-path-removed-without-deprecation"}, BumpMajor, "2.0.0", breakingFrom120},
		{"optional-property-added.yaml", []string{"new-optional-request-property", "response-optional-property-added"}, BumpMinor, "1.3.0", additiveFrom120},
		{"description-only.yaml", nil, BumpNone, "1.2.0", noneFrom120},
		{"base.yaml", nil, BumpNone, "1.2.0", noneFrom120},
		{"state-removed.yaml", []string{RuleStateMachineStateRemoved, RuleStateMachineTransitionRemoved}, BumpMajor, "2.0.0", breakingFrom120},
		{"transition-removed.yaml", []string{RuleStateMachineTransitionRemoved}, BumpMajor, "2.0.0", breakingFrom120},
		{"initial-changed.yaml", []string{RuleStateMachineInitialChanged}, BumpMajor, "2.0.0", breakingFrom120},
		{"transition-added.yaml", []string{RuleStateMachineTransitionAdded}, BumpMinor, "1.3.0", additiveFrom120},
		{"access-read-narrowed.yaml", []string{RuleAccessReadRoleRemoved}, BumpMajor, "2.0.0", breakingFrom120},
		{"access-write-narrowed.yaml", []string{RuleAccessWriteRoleRemoved}, BumpMajor, "2.0.0", breakingFrom120},
		{"access-read-widened.yaml", []string{RuleAccessReadRoleAdded}, BumpMinor, "1.3.0", additiveFrom120},
	}
	base := filepath.Join("testdata", "compat", "base.yaml")
	for _, tc := range cases {
		for revVersion, wantPass := range tc.verdicts {
			t.Run(tc.file+"@"+revVersion, func(t *testing.T) {
				t.Parallel()
				r, err := Run(t.Context(), Options{Base: base, Revision: withVersion(t, tc.file, revVersion)})
				if err != nil {
					t.Fatal(err)
				}
				for _, id := range tc.wantIDs {
					if !slices.Contains(ids(r.Changes), id) {
						t.Errorf("changes %v lack %s", ids(r.Changes), id)
					}
				}
				if tc.wantIDs == nil && len(r.Changes) != 0 {
					t.Errorf("want no changes, got %+v", r.Changes)
				}
				v := r.Verdict
				if v.Needed != tc.needed || v.Suggested != tc.suggested || v.Pass != wantPass {
					t.Errorf("needed %s, suggested %s, pass %v; want %s, %s, %v (violations %+v)",
						v.Needed, v.Suggested, v.Pass, tc.needed, tc.suggested, wantPass, v.Violations)
				}
				if !wantPass && (len(v.Violations) != 1 || v.Violations[0].ID != RuleVersionBumpTooSmall) {
					t.Errorf("want one %s violation, got %+v", RuleVersionBumpTooSmall, v.Violations)
				}
			})
		}
	}
}

// TestCompatBelowV1 checks that below v1.0.0 a minor bump carries a breaking
// change, and that additions need a minor bump unless patch is allowed.
func TestCompatBelowV1(t *testing.T) {
	cases := []struct {
		file              string
		revision          string
		patchForAdditions bool
		needed            Bump
		wantPass          bool
	}{
		{"max-length-lowered.yaml", "0.3.1", false, BumpMinor, false},
		{"max-length-lowered.yaml", "0.4.0", false, BumpMinor, true},
		{"max-length-lowered.yaml", "1.0.0", false, BumpMinor, true},
		{"transition-removed.yaml", "0.3.1", false, BumpMinor, false},
		{"transition-removed.yaml", "0.4.0", false, BumpMinor, true},
		{"optional-property-added.yaml", "0.3.1", false, BumpMinor, false},
		{"optional-property-added.yaml", "0.4.0", false, BumpMinor, true},
		{"optional-property-added.yaml", "0.3.1", true, BumpPatch, true},
		{"optional-property-added.yaml", "0.3.0", true, BumpPatch, false},
		{"description-only.yaml", "0.3.0", false, BumpNone, true},
	}
	for _, tc := range cases {
		t.Run(tc.file+"@"+tc.revision, func(t *testing.T) {
			t.Parallel()
			r, err := Run(t.Context(), Options{
				Base:              withVersion(t, "base.yaml", "0.3.0"),
				Revision:          withVersion(t, tc.file, tc.revision),
				PatchForAdditions: tc.patchForAdditions,
			})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict.Needed != tc.needed || r.Verdict.Pass != tc.wantPass {
				t.Errorf("needed %s, pass %v; want %s, %v (%+v)", r.Verdict.Needed, r.Verdict.Pass, tc.needed, tc.wantPass, r.Verdict.Violations)
			}
		})
	}
}

func TestPatchForAdditionsAtV1(t *testing.T) {
	r, err := Run(t.Context(), Options{
		Base:              filepath.Join("testdata", "compat", "base.yaml"),
		Revision:          withVersion(t, "optional-property-added.yaml", "1.2.1"),
		PatchForAdditions: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Verdict.Pass || r.Verdict.Needed != BumpPatch || r.Verdict.Made != BumpPatch {
		t.Errorf("verdict %+v, want a passing patch bump", r.Verdict)
	}
}

// A WARN change (request-property-removed) is breaking by default and
// additive with WarnIsAdditive; the test uses a pair whose only non-INFO
// change is that warning.
func TestWarnIsAdditive(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.yaml")
	rev := filepath.Join(dir, "rev.yaml")
	doc := func(props string) string {
		return `openapi: 3.0.3
info: {title: t, version: 1.2.0}
paths:
  /things:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {` + props + `}}
      responses:
        '204': {description: ok}
`
	}
	testkit.WriteFile(t, base, doc("a: {type: string}, b: {type: string}"))
	testkit.WriteFile(t, rev, strings.Replace(doc("a: {type: string}"), "1.2.0", "1.3.0", 1))
	for _, warnIsAdditive := range []bool{false, true} {
		r, err := Run(t.Context(), Options{Base: base, Revision: rev, WarnIsAdditive: warnIsAdditive})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(r.Changes); !slices.Equal(got, []string{"request-property-removed"}) || r.Changes[0].Level != LevelWarning {
			t.Fatalf("changes %+v, want one request-property-removed warning", r.Changes)
		}
		if r.Verdict.Pass == !warnIsAdditive {
			t.Errorf("WarnIsAdditive=%v: pass=%v with a minor bump", warnIsAdditive, r.Verdict.Pass)
		}
	}
}

func TestVersionDecreased(t *testing.T) {
	r, err := Run(t.Context(), Options{
		Base:     filepath.Join("testdata", "compat", "base.yaml"),
		Revision: withVersion(t, "base.yaml", "v1.1.9"),
	})
	if err != nil {
		t.Fatal(err)
	}
	v := r.Verdict
	if v.Pass || len(v.Violations) != 1 || v.Violations[0].ID != RuleVersionDecreased {
		t.Fatalf("verdict %+v, want one %s violation", v, RuleVersionDecreased)
	}
	if !strings.Contains(v.Violations[0].Message, "1.2.0 → v1.1.9") || v.Suggested != "v1.2.0" {
		t.Errorf("message %q, suggested %q", v.Violations[0].Message, v.Suggested)
	}
}

func TestInputErrors(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "broken.yaml"), "openapi: 3.0.3\ninfo: {title: t, version: 1.0.0\npaths: {}\n")
	testkit.WriteFile(t, filepath.Join(dir, "not-openapi.yaml"), "hello: world\n")
	testkit.WriteFile(t, filepath.Join(dir, "short-version.yaml"), "openapi: 3.0.3\ninfo: {title: t, version: '1.2'}\npaths: {}\n")
	testkit.WriteFile(t, filepath.Join(dir, "bad-machine.yaml"), `openapi: 3.0.3
info: {title: t, version: 1.2.0}
paths: {}
components:
  schemas:
    S:
      type: object
      properties:
        phase:
          type: string
          x-modelgen-state-machine: {name: P, initial: Gone, states: [A], transitions: [{from: A, event: E, to: B}]}
`)
	testkit.WriteFile(t, filepath.Join(dir, "bad-access.yaml"), `openapi: 3.0.3
info: {title: t, version: 1.2.0}
paths: {}
components:
  schemas:
    S:
      type: object
      properties:
        f: {type: string, x-modelgen-access: {read: [a], writ: [b]}}
`)
	base, err := filepath.Abs(filepath.Join("testdata", "compat", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, revision string
		want           []string
	}{
		{"missing", "nope.yaml", []string{"nope.yaml", "no such file"}},
		{"git-looking file", "v1:nope.yaml", []string{"write git:v1:nope.yaml"}},
		{"invalid yaml", "broken.yaml", []string{"broken.yaml: not a readable YAML or JSON document", "line 1"}},
		{"not openapi", "not-openapi.yaml", []string{"not-openapi.yaml: not an OpenAPI 3.0 document"}},
		{"short version", "short-version.yaml", []string{"info.version", `"1.2" is not a semantic version`}},
		{"bad machine", "bad-machine.yaml", []string{
			"#/components/schemas/S/properties/phase: x-modelgen-state-machine:",
			`initial "Gone" is not one of the states`, `transitions[0].to "B" is not one of the states`}},
		{"bad access", "bad-access.yaml", []string{"#/components/schemas/S/properties/f: x-modelgen-access: malformed value", `"writ"`}},
		{"bad git location", "git:v1", []string{"want git:<ref>:<path>"}},
		{"git option injection", "git:--output=x:openapi.yaml", []string{"cannot start with '-'"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(t.Context(), Options{Base: base, Revision: tc.revision, Dir: dir})
			if !IsInputError(err) {
				t.Fatalf("err = %v, want an input error", err)
			}
			t.Log(err)
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestGoModRule(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		module, revision string
		wantPass         bool
		wantWant         string
	}{
		{"example.com/acme/api", "1.2.0", true, "example.com/acme/api"},
		{"example.com/acme/api/v2", "1.2.0", false, "example.com/acme/api"},
		{"example.com/acme/api", "2.0.0", false, "example.com/acme/api/v2"},
		{"example.com/acme/api/v2", "2.0.0", true, "example.com/acme/api/v2"},
		{"example.com/acme/api/v2", "3.0.0", false, "example.com/acme/api/v3"},
		{"example.com/acme/api/v1", "1.2.0", false, "example.com/acme/api"},
		{"gopkg.in/acme/api.v1", "1.2.0", true, "gopkg.in/acme/api.v1"},
		{"gopkg.in/acme/api.v1", "2.0.0", false, "gopkg.in/acme/api.v2"},
	}
	for _, tc := range cases {
		t.Run(tc.module+"@"+tc.revision, func(t *testing.T) {
			sub := filepath.Join(dir, strings.NewReplacer("/", "_").Replace(tc.module+"@"+tc.revision))
			testkit.WriteFile(t, filepath.Join(sub, "go.mod"), "module "+tc.module+"\n\ngo 1.22\n")
			r, err := Run(t.Context(), Options{
				Base:     filepath.Join("testdata", "compat", "base.yaml"), // 1.2.0, same contract
				Revision: withVersion(t, "base.yaml", tc.revision),
				GoMod:    filepath.Join(sub, "go.mod"),
			})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict.Pass != tc.wantPass || r.Verdict.Module == nil || r.Verdict.Module.Want != tc.wantWant {
				t.Fatalf("verdict %+v module %+v; want pass %v, want path %s", r.Verdict, r.Verdict.Module, tc.wantPass, tc.wantWant)
			}
			if !tc.wantPass {
				fix := r.Verdict.Violations[0].Fix
				if r.Verdict.Violations[0].ID != RuleGoModulePathMismatch || !strings.Contains(fix, "`module "+tc.wantWant+"`") {
					t.Errorf("violations %+v", r.Verdict.Violations)
				}
			}
		})
	}
}

// TestVersionFixNamesModule checks that a too-small bump that will cross into
// v2 says in the same run that the module path has to follow.
func TestVersionFixNamesModule(t *testing.T) {
	gomod := filepath.Join(t.TempDir(), "go.mod")
	testkit.WriteFile(t, gomod, "module example.com/acme/api\n")
	r, err := Run(t.Context(), Options{
		Base:     filepath.Join("testdata", "compat", "base.yaml"),
		Revision: withVersion(t, "transition-removed.yaml", "1.3.0"),
		GoMod:    gomod,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Verdict.Violations) != 1 {
		t.Fatalf("violations %+v, want only the version one (module is right for 1.3.0)", r.Verdict.Violations)
	}
	fix := r.Verdict.Violations[0].Fix
	for _, want := range []string{"set info.version to 2.0.0 or later", "`module example.com/acme/api/v2`"} {
		if !strings.Contains(fix, want) {
			t.Errorf("fix %q lacks %q", fix, want)
		}
	}
}
