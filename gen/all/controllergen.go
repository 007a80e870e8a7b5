package all

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/applyconfiguration"
	ctcrd "sigs.k8s.io/controller-tools/pkg/crd"
	ctdeepcopy "sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/markers"
	ctrbac "sigs.k8s.io/controller-tools/pkg/rbac"
	"sigs.k8s.io/controller-tools/pkg/schemapatcher"
	ctwebhook "sigs.k8s.io/controller-tools/pkg/webhook"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/applyconfig"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/gen/ctrun"
	"github.com/modelgen/modelgen/gen/deepcopy"
	"github.com/modelgen/modelgen/gen/role"
	"github.com/modelgen/modelgen/gen/webhookconfig"
	"github.com/modelgen/modelgen/internal/runcache"
	"github.com/modelgen/modelgen/model"
)

// controller-gen's generators and output rules, by their names on its
// command line; the option grammar is controller-tools' own (its markers
// registry parses every argument), so an argument means here what it means
// to controller-gen v0.23.0.
var (
	ctGenerators = map[string]genall.Generator{
		"crd":                ctcrd.Generator{},
		"rbac":               ctrbac.Generator{},
		"object":             ctdeepcopy.Generator{},
		"webhook":            ctwebhook.Generator{},
		"applyconfiguration": applyconfiguration.Generator{},
		"schemapatch":        schemapatcher.Generator{},
	}
	ctOutputRules = map[string]genall.OutputRule{
		"dir":       genall.OutputToDirectory(""),
		"none":      genall.OutputToNothing,
		"stdout":    genall.OutputToStdout,
		"artifacts": genall.OutputArtifacts{},
	}
)

// ControllerGen is one parsed controller-gen command line: its generators
// with their options, its output rules and its paths.
type ControllerGen struct {
	args     []string
	gens     map[string]any // generator name -> its parsed options
	order    []string
	rules    map[string]genall.OutputRule
	fallback genall.OutputRule // output:<rule>, for generators without one
	paths    []string
}

// ctRegistry is controller-gen's options registry.
func ctRegistry() (*markers.Registry, error) {
	reg := &markers.Registry{}
	for name, g := range ctGenerators {
		if err := reg.Register(markers.Must(markers.MakeDefinition(name, markers.DescribesPackage, g))); err != nil {
			return nil, err
		}
		for rule, r := range ctOutputRules {
			if err := reg.Register(markers.Must(markers.MakeDefinition("output:"+name+":"+rule, markers.DescribesPackage, r))); err != nil {
				return nil, err
			}
		}
	}
	for rule, r := range ctOutputRules {
		if err := reg.Register(markers.Must(markers.MakeDefinition("output:"+rule, markers.DescribesPackage, r))); err != nil {
			return nil, err
		}
	}
	return reg, genall.RegisterOptionsMarkers(reg)
}

// ParseControllerGen reads controller-gen's arguments, refusing every one
// modelgen would not honour.
func ParseControllerGen(args []string) (*ControllerGen, error) {
	reg, err := ctRegistry()
	if err != nil {
		return nil, err
	}
	run := &ControllerGen{args: args, gens: map[string]any{}, rules: map[string]genall.OutputRule{}}
	for _, raw := range args {
		if strings.HasPrefix(raw, "-") {
			return nil, fmt.Errorf("flag %s is not supported (only -h and --version are)", raw)
		}
		if raw == "" {
			continue
		}
		opt := raw
		if opt[0] != '+' {
			opt = "+" + opt
		}
		defn := reg.Lookup(opt, markers.DescribesPackage)
		if defn == nil {
			return nil, fmt.Errorf("unknown option %q", raw)
		}
		val, err := defn.Parse(opt)
		if err != nil {
			return nil, fmt.Errorf("unable to parse option %q: %w", raw, err)
		}
		switch v := val.(type) {
		case genall.InputPaths:
			run.paths = append(run.paths, v...)
		case genall.OutputRule:
			if gen, ok := strings.CutPrefix(defn.Name, "output:"); ok && strings.Count(gen, ":") == 1 {
				gen, _, _ = strings.Cut(gen, ":")
				run.rules[gen] = v
			} else {
				run.fallback = v
			}
		default:
			if _, dup := run.gens[defn.Name]; dup {
				return nil, fmt.Errorf("multiple instances of '%s' generator specified", defn.Name)
			}
			if err := supported(defn.Name, v); err != nil {
				return nil, err
			}
			run.gens[defn.Name] = v
			run.order = append(run.order, defn.Name)
		}
	}
	for gen := range run.rules {
		if _, ok := run.gens[gen]; !ok {
			return nil, fmt.Errorf("non-invoked generator %q", gen)
		}
	}
	if len(run.gens) == 0 {
		return nil, errors.New("no generators specified")
	}
	return run, nil
}

