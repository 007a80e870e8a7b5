package clients_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// nodeToolsExceptions are the problems the Node tools are known to find in
// a subject's document, by subject and location (a component for Ajv, a
// JSON pointer for Redocly), each with its reason. Any other problem fails
// the test, and so does an exception that no longer occurs.
var nodeToolsExceptions = map[string]map[string]string{
	"wellknown": {
		// *apiextensionsv1.JSON: the JSON component accepts any value, so
		// there is no type to put beside nullable, and OpenAPI 3.0 has no
		// other way to say "any value or null".
		"ajv:WidgetSpec": "a nullable pointer to apiextensions JSON has no type",
		"ajv:Widget":     "refers to WidgetSpec",
		"ajv:WidgetList": "refers to Widget",
		"redocly:#/components/schemas/WidgetSpec/properties/value/nullable": "a nullable pointer to apiextensions JSON has no type",
	},
}

// nodeTools is the directory hack/nodetools.sh installed the tools into
// (MODELGEN_NODETOOLS); without it the test skips, unless
// MODELGEN_REQUIRE_NODETOOLS=1 (as hack/test.sh sets) makes that a failure.
func nodeTools(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MODELGEN_NODETOOLS")
	if dir == "" {
		if os.Getenv("MODELGEN_REQUIRE_NODETOOLS") == "1" {
			t.Fatal("MODELGEN_NODETOOLS is not set: run hack/nodetools.sh")
		}
		t.Skip("MODELGEN_NODETOOLS is not set: export MODELGEN_NODETOOLS=\"$(hack/nodetools.sh)\" to run the Node tools")
	}
	return dir
}

