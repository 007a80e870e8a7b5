// This file writes YAML straight into a buffer, with the bytes yaml.Marshal
// of go.yaml.in/yaml/v2 v2.4.4 (the yaml.v2 that sigs.k8s.io/yaml vendors)
// gives for the values of a decoded JSON document. Its functions are ported
// from that module: the emitter's states, scalar analysis, style choice and
// scalar writers from emitterc.go and yamlprivateh.go, the style a string
// asks for from encode.go (stringv), the key order from sorter.go, and the
// check whether a string reads back as another type from resolve.go.
// yaml.v2 keeps every event of a document in a queue until the document
// ends; here the value itself is the lookahead the emitter needs (is a
// collection empty, is a key short and on one line), so there is no queue.
//
// emitterc.go and yamlprivateh.go were ported to Go from libyaml:
//
//	Copyright (c) 2006 Kirill Simonov
//
//	Permission is hereby granted, free of charge, to any person obtaining a copy of
//	this software and associated documentation files (the "Software"), to deal in
//	the Software without restriction, including without limitation the rights to
//	use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
//	of the Software, and to permit persons to whom the Software is furnished to do
//	so, subject to the following conditions:
//
//	The above copyright notice and this permission notice shall be included in all
//	copies or substantial portions of the Software.
//
//	THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
//	IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
//	FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
//	AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
//	LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
//	OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
//	SOFTWARE.
//
// encode.go, sorter.go and resolve.go:
//
//	Copyright 2011-2016 Canonical Ltd.
//
//	Licensed under the Apache License, Version 2.0 (the "License");
//	you may not use this file except in compliance with the License.
//	You may obtain a copy of the License at
//
//	    http://www.apache.org/licenses/LICENSE-2.0
//
//	Unless required by applicable law or agreed to in writing, software
//	distributed under the License is distributed on an "AS IS" BASIS,
//	WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
//	See the License for the specific language governing permissions and
//	limitations under the License.

package yamlout

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// errUnsupported stops the emitter at a value it was not ported for; the
// caller then asks yaml.Marshal for the whole document.
var errUnsupported = errors.New("yamlout: value the direct emitter does not write")

// bestIndent and bestWidth are yaml.v2's defaults (emitterc.go,
// yaml_emitter_emit_stream_start).
const (
	bestIndent = 2
	bestWidth  = 80
)

type scalarStyle int8

const (
	plainStyle scalarStyle = iota
	singleQuotedStyle
	doubleQuotedStyle
	literalStyle
)

// emitter holds the part of yaml.v2's yaml_emitter_t that the block
// styles of a marshalled document read: there is one document, no anchors,
// tags or flow collections but the empty ones.
type emitter struct {
	out        []byte
	column     int
	indent     int
	whitespace bool
	indention  bool
}

// emitDocument writes v as yaml.Marshal(v) does: one implicit document
// whose end writes a line break.
func emitDocument(out []byte, v any) ([]byte, error) {
	e := &emitter{out: out, indent: -1, whitespace: true, indention: true}
	if err := e.node(v, false, false, false); err != nil {
		return nil, err
	}
	e.writeIndent() // yaml_emitter_emit_document_end
	return e.out, nil
}

// node is yaml_emitter_emit_node for the value v with the marshalling of
// encode.go's marshal.
func (e *emitter) node(v any, sequence, mapping, simpleKey bool) error {
	switch x := v.(type) {
	case nil:
		e.scalar("null", plainStyle, simpleKey)
	case string:
		style, ok := stringStyle(x)
		if !ok {
			return errUnsupported
		}
		e.scalar(x, style, simpleKey)
	case bool:
		e.scalar(strconv.FormatBool(x), plainStyle, simpleKey)
	case int:
		e.scalar(strconv.Itoa(x), plainStyle, simpleKey)
	case int64:
		e.scalar(strconv.FormatInt(x, 10), plainStyle, simpleKey)
	case uint64:
		e.scalar(strconv.FormatUint(x, 10), plainStyle, simpleKey)
	case float64:
		e.scalar(formatFloat(x), plainStyle, simpleKey)
	case map[string]any:
		return e.mapping(x)
	case []any:
		return e.sequence(x, mapping)
	default:
		return errUnsupported
	}
	return nil
}

// formatFloat is encode.go's floatv for a float64.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// mapping writes a block mapping, or {} when m is empty (an empty
// collection is written in flow style: yaml_emitter_check_empty_mapping).
func (e *emitter) mapping(m map[string]any) error {
	if len(m) == 0 {
		e.emptyFlow('{', '}')
		return nil
	}
	keys, err := e.sortedKeys(m)
	if err != nil {
		return err
	}
	saved := e.indent
	e.increaseIndent(false, false)
	for _, k := range keys {
		if err := e.entry(k, m[k]); err != nil {
			return err
		}
	}
	e.indent = saved
	return nil
}

