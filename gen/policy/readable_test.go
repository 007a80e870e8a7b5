package policy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	"sigs.k8s.io/yaml"
)

// The review targets of the examples' checked-in policies (issue 33, item
// 4): before the policies looked each container up once, the SLA policy was
// 128,334 bytes and one field's rule 8,326 characters.
const (
	maxPolicyBytes = 128334 / 5
	maxExprChars   = 400
)

// TestExamplePoliciesAreReadable holds the examples' generated policies to
// what a reviewer can read: no file over a fifth of the SLA policy's former
// size, no expression over 400 characters, and each field's rule found by
// its path (its message names the path, its expression the field's JSON
// name).
func TestExamplePoliciesAreReadable(t *testing.T) {
	files, err := filepath.Glob("../../examples/config/policy/*_access.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example policies: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > maxPolicyBytes {
			t.Errorf("%s: %d bytes, want at most %d", f, len(data), maxPolicyBytes)
		}
		var p admissionv1.ValidatingAdmissionPolicy
		doc, _, _ := bytes.Cut(data, []byte("\n---\n"))
		if err := yaml.Unmarshal(doc, &p); err != nil {
			t.Fatal(err)
		}
		if p.Kind != "ValidatingAdmissionPolicy" {
			t.Fatalf("%s: the first document is a %s", f, p.Kind)
		}
		long := func(where, e string) {
			if len(e) > maxExprChars {
				t.Errorf("%s: %s is %d characters, want at most %d: %s", f, where, len(e), maxExprChars, e)
			}
		}
		for _, v := range p.Spec.Variables {
			long("variable "+v.Name, v.Expression)
		}
		for _, m := range p.Spec.MatchConditions {
			long("match condition "+m.Name, m.Expression)
		}
		rules := 0
		for _, v := range p.Spec.Validations {
			long("validation "+v.Message, v.Expression)
			long("messageExpression of "+v.Message, v.MessageExpression)
			path, ok := strings.CutSuffix(v.Message, " may not be changed by the caller's roles")
			if !ok {
				continue
			}
			rules++
			if !strings.HasPrefix(v.MessageExpression, quote(path)+" ") {
				t.Errorf("%s: the message of %s does not name it: %s", f, path, v.MessageExpression)
			}
			name := path[strings.LastIndexAny(path, ".]}")+1:]
			if !strings.Contains(v.Expression, name) {
				t.Errorf("%s: the rule of %s does not read %s: %s", f, path, name, v.Expression)
			}
		}
		if rules == 0 {
			t.Errorf("%s: no field rule found", f)
		}
	}
}

// TestExamplePoliciesNeedMinKubernetes compiles the examples' checked-in
// policies as an API server of MinKubernetes does (every expression
// accepted) and as one a minor below (some refused: the two-variable
// comprehensions it lacks), so that MinKubernetes is the floor.
func TestExamplePoliciesNeedMinKubernetes(t *testing.T) {
	files, err := filepath.Glob("../../examples/config/policy/*_access.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example policies: %v", err)
	}
	below := MinKubernetes.SubtractMinor(1)
	refused := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p admissionv1.ValidatingAdmissionPolicy
		doc, _, _ := bytes.Cut(data, []byte("\n---\n"))
		if err := yaml.Unmarshal(doc, &p); err != nil {
			t.Fatal(err)
		}
		for _, e := range compileErrorsOn(&p, nil, MinKubernetes) {
			t.Errorf("%s: Kubernetes %s refuses %s: %v", f, MinKubernetes, e.Expr.Where, e.Err)
		}
		errs := compileErrorsOn(&p, nil, below)
		for _, e := range errs {
			if !strings.Contains(e.Err.Error(), "exists") && !strings.Contains(e.Err.Error(), "transformMap") {
				t.Errorf("%s: Kubernetes %s refuses %s for another reason than two-variable comprehensions: %v", f, below, e.Expr.Where, e.Err)
			}
		}
		refused += len(errs)
		if len(errs) > 0 {
			t.Logf("%s: Kubernetes %s refuses %d expressions, e.g. %s: %v", f, below, len(errs), errs[0].Expr.Where, errs[0].Err)
		}
	}
	if refused == 0 {
		t.Errorf("Kubernetes %s accepts every expression: the floor is lower than %s", below, MinKubernetes)
	}
}
