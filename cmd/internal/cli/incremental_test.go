package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelgen/modelgen/cmd/internal/cli"
	"github.com/modelgen/modelgen/internal/testkit"
)

// incrementalProject copies testdata/incremental (six API packages: a type
// of api/a/v1 used by api/b/v1, the group g.example.com over api/g/v1 and
// api/g/v2, deepcopy everywhere, agree: true in api/c/v1, a warning in
// each) into a module of its own with a cache of its own, settled and
// recorded.
func incrementalProject(t *testing.T) (dir string, gen func(extra ...string) result) {
	t.Helper()
	dir, gen = settledProject(t, "incremental", "example.com/incremental")
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("recording run: %v", r)
	}
	return dir, gen
}

// replays runs f and reports whether its run was incremental (replayed
// some packages).
func replays(f func() result) (result, bool) {
	before := cli.ReplayedRuns()
	r := f()
	return r, cli.ReplayedRuns() > before
}

// TestIncrementalRunWritesWhatAFullRunWrites: after each kind of change, a
// run that redoes only the packages the change reaches and replays the
// others leaves every byte of the tree, and prints (stdout and stderr),
// what a full run over the same change does. The cases run in turn on one
// project; each compares the incremental run with a full run (the cache
// off) from the same tree.
func TestIncrementalRunWritesWhatAFullRunWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module many times (-short)")
	}
	dir, gen := incrementalProject(t)
	file := func(parts ...string) string { return filepath.Join(append([]string{dir, "api"}, parts...)...) }
	cases := []incrementalCase{
		{name: "a tag in a package no other imports", change: func(t *testing.T) {
			testkit.Edit(t, file("e", "v1", "types.go"), "max=40", "max=41")
		}, incremental: true, moved: "config/crd/bases/e.example.com_epsilons.yaml", want: "maxLength: 41"},
		{name: "an orphan of a package that did not change, a tag changed elsewhere", change: func(t *testing.T) {
			// the copy's header names api/c/v1, which still generates the
			// original: a full run removes the copy, and so must a run that
			// replays api/c/v1
			crd := filepath.Join(dir, "config", "crd", "bases", "c.example.com_gammas.yaml")
			testkit.WriteFile(t, filepath.Join(filepath.Dir(crd), "c.example.com_olds.yaml"), testkit.ReadFile(t, crd))
			testkit.Edit(t, file("e", "v1", "types.go"), "max=41", "max=42")
		}, incremental: true, moved: "config/crd/bases/e.example.com_epsilons.yaml", want: "maxLength: 42", gone: "config/crd/bases/c.example.com_olds.yaml"},
		{name: "a doc comment of a type another package uses", change: func(t *testing.T) {
			testkit.Edit(t, file("a", "v1", "types.go"), "Count is how many.", "Count is how many, at least one.")
		}, incremental: true, moved: "config/crd/bases/b.example.com_beta.yaml", want: "how many, at least one"},
		{name: "a tag of a type another package uses", change: func(t *testing.T) {
			testkit.Edit(t, file("a", "v1", "types.go"), "lte=100", "lte=99")
		}, incremental: true, moved: "config/crd/bases/b.example.com_beta.yaml", want: "maximum: 99"},
		{name: "a tag in one package of a group of two", change: func(t *testing.T) {
			testkit.Edit(t, file("g", "v2", "types.go"), "max=9", "max=8")
		}, incremental: true, moved: "config/crd/bases/g.example.com_deltas.yaml", want: "maxLength: 8"},
		{name: "a type moved between packages", change: func(t *testing.T) {
			c := testkit.ReadFile(t, file("c", "v1", "types.go"))
			at := strings.Index(c, "// Note is a note.")
			note := c[at:]
			c = strings.Replace(c[:at], "Note Note   `json", "Note alphav1.Note `json", 1)
			c = strings.Replace(c, "import (\n", "import (\n\talphav1 \"example.com/incremental/api/a/v1\"\n", 1)
			testkit.WriteFile(t, file("c", "v1", "types.go"), c)
			testkit.WriteFile(t, file("a", "v1", "note.go"), "package v1\n\n"+note)
		}, incremental: true, moved: "api/a/v1/zz_generated.deepcopy.go", want: "func (in *Note) DeepCopy() *Note"},
		{name: "a package removed", change: func(t *testing.T) {
			if err := os.RemoveAll(file("e")); err != nil {
				t.Fatal(err)
			}
		}, incremental: true, gone: "config/crd/bases/e.example.com_epsilons.yaml"},
		{name: "a package added", change: func(t *testing.T) {
			testkit.WriteFile(t, file("f", "v1", "types.go"), strings.ReplaceAll(strings.ReplaceAll(testkit.ReadFile(t, filepath.Join("testdata", "incremental", "api", "e", "v1", "types.go")), "Epsilon", "Phi"), "e.example.com", "f.example.com"))
		}, incremental: true, moved: "api/f/v1/zz_generated.deepcopy.go", want: "func (in *Phi) DeepCopyObject()"},
		{name: "a generated file edited by hand", change: func(t *testing.T) {
			testkit.Edit(t, file("f", "v1", "zz_generated.deepcopy.go"), "func (in *Phi) DeepCopyObject()", "func (in *Phi) DeepCopyObjectX()")
		}, incremental: true, moved: "api/f/v1/zz_generated.deepcopy.go", want: "func (in *Phi) DeepCopyObject()"},
		{name: "agree turned on in modelgen.yaml", change: func(t *testing.T) {
			testkit.WriteFile(t, file("g", "v1", "modelgen.yaml"), "agree: true\n")
		}, moved: "api/g/v1/zz_generated.modelgen_agree_test.go", want: "Code generated by modelgen"},
		{name: "a modelgen.yaml edited", change: func(t *testing.T) {
			testkit.WriteFile(t, file("c", "v1", "modelgen.yaml"), "agree: true\ntitle: Gammas moved\n")
		}, moved: "api/c/v1/openapi.yaml", want: "title: Gammas moved"},
	}
	sameAsFullRuns(t, dir, gen, cases)
}

