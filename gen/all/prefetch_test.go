package all_test

import (
	"os"
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
	log := testkit.ExportListLog(t)
	dir := t.TempDir()
	testkit.UTF8Module(t, dir)
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
