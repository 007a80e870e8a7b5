package model

import (
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// The go list controller-tools' loader runs twice. For a file-system root
// ending in "..." the loader walks the tree for go.mod files and loads each
// one's directory as a root of its own, so that nested modules are loaded
// too; the walk also finds the root's own go.mod, so `./...` run at a
// module's root (a kubebuilder Makefile's paths=./...) lists and builds the
// whole package graph a second time, only to drop its packages as seen.
// loadRoots hands such a root to the loader by import path instead
// ("example.com/project/..."), which it loads once, in one go list, from
// the same directory; when anything could make the two differ it loads the
// patterns as given.

// loadRoots loads the patterns in dir as loader.LoadRootsWithConfig does,
// without its second go list of a module's root, and returns the file set
// of their syntax.
func loadRoots(dir string, patterns []string) ([]*loader.Package, *token.FileSet, error) {
	// NeedModule: the language version each package is checked with
	cfg := func() *packages.Config { return &packages.Config{Dir: dir, Mode: packages.NeedModule} }
	if byPath, roots := modulePatterns(dir, patterns); byPath != nil {
		pcfg := cfg()
		loaded, err := loader.LoadRootsWithConfig(pcfg, byPath...)
		if err == nil && inModules(loaded, roots) {
			return loaded, pcfg.Fset, nil
		}
		// not what the patterns name (a module of the build list shares
		// the path's prefix): load them as given
	}
	pcfg := cfg()
	loaded, err := loader.LoadRootsWithConfig(pcfg, patterns...)
	return loaded, pcfg.Fset, err
}

// fsRoot is how the loader tells a file-system root from a package path.
var fsRoot = regexp.MustCompile(`^\.{1,2}`)

// modulePatterns rewrites the patterns when each one is a module's root
// directory with "/..." (the directory the load runs in, which holds
// go.mod, and no other go.mod below it); it returns nil otherwise. roots
// are the modules' root directories.
func modulePatterns(dir string, patterns []string) (byPath, roots []string) {
	wd, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil
	}
	for _, p := range patterns {
		if !filepath.IsAbs(p) && !fsRoot.MatchString(p) {
			return nil, nil
		}
		clean := p
		if !filepath.IsAbs(clean) {
			clean = filepath.Join(wd, clean)
		}
		clean = filepath.Clean(clean)
		if filepath.Base(clean) != "..." || filepath.Dir(clean) != wd {
			return nil, nil
		}
	}
	path, root := moduleOf(wd)
	if path == "" || root != wd || nestedModule(wd) {
		return nil, nil
	}
	return []string{path + "/..."}, []string{root}
}

// nestedModule reports whether a go.mod is below dir (not dir's own), as
// the loader's walk would find it.
func nestedModule(dir string) bool {
	found := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "go.mod" && filepath.Dir(path) != dir {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found || err != nil
}

// inModules reports whether every loaded root is a package of one of the
// main modules rooted at roots.
func inModules(loaded []*loader.Package, roots []string) bool {
	for _, p := range loaded {
		if p.Module == nil || !p.Module.Main || !slices.Contains(roots, filepath.Clean(p.Module.Dir)) {
			return false
		}
	}
	return true
}