// entry is yaml_emitter_emit_block_mapping_key and _value for one key.
func (e *emitter) entry(k string, v any) error {
	if !utf8.ValidString(k) {
		return errUnsupported // yaml.v2 writes it !!binary
	}
	e.writeIndent()
	if simpleKey(k) {
		if err := e.node(k, false, true, true); err != nil {
			return err
		}
		e.writeIndicator(":", false, false, false)
		return e.node(v, false, true, false)
	}
	e.writeIndicator("?", true, false, true)
	if err := e.node(k, false, true, false); err != nil {
		return err
	}
	e.writeIndent()
	e.writeIndicator(":", true, false, true)
	return e.node(v, false, true, false)
}

// simpleKey is yaml_emitter_check_simple_key for a string key: on one
// line and at most 128 bytes.
func simpleKey(k string) bool {
	return len(k) <= 128 && !analyzeScalar(k).multiline
}

// sequence writes a block sequence, or [] when s is empty. A sequence that
// is the value of a mapping entry is not indented
// (yaml_emitter_emit_block_sequence_item: indentless in a mapping context
// once the key's line has content).
func (e *emitter) sequence(s []any, mapping bool) error {
	if len(s) == 0 {
		e.emptyFlow('[', ']')
		return nil
	}
	saved := e.indent
	e.increaseIndent(false, mapping && !e.indention)
	for _, item := range s {
		e.writeIndent()
		e.writeIndicator("-", true, false, true)
		if err := e.node(item, true, false, false); err != nil {
			return err
		}
	}
	e.indent = saved
	return nil
}

// emptyFlow writes an empty flow collection (the first and end states of
// yaml_emitter_emit_flow_sequence_item and _mapping_key).
func (e *emitter) emptyFlow(open, close byte) {
	e.writeIndicator(string(open), true, true, false)
	e.writeIndicator(string(close), false, false, false)
}

// increaseIndent is yaml_emitter_increase_indent; callers restore the
// indent they saved where yaml.v2 pops its indents stack.
func (e *emitter) increaseIndent(flow, indentless bool) {
	if e.indent < 0 {
		if flow {
			e.indent = bestIndent
		} else {
			e.indent = 0
		}
	} else if !indentless {
		e.indent += bestIndent
	}
}

// scalar is yaml_emitter_emit_scalar: style chosen from the one asked for
// and what the value allows, then written one indent in.
func (e *emitter) scalar(value string, style scalarStyle, simpleKey bool) {
	style = selectStyle(analyzeScalar(value), value, style, simpleKey)
	saved := e.indent
	e.increaseIndent(true, false)
	switch style {
	case plainStyle:
		e.writePlain(value, !simpleKey)
	case singleQuotedStyle:
		e.writeSingleQuoted(value, !simpleKey)
	case doubleQuotedStyle:
		e.writeDoubleQuoted(value, !simpleKey)
	case literalStyle:
		e.writeLiteral(value)
	}
	e.indent = saved
}

// selectStyle is yaml_emitter_select_scalar_style outside flow
// collections, for an untagged scalar with both implicit flags set (as
// encode.go's emitScalar sends every scalar without a tag).
func selectStyle(a scalarAnalysis, value string, style scalarStyle, simpleKey bool) scalarStyle {
	if simpleKey && a.multiline {
		style = doubleQuotedStyle
	}
	if style == plainStyle {
		if !a.blockPlainAllowed {
			style = singleQuotedStyle
		}
		if len(value) == 0 && simpleKey {
			style = singleQuotedStyle
		}
	}
	if style == singleQuotedStyle && !a.singleQuotedAllowed {
		style = doubleQuotedStyle
	}
	if style == literalStyle && (!a.blockAllowed || simpleKey) {
		style = doubleQuotedStyle
	}
	return style
}

// scalarAnalysis is the part of yaml_emitter_analyze_scalar's scalar_data
// that block styles read (flow_plain_allowed matters only in flow
// collections, which hold nothing here).
type scalarAnalysis struct {
	multiline           bool
	blockPlainAllowed   bool
	singleQuotedAllowed bool
	blockAllowed        bool
}