// supported refuses a generator, or an option of one, that modelgen does
// not implement as controller-gen does.
func supported(name string, v any) error {
	switch g := v.(type) {
	case ctcrd.Generator:
		if g.DeprecatedV1beta1CompatibilityPreserveUnknownFields != nil {
			return errors.New("option crd:deprecatedV1beta1CompatibilityPreserveUnknownFields is not supported by modelgen (it applies to v1beta1 CRDs only)")
		}
		for _, v := range g.CRDVersions {
			if v != "v1" {
				return fmt.Errorf("option crd:crdVersions=%s is not supported by modelgen (it writes apiextensions.k8s.io/v1 CRDs only)", v)
			}
		}
		return nil
	case ctrbac.Generator, ctdeepcopy.Generator, ctwebhook.Generator, applyconfiguration.Generator:
		return nil
	}
	return fmt.Errorf("generator %q is not supported by modelgen (it supports crd, object, rbac, webhook and applyconfiguration)", name)
}

// Run is the command line's run: the backends of its generators, in its
// order, with their options, and its output rules as the run's routing
// (output:stdout files are printed to stdout). Every other step is the
// native run's; the run removes no file, as controller-gen removes none,
// and its files carry no modelgen header.
func (c *ControllerGen) Run(stdout io.Writer) Run {
	wd, _ := os.Getwd()
	in := &ctInputs{files: map[string]ctInput{}}
	r := Run{
		// object alone checks what controller-gen object's filter does
		// (model.Config.ObjectOnly)
		Load: model.Config{Patterns: c.paths, ForeignKeywords: true, ObjectOnly: len(c.gens) == 1 && c.gens["object"] != nil},
		Headers: func(*model.Model, map[string]gen.Config) (func(string) string, error) {
			return in.header("object"), nil
		},
		Route:  func(files []gen.File) ([]gen.File, error) { return c.route(files, in, stdout) },
		Inputs: func(*model.Model, map[string]gen.Config) []string { return in.paths() },
	}
	for _, name := range c.order {
		switch g := c.gens[name].(type) {
		case ctcrd.Generator:
			b := crd.Generator{}
			if g.OmitToolVersion == nil || !*g.OmitToolVersion {
				b.ToolVersion = ControllerToolsVersion()
			}
			r.Backends = append(r.Backends, b)
		case ctdeepcopy.Generator:
			r.Backends = append(r.Backends, deepcopy.Generator{})
		case ctrbac.Generator:
			r.Backends = append(r.Backends, role.Generator{ControllerGen: &g, Artifacts: ctrun.Artifacts{Dir: filepath.Join(wd, "config", name), Read: in.read}})
		case ctwebhook.Generator:
			r.Backends = append(r.Backends, webhookconfig.Generator{ControllerGen: &g, Artifacts: ctrun.Artifacts{Dir: filepath.Join(wd, "config", name), Read: in.read}})
		case applyconfiguration.Generator:
			r.Backends = append(r.Backends, applyconfig.Generator{ControllerGen: g})
			if g.HeaderFile != "" {
				in.also(g.HeaderFile) // gengo reads it
			}
		}
	}
	r.Settings = func(m *model.Model) (map[string]gen.Config, model.Diagnostics, error) {
		configs, diags := c.settings(m, in)
		return configs, diags, nil
	}
	if !c.prints() {
		r.CacheKey = runcache.Key(append([]string{"controller-gen", wd, "--"}, c.args...)...)
	}
	return r
}