// controllerProject is incrementalProject shaped as a kubebuilder
// project (testdata/incrementalmod over testdata/incremental): a
// controller package that imports every API package and carries
// +kubebuilder:rbac markers, a webhook package with a
// +kubebuilder:webhook marker, and a main package; generate runs on
// ./..., so the run writes the operator's role and the webhook
// configuration, files of the whole module.
func controllerProject(t *testing.T) (dir string, gen func(extra ...string) result) {
	t.Helper()
	dir = t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "incremental"), dir)
	testkit.CopyTree(t, filepath.Join("testdata", "incrementalmod"), dir)
	gen = settle(t, dir, "example.com/incremental", "./...")
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("recording run: %v", r)
	}
	return dir, gen
}

// TestIncrementalRunRebuildsTheModuleFiles: in a kubebuilder-shaped
// project, a run after a change in some packages re-renders the operator's
// role and the webhook configuration from the loaded packages' markers and
// the replayed packages' recorded parts, and leaves the tree, and prints,
// what a full run does: after an rbac marker changed in the controller,
// after a tag changed in an API package the controller imports (the
// controller is loaded again, the other API packages are not), and after
// a webhook marker changed.
func TestIncrementalRunRebuildsTheModuleFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module many times (-short)")
	}
	dir, gen := controllerProject(t)
	controller := filepath.Join(dir, "internal", "controller", "controller.go")
	webhook := filepath.Join(dir, "internal", "webhook", "v1", "webhook.go")
	sameAsFullRuns(t, dir, gen, []incrementalCase{
		{name: "an rbac marker of the controller", change: func(t *testing.T) {
			testkit.Edit(t, controller, "resources=events,verbs=create;patch", "resources=events;configmaps,verbs=create;patch")
		}, incremental: true, moved: "config/rbac/role.yaml", want: "- configmaps"},
		{name: "a tag of an API package the controller imports", change: func(t *testing.T) {
			testkit.Edit(t, filepath.Join(dir, "api", "e", "v1", "types.go"), "max=40", "max=41")
		}, incremental: true, moved: "config/crd/bases/e.example.com_epsilons.yaml", want: "maxLength: 41"},
		{name: "a webhook marker", change: func(t *testing.T) {
			testkit.Edit(t, webhook, "failurePolicy=fail", "failurePolicy=ignore")
		}, incremental: true, moved: "config/webhook/manifests.yaml", want: "failurePolicy: Ignore"},
		{name: "an rbac marker of the webhook package removed", change: func(t *testing.T) {
			testkit.Edit(t, webhook, "// +kubebuilder:rbac:groups=a.example.com,resources=alphas/finalizers,verbs=update\n", "")
		}, incremental: true},
	})
}

