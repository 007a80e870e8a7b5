package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelgen/modelgen/cmd/internal/cli"
	"github.com/modelgen/modelgen/internal/runcache"
	"github.com/modelgen/modelgen/internal/testkit"
)

// TestMain gives the tests' runs a cache directory of their own, not the
// user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "modelgen-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("MODELGEN_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cacheProject copies testdata/cache into a module of its own with a cache
// directory of its own, its files dated an hour back (a run records
// nothing when an input is younger than two seconds).
func cacheProject(t testing.TB) (dir string, gen func(extra ...string) result) {
	t.Helper()
	return settledProject(t, "cache", "example.com/cache")
}

// settledProject copies testdata/<name> into the module of the given
// path and settles it (settle) for generate -q over ./api/....
func settledProject(t testing.TB, name, module string) (dir string, gen func(extra ...string) result) {
	t.Helper()
	dir = t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", name), dir)
	return dir, settle(t, dir, module, "./api/...")
}

// settle makes dir the module of the given path, with a cache directory
// of its own, settled by two runs with the cache off and dated an hour
// back; gen runs generate -q over pattern.
func settle(t testing.TB, dir, module, pattern string) (gen func(extra ...string) result) {
	t.Helper()
	testkit.ModuleWithRequirements(t, dir, module)
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("MODELGEN_CACHE", filepath.Join(t.TempDir(), "cache"))
	gen = func(extra ...string) result {
		return run(append(append([]string{"generate", "-q"}, extra...), "-C", dir, pattern)...)
	}
	// two runs with the cache off settle go.mod: -mod=mod adds what the
	// fixture requires, and then what the generated files import (a run
	// that changed go.mod records nothing)
	for range 2 {
		if r := withoutCache(t, gen); r.code != cli.ExitOK {
			t.Fatalf("settling run: %v", r)
		}
	}
	age(t, dir)
	return gen
}

// age dates every file below dir an hour back.
func age(t testing.TB, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// hits runs f and reports whether its run skipped the backends.
func hits(f func() result) (result, bool) {
	before := cli.CacheHits()
	r := f()
	return r, cli.CacheHits() > before
}

// withoutCache is what a run gives with the cache off (the reference).
func withoutCache(t testing.TB, gen func(extra ...string) result, extra ...string) result {
	t.Helper()
	saved := os.Getenv("MODELGEN_CACHE")
	t.Setenv("MODELGEN_CACHE", "off")
	defer os.Setenv("MODELGEN_CACHE", saved)
	return gen(extra...)
}

// TestNoChangeRunSkipsTheBackends: a second run over unchanged inputs
// skips the backends and the type check, and prints, writes and leaves
// exactly what a full run does (the summary, the replayed warning).
func TestNoChangeRunSkipsTheBackends(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module seven times (-short); internal/runcache's and gen/all's unit tests of the record still run")
	}
	dir, gen := cacheProject(t)
	first, hit := hits(func() result { return gen() })
	if first.code != cli.ExitOK || hit {
		t.Fatalf("first run: hit %v, %v", hit, first)
	}
	if !strings.Contains(first.stderr, "warning: validate: \"iso4217\"") {
		t.Fatalf("the fixture's warning is missing: %v", first)
	}
	age(t, dir)
	written := testkit.Snapshot(t, dir)
	full := withoutCache(t, gen)
	second, hit := hits(func() result { return gen() })
	if !hit {
		t.Fatalf("the second run over unchanged inputs did the work again: %v", second)
	}
	if second.String() != full.String() {
		t.Errorf("the run that skipped the backends printed\n%v\nwhere a full run prints\n%v", second, full)
	}
	testkit.SameTree(t, "a run with nothing to change", testkit.Snapshot(t, dir), written)
	check, hit := hits(func() result { return gen("--check") })
	if !hit || check.code != cli.ExitOK || check.String() != withoutCache(t, gen, "--check").String() {
		t.Errorf("--check over fresh output: hit %v, %v", hit, check)
	}
}

