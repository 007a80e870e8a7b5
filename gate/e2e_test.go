package gate

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
)

// repo is a temporary git repository the CLI runs in (through -C).
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q")
	return r
}

func (r *repo) git(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t",
		"-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (r *repo) write(name, content string) {
	r.t.Helper()
	testkit.WriteFile(r.t, filepath.Join(r.dir, name), content)
}

// spec is a testdata/compat document with info.version set.
func (r *repo) spec(name, version string) string {
	r.t.Helper()
	data, err := os.ReadFile(withVersion(r.t, name, version))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// gate runs the CLI in the repository.
func (r *repo) gate(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Command(append([]string{"-C", r.dir}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func (r *repo) expect(wantCode int, wantOut, wantErr []string, args ...string) {
	r.t.Helper()
	code, stdout, stderr := r.gate(args...)
	r.t.Logf("gate %v: exit %d\n%s%s", args, code, stdout, stderr)
	if code != wantCode {
		r.t.Fatalf("gate %v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, wantCode, stdout, stderr)
	}
	for _, want := range wantOut {
		if !strings.Contains(stdout, want) {
			r.t.Errorf("gate %v: stdout lacks %q:\n%s", args, want, stdout)
		}
	}
	for _, want := range wantErr {
		if !strings.Contains(stderr, want) {
			r.t.Errorf("gate %v: stderr lacks %q:\n%s", args, want, stderr)
		}
	}
}

const baseRef = "git:v1.2.0:openapi.yaml"

func taggedRepo(t *testing.T) *repo {
	r := newRepo(t)
	r.write("openapi.yaml", r.spec("base.yaml", "1.2.0"))
	r.write("go.mod", "module example.com/acme/api\n\ngo 1.22\n")
	r.git("add", ".")
	r.git("commit", "-q", "-m", "release 1.2.0")
	r.git("tag", "v1.2.0")
	return r
}

func TestEndToEndBreakingChange(t *testing.T) {
	r := taggedRepo(t)

	r.write("openapi.yaml", r.spec("response-property-removed.yaml", "1.2.0"))
	r.expect(ExitViolation, []string{
		"response-required-property-removed",
		"FAIL version-bump-too-small: 3 breaking changes need a major bump from 1.2.0, but info.version 1.2.0 is unchanged",
		"set info.version to 2.0.0 or later",
	}, nil, "--base", baseRef, "--go-mod", "go.mod")

	r.write("openapi.yaml", r.spec("response-property-removed.yaml", "2.0.0"))
	r.expect(ExitViolation, []string{
		"FAIL go-module-path-major-mismatch: info.version 2.0.0 is major v2, but go.mod declares module example.com/acme/api",
		"change `module example.com/acme/api` to `module example.com/acme/api/v2`",
		"change every import of example.com/acme/api and its packages to example.com/acme/api/v2",
	}, nil, "--base", baseRef, "--go-mod", "go.mod")

	r.write("go.mod", "module example.com/acme/api/v2\n\ngo 1.22\n")
	r.expect(ExitPass, []string{"PASS"}, nil, "--base", baseRef, "--go-mod", "go.mod")

	// Without --go-mod the module rule is skipped.
	r.write("go.mod", "module example.com/acme/api\n\ngo 1.22\n")
	r.expect(ExitPass, []string{"PASS"}, nil, "--base", baseRef)
}

func TestEndToEndAdditiveChange(t *testing.T) {
	r := taggedRepo(t)

	r.write("openapi.yaml", r.spec("optional-property-added.yaml", "1.2.1"))
	r.expect(ExitViolation, []string{"0 breaking, 3 additive: needed a minor bump (1.3.0 or later)"}, nil,
		"--base", baseRef, "--go-mod", "go.mod")

	r.write("openapi.yaml", r.spec("optional-property-added.yaml", "1.3.0"))
	r.expect(ExitPass, []string{"new-optional-request-property", "PASS"}, nil, "--base", baseRef, "--go-mod", "go.mod")

	code, stdout, _ := r.gate("--base", baseRef, "--suggest")
	if code != ExitPass || stdout != "1.3.0\n" {
		t.Errorf("--suggest: exit %d, stdout %q; want 0, 1.3.0", code, stdout)
	}
}

func TestEndToEndInputErrors(t *testing.T) {
	r := taggedRepo(t)

	r.expect(ExitError, nil, []string{`git ref "v9.9.9" does not exist`}, "--base", "git:v9.9.9:openapi.yaml")
	r.expect(ExitError, nil, []string{`path "api/openapi.yaml" does not exist at git ref "v1.2.0"`}, "--base", "git:v1.2.0:api/openapi.yaml")

	r.write("openapi.yaml", "openapi: 3.0.3\ninfo: [unclosed\n")
	r.expect(ExitError, nil, []string{"revision: openapi.yaml: not a readable YAML or JSON document"}, "--base", baseRef)

	r.write("openapi.yaml", r.spec("base.yaml", "one.two"))
	r.expect(ExitError, nil, []string{`revision: openapi.yaml: info.version: "one.two" is not a semantic version`}, "--base", baseRef)

	r.write("openapi.yaml", r.spec("base.yaml", "1.1.0"))
	r.expect(ExitViolation, []string{
		"no contract changes: no bump needed; made: went backwards (1.2.0 → 1.1.0)",
		"FAIL version-decreased: info.version went backwards: 1.2.0 → 1.1.0",
		"fix: set info.version to 1.2.0 or later",
	}, nil, "--base", baseRef)

	r.expect(ExitError, nil, []string{"--go-mod", "no such file"}, "--base", baseRef, "--go-mod", "missing/go.mod")

	// The limits hold for a base read from git: the blob's size is asked
	// before git show runs, and git show's output is read through a bound.
	r.expect(ExitError, nil, []string{"base: git:v1.2.0:openapi.yaml: the document is larger than the 1KiB limit (raise the limit with --max-size)"},
		"--base", baseRef, "--max-size", "1KiB")
	r.write("openapi.yaml", aliasBomb(12))
	r.git("add", ".")
	r.git("commit", "-q", "-m", "bomb")
	r.git("tag", "bomb")
	r.expect(ExitError, nil, []string{"base: git:bomb:openapi.yaml: the document's YAML aliases would add at least 1.23e+13 nodes"}, "--base", "git:bomb:openapi.yaml")
	data, err := gitShow(t.Context(), r.dir, "v1.2.0:openapi.yaml", 100)
	if data != nil || err == nil || !strings.Contains(err.Error(), "larger than the 100B limit") {
		t.Errorf("gitShow past the limit: %d bytes, %v", len(data), err)
	}

	outside := &repo{t: t, dir: t.TempDir()}
	outside.expect(ExitError, nil, []string{"not inside a git repository"}, "--base", baseRef)
}

func TestCommandUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, ExitError, "--base is required"},
		{[]string{"--base", "a.yaml", "extra"}, ExitError, `unexpected argument "extra"`},
		{[]string{"--base", "a.yaml", "--format", "xml"}, ExitError, `--format "xml": want one of text, json, githubactions`},
		{[]string{"--no-such-flag"}, ExitError, "flag provided but not defined: -no-such-flag"},
		{[]string{"-h"}, ExitPass, "modelgen gate --base git:v1.4.0:openapi.yaml"},
		{[]string{"-h"}, ExitPass, "-max-size size\n    \tlargest document read per side: a size in bytes, or with a KiB, MiB or GiB suffix (default 16MiB)"},
		{[]string{"-h"}, ExitPass, "-max-yaml-aliases int\n    \tmost YAML aliases a document may use (with --crd-base: all documents of a side together) (default 1000)"},
		{[]string{"-h"}, ExitPass, "-max-yaml-alias-nodes int\n    \tmost YAML nodes the aliases of a document may add once expanded (with --crd-base: all documents of a side together) (default 100000)"},
		{[]string{"--base", "a.yaml", "--max-size", "lots"}, ExitError, `invalid value "lots" for flag -max-size: "lots": want a positive size in bytes`},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		if code := Command(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("Command(%q) = %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}
