package agree

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// A probe is one value tried at one place of a document.
type probe struct {
	note   string // why this value: "min=3-1 (é)", "absent", "oneof[2]"...
	value  any    // a JSON value (see document); nil is null
	absent bool   // the property is left out
}

func absentProbe() probe       { return probe{note: "absent", absent: true} }
func nullProbe() probe         { return probe{note: "null"} }
func str(note, s string) probe { return probe{note: note, value: s} }
func num(note, text string) probe {
	return probe{note: note, value: json.Number(text)}
}

// probeList collects probes without duplicates (same JSON text).
type probeList struct {
	seen map[string]bool
	out  []probe
}

func (l *probeList) add(ps ...probe) {
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	for _, p := range ps {
		key := "absent"
		if !p.absent {
			key = string(encode(p.value))
		}
		if !l.seen[key] {
			l.seen[key] = true
			l.out = append(l.out, p)
		}
	}
}

// uses lists the keyword uses of a level, alternatives included.
func uses(lv *model.Level) []*model.Use {
	if lv == nil {
		return nil
	}
	var out []*model.Use
	for _, c := range lv.Checks {
		out = append(out, c.Or...)
	}
	return out
}

// scalarProbes are the boundary values of a scalar at one level: zero,
// the type's own edges, and for every keyword of the level the values on
// both sides of what it allows, derived from the keyword's parsed
// parameter (validator's meaning) and from the schema it generates (the
// generator's reading of it).
func scalarProbes(t *model.TypeRef, lv *model.Level) []probe {
	var l probeList
	switch kindOf(t) {
	case model.KindString:
		stringProbes(&l, lv)
	case model.KindInt, model.KindDuration:
		intProbes(&l, t.Deref(), lv)
		if kindOf(t) == model.KindDuration {
			l.add(str("duration text", "1s"))
		}
	case model.KindFloat:
		floatProbes(&l, t.Deref(), lv)
	case model.KindBool:
		l.add(probe{note: "true", value: true}, probe{note: "false", value: false}, str("string true", "true"))
	case model.KindTime:
		l.add(str("RFC 3339", "2024-01-02T03:04:05Z"), str("RFC 3339 later", "2025-01-02T03:04:05Z"),
			str("offset", "2024-01-02T04:04:05+01:00"), str("fraction", "2024-01-02T03:04:05.5Z"),
			str("date only", "2024-01-02"), str("empty", ""), num("number", "1"))
	case model.KindBytes:
		bytesProbes(&l, lv)
	case model.KindMetaDuration:
		l.add(str("duration", "1h30m"), str("bad duration", "1x"), str("empty", ""), num("number", "1"))
	case model.KindQuantity:
		l.add(str("quantity", "100m"), str("bad quantity", "1xyz"), num("number", "1"), num("float", "0.5"))
	case model.KindIntOrString:
		l.add(num("int", "1"), str("string", "a"), str("percent", "50%"), num("float", "1.5"))
	default:
		l.add(str("string", "a"), num("number", "1"), probe{note: "object", value: map[string]any{}})
	}
	return l.out
}

// kindOf is the kind validator checks: pointers are followed.
func kindOf(t *model.TypeRef) model.Kind {
	if d := t.Deref(); d != nil {
		return d.Kind
	}
	return model.KindInvalid
}

// Seeds for strings of a given rune length: ASCII letters and digits, a
// two-byte letter, a letter plus a combining accent (two runes, one
// glyph), a three-byte CJK character and a four-byte emoji (two UTF-16
// units).
var seeds = []struct{ name, unit string }{
	{"ascii", "a"}, {"digit", "0"}, {"upper", "Z"}, {"é", "é"}, {"combining", "e\u0301"}, {"cjk", "日"}, {"emoji", "😀"},
}

