// Package cli is modelgen's command line, testable in process: Run takes the
// arguments and streams and returns the exit code.
package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/modelgen/modelgen/gate"
	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/all"
	"github.com/modelgen/modelgen/internal/devprof"
	"github.com/modelgen/modelgen/internal/runcache"
	"github.com/modelgen/modelgen/internal/writer"
	"github.com/modelgen/modelgen/model"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitFail  = 1 // diagnostics, stale files, gate violations
	ExitUsage = 2
)

const usage = `modelgen turns Go structs with validate, state and access tags into CRDs,
an OpenAPI document, state machines and field filters, and gates releases.

Usage:
  modelgen generate [flags] [packages]   generate everything for the packages
  modelgen gate [flags]                  check a contract change against its version bump
  modelgen controller-gen [args]         controller-gen v0.23.0's command line (docs/controller-gen.md)
  modelgen version                       print the version

Examples:
  modelgen generate ./...
  modelgen generate --check ./...        exit 1 when checked-in output is stale (CI)
  //go:generate go run github.com/modelgen/modelgen/cmd/modelgen generate .
  modelgen gate --base git:v1.2.0:openapi.yaml --revision openapi.yaml --go-mod go.mod

Run 'modelgen generate -h' or 'modelgen gate -h' for the flags.
`

// Run executes modelgen with the given arguments.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer devprof.Start()()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "modelgen: internal error: %v\n%s", r, debug.Stack())
			code = ExitUsage
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "generate":
		return generate(args[1:], stdout, stderr)
	case "gate":
		return gate.Command(args[1:], stdout, stderr)
	case "controller-gen":
		return controllerGen(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "modelgen", Version())
		return ExitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(stderr, "modelgen: unknown command %q\n\n%s", args[0], usage)
	return ExitUsage
}

// Version is the module version modelgen was built from.
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

type generateFlags struct {
	check      bool
	only       string
	title      string
	apiVersion string
	openapiOut string
	crdDir     string
	agree      bool
	dir        string
	headerFile string
	cpuProfile string
	memProfile string
	quiet      bool
}