// settings are the packages' default settings under the crd generator's
// options, and the files the generators read, read once.
func (c *ControllerGen) settings(m *model.Model, in *ctInputs) (map[string]gen.Config, model.Diagnostics) {
	var diags model.Diagnostics
	configs := gen.DefaultConfigs(m)
	for _, name := range c.order {
		switch g := c.gens[name].(type) {
		case ctcrd.Generator:
			for path, cfg := range configs {
				cfg.GenerateEmbeddedObjectMeta = g.GenerateEmbeddedObjectMeta != nil && *g.GenerateEmbeddedObjectMeta
				cfg.IgnoreUnexportedFields = g.IgnoreUnexportedFields != nil && *g.IgnoreUnexportedFields
				cfg.MaxDescLen = g.MaxDescLen
				configs[path] = cfg
			}
			diags.Add(in.headerText(name, g.HeaderFile, g.Year))
		case ctdeepcopy.Generator:
			diags.Add(in.headerText(name, g.HeaderFile, g.Year))
		case ctrbac.Generator:
			in.readFile(g.HeaderFile)
		case ctwebhook.Generator:
			// controller-tools' webhook generator reads no file
		}
	}
	return configs, diags
}

// prints reports whether a generator's output goes to stdout: a run with
// nothing to change would print nothing, so such a run has no record.
func (c *ControllerGen) prints() bool {
	if c.fallback == genall.OutputToStdout {
		return true
	}
	for _, r := range c.rules {
		if r == genall.OutputToStdout {
			return true
		}
	}
	return false
}

// ctInputs are the files a controller-gen run's generators read (their
// headerFiles), read by its settings step: the backends read no file.
type ctInputs struct {
	files   map[string]ctInput
	headers map[string]string // generator -> its header text
	extra   []string
}

type ctInput struct {
	data []byte
	err  error
}

// readFile reads a generator's headerFile, for its read.
func (in *ctInputs) readFile(path string) {
	if path == "" {
		return
	}
	data, err := os.ReadFile(path)
	in.files[path] = ctInput{data, err}
}

// also names a file a generator reads by itself.
func (in *ctInputs) also(path string) { in.extra = append(in.extra, path) }

func (in *ctInputs) read(path string) ([]byte, error) {
	f, ok := in.files[path]
	if !ok {
		return nil, fmt.Errorf("reading %s: not read by the run's settings", path)
	}
	return f.data, f.err
}

// headerText reads a crd or object headerFile as controller-gen does
// (" YEAR" becomes " "+year); a file that cannot be read is an error at
// it.
func (in *ctInputs) headerText(gen, file, year string) model.Diagnostics {
	var diags model.Diagnostics
	in.readFile(file)
	h, err := headerText(file, year, in.read)
	if err != nil {
		diags.Errorf(model.Pos{File: file}, "%s: %v", gen, err)
	}
	if in.headers == nil {
		in.headers = map[string]string{}
	}
	in.headers[gen] = h
	return diags
}

// header is the header of a generator's files.
func (in *ctInputs) header(gen string) func(string) string {
	return func(string) string { return in.headers[gen] }
}

// paths are the files read, for the run cache.
func (in *ctInputs) paths() []string {
	var out []string
	for p := range in.files {
		out = append(out, p)
	}
	out = append(out, in.extra...)
	for i, p := range out {
		if abs, err := filepath.Abs(p); err == nil {
			out[i] = abs
		}
	}
	sort.Strings(out)
	return out
}

// ControllerToolsVersion is the version of controller-tools modelgen is
// built with, which the crd generator's controller-gen.kubebuilder.io/version
// annotation names: the CRDs are that controller-gen's (controller-gen
// names its own module's version, which for an installed controller-gen is
// the same). A build without module information, or with controller-tools
// replaced by a directory, says "(devel)", as a controller-gen built from
// a checkout does.
func ControllerToolsVersion() string {
	info, ok := debug.ReadBuildInfo()
	return toolsVersion(info, ok)
}

func toolsVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "(devel)"
	}
	for _, d := range info.Deps {
		if d.Path != "sigs.k8s.io/controller-tools" {
			continue
		}
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Version != "" {
			return d.Version
		}
	}
	return "(devel)"
}

// headerText reads a headerFile as controller-gen does: " YEAR" becomes
// " "+year (an empty year leaves a trailing space, as there).
func headerText(file, year string, read ctrun.Input) (string, error) {
	if file == "" {
		return "", nil
	}
	data, err := read(file)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(string(data), " YEAR", " "+year), nil
}

