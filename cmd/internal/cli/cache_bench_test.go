package cli_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelgen/modelgen/cmd/internal/cli"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/model"
)

// The run with nothing to change against the load alone, on the synthetic
// package of hack/bench-generation.sh, side by side in one run:
//
//	go test -run '^$' -bench 'NoChange|LoadAlone' -benchtime 5x ./internal/cli
//
// BenchmarkNoChangeRun is a whole `modelgen generate` (cli.Run) that finds
// its record; BenchmarkLoadAlone is model.Load of the same package, which
// that run does first. They assert nothing about time.

const noChangeKinds = 100

func noChangeModule(b *testing.B) string {
	dir := testkit.SynthModule(b, noChangeKinds)
	b.Setenv("GOWORK", "off")
	b.Setenv("GOFLAGS", "-mod=mod")
	b.Setenv("MODELGEN_CACHE", filepath.Join(b.TempDir(), "cache"))
	// settle go.mod and the generated files, then date the inputs back so
	// that the next run records
	for range 2 {
		if r := run("generate", "-q", "-C", dir, "./..."); r.code != cli.ExitOK {
			b.Fatal(r)
		}
	}
	old := time.Now().Add(-time.Hour)
	filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err == nil {
			os.Chtimes(path, old, old)
		}
		return nil
	})
	return dir
}

func BenchmarkNoChangeRun(b *testing.B) {
	dir := noChangeModule(b)
	if r := run("generate", "-q", "-C", dir, "./..."); r.code != cli.ExitOK {
		b.Fatal(r)
	}
	before := cli.CacheHits()
	for b.Loop() {
		if r := run("generate", "-q", "-C", dir, "./..."); r.code != cli.ExitOK {
			b.Fatal(r)
		}
	}
	if cli.CacheHits()-before != int64(b.N) {
		b.Fatalf("%d of %d runs skipped the backends", cli.CacheHits()-before, b.N)
	}
}

func BenchmarkLoadAlone(b *testing.B) {
	dir := noChangeModule(b)
	for b.Loop() {
		m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
		if err != nil || m.Diags.HasErrors() || len(m.Packages) == 0 {
			b.Fatal(err, m.Diags)
		}
	}
}