// TestNodeToolsTakeTheDocuments gives every subject's document (the
// examples', the goldens' and the one with every keyword) to the tools of
// the Node ecosystem: Ajv compiles every component schema (draft-04
// dialect, strict mode off, as Node request validators use it), Redocly's
// recommended ruleset reports no error (hack/nodetools/redocly.yaml turns
// off, with reasons, the rules that do not apply to a generated
// Kubernetes-style contract), and orval types the examples' properties by
// their components: the phase by its enum, an optional struct as the
// struct or null.
func TestNodeToolsTakeTheDocuments(t *testing.T) {
	tools := nodeTools(t)
	dir := t.TempDir()
	var yamls, jsons []string
	for _, s := range subjects {
		doc := s.doc(t)
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		y, j := filepath.Join(dir, s.name+".yaml"), filepath.Join(dir, s.name+".json")
		if err := os.WriteFile(y, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(j, js, 0o644); err != nil {
			t.Fatal(err)
		}
		yamls, jsons = append(yamls, y), append(jsons, j)
	}
	found := map[string]map[string]bool{}
	note := func(subject, where string) {
		if found[subject] == nil {
			found[subject] = map[string]bool{}
		}
		found[subject][where] = true
	}
	for _, p := range ajvProblems(t, tools, jsons) {
		note(p[0], "ajv:"+p[1])
	}
	for _, p := range redoclyProblems(t, tools, yamls) {
		note(p[0], "redocly:"+p[1])
	}
	for _, s := range subjects {
		for where := range found[s.name] {
			if _, ok := nodeToolsExceptions[s.name][where]; !ok {
				t.Errorf("%s: %s: a problem no exception lists", s.name, where)
			}
		}
		for where := range nodeToolsExceptions[s.name] {
			if !found[s.name][where] {
				t.Errorf("%s: the exception %s no longer occurs: strike it", s.name, where)
			}
		}
	}
	t.Run("orval", func(t *testing.T) { orvalTypes(t, tools, dir) })
}

// ajvProblems runs ajv-compile.mjs and returns [subject, component] of
// each schema Ajv cannot compile.
func ajvProblems(t *testing.T, tools string, files []string) [][2]string {
	out, err := exec.Command("node", append([]string{filepath.Join(tools, "ajv-compile.mjs")}, files...)...).CombinedOutput()
	var problems [][2]string
	for _, line := range strings.Split(string(out), "\n") {
		file, rest, ok := strings.Cut(line, ": components.schemas.")
		if !ok {
			continue
		}
		name, msg, _ := strings.Cut(rest, ": ")
		t.Logf("ajv: %s: %s: %s", filepath.Base(file), name, msg)
		problems = append(problems, [2]string{strings.TrimSuffix(filepath.Base(file), ".json"), name})
	}
	if err != nil && len(problems) == 0 {
		t.Fatalf("ajv-compile.mjs: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "component schemas compiled"); n != len(files) {
		t.Fatalf("ajv-compile.mjs compiled %d documents of %d:\n%s", n, len(files), out)
	}
	return problems
}

// redoclyProblems runs `redocly lint` on each document and returns
// [subject, JSON pointer] of each error (warnings are left to the reader).
func redoclyProblems(t *testing.T, tools string, files []string) [][2]string {
	var problems [][2]string
	for _, f := range files {
		cmd := exec.Command(filepath.Join(tools, "node_modules", ".bin", "redocly"), "lint", "--config", filepath.Join(tools, "redocly.yaml"), "--format=json", f)
		out, err := cmd.Output()
		var report struct {
			Totals   struct{ Errors int }
			Problems []struct {
				RuleID   string
				Severity string
				Message  string
				Location []struct{ Pointer string }
			}
		}
		if jerr := json.Unmarshal(out, &report); jerr != nil {
			t.Fatalf("redocly lint %s: %v (%v)\n%s", f, jerr, err, out)
		}
		subject := strings.TrimSuffix(filepath.Base(f), ".yaml")
		errors := 0
		for _, p := range report.Problems {
			if p.Severity != "error" {
				continue
			}
			errors++
			where := ""
			if len(p.Location) > 0 {
				where = p.Location[0].Pointer
			}
			t.Logf("redocly: %s: %s %s: %s", subject, p.RuleID, where, p.Message)
			problems = append(problems, [2]string{subject, where})
		}
		if errors != report.Totals.Errors || (errors == 0) != (err == nil) {
			t.Fatalf("redocly lint %s: %d errors in its report, totals say %d, exit: %v", f, errors, report.Totals.Errors, err)
		}
	}
	return problems
}

// orvalTypes generates TypeScript with orval from the examples' documents
// and checks how the properties are typed.
func orvalTypes(t *testing.T, tools, dir string) {
	want := map[string][]string{
		"payments": {"phase?: PaymentPhase;", "refund?: PaymentOrderSpecRefund;", "export type PaymentOrderSpecRefund = RefundRequest | null;"},
		"sla":      {"phase?: SLAPhase;", "measurement?: SLAContractStatusMeasurement;", "export type SLAContractStatusMeasurement = Measurement | null;"},
		"plainmodel": {
			"escalation?: TicketEscalation;",
			"export type TicketEscalation = typeof TicketEscalation[keyof typeof TicketEscalation] | null;",
			"level: Level;", "assignee?: TicketAssignee;", "export type TicketAssignee = Person | null;",
		},
	}
	var cfg strings.Builder
	cfg.WriteString("module.exports = {\n")
	for _, name := range slices.Sorted(maps.Keys(want)) {
		fmt.Fprintf(&cfg, "  %q: { input: %q, output: { target: %q, client: 'fetch', mode: 'single' } },\n", name, filepath.Join(dir, name+".yaml"), filepath.Join(dir, "ts", name+".ts"))
	}
	cfg.WriteString("};\n")
	config := filepath.Join(dir, "orval.config.cjs")
	if err := os.WriteFile(config, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(tools, "node_modules", ".bin", "orval"), "--config", config)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("orval: %v\n%s", err, out)
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		ts, err := os.ReadFile(filepath.Join(dir, "ts", name+".ts"))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want[name] {
			if !strings.Contains(string(ts), w) {
				t.Errorf("%s: orval's TypeScript lacks %q", name, w)
			}
		}
	}
}