// ofLength is a string of n runes made of seed.
func ofLength(n int, unit string) string {
	r := []rune(strings.Repeat(unit, n))
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

func stringProbes(l *probeList, lv *model.Level) {
	l.add(str("empty", ""), str("a", "a"), str("word", "abc"), str("upper", "ABC"), str("space", " "),
		str("é", "é"), str("combining", "e\u0301"), str("cjk", "日本語"), str("emoji", "😀"), str("digits", "123"))
	for _, u := range uses(lv) {
		name := u.Keyword.Name()
		switch v := u.Value.(type) {
		case float64: // a length
			n := int(v)
			for _, d := range []int{-1, 0, 1} {
				if n+d < 0 {
					continue
				}
				for _, s := range seeds {
					l.add(str(name+"="+u.Param+lenNote(d)+" ("+s.name+")", ofLength(n+d, s.unit)))
				}
			}
		case string: // eq, ne
			l.add(nearStrings(name, v)...)
		case []any: // oneof, noneof
			for _, x := range v {
				if s, ok := x.(string); ok {
					l.add(nearStrings(name, s)...)
				}
			}
		case []string: // oneofci, noneofci
			for _, s := range v {
				l.add(nearStrings(name, s)...)
				l.add(foldVariants(name, s)...)
			}
		}
		switch name {
		case "contains", "containsany", "containsrune", "excludes", "excludesall", "excludesrune",
			"startswith", "endswith", "startsnotwith", "endsnotwith":
			l.add(affixes(name, u.Param)...)
		case "ip", "ipv4", "ipv6", "cidr", "cidrv4", "cidrv6":
			for _, s := range addresses {
				l.add(str(name+" sample", s))
			}
		}
		for _, s := range runtimeSamples[name] {
			l.add(str(name+" sample", s))
		}
		harvest(l, u)
	}
}

func lenNote(d int) string {
	switch d {
	case -1:
		return " -1"
	case 1:
		return " +1"
	}
	return ""
}

// nearStrings are a value and its near misses.
func nearStrings(name, s string) []probe {
	out := []probe{str(name+" value", s), str(name+" +x", s+"x"), str(name+" upper", strings.ToUpper(s)),
		str(name+" padded", " "+s), str(name+" title", title(s))}
	if len(s) > 1 {
		out = append(out, str(name+" prefix", s[:len(s)-1]))
	}
	return out
}

func title(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// foldVariants spell s with the non-ASCII runes that Unicode case folding
// equates with ASCII letters: K (Kelvin sign) with k, ſ (long s) with s.
func foldVariants(name, s string) []probe {
	var out []probe
	for _, f := range []struct{ ascii, other string }{{"k", "\u212a"}, {"K", "\u212a"}, {"s", "\u017f"}, {"S", "\u017f"}} {
		if strings.Contains(s, f.ascii) {
			out = append(out, str(name+" unicode fold", strings.Replace(s, f.ascii, f.other, 1)))
		}
	}
	return out
}

// affixes probe contains/excludes/startswith and friends: the parameter
// alone, inside, at either end, broken, and each of its characters.
func affixes(name, p string) []probe {
	out := []probe{str(name+" param", p), str(name+" inside", "x"+p+"x"), str(name+" prefix", p+"x"),
		str(name+" suffix", "x"+p), str(name+" other", "x"), str(name+" upper", strings.ToUpper(p))}
	if r := []rune(p); len(r) > 1 {
		out = append(out, str(name+" broken", string(r[:len(r)-1])+"_"+string(r[len(r)-1:])))
		for _, c := range r {
			out = append(out, str(name+" char", "x"+string(c)))
		}
	}
	return out
}

// addresses are IP and CIDR spellings on which parsers are known to
// differ: leading zeros, IPv4-mapped IPv6, zones, host bits, prefix edges.
var addresses = []string{
	"10.0.0.1", "0.0.0.0", "255.255.255.255", "256.0.0.1", "10.0.0", "010.0.0.1", "10.0.0.1 ",
	"::1", "::", "2001:db8::1", "2001:DB8::1", "::ffff:10.0.0.1", "fe80::1%eth0", "2001:db8:::1",
	"10.0.0.0/8", "10.0.0.1/8", "10.0.0.0/0", "10.0.0.0/32", "10.0.0.0/33", "10.0.0.0/08",
	"::/0", "2001:db8::/32", "2001:db8::1/128", "2001:db8::/129", "::ffff:10.0.0.0/104", "10.0.0.0/8/8",
}

// harvest adds probes read from the schema the keyword generates: values
// of its patterns (matching and near misses), its enums and the edges of
// its bounds. A wrong schema is then probed on its own terms too.
func harvest(l *probeList, u *model.Use) {
	for _, target := range []model.Target{model.TargetOpenAPI, model.TargetCRD} {
		self, _ := scratch(u, target)
		harvestSchema(l, u.Keyword.Name(), &self)
	}
}

func harvestSchema(l *probeList, name string, s *apiext.JSONSchemaProps) {
	if s == nil {
		return
	}
	if s.Pattern != "" {
		matches, misses := patternExamples(s.Pattern)
		for _, m := range matches {
			l.add(str(name+" pattern match", m))
		}
		for _, m := range misses {
			l.add(str(name+" pattern miss", m))
		}
	}
	for _, e := range s.Enum {
		var v any
		if err := json.Unmarshal(e.Raw, &v); err == nil {
			if sv, ok := v.(string); ok {
				l.add(nearStrings(name+" enum", sv)...)
			} else {
				l.add(probe{note: name + " enum", value: json.Number(string(e.Raw))})
			}
		}
	}
	harvestSchema(l, name, s.Not)
	for i := range s.AllOf {
		harvestSchema(l, name, &s.AllOf[i])
	}
	for i := range s.AnyOf {
		harvestSchema(l, name, &s.AnyOf[i])
	}
}

func intProbes(l *probeList, t *model.TypeRef, lv *model.Level) {
	ints := []int64{0, 1, -1, 2}
	var floats []float64
	for _, u := range uses(lv) {
		switch v := u.Value.(type) {
		case float64:
			n := int64(v)
			ints = append(ints, n-1, n, n+1)
		case []any:
			for _, x := range v {
				switch n := x.(type) {
				case int64:
					ints = append(ints, n-1, n, n+1)
				case uint64:
					ints = append(ints, int64(n)-1, int64(n), int64(n)+1)
				}
			}
		}
		self, _ := scratch(u, model.TargetCRD)
		floats = append(floats, boundsOf(&self)...)
		for _, s := range runtimeSamples[u.Keyword.Name()] {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				ints = append(ints, n)
			}
		}
	}
	for _, f := range floats {
		ints = append(ints, int64(math.Floor(f))-1, int64(math.Floor(f)), int64(math.Ceil(f)), int64(math.Ceil(f))+1)
	}
	lo, hi, bounded := typeRange(t)
	if bounded {
		ints = append(ints, lo, hi, lo-1)
		if hi < math.MaxInt64 {
			ints = append(ints, hi+1)
		}
	}
	for _, n := range ints {
		l.add(num("integer", strconv.FormatInt(n, 10)))
	}
	if t.Unsigned && t.Bits == 64 || t.Unsigned && t.Bits == 0 {
		l.add(num("max uint64", strconv.FormatUint(math.MaxUint64, 10)))
	}
	l.add(num("integral float", "1.0"), num("integral float zero", "0.0"), num("exponent", "1e1"),
		num("fraction", "0.5"), str("numeric string", "1"))
}

// typeRange is the range of a Go integer type narrower than int64.
func typeRange(t *model.TypeRef) (lo, hi int64, ok bool) {
	bits := t.Bits
	if bits == 0 {
		bits = 64
	}
	switch {
	case t.Unsigned && bits < 64:
		return 0, int64(1)<<bits - 1, true
	case t.Unsigned:
		return 0, math.MaxInt64, true
	case bits < 64:
		return -(int64(1) << (bits - 1)), int64(1)<<(bits-1) - 1, true
	}
	return 0, 0, false
}

// boundsOf lists the numeric bounds a schema states.
func boundsOf(s *apiext.JSONSchemaProps) []float64 {
	if s == nil {
		return nil
	}
	var out []float64
	if s.Minimum != nil {
		out = append(out, *s.Minimum)
	}
	if s.Maximum != nil {
		out = append(out, *s.Maximum)
	}
	for _, e := range s.Enum {
		if f, err := strconv.ParseFloat(string(e.Raw), 64); err == nil {
			out = append(out, f)
		}
	}
	out = append(out, boundsOf(s.Not)...)
	for i := range s.AllOf {
		out = append(out, boundsOf(&s.AllOf[i])...)
	}
	for i := range s.AnyOf {
		out = append(out, boundsOf(&s.AnyOf[i])...)
	}
	return out
}

func floatProbes(l *probeList, t *model.TypeRef, lv *model.Level) {
	vals := []float64{0, 1, -1, 0.5}
	for _, u := range uses(lv) {
		switch v := u.Value.(type) {
		case float64:
			vals = append(vals, v)
		case []any:
			for _, x := range v {
				if f, ok := x.(float64); ok {
					vals = append(vals, f)
				}
			}
		}
		self, _ := scratch(u, model.TargetCRD)
		vals = append(vals, boundsOf(&self)...)
	}
	var out []float64
	for _, v := range vals {
		out = append(out, v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)), v-1, v+1,
			math.Floor(v), math.Ceil(v), v-0.5, v+0.5)
		if t.Bits == 32 {
			f := float64(float32(v))
			out = append(out, f, float64(math.Nextafter32(float32(v), float32(math.Inf(1)))), float64(math.Nextafter32(float32(v), float32(math.Inf(-1)))))
		}
	}
	for _, v := range out {
		for _, text := range floatTexts(v) {
			l.add(num("number", text))
		}
	}
	l.add(num("negative zero", "-0"), num("negative zero float", "-0.0"), num("exponent", "5e-1"), str("numeric string", "1"))
	if t.Bits == 32 {
		l.add(num("beyond float32", "1e39"))
	}
}

