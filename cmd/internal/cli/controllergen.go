package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
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
	"github.com/modelgen/modelgen/internal/typecheck"
	"github.com/modelgen/modelgen/internal/writer"
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

const controllerGenUsage = `Usage: modelgen controller-gen [controller-gen's arguments]

Runs modelgen with controller-gen v0.23.0's command line, writing the same
files to the same places: crd (modelgen's CRD backend), object (deepcopy),
rbac (+kubebuilder:rbac → role.yaml), webhook (+kubebuilder:webhook →
manifests.yaml) and applyconfiguration (+kubebuilder:ac:generate → the
package's applyconfiguration/ directory), with their options, paths=, and output:<gen>:<rule> /
output:<rule> rules (artifacts:config=,code=; dir=; stdout; none).

  modelgen controller-gen rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases
  modelgen controller-gen object:headerFile="hack/boilerplate.go.txt" paths="./..."

The same command is github.com/modelgen/modelgen/cmd/controller-gen, for a
kubebuilder Makefile. An option or generator modelgen does not support is
an error naming it (exit 2). See docs/controller-gen.md.
`

// ctRun is one parsed controller-gen command line.
type ctRun struct {
	gens     map[string]any // generator name -> its parsed options
	order    []string
	rules    map[string]genall.OutputRule
	fallback genall.OutputRule // output:<rule>, for generators without one
	paths    []string
}

// ctOutput is one file a generator produced, before its output rule.
type ctOutput struct {
	gen  string
	dir  string // the package directory, "" for a configuration artifact
	name string
	data []byte
	// path, when set, is where the file goes whatever the output rules:
	// controller-gen's applyconfiguration generator writes beside its
	// package through gengo, never through an output rule
	path string
}

func controllerGen(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		switch a {
		case "-h", "--help", "--detailed-help":
			fmt.Fprint(stdout, controllerGenUsage)
			return ExitOK
		case "--version":
			fmt.Fprintln(stdout, "Version: modelgen", Version(), "(controller-gen v0.23.0 command line)")
			return ExitOK
		}
	}
	run, err := parseControllerGen(args)
	if err != nil {
		fmt.Fprintln(stderr, "modelgen controller-gen:", err)
		return ExitUsage
	}
	m, err := model.Load(model.Config{Patterns: run.paths, ForeignKeywords: true, TypesOnly: run.typesOnly(), ObjectOnly: len(run.gens) == 1 && run.gens["object"] != nil})
	if err != nil {
		fmt.Fprintln(stderr, "modelgen controller-gen:", err)
		return ExitFail
	}
	outs, diags := run.generate(m)
	for _, d := range diags.Sorted() {
		fmt.Fprintln(stderr, d)
	}
	if diags.HasErrors() {
		fmt.Fprintf(stderr, "modelgen controller-gen: %d error(s); nothing written\n", diags.Count(model.Error))
		return ExitFail
	}
	files, err := run.route(outs, stdout)
	if err == nil {
		_, err = writer.Write(files, false)
	}
	if err != nil {
		fmt.Fprintln(stderr, "modelgen controller-gen:", err)
		return ExitFail
	}
	return ExitOK
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

