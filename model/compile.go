package model

import (
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// compiled is the compiler's view of the root packages: each is parsed and
// type-checked from source, function bodies included, against its
// dependencies' export data (what go build compiles them to). The CRD
// machinery (controller-tools) checks declarations only and ignores the
// type errors of what it skips, so without this a package that does not
// compile could still be generated for.
type compiled struct {
	// byDir holds the errors of each root package, by directory.
	byDir map[string]Diagnostics
	// parse holds the syntax errors (and go list errors) of every root:
	// with them no package can be loaded reliably.
	parse Diagnostics
	err   error
	// dir is where relative paths in go list's output start.
	dir string
	// final is set when the generated files are this run's: errors in
	// them are errors.
	final bool
}

// compile type-checks the root packages the patterns name, with the files
// of the overlay in place of (or beside) those on disk.
func compile(cfg Config, overlay map[string][]byte) *compiled {
	dir, _ := filepath.Abs(cfg.Dir)
	c := &compiled{byDir: map[string]Diagnostics{}, dir: dir, final: overlay != nil}
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedTypes | packages.NeedSyntax
	pkgs, err := packages.Load(&packages.Config{Dir: cfg.Dir, Mode: mode, Overlay: overlay}, cfg.Patterns...)
	if err != nil {
		c.err = err
		return c
	}
	for _, p := range pkgs {
		c.add(p)
	}
	return c
}

func (c *compiled) add(p *packages.Package) {
	dir := packageDir(p)
	var parse, typed, listed Diagnostics
	for _, e := range p.Errors {
		pos := posFromString(e.Pos)
		if !pos.IsValid() {
			pos = packagePos(p)
		}
		switch e.Kind {
		case packages.ParseError:
			parse.Errorf(pos, "%s", e.Msg)
		case packages.TypeError:
			if generatedFile(pos.File) && !c.final {
				typed.Warnf(pos, "%s (a stale generated file; this run replaces it)", e.Msg)
				continue
			}
			typed.Errorf(pos, "%s", e.Msg)
		default:
			listed = append(listed, c.listErrors(pos, e.Msg)...)
		}
	}
	switch {
	case len(parse) > 0:
		// type errors after a syntax error are its echoes
		c.parse.Add(parse)
	case len(typed) > 0:
		// go list's compiler output repeats the type errors
		c.byDir[dir] = typed
	default:
		c.parse.Add(listed)
	}
}

// listErrors turns go list's error text into diagnostics: the compiler's
// "# pkg" output holds one positioned error a line.
func (c *compiled) listErrors(pos Pos, msg string) Diagnostics {
	var ds Diagnostics
	for _, line := range strings.Split(msg, "\n") {
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		if at, text, ok := c.positioned(line); ok {
			ds.Errorf(at, "%s", text)
			continue
		}
		ds.Errorf(pos, "%s", line)
	}
	return ds
}

// positioned splits "file:line:col: message".
func (c *compiled) positioned(line string) (Pos, string, bool) {
	parts := strings.SplitN(line, ": ", 2)
	if len(parts) != 2 {
		return Pos{}, "", false
	}
	p := posFromString(parts[0])
	if p.Line == 0 {
		return Pos{}, "", false
	}
	if !filepath.IsAbs(p.File) {
		p.File = filepath.Join(c.dir, p.File)
	}
	return p, parts[1], true
}

func packageDir(p *packages.Package) string {
	for _, files := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles} {
		if len(files) > 0 {
			return filepath.Dir(files[0])
		}
	}
	return ""
}

// packagePos is where an error about a whole package is reported: the
// package clause of its first file.
func packagePos(p *packages.Package) Pos {
	for i, f := range p.Syntax {
		if f != nil && p.Fset != nil {
			ps := p.Fset.Position(f.Package)
			if ps.Filename == "" && i < len(p.CompiledGoFiles) {
				ps.Filename = p.CompiledGoFiles[i]
			}
			return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
		}
	}
	if dir := packageDir(p); dir != "" {
		return Pos{File: dir}
	}
	return Pos{File: p.PkgPath}
}

// Compile reports the type errors of the model's packages as the compiler
// sees them once the generated Go files (path -> content) replace those on
// disk, and the generated files a run no longer writes are gone. A package
// that refers to what modelgen generates (a scheme registering DeepCopyObject,
// a controller calling a transition method) compiles only with its
// generated files, so it is judged with the files this run would write: a
// package that still does not compile is an error, and so is generated code
// that does not compile beside the user's. Packages that compiled as they
// were on disk are not checked again.
func (m *Model) Compile(generated map[string][]byte) Diagnostics {
	if m.compiled == nil {
		return nil
	}
	var broken []*Package
	for _, pk := range m.Packages {
		if len(m.compiled.byDir[pk.Dir]) > 0 {
			broken = append(broken, pk)
		}
	}
	if len(broken) == 0 {
		return nil
	}
	overlay := map[string][]byte{}
	var patterns []string
	for _, pk := range broken {
		patterns = append(patterns, pk.Path)
		stale, _ := filepath.Glob(filepath.Join(pk.Dir, "zz_generated.*.go"))
		for _, f := range stale {
			overlay[f] = []byte("package " + pk.Name + "\n")
		}
	}
	for path, data := range generated {
		overlay[path] = data
	}
	cfg := m.cfg
	cfg.Patterns = patterns
	c := compile(cfg, overlay)
	var diags Diagnostics
	if c.err != nil {
		diags.Errorf(broken[0].Types[0].Pos, "type-checking %s with its generated files: %v", broken[0].Path, c.err)
		return diags
	}
	diags.Add(c.parse)
	for _, pk := range broken {
		for _, d := range c.byDir[pk.Dir] {
			if d.Severity == Error {
				diags = append(diags, d)
			}
		}
	}
	return diags
}

// Pos is where an error about the whole package is reported: the package
// clause of its first file (its directory when no file was parsed).
func (p *Package) Pos() Pos {
	if p.Loaded != nil {
		if pos := clausePos(p.Loaded); pos.IsValid() {
			return pos
		}
	}
	return Pos{File: p.Dir}
}

// clausePos is the package clause of a loaded package's first file.
func clausePos(p *loader.Package) Pos {
	if p.Fset == nil {
		return Pos{}
	}
	for _, f := range p.Syntax {
		if f != nil {
			ps := p.Fset.Position(f.Package)
			return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
		}
	}
	return Pos{}
}
