package model

// The struct-tag tokenizer: a field's tags with the position of each value.

import (
	"go/ast"
	"strconv"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// tags parses a field's struct tag, keeping the position of each value.
func (b *builder) tags(p *loader.Package, raw *ast.Field) Tags {
	var out Tags
	if raw.Tag == nil {
		return out
	}
	lit := raw.Tag.Value
	text, err := strconv.Unquote(lit)
	if err != nil {
		return out
	}
	base := b.position(p, raw.Tag.Pos())
	base.Col++ // the opening quote
	for i := 0; i < len(text); {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		j := i
		for j < len(text) && text[j] > ' ' && text[j] != ':' && text[j] != '"' && text[j] != 0x7f {
			j++
		}
		if j == i || j+1 >= len(text) || text[j] != ':' || text[j+1] != '"' {
			break
		}
		key := text[i:j]
		k := j + 2
		for k < len(text) && text[k] != '"' {
			if text[k] == '\\' {
				k++
			}
			k++
		}
		if k >= len(text) {
			break
		}
		val, err := strconv.Unquote(text[j+1 : k+1])
		if err != nil {
			break
		}
		pos := base
		pos.Col += j + 2
		out = out.set(Tag{Key: key, Value: val, Pos: pos, Set: true})
		i = k + 1
	}
	return out
}

// set adds a tag whose key the field has no tag for yet: of a key given
// twice the first counts, as reflect.StructTag.Get (and so encoding/json and
// controller-gen) reads it.
func (ts Tags) set(t Tag) Tags {
	if _, ok := ts.Get(t.Key); ok {
		return ts
	}
	return append(ts, t)
}
