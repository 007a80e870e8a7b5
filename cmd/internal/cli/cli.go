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
	"strings"
	"time"

	"github.com/modelgen/modelgen/gate"
	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/all"
	policygen "github.com/modelgen/modelgen/gen/policy"
	"github.com/modelgen/modelgen/internal/typecheck"
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
	pr.phase("loading packages")
	start := time.Now()
	hashing := startHashing(cacheKey(fl, fs.Args()))
	lcfg := model.Config{Dir: fl.dir, Patterns: fs.Args(), TypesOnly: schemasOnly(selected), ValidatorKeywords: validatorKeywords}
	if hashing != nil {
		lcfg.Listed = hashing.listed
	}
	m, err := model.Load(lcfg)
	if err != nil {
		fmt.Fprintln(stderr, "modelgen:", err)
		return ExitUsage
	}
	if err := checkFlagPaths(m, fl); err != nil {
		fmt.Fprintln(stderr, "modelgen:", err)
		return ExitUsage
	}
	configs, diags := loadConfigs(m, fl)
	var files []gen.File
	var run *cached
	var extra []string
	if !diags.HasErrors() && !m.Diags.HasErrors() {
		run = lookup(hashing, m, configs, fl, start)
	}
	switch {
	case run != nil && run.hit:
		// nothing the backends read has moved: they would generate what
		// is on disk, with the diagnostics they gave then
		files, diags = run.files, run.diags
		cacheHits.Add(1)
	case !diags.HasErrors():
		// the dependencies are type-checked while the backends run, when
		// a backend of the run may write Go code (--only crd writes none,
		// and then costs what controller-gen crd costs)
		var check *typecheck.Check
		if writesGo(m, configs, selected) {
			check = typecheck.Start(m)
		}
		var d model.Diagnostics
		pr.phase("generating")
		files, d = all.Run(m, configs, selected)
		diags.Add(d)
		if !diags.HasErrors() && check != nil {
			// never write Go code that does not compile beside the user's
			pr.phase("type-checking with the generated code")
			diags.Add(check.Compile(gen.GoFiles(files)))
			extra = check.Extra()
		}
	default:
		diags.Add(m.Diags)
	}
	pr.done()
	diags = diags.Sorted()
	for _, d := range diags {
		fmt.Fprintln(stderr, d)
	}
	if diags.HasErrors() {
		fmt.Fprintf(stderr, "modelgen: %d error(s); nothing written\n", diags.Count(model.Error))
		return ExitFail
	}
	headers, err := headerTexts(m, configs, fl)
	if err == nil {
		files, err = writer.Headers(files, func(owner string) string { return headers[owner] })
	}
	if err != nil {
		fmt.Fprintln(stderr, "modelgen: header:", err)
		return ExitUsage
	}
	res, err := writer.SyncScope(files, fl.check, scope(m, configs, selected, fl.only, fl.dir, fs.Args()))
	if err != nil {
		fmt.Fprintln(stderr, "modelgen:", err)
		return ExitFail
	}
	for _, p := range res.ControllerGen {
		fmt.Fprintf(stderr, "%s: warning: controller-gen wrote this file, and modelgen generate writes it too: run one of the two (modelgen generate writes everything controller-gen's crd, object, rbac and webhook write; docs/controller-gen.md)\n", relative(p))
	}
	run.save(writer.Stamp(files), diags, extra)
	summary(stdout, m, diags, res, fl.check)
	for _, s := range res.Emptied {
		fmt.Fprintf(stderr, "%s: no longer generated; go generate still lists it, so it is excluded from the build now and the next run removes it\n", relative(s))
	}
	if fl.check && len(res.Stale)+len(res.Orphans) > 0 {
		generated := map[string][]byte{}
		for _, f := range writer.Stamp(files) {
			generated[filepath.Clean(f.Path)] = f.Data
		}
		for _, s := range res.Stale {
			fmt.Fprintf(stderr, "%s: stale: run modelgen generate\n", relative(s))
			fmt.Fprint(stderr, writer.Diff(relative(s), s, generated[s], diffLines))
		}
		for _, s := range res.Orphans {
			fmt.Fprintf(stderr, "%s: no longer generated: run modelgen generate to remove it\n", relative(s))
		}
		return ExitFail
	}
	return ExitOK
}

// scope is what the run may remove: files of its packages, generated by
// the backends that ran, where the backends declare their outputs, in the
// packages' directories and wherever the run writes; YAML anywhere in the
// packages' modules (output moved elsewhere in the module).
func scope(m *model.Model, configs map[string]gen.Config, selected []gen.Generator, only, dir string, patterns []string) writer.Scope {
	sc := writer.Scope{Packages: map[string]string{}, Outputs: gen.Declared(m, configs, all.Backends()), Modules: wholeModules(m, dir, patterns)}
	for _, pk := range m.Packages {
		sc.Packages[pk.Path] = pk.Dir
		if pk.ModDir != "" {
			sc.Roots = append(sc.Roots, pk.ModDir)
		}
	}
	if only != "" {
		sc.Backends = map[string]bool{}
		for _, g := range selected {
			sc.Backends[g.Name()] = true
		}
	}
	return sc
}

