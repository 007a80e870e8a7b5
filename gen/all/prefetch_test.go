package all_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/all"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/model"
)

// goFile is a backend that writes one Go file into the first package.
type goFile struct{}

func (goFile) Name() string { return "gofile" }

func (goFile) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	pk := c.Model.Packages[0]
	return []gen.File{{Path: filepath.Join(pk.Dir, "zz_generated.gofile.go"), Data: []byte("package " + pk.Name + "\n"), Owner: pk.Path}}, nil
}

func (goFile) Outputs(c *gen.Context) []gen.Output {
	return []gen.Output{{Format: gen.FormatGo, Dir: c.Model.Packages[0].Dir, Name: "zz_generated.gofile.go"}}
}

// TestExportDataIsListedDuringTheLoad: a run that type-checks generated Go
// starts the go list of the dependencies' export data once the packages
// are listed, so that it runs while the loader parses them: it has started
// by the time the load returns (the settings step, right after it), where
// the check alone would start it after the settings.
func TestExportDataIsListedDuringTheLoad(t *testing.T) {
	t.Setenv("MODELGEN_EXPORTDATA", "")
	real, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "lists")
	testkit.WriteFile(t, filepath.Join(bin, "go"), "#!/bin/sh\ncase \" $* \" in *\" -export \"*) echo export >>"+log+";; esac\nexec "+real+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/scratch\n\ngo 1.26.0\n")
	testkit.WriteFile(t, filepath.Join(dir, "types.go"), "package scratch\n\nimport \"unicode/utf8\"\n\n"+
		"// Widget is a domain type.\n// +modelgen:model\ntype Widget struct {\n\tName string `json:\"name\"`\n}\n\n"+
		"// Width is the width of the name.\nfunc (w Widget) Width() int { return utf8.RuneCountInString(w.Name) }\n")
	started := false
	res := all.Run{
		Load:     model.Config{Dir: dir, Patterns: []string{"."}},
		Backends: []gen.Backend{goFile{}},
		Check:    true,
		Settings: func(m *model.Model) (map[string]gen.Config, model.Diagnostics, error) {
			for deadline := time.Now().Add(20 * time.Second); !started && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				data, _ := os.ReadFile(log)
				started = strings.Contains(string(data), "export\n")
			}
			return gen.DefaultConfigs(m), nil, nil
		},
	}.Execute()
	if res.Err != nil || res.Diags.HasErrors() {
		t.Fatal(res.Err, res.Diags)
	}
	if !started {
		t.Error("the export data's go list had not started when the load returned")
	}
	data, _ := os.ReadFile(log)
	if n := strings.Count(string(data), "export\n"); n != 1 {
		t.Errorf("want one go list -export, got %d", n)
	}
}