// parseControllerGen reads controller-gen's arguments, refusing every one
// modelgen would not honour.
func parseControllerGen(args []string) (*ctRun, error) {
	reg, err := ctRegistry()
	if err != nil {
		return nil, err
	}
	run := &ctRun{gens: map[string]any{}, rules: map[string]genall.OutputRule{}}
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

// typesOnly: the command line's generators read the types' schemas and
// markers only (crd, rbac, webhook: controller-gen's manifests line), so
// the load checks only what the types' JSON fields reach, as
// controller-gen does (model.Config.TypesOnly).
func (r *ctRun) typesOnly() bool {
	for _, v := range r.gens {
		switch v.(type) {
		case ctcrd.Generator, ctrbac.Generator, ctwebhook.Generator:
		default:
			return false
		}
	}
	return true
}

// generate runs each generator of the command line on the loaded model.
func (r *ctRun) generate(m *model.Model) ([]ctOutput, model.Diagnostics) {
	diags := append(model.Diagnostics(nil), m.Diags...)
	if diags.HasErrors() {
		return nil, diags
	}
	var outs []ctOutput
	for _, name := range r.order {
		o, d := r.generateOne(m, name, r.gens[name])
		diags.Add(d)
		outs = append(outs, o...)
	}
	return outs, diags
}

func (r *ctRun) generateOne(m *model.Model, name string, v any) ([]ctOutput, model.Diagnostics) {
	switch g := v.(type) {
	case ctcrd.Generator:
		return crdOutputs(m, g)
	case ctdeepcopy.Generator:
		return objectOutputs(m, g)
	case ctrbac.Generator:
		out, d := role.Generate(m, nil, g, os.ReadFile)
		return artifacts(name, out), d
	case ctwebhook.Generator:
		out, d := webhookconfig.Generate(m, nil, g, os.ReadFile)
		return artifacts(name, out), d
	case applyconfiguration.Generator:
		files, d := applyconfig.Generate(m, g)
		var out []ctOutput
		for _, f := range files {
			out = append(out, ctOutput{gen: name, path: f.Path, data: f.Data})
		}
		return out, d
	}
	return nil, nil
}

func artifacts(gen string, out []ctrun.Output) []ctOutput {
	var o []ctOutput
	for _, f := range out {
		c := ctOutput{gen: gen, name: f.Name, data: f.Data}
		if f.Pkg != nil && len(f.Pkg.GoFiles) > 0 {
			c.dir = filepath.Dir(f.Pkg.GoFiles[0])
		}
		o = append(o, c)
	}
	return o
}

// crdOutputs runs modelgen's CRD backend under the crd generator's options.
func crdOutputs(m *model.Model, g ctcrd.Generator) ([]ctOutput, model.Diagnostics) {
	configs := gen.DefaultConfigs(m)
	for path, cfg := range configs {
		cfg.GenerateEmbeddedObjectMeta = g.GenerateEmbeddedObjectMeta != nil && *g.GenerateEmbeddedObjectMeta
		cfg.IgnoreUnexportedFields = g.IgnoreUnexportedFields != nil && *g.IgnoreUnexportedFields
		cfg.MaxDescLen = g.MaxDescLen
		if g.OmitToolVersion == nil || !*g.OmitToolVersion {
			cfg.ToolVersion = controllerToolsVersion()
		}
		configs[path] = cfg
	}
	header, err := headerText(g.HeaderFile, g.Year)
	if err != nil {
		var diags model.Diagnostics
		diags.Errorf(model.Pos{File: g.HeaderFile}, "crd: %v", err)
		return nil, diags
	}
	files, diags := gen.Run(m, configs, []gen.Generator{crd.Generator{}})
	var out []ctOutput
	for _, f := range files {
		out = append(out, ctOutput{gen: "crd", name: filepath.Base(f.Path), data: append([]byte(header), f.Data...)})
	}
	return out, diags
}

// controllerToolsVersion is the version of controller-tools modelgen is
// built with, which the crd generator's controller-gen.kubebuilder.io/version
// annotation names: the CRDs are that controller-gen's (controller-gen
// names its own module's version, which for an installed controller-gen is
// the same). A build without module information, or with controller-tools
// replaced by a directory, says "(devel)", as a controller-gen built from
// a checkout does.
func controllerToolsVersion() string {
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

// objectOutputs runs modelgen's deepcopy backend; the headerFile (with
// " YEAR" replaced as controller-gen does) heads each file.
func objectOutputs(m *model.Model, g ctdeepcopy.Generator) ([]ctOutput, model.Diagnostics) {
	var diags model.Diagnostics
	header, err := headerText(g.HeaderFile, g.Year)
	if err != nil {
		diags.Errorf(model.Pos{File: g.HeaderFile}, "object: %v", err)
		return nil, diags
	}
	check := typecheck.Start(m) // the dependencies, while deepcopy generates
	files, d := gen.Run(m, gen.DefaultConfigs(m), []gen.Generator{deepcopy.Generator{}})
	diags.Add(d)
	if diags.HasErrors() {
		return nil, diags
	}
	diags.Add(check.Compile(gen.GoFiles(files)))
	files, err = writer.Headers(files, func(string) string { return header })
	if err != nil {
		diags.Errorf(model.Pos{File: g.HeaderFile}, "object: %v", err)
	}
	var out []ctOutput
	for _, f := range files {
		out = append(out, ctOutput{gen: "object", dir: filepath.Dir(f.Path), name: filepath.Base(f.Path), data: f.Data})
	}
	return out, diags
}

// headerText reads a headerFile as controller-gen does: " YEAR" becomes
// " "+year (an empty year leaves a trailing space, as there).
func headerText(file, year string) (string, error) {
	if file == "" {
		return "", nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(string(data), " YEAR", " "+year), nil
}

// route puts each output where controller-gen's output rules put it:
// without a rule, artifacts:config=config/<generator>; an artifacts rule
// sends code (a package's file) to its package directory or code=, and
// configuration to config=; dir= sends both to the directory; stdout
// prints; none drops.
func (r *ctRun) route(outs []ctOutput, stdout io.Writer) ([]gen.File, error) {
	var files []gen.File
	var printed bytes.Buffer
	// outs are in the command line's order of the generators (generate),
	// which is the order controller-gen prints them in under output:stdout
	for _, o := range outs {
		if o.path != "" {
			files = append(files, gen.File{Path: o.path, Data: o.data})
			continue
		}
		rule, ok := r.rules[o.gen]
		if !ok {
			rule = r.fallback
		}
		if rule == nil {
			rule = genall.OutputArtifacts{Config: genall.OutputToDirectory(filepath.Join("config", o.gen))}
		}
		dir, err := place(rule, o)
		switch {
		case err != nil:
			return nil, err
		case dir == "-":
			printed.Write(o.data)
			continue
		case dir == "":
			continue
		}
		path, err := filepath.Abs(filepath.Join(dir, o.name))
		if err != nil {
			return nil, err
		}
		files = append(files, gen.File{Path: path, Data: o.data})
	}
	_, err := stdout.Write(printed.Bytes())
	return files, err
}

// place is the directory a rule writes an output to: "-" for stdout, ""
// for none.
func place(rule genall.OutputRule, o ctOutput) (string, error) {
	switch r := rule.(type) {
	case genall.OutputToDirectory:
		return string(r), nil
	case genall.OutputArtifacts:
		switch {
		case o.dir == "":
			return string(r.Config), nil
		case r.Code != "":
			return string(r.Code), nil
		}
		return o.dir, nil
	case *genall.OutputArtifacts:
		return place(*r, o)
	}
	switch rule {
	case genall.OutputToStdout:
		return "-", nil
	case genall.OutputToNothing:
		return "", nil
	}
	return "", fmt.Errorf("output rule %T is not supported", rule)
}