// ctKinds are the controller-gen generator of each backend's files, and
// whether they are code (a package's file, which an artifacts rule sends to
// its package's directory or code=) rather than configuration.
var ctKinds = map[string]struct {
	gen  string
	code bool
}{
	crd.Generator{}.Name():      {gen: "crd"},
	deepcopy.Generator{}.Name(): {gen: "object", code: true},
	role.Name:                   {gen: "rbac"},
	webhookconfig.Name:          {gen: "webhook"},
}

// route puts each file where controller-gen's output rules put it: without
// a rule, artifacts:config=config/<generator>; an artifacts rule sends code
// to its package directory or code=, and configuration to config=; dir=
// sends both to the directory; stdout prints; none drops. The
// applyconfiguration generator writes beside its package through gengo,
// never through an output rule. The crd generator's headerFile heads its
// files.
func (c *ControllerGen) route(in []gen.File, inputs *ctInputs, stdout io.Writer) ([]gen.File, error) {
	var files []gen.File
	var printed bytes.Buffer
	// the files are in the command line's order of the generators (the
	// order of the run's backends), which is the order controller-gen
	// prints them in under output:stdout
	for _, f := range in {
		f.Owner = "" // controller-gen's files carry no modelgen header
		kind, ok := ctKinds[f.Backend]
		if !ok {
			files = append(files, f)
			continue
		}
		switch kind.gen {
		case "crd":
			f.Data = append([]byte(inputs.headers["crd"]), f.Data...)
		case "object":
			data, err := controllerGenCode(f.Data, inputs.headers["object"])
			if err != nil {
				return nil, fmt.Errorf("%s: %v", f.Path, err)
			}
			f.Data = data
		}
		rule, ok := c.rules[kind.gen]
		if !ok {
			rule = c.fallback
		}
		if rule == nil {
			rule = genall.OutputArtifacts{Config: genall.OutputToDirectory(filepath.Join("config", kind.gen))}
		}
		code := ""
		if kind.code {
			code = filepath.Dir(f.Path)
		}
		dir, err := place(rule, code)
		switch {
		case err != nil:
			return nil, err
		case dir == "-":
			printed.Write(f.Data)
			continue
		case dir == "":
			continue
		}
		path, err := filepath.Abs(filepath.Join(dir, filepath.Base(f.Path)))
		if err != nil {
			return nil, err
		}
		f.Path = path
		files = append(files, f)
	}
	_, err := stdout.Write(printed.Bytes())
	return files, err
}

// controllerGenCode lays a deepcopy file out as controller-tools' object
// generator writes it: its build constraint, the headerFile's text,
// controller-gen's generated-code line, then the code, formatted as there.
// The deepcopy backend writes modelgen's line first, which the native run
// needs to know its files; a switch to the drop-in must leave the tree as
// controller-gen left it. Only the head is formatted: the code from the
// package clause on is formatted already.
func controllerGenCode(src []byte, header string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.PackageClauseOnly)
	if err != nil {
		return nil, err
	}
	clause := "package " + f.Name.Name + "\n"
	head, err := format.Source(fmt.Appendf(nil, "//go:build !ignore_autogenerated\n\n%s\n\n// Code generated by controller-gen. DO NOT EDIT.\n\n%s", header, clause))
	if err != nil {
		return nil, err
	}
	code := src[fset.Position(f.Package).Offset:]
	if !bytes.HasSuffix(head, []byte(clause)) || !bytes.HasPrefix(code, []byte("package ")) {
		return nil, fmt.Errorf("the deepcopy file's head is not a build line, comments and a package clause")
	}
	return append(head[:len(head)-len(clause)], code...), nil
}

// place is the directory a rule writes an output to: "-" for stdout, ""
// for none.
func place(rule genall.OutputRule, code string) (string, error) {
	switch r := rule.(type) {
	case genall.OutputToDirectory:
		return string(r), nil
	case genall.OutputArtifacts:
		switch {
		case code == "":
			return string(r.Config), nil
		case r.Code != "":
			return string(r.Code), nil
		}
		return code, nil
	case *genall.OutputArtifacts:
		return place(*r, code)
	}
	switch rule {
	case genall.OutputToStdout:
		return "-", nil
	case genall.OutputToNothing:
		return "", nil
	}
	return "", fmt.Errorf("output rule %T is not supported", rule)
}
