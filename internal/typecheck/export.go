package typecheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"slices"

	"github.com/modelgen/modelgen/model"
	"golang.org/x/tools/go/gcexportdata"
)

// A dependency outside the user's modules (the standard library, the
// module cache) whose whole graph the build cache holds compiled is not
// type-checked from source: its types are read from the export data the
// compiler left in the build cache (`go list -export -deps`, with a
// -toolexec that refuses to run a compiler, so that go list only finds
// what is cached and builds nothing). A package without cached export data
// (the build cache is empty, the package was never built with these flags)
// is checked from source, and so is every package above it.
// MODELGEN_EXPORTDATA=off checks every dependency from source.

// exportEntry is what go list -export says of one package.
type exportEntry struct {
	ImportPath string
	Dir        string
	Export     string
	Imports    []string
	Error      *struct{ Err string }
}

// exportOff reports MODELGEN_EXPORTDATA=off.
func exportOff() bool { return os.Getenv("MODELGEN_EXPORTDATA") == "off" }

// refuseScript is the -toolexec of the export data's go list: it lets the
// go command ask each tool for its version (the tool's identity is part of
// the build cache's keys, so the keys are those of a go build) and refuses
// everything else, which is a compile of a package the cache does not hold.
const refuseScript = `#!/bin/sh
# modelgen reads the export data the build cache holds; it compiles nothing.
case "$2" in -V=full|-###) exec "$@";; esac
echo "modelgen: not in the build cache" >&2
exit 1
`

// toolexec writes the refusing program ("" when it cannot); the caller
// removes it.
func toolexec() string {
	if runtime.GOOS == "windows" {
		return ""
	}
	f, err := os.CreateTemp("", "modelgen-toolexec-*.sh")
	if err != nil {
		return ""
	}
	_, werr := f.WriteString(refuseScript)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Chmod(f.Name(), 0o755) != nil {
		_ = os.Remove(f.Name())
		return ""
	}
	return f.Name()
}

// listExport runs go list -export -deps on paths in a module's root, as
// the go command builds them (without controller-tools' tag), and returns
// what it says of each package; an error is returned when go list could
// not run at all.
func listExport(ctx context.Context, root string, paths []string) (map[string]*exportEntry, error) {
	tool := toolexec()
	if tool == "" {
		return nil, errors.New("no -toolexec program")
	}
	defer os.Remove(tool)
	args := append([]string{"list", "-e", "-export", "-deps", "-toolexec", tool,
		"-json=ImportPath,Dir,Export,Imports,Error", "--"}, paths...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list -export: %v: %s", err, firstLine(stderr.String()))
	}
	out := map[string]*exportEntry{}
	dec := json.NewDecoder(&stdout)
	for {
		var e exportEntry
		if err := dec.Decode(&e); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		out[e.ImportPath] = &e
	}
	return out, nil
}

// exportData finds the export data of the dependencies not listed yet:
// for each module whose user packages import them, one go list. A node
// gets its export file when go list found the package where the loader
// did, with no more imports than the loader saw, and every package below
// it has export data too.
func (c *sourceCheck) exportData() {
	if exportOff() || c.noExport {
		return
	}
	frontier := map[string]map[string]bool{} // module root -> paths to list
	for _, n := range c.order {
		if !n.deferred && !c.full[nodeKey(n.pkg)] {
			continue
		}
		root := model.ModuleRoot(loadedDir(n.pkg))
		for _, d := range n.deps {
			// the user's packages are checked from source (in Compile, the
			// ones the run does not write for are no longer deferred)
			if d.deferred || d.scheduled || c.full[nodeKey(d.pkg)] || c.listed[nodeKey(d.pkg)] || d.pkg.PkgPath == "unsafe" || userPackage(d.pkg) {
				continue
			}
			if frontier[root] == nil {
				frontier[root] = map[string]bool{}
			}
			frontier[root][d.pkg.PkgPath] = true
		}
	}
	found := map[string][]*exportEntry{} // path -> what each module's go list says
	for _, root := range slices.Sorted(maps.Keys(frontier)) {
		for path, e := range c.listExport(root, frontier[root]) {
			found[path] = append(found[path], e)
		}
	}
	if len(found) == 0 {
		return
	}
	for _, n := range c.order { // dependencies first
		key := nodeKey(n.pkg)
		if n.deferred || n.scheduled || c.full[key] || c.listed[key] {
			continue
		}
		if n.pkg.PkgPath == "unsafe" {
			n.fromExport = true
			continue
		}
		es := found[n.pkg.PkgPath]
		if len(es) == 0 {
			continue // not asked: it stays from source
		}
		c.listed[key] = true
		n.export = exportFile(n, es)
		for _, d := range n.deps {
			if !d.fromExport {
				n.export = ""
			}
		}
		n.fromExport = n.export != ""
	}
}