// TestARunAfterAnAPIChangeLoadsFewPackages: after a tag changed in one API
// package of a kubebuilder-shaped project, the run loads that package and
// the packages that import it (the controller, the main package) and
// replays the others, although the controller imports them all and every
// run writes the module's role and webhook configuration.
func TestARunAfterAnAPIChangeLoadsFewPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module (-short)")
	}
	dir, gen := controllerProject(t)
	testkit.Edit(t, filepath.Join(dir, "api", "e", "v1", "types.go"), "max=40", "max=41")
	age(t, dir)
	if r := gen(); r.code != cli.ExitOK {
		t.Fatal(r)
	}
	// nine roots: six API packages, the controller, the webhook package,
	// main; e, the controller and main are loaded
	if got := cli.LastReplayed(); got != 6 {
		t.Errorf("the run replayed %d packages, want 6 (all but api/e/v1, the controller and main)", got)
	}
}

// incrementalCase is a change after which an incremental run must do what
// a full run does.
type incrementalCase struct {
	name   string
	change func(t *testing.T)
	// incremental: the run replays some packages (else it is a full one)
	incremental bool
	// moved is a file (relative to dir) the change must show in, want
	// what it must hold
	moved, want string
	// gone is a file (relative to dir) the run must remove
	gone string
}

// sameAsFullRuns applies the cases in turn on the recorded project in dir
// and compares each run (incremental or not, as the case says) with a
// full run (the cache off) from the same tree: every byte of the tree,
// stdout and stderr. The record the last run leaves must be whole: a run
// with nothing to change then skips the backends.
func sameAsFullRuns(t *testing.T, dir string, gen func(extra ...string) result, cases []incrementalCase) {
	t.Helper()
	saved := t.TempDir()
	for _, c := range cases {
		c.change(t)
		age(t, dir)
		testkit.CopyTree(t, dir, saved)
		got, incremental := replays(func() result { return gen() })
		gotTree := testkit.Snapshot(t, dir)
		// the same change, from the same tree, with a full run
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		testkit.CopyTree(t, saved, dir)
		if err := os.RemoveAll(saved); err != nil {
			t.Fatal(err)
		}
		want := withoutCache(t, gen)
		if want.code != cli.ExitOK {
			t.Fatalf("%s: the full run failed: %v", c.name, want)
		}
		if incremental != c.incremental {
			t.Errorf("%s: incremental %v, want %v", c.name, incremental, c.incremental)
		}
		if got.String() != want.String() {
			t.Errorf("%s: the run printed\n%v\nwhere a full run prints\n%v", c.name, got, want)
		}
		testkit.SameTree(t, c.name, gotTree, testkit.Snapshot(t, dir))
		if c.moved != "" && !strings.Contains(gotTree[c.moved], c.want) {
			t.Errorf("%s: %s does not show the change (%q)", c.name, c.moved, c.want)
		}
		if _, ok := gotTree[c.gone]; c.gone != "" && ok {
			t.Errorf("%s: %s is still there", c.name, c.gone)
		}
		age(t, dir)
	}
	// the record an incremental run leaves is whole: nothing to change
	// skips the backends
	again, hit := hits(func() result { return gen() })
	if !hit || again.String() != withoutCache(t, gen).String() {
		t.Errorf("the run after the changes: hit %v, %v", hit, again)
	}
}

// BenchmarkIncrementalRun: on 50 API packages of 20 kinds each (a group
// each), a full run (the cache off) against a run after a tag of one
// package changed (it redoes that package and replays the other 49).
//
//	go test -run '^$' -bench IncrementalRun -benchtime 3x ./cmd/internal/cli/
func BenchmarkIncrementalRun(b *testing.B) {
	dir := b.TempDir()
	for p := 1; p <= 50; p++ {
		testkit.WriteFile(b, filepath.Join(dir, "api", fmt.Sprintf("p%02d", p), "v1", "types.go"), benchPackage(p, 20))
	}
	gen := settle(b, dir, "example.com/bench", "./api/...")
	if r := gen(); r.code != cli.ExitOK {
		b.Fatalf("recording run: %v", r)
	}
	edited := filepath.Join(dir, "api", "p25", "v1", "types.go")
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			if r := withoutCache(b, gen); r.code != cli.ExitOK {
				b.Fatal(r)
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		n := 0
		for b.Loop() {
			b.StopTimer()
			n++
			text := testkit.ReadFile(b, edited)
			at := strings.Index(text, "max=")
			end := at + strings.IndexByte(text[at:], '"')
			testkit.WriteFile(b, edited, text[:at]+fmt.Sprintf("max=%d", 100+n)+text[end:])
			old := time.Now().Add(-time.Hour)
			os.Chtimes(edited, old, old)
			b.StartTimer()
			r, incremental := replays(func() result { return gen() })
			if r.code != cli.ExitOK || !incremental {
				b.Fatalf("incremental %v: %v", incremental, r)
			}
		}
	})
}