// TestCacheMissesWhenAnInputMoves: whatever a run reads, when it moves the
// next run does the work (and the run after that finds nothing to do
// again). The cases run in turn on one project.
func TestCacheMissesWhenAnInputMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module many times (-short)")
	}
	dir, gen := cacheProject(t)
	crd := filepath.Join("config", "crd", "bases", "cache.example.com_widgets.yaml")
	deepcopy := filepath.Join("api", "v1", "zz_generated.deepcopy.go")
	cases := []struct {
		name          string
		setup, change func(t *testing.T)
		extra         []string
		// moved is a file whose content the change must show in
		moved, want string
	}{
		{name: "a tag in the package", change: func(t *testing.T) {
			testkit.Edit(t, filepath.Join(dir, "api", "v1", "types.go"), "max=40", "max=41")
		}, moved: crd, want: "maxLength: 41"},
		{name: "a dependency in the module", change: func(t *testing.T) {
			testkit.Edit(t, filepath.Join(dir, "lib", "lib.go"), "max=100", "max=101")
		}, moved: crd, want: "maximum: 101"},
		{name: "modelgen.yaml appears", change: func(t *testing.T) {
			testkit.WriteFile(t, filepath.Join(dir, "api", "v1", "modelgen.yaml"), "title: Widgets moved\n")
		}, moved: filepath.Join("api", "v1", "openapi.yaml"), want: "title: Widgets moved"},
		{name: "the header file modelgen.yaml names", setup: func(t *testing.T) {
			testkit.WriteFile(t, filepath.Join(dir, "api", "v1", "modelgen.yaml"), "title: Widgets moved\nheader: ../../hack/boilerplate.go.txt\n")
			testkit.WriteFile(t, filepath.Join(dir, "hack", "boilerplate.go.txt"), "// Copyright the authors.\n")
		}, change: func(t *testing.T) {
			testkit.WriteFile(t, filepath.Join(dir, "hack", "boilerplate.go.txt"), "// Copyright moved.\n")
		}, moved: deepcopy, want: "// Copyright moved."},
		{name: "a generated file edited by hand", change: func(t *testing.T) {
			testkit.Edit(t, filepath.Join(dir, crd), "maxLength: 41", "maxLength: 7")
		}, moved: crd, want: "maxLength: 41"},
		{name: "a generated file removed", change: func(t *testing.T) {
			if err := os.Remove(filepath.Join(dir, crd)); err != nil {
				t.Fatal(err)
			}
		}, moved: crd, want: "maxLength: 41"},
		{name: "another modelgen binary", change: func(t *testing.T) {
			saved := runcache.ToolID
			runcache.ToolID = func() (string, error) { return "go:another/binary", nil }
			t.Cleanup(func() { runcache.ToolID = saved })
		}, moved: crd, want: "maxLength: 41"},
		{name: "a record that is not one", change: func(t *testing.T) {
			records, _ := filepath.Glob(filepath.Join(os.Getenv("MODELGEN_CACHE"), "*.json"))
			if len(records) != 1 {
				t.Fatalf("want one record, got %v", records)
			}
			testkit.WriteFile(t, records[0], "{not json")
		}, moved: crd, want: "maxLength: 41"},
		{name: "the file --header-file names", extra: []string{"--header-file", filepath.Join(dir, "hack", "flag.go.txt")}, change: func(t *testing.T) {
			testkit.WriteFile(t, filepath.Join(dir, "hack", "flag.go.txt"), "// Copyright the flag, moved.\n")
		}, moved: deepcopy, want: "// Copyright the flag, moved."},
	}
	testkit.WriteFile(t, filepath.Join(dir, "hack", "flag.go.txt"), "// Copyright the flag.\n")
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				tt.setup(t)
			}
			age(t, dir)
			if r := gen(tt.extra...); r.code != cli.ExitOK {
				t.Fatalf("run before the change: %v", r)
			}
			age(t, dir)
			if r, hit := hits(func() result { return gen(tt.extra...) }); !hit {
				t.Fatalf("nothing changed, yet the run did the work: %v", r)
			}
			tt.change(t)
			age(t, dir)
			r, hit := hits(func() result { return gen(tt.extra...) })
			if hit || r.code != cli.ExitOK {
				t.Fatalf("the run after the change: want the work done; hit %v, %v", hit, r)
			}
			if got := testkit.ReadFile(t, filepath.Join(dir, tt.moved)); !strings.Contains(got, tt.want) {
				t.Errorf("%s does not hold %q:\n%s", tt.moved, tt.want, got)
			}
			age(t, dir)
			if r, hit := hits(func() result { return gen(tt.extra...) }); !hit || r.code != cli.ExitOK {
				t.Errorf("the run after the change's run: hit %v, %v", hit, r)
			}
		})
	}
}

