package model

// Module detection: which packages are the user's own code, and where a module's root is.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// inUserModule reports whether a package is the user's own code (not the
// standard library or a dependency in the module cache): its types join the
// model.
func (b *builder) inUserModule(p *loader.Package) bool {
	if len(p.GoFiles) == 0 {
		return false
	}
	dir := filepath.Dir(p.GoFiles[0])
	for _, lib := range libraryRoots() {
		if lib != "" && strings.HasPrefix(dir, lib+string(filepath.Separator)) {
			return false
		}
	}
	return true
}

// LibraryRoots are GOROOT and the module cache: a package below one of
// them is not the user's code. Safe for concurrent use: the go command is
// asked once.
func LibraryRoots() []string { return libraryRoots() }

var libraryRoots = sync.OnceValue(func() []string { return goEnv("GOROOT", "GOMODCACHE") })

// goEnv asks the go command for variables, in one call.
func goEnv(names ...string) []string {
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// moduleOf finds the module root and path of a directory (the nearest go.mod).
func moduleOf(dir string) (path, root string) {
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			return modfile.ModulePath(data), d
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}