// schemasOnly: every backend of the run reads the types' schemas and
// markers only (--only crd, role, webhookconfig), so the load checks only
// what the types' JSON fields reach (model.Config.TypesOnly).
func schemasOnly(selected []gen.Generator) bool {
	for _, g := range selected {
		switch g.Name() {
		case "crd", "role", "webhookconfig":
		default:
			return false
		}
	}
	return len(selected) > 0
}

// writesGo reports whether a backend of the run declares a Go output.
func writesGo(m *model.Model, configs map[string]gen.Config, selected []gen.Generator) bool {
	for _, o := range gen.Declared(m, configs, selected) {
		if o.Format == gen.FormatGo {
			return true
		}
	}
	return false
}

// wholeModules lists the modules whose every package the patterns name: a
// pattern ending in /... (or ...) whose directory is the module's root or
// above it, or whose import path is the module's or a prefix of it. Only a
// run over a whole module may remove the files generated from the module
// (gen.ModuleOwner): a go:generate line per package runs on one package
// and cannot tell whether the others still generate them.
func wholeModules(m *model.Model, dir string, patterns []string) map[string]bool {
	out := map[string]bool{}
	if dir == "" {
		dir = "."
	}
	for _, r := range m.Loaded {
		mod := r.Module
		if mod == nil || mod.Path == "" || mod.Dir == "" || out[mod.Path] {
			continue
		}
		for _, p := range patterns {
			if coversModule(p, dir, mod.Path, mod.Dir) {
				out[mod.Path] = true
				break
			}
		}
	}
	return out
}

func coversModule(pattern, dir, modPath, modDir string) bool {
	base, ok := strings.CutSuffix(pattern, "...")
	if !ok || strings.Contains(base, "...") {
		return false
	}
	base = strings.TrimSuffix(base, "/")
	if base == "" {
		return false // "...": every package go list knows, not a directory
	}
	if base == "." || base == ".." || strings.HasPrefix(base, "./") || strings.HasPrefix(base, "../") || filepath.IsAbs(base) {
		if !filepath.IsAbs(base) {
			base = filepath.Join(dir, base)
		}
		abs, err := filepath.Abs(base)
		if err != nil {
			return false
		}
		rel, err := filepath.Rel(abs, modDir)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	}
	return modPath == base || strings.HasPrefix(modPath, base+"/")
}

// policyDir is where a package's admission policies go.
func policyDir(cfg gen.Config) string {
	if cfg.PolicyDir != "" {
		return cfg.PolicyDir
	}
	return policygen.DefaultDir
}

func summary(w io.Writer, m *model.Model, diags model.Diagnostics, res writer.Result, check bool) {
	types, fields, checks := 0, 0, 0
	for _, t := range m.SortedTypes() {
		types++
		for _, f := range t.Fields {
			fields++
			if f.Validate != nil {
				checks += countChecks(f.Validate.Root)
			}
		}
	}
	verb, n, gone := "written", len(res.Written), fmt.Sprintf("%d removed", len(res.Removed))
	if check {
		verb, n, gone = "stale", len(res.Stale), fmt.Sprintf("%d no longer generated", len(res.Orphans))
	}
	fmt.Fprintf(w, "modelgen: %d types, %d fields, %d constraints, %d warnings; %d files %s, %d unchanged, %s\n",
		types, fields, checks, diags.Count(model.Warning), n, verb, len(res.Unchanged), gone)
}

func countChecks(lv *model.Level) int {
	if lv == nil {
		return 0
	}
	return len(lv.Checks) + countChecks(lv.Dive) + countChecks(lv.Keys)
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
func loadConfigs(m *model.Model, fl generateFlags) (map[string]gen.Config, model.Diagnostics) {
	var diags model.Diagnostics
	out := map[string]gen.Config{}
	for _, pk := range m.Packages {
		cfg := gen.DefaultConfig(pk)
		path := filepath.Join(pk.Dir, ConfigFile)
		var set map[string]model.Pos
		if data, ok := readConfigFile(path, &diags); ok {
			var d model.Diagnostics
			set, d = readConfig(path, data, &cfg)
			diags.Add(d)
		}
		override(&cfg.Title, fl.title)
		override(&cfg.Version, fl.apiVersion)
		override(&cfg.OpenAPI, fl.openapiOut)
		override(&cfg.CRDDir, fl.crdDir)
		cfg.Agree = cfg.Agree || fl.agree
		diags.Add(checkPaths(pk, &cfg, set, fl))
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