// TestCacheLeavesTheWriterItsOrphans: a run that skips the backends still
// removes a file an earlier run generated that this one does not, as a
// full run does, and --check still names it.
func TestCacheLeavesTheWriterItsOrphans(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir, gen := cacheProject(t)
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("first run: %v", r)
	}
	crd := filepath.Join(dir, "config", "crd", "bases", "cache.example.com_widgets.yaml")
	orphan := filepath.Join(dir, "config", "crd", "bases", "cache.example.com_gadgets.yaml")
	testkit.WriteFile(t, orphan, testkit.ReadFile(t, crd))
	age(t, dir)
	if r, hit := hits(func() result { return gen("--check") }); !hit || r.code != cli.ExitFail || !strings.Contains(r.stderr, orphan+": no longer generated") {
		t.Errorf("--check with an orphan: want a hit, exit 1 naming it; hit %v, %v", hit, r)
	}
	if r, hit := hits(func() result { return gen() }); !hit || r.code != cli.ExitOK || !strings.Contains(r.stdout, "1 removed") {
		t.Errorf("a run with an orphan: want a hit that removes it; hit %v, %v", hit, r)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("the orphan is still there: %v", err)
	}
}

// TestRecentInputsAreNotRecorded: a run whose inputs were written within
// the last two seconds may have read them mid-change: it records nothing,
// and the next run does the work again. Its own generated files do not
// count.
func TestRecentInputsAreNotRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir, gen := cacheProject(t)
	now := time.Now()
	lib := filepath.Join(dir, "lib", "lib.go")
	if err := os.Chtimes(lib, now, now); err != nil {
		t.Fatal(err)
	}
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("first run: %v", r)
	}
	if r, hit := hits(func() result { return gen() }); hit || r.code != cli.ExitOK {
		t.Errorf("a run after one that read a file written a moment before: want the work done again; hit %v, %v", hit, r)
	}
	// the files a run generates are compared by content: one written a
	// moment before does not stop the record
	age(t, dir)
	if err := os.Remove(filepath.Join(dir, "api", "v1", "zz_generated.deepcopy.go")); err != nil {
		t.Fatal(err)
	}
	if r := withoutCache(t, gen); r.code != cli.ExitOK || !strings.Contains(r.stdout, "1 files written") {
		t.Fatalf("a run that restores a generated file: %v", r)
	}
	records, _ := filepath.Glob(filepath.Join(os.Getenv("MODELGEN_CACHE"), "*.json"))
	for _, r := range records {
		os.Remove(r)
	}
	if r, hit := hits(func() result { return gen() }); hit || r.code != cli.ExitOK {
		t.Fatalf("the run after it: want the work done (no record yet); hit %v, %v", hit, r)
	}
	if r, hit := hits(func() result { return gen() }); !hit || r.code != cli.ExitOK {
		t.Errorf("a run after one that read a generated file written a moment before: want a hit; hit %v, %v", hit, r)
	}
}

// TestCacheOff: MODELGEN_CACHE=off reads and writes no record.
func TestCacheOff(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir, gen := cacheProject(t)
	cache := os.Getenv("MODELGEN_CACHE")
	t.Setenv("MODELGEN_CACHE", "off")
	for range 2 {
		if r, hit := hits(func() result { return gen() }); hit || r.code != cli.ExitOK {
			t.Fatalf("MODELGEN_CACHE=off: hit %v, %v", hit, r)
		}
		age(t, dir)
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Errorf("MODELGEN_CACHE=off wrote %s: %v", cache, err)
	}
}

// TestEveryFlagIsInTheKey: every flag of generate either names another
// record (it may change what is generated) or is one of the few that only
// change what is reported or measured.
func TestEveryFlagIsInTheKey(t *testing.T) {
	reporting := map[string]bool{"check": true, "q": true, "cpuprofile": true, "memprofile": true}
	base := cli.CacheKey([]string{"./..."})
	for _, name := range cli.GenerateFlags() {
		value := "x"
		if name == "check" || name == "q" || name == "agree" {
			value = "true"
		}
		key := cli.CacheKey([]string{"-" + name + "=" + value, "./..."})
		switch {
		case reporting[name] && key != base:
			t.Errorf("-%s changes the record's name, but changes no output", name)
		case !reporting[name] && key == base:
			t.Errorf("-%s is not in the record's name (cacheKey): a run with it would replay a run without it", name)
		}
	}
	if cli.CacheKey([]string{"./a"}) == cli.CacheKey([]string{"./b"}) {
		t.Error("the patterns are not in the record's name")
	}
}
