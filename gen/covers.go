package gen

import (
	"path/filepath"
	"strings"
)

// Covers reports whether a package pattern of the command line, run in
// dir, names every package that target names: target is a pattern relative
// to the root of the module of the given path and directory, as a setting
// writes it ("./...", "./x/..." or "./x"). A pattern ending in /... covers
// the packages at or below its directory (or import path); one without
// covers exactly its own package. "..." alone, and a pattern with ... in
// the middle, cover nothing: they are matched against every package go
// list knows, not against a directory.
func Covers(pattern, dir, modPath, modDir, target string) bool {
	rel, tree := strings.CutSuffix(target, "...")
	rel = strings.Trim(strings.TrimPrefix(rel, "."), "/")
	targetDir, targetPath := modDir, modPath
	if rel != "" {
		targetDir, targetPath = filepath.Join(modDir, filepath.FromSlash(rel)), modPath+"/"+rel
	}
	base, wild := strings.CutSuffix(pattern, "...")
	if strings.Contains(base, "...") || wild && base == "" {
		return false
	}
	if wild {
		base = strings.TrimSuffix(base, "/")
	} else if tree {
		return false // one package never names a tree
	}
	if base == "." || base == ".." || strings.HasPrefix(base, "./") || strings.HasPrefix(base, "../") || filepath.IsAbs(base) {
		if !filepath.IsAbs(base) {
			if dir == "" {
				dir = "."
			}
			base = filepath.Join(dir, base)
		}
		abs, err := filepath.Abs(base)
		if err != nil {
			return false
		}
		if !wild {
			return abs == targetDir
		}
		r, err := filepath.Rel(abs, targetDir)
		return err == nil && r != ".." && !strings.HasPrefix(r, "../")
	}
	if !wild {
		return base == targetPath
	}
	return targetPath == base || strings.HasPrefix(targetPath, base+"/")
}