// floatTexts spells a number as JSON: the shortest form, and for
// integral values both "2" and "2.0" (the API server decodes the first
// as an int64, the second as a float64).
func floatTexts(v float64) []string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		i := strconv.FormatFloat(v, 'f', -1, 64)
		return []string{i, i + ".0"}
	}
	return []string{s}
}

func bytesProbes(l *probeList, lv *model.Level) {
	ns := []int{0, 1, 3}
	for _, u := range uses(lv) {
		if v, ok := u.Value.(float64); ok {
			ns = append(ns, int(v)-1, int(v), int(v)+1)
		}
	}
	for _, n := range ns {
		if n < 0 {
			continue
		}
		b := []byte(strings.Repeat("x", n))
		l.add(str("bytes len "+strconv.Itoa(n), base64.StdEncoding.EncodeToString(b)))
	}
	l.add(str("unpadded base64", "eHg"), str("not base64", "!!!"), str("url base64", "-_-_"))
}

// scratch applies one keyword use to empty schemas for a target and
// returns what it wrote on the value's schema and on its parent's.
func scratch(u *model.Use, target model.Target) (self, parent apiext.JSONSchemaProps) {
	func() {
		defer func() { _ = recover() }()
		self, parent, _ = schema.LowerUse(u, target)
	}()
	return self, parent
}
