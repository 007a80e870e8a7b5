package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/cmd/internal/cli"
	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/all"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/typecheck"
	"github.com/modelgen/modelgen/model"
)

// fuzzSource is the package FuzzGenerate mutates: the type of one field and
// all of its tags come from the fuzzer, beside a phase type, an embedded
// struct and a second field, so mutations reach every tag grammar, the
// JSON naming rules, the type checks and the compiler.
const fuzzSource = `package fuzz

// Phase is a lifecycle.
type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
)

// Inner is embedded.
type Inner struct {
	A string ` + "`json:\"a,omitempty\"`" + `
}

// Order is the type under test.
// +modelgen:model
type Order struct {
	Field %s %s
	Inner
	Phase  Phase  ` + "`json:\"phase,omitempty\"`" + `
	Tenant string ` + "`json:\"tenant\" access:\"tenant,read=*,write=admin\"`" + `
}
`

// maxFuzzInput bounds each input, so one run stays short.
const maxFuzzInput = 160

// FuzzGenerate writes a mutated package into a temporary module and runs
// the whole pipeline on it (model.Load, every backend of gen/all's list
// with the check of their declared outputs, and the type-check of the
// generated code the CLI does before writing). Whatever the input, nothing
// panics, and every error names a file and a line. When the fuzzer also
// writes a modelgen.yaml or a header file (boilerplate.go.txt, beside it),
// the CLI runs too (generate --check, which writes nothing): it exits 0, 1
// or 2, never panics, and prints no error without a place. The seed corpus is in
// testdata/fuzz/FuzzGenerate; go test runs it, and
//
//	go test ./internal/cli -run '^$' -fuzz FuzzGenerate -fuzztime 60s
//
// mutates it (each run loads a package: expect a few runs a second).
func FuzzGenerate(f *testing.F) {
	f.Add("string", "name", "required,min=3", "", "read=*", "header: boilerplate.go.txt\ncrdDir: deploy\n", "// Copyright 2026 Example Authors.\n")
	f.Add("string", "name", "", "", "", "title: [x\nheader: ../../etc/passwd\n", "//go:build ignore\n")
	f.Add("Phase", "state", "", "initial=Open;Open->Closed:Close", "", "", "")
	f.Add("error", "err", "", "", "", "", "")
	f.Add("[3]int", "arr", "dive,gte=1", "", "", "", "")
	f.Add("int", ",omitempty", "gte=1", "", "", "", "")
	f.Add("int64", "n,string", "", "", "", "", "")
	f.Add("map[float64]string", "m", "", "", "", "", "")
	f.Add("*Inner", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, typ, json, validate, state, access, config, header string) {
		for _, s := range []string{typ, json, validate, state, access, config, header} {
			if len(s) > maxFuzzInput {
				t.Skip("input too long")
			}
		}
		dir := t.TempDir()
		testkit.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/fuzz\n\ngo 1.23\n")
		testkit.WriteFile(t, filepath.Join(dir, "types.go"), fmt.Sprintf(fuzzSource, typ, fuzzTag(json, validate, state, access)))
		if config != "" || header != "" {
			testkit.WriteFile(t, filepath.Join(dir, "modelgen.yaml"), config)
			testkit.WriteFile(t, filepath.Join(dir, "boilerplate.go.txt"), header)
			checkCLI(t, dir)
		}
		m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"."}})
		if err != nil {
			if os.Getenv("FUZZ_DEBUG") != "" {
				t.Log(err)
			}
			return // the go tool could not list the package at all
		}
		check := typecheck.Start(m)
		files, diags := all.Generate(m, gen.DefaultConfigs(m), all.Backends())
		if !diags.HasErrors() {
			diags.Add(check.Compile(gen.GoFiles(files)))
		}
		if os.Getenv("FUZZ_DEBUG") != "" {
			t.Logf("%d files\n%v", len(files), diags)
		}
		for _, d := range diags {
			if d.Severity == model.Error && (d.Pos.File == "" || d.Pos.Line == 0) {
				t.Errorf("an error without a line: %v", d)
			}
			if strings.Contains(d.Msg, "internal error") {
				t.Errorf("a backend panicked: %v", d)
			}
		}
	})
}

// checkCLI runs generate --check in dir: whatever modelgen.yaml and the
// header say, the exit code is one of the three, nothing panics, every
// error names its place, and the run wrote nothing.
func checkCLI(t *testing.T, dir string) {
	t.Helper()
	before, _ := os.ReadDir(dir)
	var stdout, stderr strings.Builder
	code := cli.Run([]string{"generate", "--check", "-C", dir, "."}, strings.NewReader(""), &stdout, &stderr)
	if code != cli.ExitOK && code != cli.ExitFail && code != cli.ExitUsage {
		t.Errorf("exit %d", code)
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "internal error") || strings.HasPrefix(line, "-:") {
			t.Errorf("generate --check: %s\n%s", line, stderr.String())
		}
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("generate --check wrote into the package directory: %v", after)
	}
}

// fuzzTag is the field's struct tag: the keys with a value, quoted as Go
// quotes them (a backquote in a value breaks the source, which is a case
// too).
func fuzzTag(json, validate, state, access string) string {
	var parts []string
	for _, kv := range [][2]string{{"json", json}, {"validate", validate}, {"state", state}, {"access", access}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+":"+strconv.Quote(kv[1]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "`" + strings.Join(parts, " ") + "`"
}
