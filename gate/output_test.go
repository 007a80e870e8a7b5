package gate

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestJSONOutput(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Command([]string{
		"--base", filepath.Join("testdata", "compat", "base.yaml"),
		"--revision", withVersion(t, "state-removed.yaml", "1.3.0"),
		"--format", "json",
	}, &stdout, &stderr)
	if code != ExitViolation {
		t.Fatalf("exit %d, want %d; stderr %s", code, ExitViolation, stderr.String())
	}
	var got struct {
		Base     struct{ Version string }
		Revision struct{ Version string }
		Changes  []struct{ Level, ID, Where, Message, Impact, Origin string }
		Verdict  struct {
			Pass               bool
			Breaking, Additive int
			Needed, Made       string
			Suggested          string
			Violations         []struct{ ID, Message, Fix string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
	}
	v := got.Verdict
	if v.Pass || v.Needed != "major" || v.Made != "minor" || v.Suggested != "2.0.0" || got.Base.Version != "1.2.0" || got.Revision.Version != "1.3.0" {
		t.Errorf("verdict %+v", got)
	}
	if len(v.Violations) != 1 || v.Violations[0].ID != RuleVersionBumpTooSmall || !strings.Contains(v.Violations[0].Fix, "2.0.0") {
		t.Errorf("violations %+v", v.Violations)
	}
	var state bool
	for _, c := range got.Changes {
		if c.ID == RuleStateMachineStateRemoved {
			state = c.Level == "error" && c.Impact == "breaking" && c.Origin == "modelgen" &&
				c.Where == "POST /apis/payments.example.com/v1/namespaces/{namespace}/paymentorders request → .status.phase" && strings.Contains(c.Message, "state `Refunded` was removed")
		}
	}
	if !state {
		t.Errorf("no well-formed %s change in %+v", RuleStateMachineStateRemoved, got.Changes)
	}
	if v.Breaking < 2 || v.Breaking+v.Additive != len(got.Changes) {
		t.Errorf("counts %d breaking + %d additive for %d changes", v.Breaking, v.Additive, len(got.Changes))
	}
}

func TestJSONOutputNoChanges(t *testing.T) {
	var stdout bytes.Buffer
	base := filepath.Join("testdata", "compat", "base.yaml")
	if code := Command([]string{"--base", base, "--revision", base, "--format", "json"}, &stdout, &bytes.Buffer{}); code != ExitPass {
		t.Fatalf("exit %d", code)
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	verdict, _ := got["verdict"].(map[string]any)
	if changes, ok := got["changes"].([]any); !ok || len(changes) != 0 || verdict["pass"] != true || verdict["needed"] != "none" {
		t.Errorf("got %v", got)
	}
}

func TestGitHubActionsOutput(t *testing.T) {
	var stdout bytes.Buffer
	code := Command([]string{
		"--base", filepath.Join("testdata", "compat", "base.yaml"),
		"--revision", withVersion(t, "transition-removed.yaml", "1.2.1"),
		"--format", "githubactions",
	}, &stdout, &bytes.Buffer{})
	if code != ExitViolation {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	want := []string{
		"::error title=state-machine-transition-removed::POST /apis/payments.example.com/v1/namespaces/{namespace}/paymentorders request → .status.phase: state machine `PaymentPhase`: transition `Processed -Retry-> Submitted` was removed",
		"::error title=version-bump-too-small::1 breaking change needs a major bump from 1.2.0, but info.version 1.2.1 is a patch bump. Fix: set info.version to 2.0.0 or later",
		"::notice title=modelgen gate::1 breaking, 0 additive: needed a major bump (2.0.0 or later); made: a patch bump (1.2.0 → 1.2.1)%0AFAIL (1 violation)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestEscapeAnnotation(t *testing.T) {
	if got := escapeData("100%\r\nnext"); got != "100%25%0D%0Anext" {
		t.Errorf("escapeData = %q", got)
	}
	if got := escapeProperty("a:b,c"); got != "a%3Ab%2Cc" {
		t.Errorf("escapeProperty = %q", got)
	}
}