// benchPackage is the source of package p of the benchmark: kinds kinds,
// each with a spec (string bounds, an optional minimum, a map, a list of
// a shared struct, an enum) and a list type.
func benchPackage(p, kinds int) string {
	var s strings.Builder
	fmt.Fprintf(&s, "// Package v1 is a synthetic API.\n//\n// +groupName=p%02d.bench.example.com\n// +kubebuilder:object:generate=true\npackage v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n", p)
	s.WriteString("// Item is shared by every kind.\ntype Item struct {\n\tName  string `json:\"name\" validate:\"required,max=40\"`\n\tValue string `json:\"value,omitempty\"`\n}\n\n")
	for i := range kinds {
		k := fmt.Sprintf("Kind%02d", i)
		fmt.Fprintf(&s, "// %s is a synthetic kind.\n//\n// +kubebuilder:object:root=true\n// +kubebuilder:subresource:status\ntype %s struct {\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\n\tSpec %sSpec `json:\"spec\"`\n}\n\n", k, k, k)
		fmt.Fprintf(&s, "// %sSpec is the desired state.\ntype %sSpec struct {\n\tName     string            `json:\"name\" validate:\"required,max=63\"`\n\tReplicas *int32            `json:\"replicas,omitempty\" validate:\"omitempty,gte=0\"`\n\tLabels   map[string]string `json:\"labels,omitempty\"`\n\tItems    []Item            `json:\"items,omitempty\"`\n\tMode     string            `json:\"mode,omitempty\" validate:\"omitempty,oneof=Fast Slow\"`\n}\n\n", k, k)
		fmt.Fprintf(&s, "// %sList is a list.\n//\n// +kubebuilder:object:root=true\ntype %sList struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ListMeta `json:\"metadata,omitempty\"`\n\tItems           []%s `json:\"items\"`\n}\n\n", k, k, k)
	}
	return s.String()
}

// TestIncrementalRunRebuildsTheAccessPolicies: with two packages whose
// kinds carry access rules and a tenant key (testdata/incrementalaccess
// over testdata/incremental), each writes its kind's admission policy and
// both claim the module's AccessPolicy files (its CRD and default object,
// named by the first package by path). After a change of access tags, a
// tenant key removed, a package turned to policy: never and the first
// claiming package removed, a run that replays the other packages' claims
// leaves the tree, and prints, what a full run does.
func TestIncrementalRunRebuildsTheAccessPolicies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module many times (-short)")
	}
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "incremental"), dir)
	testkit.CopyTree(t, filepath.Join("testdata", "incrementalaccess"), dir)
	gen := settle(t, dir, "example.com/incremental", "./api/...")
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("recording run: %v", r)
	}
	file := func(parts ...string) string { return filepath.Join(append([]string{dir, "api"}, parts...)...) }
	cases := []incrementalCase{
		{name: "an access tag changed", change: func(t *testing.T) {
			testkit.Edit(t, file("h", "v1", "types.go"), `access:"read=*,write=manager"`, `access:"read=*,write=owner"`)
		}, incremental: true, moved: "config/policy/h.example.com_hotel_access.yaml", want: `variables.tagRoles.exists(r, r in ["owner"]) || variables.overWrites.exists(w,
      w.exists(p, p in ["*", "spec.rate", "spec"]))`},
		{name: "a tenant key removed", change: func(t *testing.T) {
			testkit.Edit(t, file("k", "v1", "types.go"), ` access:"tenant"`, "")
		}, incremental: true, gone: "config/policy/k.example.com_kiosk_access.yaml"},
		{name: "a tenant key added", change: func(t *testing.T) {
			testkit.Edit(t, file("k", "v1", "types.go"), "`json:\"tenant\" validate:\"required,max=63\"`", "`json:\"tenant\" validate:\"required,max=63\" access:\"tenant\"`")
		}, incremental: true, moved: "config/policy/k.example.com_kiosk_access.yaml", want: "spec.tenant"},
		{name: "the first package claiming the AccessPolicy files removed", change: func(t *testing.T) {
			if err := os.RemoveAll(file("h")); err != nil {
				t.Fatal(err)
			}
		}, incremental: true, gone: "config/policy/h.example.com_hotel_access.yaml", moved: "config/policy/modelgen.io_accesspolicies.yaml", want: "kind: CustomResourceDefinition"},
	}
	sameAsFullRuns(t, dir, gen, cases)
}