// analyzeScalar is yaml_emitter_analyze_scalar (with the emitter's unicode
// flag set, as yaml.v2's newEncoder sets it).
func analyzeScalar(s string) scalarAnalysis {
	if len(s) == 0 {
		return scalarAnalysis{blockPlainAllowed: true, singleQuotedAllowed: true}
	}
	var (
		blockIndicators, lineBreaks, specialCharacters     bool
		leadingSpace, leadingBreak, trailingSpace          bool
		trailingBreak, breakSpace, spaceBreak              bool
		precededByWhitespace, previousSpace, previousBreak bool
	)
	if len(s) >= 3 && (s[:3] == "---" || s[:3] == "...") {
		blockIndicators = true
	}
	precededByWhitespace = true
	for i, w := 0, 0; i < len(s); i += w {
		w = width(s[i])
		followedByWhitespace := i+w >= len(s) || isBlank(s, i+w)
		if i == 0 {
			switch s[i] {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch s[i] {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		if !isPrintable(s, i) {
			specialCharacters = true
		}
		switch {
		case s[i] == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+w == len(s) {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		case isBreak(s, i):
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(s) {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = isBlankz(s, i)
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlainAllowed = false
	}
	if trailingSpace {
		a.blockAllowed = false
	}
	if breakSpace {
		a.blockPlainAllowed = false
		a.singleQuotedAllowed = false
	}
	if spaceBreak || specialCharacters {
		a.blockPlainAllowed = false
		a.singleQuotedAllowed = false
		a.blockAllowed = false
	}
	if lineBreaks || blockIndicators {
		a.blockPlainAllowed = false
	}
	return a
}

// writeIndent is yaml_emitter_write_indent.
func (e *emitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
	e.indention = true
}

// writeIndicator is yaml_emitter_write_indicator.
func (e *emitter) writeIndicator(indicator string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	for i := 0; i < len(indicator); {
		i = e.write(indicator, i)
	}
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

func (e *emitter) put(b byte) {
	e.out = append(e.out, b)
	e.column++
}

func (e *emitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

// write copies the character at s[i] and returns the index after it.
func (e *emitter) write(s string, i int) int {
	w := width(s[i])
	e.out = append(e.out, s[i:i+w]...)
	e.column++
	return i + w
}

// writeBreak copies the line break at s[i] (a '\n' is written as the
// emitter's line break, which is '\n' too).
func (e *emitter) writeBreak(s string, i int) int {
	if s[i] == '\n' {
		e.putBreak()
		return i + 1
	}
	i = e.write(s, i)
	e.column = 0
	return i
}

// writePlain is yaml_emitter_write_plain_scalar.
func (e *emitter) writePlain(s string, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && !isSpace(s, i+1) {
				e.writeIndent()
				i++
			} else {
				i = e.write(s, i)
			}
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			i = e.write(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.whitespace = false
	e.indention = false
}

// writeSingleQuoted is yaml_emitter_write_single_quoted_scalar.
func (e *emitter) writeSingleQuoted(s string, allowBreaks bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 && !isSpace(s, i+1) {
				e.writeIndent()
				i++
			} else {
				i = e.write(s, i)
			}
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if s[i] == '\'' {
				e.put('\'')
			}
			i = e.write(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeDoubleQuoted is yaml_emitter_write_double_quoted_scalar.
func (e *emitter) writeDoubleQuoted(s string, allowBreaks bool) {
	spaces := false
	e.writeIndicator(`"`, true, false, false)
	for i := 0; i < len(s); {
		switch {
		case !isPrintable(s, i) || isBOM(s) || isBreak(s, i) || s[i] == '"' || s[i] == '\\':
			var v rune
			var w int
			i, v = decodeRune(s, i)
			e.put('\\')
			switch v {
			case 0x00:
				e.put('0')
			case 0x07:
				e.put('a')
			case 0x08:
				e.put('b')
			case 0x09:
				e.put('t')
			case 0x0A:
				e.put('n')
			case 0x0b:
				e.put('v')
			case 0x0c:
				e.put('f')
			case 0x0d:
				e.put('r')
			case 0x1b:
				e.put('e')
			case 0x22:
				e.put('"')
			case 0x5c:
				e.put('\\')
			case 0x85:
				e.put('N')
			case 0xA0:
				e.put('_')
			case 0x2028:
				e.put('L')
			case 0x2029:
				e.put('P')
			default:
				switch {
				case v <= 0xFF:
					e.put('x')
					w = 2
				case v <= 0xFFFF:
					e.put('u')
					w = 4
				default:
					e.put('U')
					w = 8
				}
				for k := (w - 1) * 4; k >= 0; k -= 4 {
					digit := byte((v >> uint(k)) & 0x0F)
					if digit < 10 {
						e.put(digit + '0')
					} else {
						e.put(digit + 'A' - 10)
					}
				}
			}
			spaces = false
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if isSpace(s, i+1) {
					e.put('\\')
				}
				i++
			} else {
				i = e.write(s, i)
			}
			spaces = true
		default:
			i = e.write(s, i)
			spaces = false
		}
	}
	e.writeIndicator(`"`, false, false, false)
	e.whitespace = false
	e.indention = false
}

// decodeRune reads the UTF-8 sequence at s[i] as the double-quoted writer
// does, and returns the index after it.
func decodeRune(s string, i int) (int, rune) {
	octet := s[i]
	var w int
	var v rune
	switch {
	case octet&0x80 == 0x00:
		w, v = 1, rune(octet&0x7F)
	case octet&0xE0 == 0xC0:
		w, v = 2, rune(octet&0x1F)
	case octet&0xF0 == 0xE0:
		w, v = 3, rune(octet&0x0F)
	case octet&0xF8 == 0xF0:
		w, v = 4, rune(octet&0x07)
	}
	for k := 1; k < w; k++ {
		v = (v << 6) + (rune(s[i+k]) & 0x3F)
	}
	return i + w, v
}

// writeLiteral is yaml_emitter_write_literal_scalar.
func (e *emitter) writeLiteral(s string) {
	e.writeIndicator("|", true, false, false)
	e.writeBlockScalarHints(s)
	e.putBreak()
	e.indention = true
	e.whitespace = true
	breaks := true
	for i := 0; i < len(s); {
		if isBreak(s, i) {
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
			continue
		}
		if breaks {
			e.writeIndent()
		}
		i = e.write(s, i)
		e.indention = false
		breaks = false
	}
}

// writeBlockScalarHints is yaml_emitter_write_block_scalar_hints: an
// indentation digit when the text starts with a space or a break, then
// "-" (strip) when it does not end with a break, "+" (keep) when it ends
// with two, nothing (clip) for one.
func (e *emitter) writeBlockScalarHints(s string) {
	if isSpace(s, 0) || isBreak(s, 0) {
		e.writeIndicator(string(rune('0'+bestIndent)), false, false, false)
	}
	var chomp string
	if len(s) == 0 {
		chomp = "-"
	} else {
		i := len(s) - 1
		for s[i]&0xC0 == 0x80 {
			i--
		}
		switch {
		case !isBreak(s, i):
			chomp = "-"
		case i == 0:
			chomp = "+"
		default:
			i--
			for s[i]&0xC0 == 0x80 {
				i--
			}
			if isBreak(s, i) {
				chomp = "+"
			}
		}
	}
	if chomp != "" {
		e.writeIndicator(chomp, false, false, false)
	}
}

// The character classes of yamlprivateh.go, on strings; an index past the
// end reads as NUL (yaml.v2 reads its []byte there only where the
// string's UTF-8 guarantees the byte exists, or behind a length check).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isSpace(s string, i int) bool { return at(s, i) == ' ' }

func isBlank(s string, i int) bool { b := at(s, i); return b == ' ' || b == '\t' }

func isBreak(s string, i int) bool {
	b := at(s, i)
	return b == '\r' || b == '\n' ||
		b == 0xC2 && at(s, i+1) == 0x85 ||
		b == 0xE2 && at(s, i+1) == 0x80 && (at(s, i+2) == 0xA8 || at(s, i+2) == 0xA9)
}

func isBlankz(s string, i int) bool { return isBlank(s, i) || isBreak(s, i) || at(s, i) == 0 }

// isBOM is yaml.v2's is_bom, which looks at the start of the value
// whatever the index: a value that starts with U+FEFF has every character
// escaped in double quotes.
func isBOM(s string) bool { return at(s, 0) == 0xEF && at(s, 1) == 0xBB && at(s, 2) == 0xBF }

func isPrintable(s string, i int) bool {
	b := s[i]
	return b == 0x0A ||
		b >= 0x20 && b <= 0x7E ||
		b == 0xC2 && at(s, i+1) >= 0xA0 ||
		b > 0xC2 && b < 0xED ||
		b == 0xED && at(s, i+1) < 0xA0 ||
		b == 0xEE ||
		b == 0xEF && !(at(s, i+1) == 0xBB && at(s, i+2) == 0xBF) &&
			!(at(s, i+1) == 0xBF && (at(s, i+2) == 0xBE || at(s, i+2) == 0xBF))
}

// width is the length of the UTF-8 sequence that starts with b (0 for a
// continuation byte, which valid UTF-8 never starts a character with).
func width(b byte) int {
	switch {
	case b&0x80 == 0x00:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	case b&0xF8 == 0xF0:
		return 4
	}
	return 0
}
