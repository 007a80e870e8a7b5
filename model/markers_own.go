package model

import (
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// ownPrefix is modelgen's marker namespace. controller-tools ignores a
// marker it has no definition for, so a typo in one of modelgen's
// (+modelgen:modle) would be dropped without a word and the type left out;
// in this namespace every marker is modelgen's, so one it does not know is
// an error at the comment.
const ownPrefix = "+modelgen:"

// unknownMarkers reports every +modelgen: marker in the package's files that
// names no marker of the registry, with the closest known name.
func (b *builder) unknownMarkers(p *loader.Package, reg *markers.Registry) Diagnostics {
	var known []string
	for _, d := range reg.AllDefinitions() {
		if strings.HasPrefix("+"+d.Name, ownPrefix) {
			known = append(known, d.Name)
		}
	}
	sort.Strings(known)
	var ds Diagnostics
	for _, f := range p.Syntax {
		name := p.Fset.Position(f.Pos()).Filename
		if strings.HasPrefix(filepath.Base(name), "zz_generated.") {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, "//")
				if !ok {
					continue
				}
				trimmed := strings.TrimLeft(text, " \t")
				if !strings.HasPrefix(trimmed, ownPrefix) {
					continue
				}
				marker := markerName(trimmed[1:])
				if knownMarker(marker, known) {
					continue
				}
				col := token.Pos(int(c.Pos()) + 2 + len(text) - len(trimmed))
				ds.Errorf(b.position(p, col), "unknown marker +%s: modelgen's markers are %s%s", marker, "+"+strings.Join(known, ", +"), closestMarker(marker, known))
			}
		}
	}
	return ds
}

// markerName is a marker's name: its text up to the arguments ("=" or a
// space).
func markerName(s string) string {
	if i := strings.IndexAny(s, "= \t"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, ":")
}

// knownMarker: the name is a definition's, or a definition's followed by
// its ":"-separated arguments, as controller-tools reads them.
func knownMarker(name string, known []string) bool {
	for _, k := range known {
		if name == k || strings.HasPrefix(name, k+":") {
			return true
		}
	}
	return false
}

func closestMarker(name string, known []string) string {
	best, bestD := "", 4
	for _, k := range known {
		if d := editDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean +" + best + "?)"
}