// generateFlagSet declares the flags of generate into fl.
func generateFlagSet(fl *generateFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	if stderr != nil {
		fs.SetOutput(stderr)
	}
	fs.BoolVar(&fl.check, "check", false, "write nothing; exit 1 and list the files whose checked-in content is stale")
	fs.StringVar(&fl.only, "only", "", "comma-separated backends to run (default all: "+strings.Join(all.Names(), ",")+")")
	fs.StringVar(&fl.title, "title", "", "OpenAPI info.title (default: modelgen.yaml, else the API group or package path)")
	fs.StringVar(&fl.apiVersion, "api-version", "", "OpenAPI info.version (default: modelgen.yaml, else 0.1.0)")
	fs.StringVar(&fl.openapiOut, "openapi-out", "", "OpenAPI document path, relative to the package directory (default openapi.yaml)")
	fs.StringVar(&fl.crdDir, "crd-dir", "", "CRD directory, relative to the module root (default config/crd/bases)")
	fs.BoolVar(&fl.agree, "agree", false, "also generate an agreement test into each package")
	fs.StringVar(&fl.dir, "C", "", "run as if in this directory")
	fs.StringVar(&fl.headerFile, "header-file", "", "a file of Go comments (a licence) to put at the top of generated Go files (default: modelgen.yaml header, else the header the file on disk has)")
	fs.StringVar(&fl.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	fs.StringVar(&fl.memProfile, "memprofile", "", "write a heap profile at the end of the run to this file (go tool pprof)")
	fs.BoolVar(&fl.quiet, "q", false, "no progress lines (a run that lasts over 2s names each phase on stderr)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: modelgen generate [flags] [packages]\n\nSettings per package may also live in modelgen.yaml beside the package\n(title, version, description, openapi, crdDir, rbacDir, docsDir, roleViews, agree,\nheader, webhook: auto|always|never, webhookDir, webhookService, webhookCertificate,\npolicy: auto|never, policyDir, policyRolePrefix, policyTenantFrom: group|extra|namespace,\npolicyTenantPrefix, policyTenantExtra, policyServiceAccounts, policyExemptGroups,\npolicyExemptUsers, policyBookkeepingAnnotations, policyBookkeepingLabels,\npolicyParamName).\n\nA run whose inputs have not moved since the last successful run of the same\ncommand line here skips generating (MODELGEN_CACHE: the cache directory, or off;\ndocs/files.md).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

func generate(args []string, stdout, stderr io.Writer) int {
	var fl generateFlags
	fs := generateFlagSet(&fl, stderr)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitUsage
	}
	selected, err := all.Select(fl.only)
	if err != nil {
		fmt.Fprintln(stderr, "modelgen:", err)
		return ExitUsage
	}
	stop, err := startProfiles(fl.cpuProfile, fl.memProfile)
	if err != nil {
		fmt.Fprintln(stderr, "modelgen:", err)
		return ExitUsage
	}
	defer stop()
	pr := startProgress(stderr, fl.quiet)
	defer pr.done()
	files := newConfigFiles()
	run := all.Run{
		Load:     model.Config{Dir: fl.dir, Patterns: fs.Args(), ValidatorKeywords: files.validatorKeywords},
		Backends: selected,
		Only:     fl.only != "",
		Settings: func(m *model.Model) (map[string]gen.Config, model.Diagnostics, error) {
			keys, err := files.keys()
			if err != nil {
				return nil, nil, err
			}
			if err := checkFlagPaths(m, keys, fl); err != nil {
				return nil, nil, err
			}
			configs, diags := loadConfigs(m, files, keys, fl)
			return configs, diags, nil
		},
		Inputs:   func(m *model.Model, configs map[string]gen.Config) []string { return settingFiles(m, configs, fl) },
		CacheKey: cacheKey(fl, fs.Args()),
		Headers: func(m *model.Model, configs map[string]gen.Config) (func(string) string, error) {
			headers, err := headerTexts(m, configs, fl)
			return func(owner string) string { return headers[owner] }, err
		},
		Remove: true,
		Check:  fl.check,
		Phase:  pr.phase,
	}
	res := run.Execute()
	pr.done()
	switch res.Failed {
	case all.StepLoad, all.StepSettings:
		fmt.Fprintln(stderr, "modelgen:", res.Err)
		return ExitUsage
	}
	if res.Cached {
		cacheHits.Add(1)
	}
	if len(res.Replayed) > 0 {
		replayedRuns.Add(1)
	}
	lastReplayed.Store(int64(len(res.Replayed)))
	for _, d := range res.Diags {
		fmt.Fprintln(stderr, d)
	}
	if res.Diags.HasErrors() {
		fmt.Fprintf(stderr, "modelgen: %d error(s); nothing written\n", res.Diags.Count(model.Error))
		return ExitFail
	}
	switch res.Failed {
	case all.StepHeaders:
		fmt.Fprintln(stderr, "modelgen: header:", res.Err)
		return ExitUsage
	case all.StepWrite:
		fmt.Fprintln(stderr, "modelgen:", res.Err)
		return ExitFail
	}
	for _, f := range res.TakenOver {
		if f.Tool == "controller-gen" {
			fmt.Fprintf(stderr, "%s: warning: controller-gen wrote this file, and modelgen generate writes it too: run one of the two (modelgen generate writes everything controller-gen's crd, object, rbac and webhook write; docs/controller-gen.md)\n", relative(f.Path))
			continue
		}
		if f.Tool == "" {
			fmt.Fprintf(stderr, "%s: warning: modelgen generate replaces this file, which has no generated-code line of modelgen's or of another generator's (controller-gen's rbac and webhook write none): if a tool writes it, run one of the two; if it was written by hand, it is replaced\n", relative(f.Path))
			continue
		}
		fmt.Fprintf(stderr, "%s: warning: %s wrote this file, and modelgen generate writes it too: run one of the two for this package (leave it out of %s's run)\n", relative(f.Path), f.Tool, f.Tool)
	}
	w := res.Written
	summary(stdout, res.Counts, res.Diags.Count(model.Warning)+len(res.TakenOver), w, fl.check)
	for _, s := range w.Emptied {
		fmt.Fprintf(stderr, "%s: no longer generated; go generate still lists it, so it is excluded from the build now and the next run removes it\n", relative(s))
	}
	if fl.check && len(w.Stale)+len(w.Orphans) > 0 {
		generated := map[string][]byte{}
		for _, f := range res.Files {
			generated[filepath.Clean(f.Path)] = f.Data
		}
		for _, s := range w.Stale {
			fmt.Fprintf(stderr, "%s: stale: run modelgen generate\n", relative(s))
			fmt.Fprint(stderr, writer.Diff(relative(s), s, generated[s], diffLines))
		}
		for _, s := range w.Orphans {
			fmt.Fprintf(stderr, "%s: no longer generated: run modelgen generate to remove it\n", relative(s))
		}
		return ExitFail
	}
	return ExitOK
}

// cacheHits counts the runs that found their record (for the tests).
var cacheHits atomic.Int64

// replayedRuns counts the incremental runs: those that replayed some
// packages (for the tests).
var replayedRuns atomic.Int64

// lastReplayed is how many packages the last generate run replayed (for
// the tests).
var lastReplayed atomic.Int64

// cacheKey names the record of a command line: the working directory, the
// patterns and every flag that decides what is generated. The flags left
// out (--check, -q, the profiles) change what is reported or measured,
// never the files (TestEveryFlagIsInTheKey).
func cacheKey(fl generateFlags, patterns []string) string {
	wd, _ := os.Getwd()
	parts := []string{"generate", wd, fl.dir, fl.only, fl.title, fl.apiVersion, fl.openapiOut, fl.crdDir, strconv.FormatBool(fl.agree), fl.headerFile, "--"}
	return runcache.Key(append(parts, patterns...)...)
}

// settingFiles are the files a run reads for its settings: each
// package's modelgen.yaml (there or not) and the header files.
func settingFiles(m *model.Model, configs map[string]gen.Config, fl generateFlags) []string {
	var out []string
	for _, pk := range m.Packages {
		out = append(out, filepath.Join(pk.Dir, ConfigFile))
		if h := configs[pk.Path].Header; h != "" {
			out = append(out, filepath.Join(pk.Dir, h))
		}
	}
	if fl.headerFile != "" {
		path := fl.headerFile
		if fl.dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(fl.dir, path)
		}
		if abs, err := filepath.Abs(path); err == nil {
			out = append(out, abs)
		}
	}
	return out
}

// summary is the run's one line on stdout; warnings counts every warning
// printed on stderr (the diagnostics' and the files taken over).
func summary(w io.Writer, n all.Counts, warnings int, res writer.Result, check bool) {
	verb, written, gone := "written", len(res.Written), fmt.Sprintf("%d removed", len(res.Removed))
	if check {
		verb, written, gone = "stale", len(res.Stale), fmt.Sprintf("%d no longer generated", len(res.Orphans))
	}
	fmt.Fprintf(w, "modelgen: %d types, %d fields, %d constraints, %d warnings; %d files %s, %d unchanged, %s\n",
		n.Types, n.Fields, n.Checks, warnings, written, verb, len(res.Unchanged), gone)
}

func relative(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// loadConfigs reads modelgen.yaml beside each package and applies flags.
func loadConfigs(m *model.Model, files *configFiles, keys []gen.Key, fl generateFlags) (map[string]gen.Config, model.Diagnostics) {
	var diags model.Diagnostics
	out := map[string]gen.Config{}
	for _, pk := range m.Packages {
		cfg := gen.DefaultConfig(pk)
		path := filepath.Join(pk.Dir, ConfigFile)
		var set map[string]model.Pos
		f := files.read(path)
		diags.Add(f.diags)
		if f.ok {
			var d model.Diagnostics
			set, d = readConfig(path, f.data, keys, &cfg)
			diags.Add(d)
		}
		override(&cfg.Title, fl.title)
		override(&cfg.Version, fl.apiVersion)
		override(&cfg.OpenAPI, fl.openapiOut)
		override(&cfg.CRDDir, fl.crdDir)
		if fl.agree {
			var err error
			if cfg, err = all.Set(cfg, "agree", true); err != nil {
				diags.Errorf(pk.Pos(), "--agree: %v", err)
			}
		}
		diags.Add(checkPaths(pk, keys, &cfg, set, fl))
		diags.Add(checkHeader(pk, &cfg, set, fl))
		diags.Add(checkValidatorKeywords(&cfg, set))
		out[pk.Path] = cfg
	}
	return out, diags
}

func override(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}
