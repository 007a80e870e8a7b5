package model

import (
	"go/ast"
	"go/token"
	"strings"
)

// markerTags returns the values of a type's access default markers, each as
// a Tag positioned at the first byte of its value in the comment, so
// that errors inside it point at the right column. controller-tools keeps no
// positions for marker values; the type's declaration comments are in the
// loaded syntax trees, so the positions are found there (falling back to the
// type's name when a comment cannot be matched).
func markerTags(t *Type) []Tag {
	if len(t.Markers[AccessDefaultMarker.Name]) == 0 {
		return nil // the common case; scanning every type's comments is quadratic
	}
	var out []Tag
	positions := markerPositions(t)
	for i, v := range t.Markers[AccessDefaultMarker.Name] {
		s, _ := v.(string)
		tag := Tag{Value: s, Pos: t.Pos, Set: true}
		if i < len(positions) && positions[i].text == s {
			tag.Pos = positions[i].pos
		}
		out = append(out, tag)
	}
	return out
}

type markerAt struct {
	text string
	pos  Pos
}

// markerPositions finds the access default markers written in the comments
// that precede the type's declaration, in source order.
func markerPositions(t *Type) []markerAt {
	p := t.Pkg.Loaded
	if p == nil || p.Fset == nil {
		return nil
	}
	prefix := "+" + AccessDefaultMarker.Name + "="
	for _, f := range p.Syntax {
		start, end, ok := declSpan(p.Fset, f, t)
		if !ok {
			continue
		}
		var out []markerAt
		for _, cg := range f.Comments {
			if cg.Pos() < start || cg.End() > end {
				continue
			}
			for _, c := range cg.List {
				if i := strings.Index(c.Text, prefix); i >= 0 {
					out = append(out, markerValueAt(p.Fset, c, i+len(prefix)))
				}
			}
		}
		return out
	}
	return nil
}

// declSpan is the range of source in which the type's markers may be
// written: from the end of the previous declaration to the type's name.
func declSpan(fset *token.FileSet, f *ast.File, t *Type) (start, end token.Pos, ok bool) {
	start = f.Name.End()
	for _, d := range f.Decls {
		if gd, isGen := d.(*ast.GenDecl); isGen && gd.Tok == token.TYPE {
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				pos := fset.Position(ts.Name.Pos())
				if ts.Name.Name == t.Name && pos.Filename == t.Pos.File && pos.Line == t.Pos.Line {
					return start, ts.Name.Pos(), true
				}
			}
		}
		start = d.End()
	}
	return 0, 0, false
}

// markerValueAt positions the value of a marker that starts at byte i of the
// comment, stepping over an opening quote or backquote.
func markerValueAt(fset *token.FileSet, c *ast.Comment, i int) markerAt {
	raw := strings.TrimSpace(c.Text[i:])
	text := raw
	if n := len(raw); n >= 2 && (raw[0] == '"' || raw[0] == '`') && raw[n-1] == raw[0] {
		text, i = raw[1:n-1], i+1
	}
	ps := fset.Position(c.Slash)
	return markerAt{text: text, pos: Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column + i}}
}
