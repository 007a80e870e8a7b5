package model

import (
	"fmt"
	"math"
	"strconv"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
)

// markerBound is a kubebuilder bound marker on a field's value.
type markerBound struct {
	name      string // marker name, without the leading '+'
	value     float64
	lower     bool
	exclusive bool
	dim       Kind // KindString (length), KindSlice (items), KindMap (entries), KindFloat (value)
}

// markerBounds are the bound markers of a field.
func markerBounds(f *Field) []markerBound {
	var out []markerBound
	get := func(name string) any { return f.Markers.Get("kubebuilder:validation:" + name) }
	exclMin, _ := get("ExclusiveMinimum").(crdmarkers.ExclusiveMinimum)
	exclMax, _ := get("ExclusiveMaximum").(crdmarkers.ExclusiveMaximum)
	if v, ok := get("Minimum").(crdmarkers.Minimum); ok {
		out = append(out, markerBound{"Minimum", float64(v), true, bool(exclMin), KindFloat})
	}
	if v, ok := get("Maximum").(crdmarkers.Maximum); ok {
		out = append(out, markerBound{"Maximum", float64(v), false, bool(exclMax), KindFloat})
	}
	ints := []struct {
		name  string
		lower bool
		dim   Kind
	}{{"MinLength", true, KindString}, {"MaxLength", false, KindString}, {"MinItems", true, KindSlice}, {"MaxItems", false, KindSlice}, {"MinProperties", true, KindMap}, {"MaxProperties", false, KindMap}}
	for _, m := range ints {
		if v, ok := intMarker(get(m.name)); ok {
			out = append(out, markerBound{m.name, float64(v), m.lower, false, m.dim})
		}
	}
	return out
}

func intMarker(v any) (int, bool) {
	switch x := v.(type) {
	case crdmarkers.MinLength:
		return int(x), true
	case crdmarkers.MaxLength:
		return int(x), true
	case crdmarkers.MinItems:
		return int(x), true
	case crdmarkers.MaxItems:
		return int(x), true
	case crdmarkers.MinProperties:
		return int(x), true
	case crdmarkers.MaxProperties:
		return int(x), true
	}
	return 0, false
}

// markerContradictions reports a bound marker that refuses values the
// field's validate tag accepts (+kubebuilder:validation:MaxLength=3 over
// validate:"omitempty,min=5", Minimum=10 over omitempty,gte=1): the CRD
// would refuse what validator accepts. A marker as loose as the tag or
// looser changes nothing (the tag's bound is the tighter one).
func markerContradictions(f *Field, diags *Diagnostics) {
	if f.Validate == nil || f.Validate.Skip || f.Validate.Root == nil {
		return
	}
	lv := f.Validate.Root
	dim := ValueKind(lv.Type)
	switch dim {
	case KindInt, KindDuration:
		dim = KindFloat
	case KindString, KindSlice, KindMap, KindFloat:
	default:
		return
	}
	for _, m := range markerBounds(f) {
		if m.dim != dim {
			continue
		}
		if why := refusedByMarker(m, lv); why != "" {
			diags.Errorf(f.Pos, "+kubebuilder:validation:%s=%s refuses %s, which validate:%q accepts: the CRD and validator would disagree; say the bound in the validate tag, or remove the marker", m.name, strconv.FormatFloat(m.value, 'g', -1, 64), why, f.Validate.Raw.Value)
		}
	}
}

// refusedByMarker names what the level accepts and the marker refuses
// ("" when nothing).
func refusedByMarker(m markerBound, lv *Level) string {
	whole := ValueKind(lv.Type) != KindFloat
	lo, hi := typeLimits(lv.Type)
	loX, hiX := false, false
	for _, c := range lv.Checks {
		if len(c.Or) != 1 {
			continue
		}
		u := c.Or[0]
		v, ok := u.Value.(float64)
		if !ok || !valueBound(u.Keyword.Name()) {
			continue
		}
		if l, x, ok := bound1(u.Keyword.Name(), v, whole, true); ok && (l > lo || l == lo && x) {
			lo, loX = l, x
		}
		if h, x, ok := bound1(u.Keyword.Name(), v, whole, false); ok && (h < hi || h == hi && x) {
			hi, hiX = h, x
		}
	}
	zeroPasses := (lv.Omit == OmitEmpty || lv.Omit == OmitZero) && lv.Type.Kind != KindPointer
	what := "values"
	if m.dim != KindFloat {
		what = "lengths"
	}
	mv := strconv.FormatFloat(m.value, 'g', -1, 64)
	if m.lower {
		switch {
		case lo == m.value && m.exclusive && !loX:
			return fmt.Sprintf("the %s %s itself", what[:len(what)-1], mv)
		case lo < m.value:
			return fmt.Sprintf("%s below %s (the tag accepts them from %s)", what, mv, strconv.FormatFloat(lo, 'g', -1, 64))
		case zeroPasses && (m.value > 0 || m.value == 0 && m.exclusive):
			return "the zero value (omitempty lets it through)"
		}
		return ""
	}
	switch {
	case hi == m.value && m.exclusive && !hiX:
		return fmt.Sprintf("the %s %s itself", what[:len(what)-1], mv)
	case hi > m.value && math.IsInf(hi, 1):
		return what + " above " + mv
	case hi > m.value:
		return fmt.Sprintf("%s above %s (the tag accepts them up to %s)", what, mv, strconv.FormatFloat(hi, 'g', -1, 64))
	case zeroPasses && (m.value < 0 || m.value == 0 && m.exclusive):
		return "the zero value (omitempty lets it through)"
	}
	return ""
}

// valueBound reports the keywords that bound a length or a value.
func valueBound(name string) bool {
	switch name {
	case "len", "eq", "min", "max", "gt", "gte", "lt", "lte":
		return true
	}
	return false
}

// typeLimits is the range of lengths or values the Go type itself allows.
func typeLimits(t *TypeRef) (lo, hi float64) {
	t = t.Deref()
	lo, hi = math.Inf(-1), math.Inf(1)
	switch ValueKind(t) {
	case KindString, KindSlice, KindMap, KindBytes:
		return 0, hi
	case KindInt:
		bits := t.Bits
		if bits == 0 {
			bits = 64
		}
		if t.Unsigned {
			return 0, math.Ldexp(1, bits) - 1
		}
		return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1
	}
	return lo, hi
}