// listExport is what go list -export says of the paths and every package
// below them in a module's root: what the prefetched list (Exports) found,
// and a go list of the paths it did not reach. Nil when go list could not
// run: the packages are checked from source.
func (c *sourceCheck) listExport(root string, paths map[string]bool) map[string]*exportEntry {
	pre := c.pre.entries(root)
	var missing []string
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		if pre[path] == nil {
			missing = append(missing, path)
		}
	}
	if len(missing) == 0 {
		return pre
	}
	entries, err := listExport(context.Background(), root, missing)
	if err != nil {
		return pre
	}
	for path, e := range pre {
		if entries[path] == nil {
			entries[path] = e
		}
	}
	return entries
}

// exportFile is the export data of a node when every module's go list
// agrees on it ("" when one has none, or sees another package).
func exportFile(n *checkNode, es []*exportEntry) string {
	deps := map[string]bool{}
	for _, d := range n.deps {
		deps[d.pkg.PkgPath] = true
	}
	file := ""
	for _, e := range es {
		if e.Error != nil || e.Export == "" || e.Dir != loadedDir(n.pkg) || file != "" && e.Export != file {
			return ""
		}
		for _, imp := range e.Imports {
			if imp != "unsafe" && imp != "C" && !deps[imp] {
				return ""
			}
		}
		file = e.Export
	}
	return file
}

// imported is a dependency's types for the check of a package that
// imports it: a stub is read in full first.
func (c *sourceCheck) imported(d *checkNode) (*types.Package, error) {
	c.exportMu.Lock()
	defer c.exportMu.Unlock()
	if !d.lazy {
		return d.types, nil
	}
	if _, err := c.readExport(d); err != nil {
		// the reads above it have filled its stub: no check from source
		// can take its place now
		c.exportFailed = true
		return nil, err
	}
	d.lazy = false
	c.mu.Lock()
	c.exported = append(c.exported, d.pkg.PkgPath)
	c.mu.Unlock()
	return d.types, nil
}

// readExport reads a node's types from its export data, with the packages
// below it (read from export data before it, or stubs) as the packages it
// refers to; a stub of the node itself is filled. The caller holds
// exportMu.
func (c *sourceCheck) readExport(n *checkNode) (*types.Package, error) {
	view := map[string]*types.Package{}
	if n.lazy {
		view[n.pkg.PkgPath] = n.types
	}
	seen := map[*checkNode]bool{}
	var walk func(*checkNode) error
	walk = func(m *checkNode) error {
		for _, d := range m.deps {
			if seen[d] {
				continue
			}
			seen[d] = true
			if d.pkg.PkgPath == "unsafe" {
				continue
			}
			if d.types == nil {
				return fmt.Errorf("%s: not checked", d.pkg.PkgPath)
			}
			if prior := view[d.pkg.PkgPath]; prior != nil && prior != d.types {
				return fmt.Errorf("%s: two packages of that path", d.pkg.PkgPath)
			}
			view[d.pkg.PkgPath] = d.types
			if err := walk(d); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(n); err != nil {
		return nil, err
	}
	f, err := os.Open(n.export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// go list -export of Go 1.26 names the compiler's archive, which only
	// NewReader opens (Read takes what cmd/export writes, from Go 1.28)
	//lint:ignore SA1019 the archive is what this go command's list names
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, err
	}
	tpkg, err := gcexportdata.Read(r, c.fset, view, n.pkg.PkgPath)
	if err == nil && n.lazy && tpkg != n.types {
		return nil, fmt.Errorf("%s: the export data did not fill its stub", n.pkg.PkgPath)
	}
	return tpkg, err
}
