// Package gosyntax holds what reading Go source for its declarations only
// needs: BlankBodies, so that a dependency is parsed without the
// statements no check of it reads (the loader's syntax of a library
// package, the type check of a dependency from source).
package gosyntax

import (
	"bytes"
	"go/scanner"
	"go/token"
)

// BlankBodies returns src with the inside of every function declaration's
// body blanked (spaces, the newlines kept), so that a dependency checked
// from source is parsed without its statements: the check of a dependency
// needs its declarations only (go/types' IgnoreFuncBodies), and the
// statements are most of a package's syntax. Offsets and lines stay where
// they were; `//line` directives inside a body are kept. What a function
// body declares (its constants, its types, its closures) is local to it
// and no part of the package's API. A function literal outside a function
// declaration (a package variable's initializer) is left as it is: its
// signature is the variable's type. src is not changed; when there is
// nothing to blank it is returned as is.
func BlankBodies(src []byte) []byte {
	var s scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(src))
	s.Init(file, src, nil, scanner.ScanComments)
	var out []byte
	const (
		top       = iota // between declarations
		signature        // after a declaration's func, before its body
		body             // inside the body
	)
	state, depth, prev := top, 0, token.SEMICOLON
	start, keep := 0, []int(nil) // the body's opening brace; the line directives inside
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.COMMENT {
			if state == body && (bytes.HasPrefix(src[off:], []byte("//line ")) || bytes.HasPrefix(src[off:], []byte("/*line "))) {
				keep = append(keep, off, off+len(lit))
			}
			continue
		}
		switch state {
		case top:
			switch tok {
			case token.LPAREN, token.LBRACK, token.LBRACE:
				depth++
			case token.RPAREN, token.RBRACK, token.RBRACE:
				depth--
			case token.FUNC:
				if depth == 0 && prev == token.SEMICOLON {
					state = signature
				}
			}
		case signature:
			switch {
			case tok == token.LBRACE && depth == 0 && prev != token.STRUCT && prev != token.INTERFACE:
				state, depth, start, keep = body, 1, off, keep[:0]
			case tok == token.LPAREN || tok == token.LBRACK || tok == token.LBRACE:
				depth++
			case tok == token.RPAREN || tok == token.RBRACK || tok == token.RBRACE:
				depth--
			case tok == token.SEMICOLON && depth == 0:
				state = top // no body (assembly, linkname)
			}
		case body:
			switch tok {
			case token.LBRACE:
				depth++
			case token.RBRACE:
				depth--
				if depth == 0 {
					if out == nil {
						out = bytes.Clone(src)
					}
					blank(out[start+1:off], keep, start+1)
					state = top
				}
			}
		}
		prev = tok
	}
	if out == nil {
		return src
	}
	return out
}

// blank overwrites b (at offset base of the file) with spaces, but for its
// newlines and the ranges of keep (pairs of offsets).
func blank(b []byte, keep []int, base int) {
	for i := range b {
		if b[i] == '\n' {
			continue
		}
		kept := false
		for j := 0; j+1 < len(keep); j += 2 {
			if base+i >= keep[j] && base+i < keep[j+1] {
				kept = true
				break
			}
		}
		if !kept {
			b[i] = ' '
		}
	}
}
