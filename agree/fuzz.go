package agree

import (
	"encoding/json"
	"math"
	"strconv"
)

// Mutation changes one constrained field of one type under test; a fuzz
// target maps its arguments onto mutations. Indexes wrap around, so every
// input names some field.
type Mutation struct {
	Type, Field int   // which type under test and which of its fields
	Op          uint8 // what to put there (see MutationOps)
	S           string
	N           int64
	X           float64
}

// MutationOps is the number of distinct Op values.
const MutationOps = 14

// Mutate returns the case of a set of mutations: the first one's field in
// its valid context document, then every mutation applied in turn.
func (h *Harness) Mutate(ms ...Mutation) (Case, bool) {
	if len(h.subjects) == 0 || len(ms) == 0 {
		return Case{}, false
	}
	s := h.subjects[wrap(ms[0].Type, len(h.subjects))]
	if len(s.targets) == 0 {
		return Case{}, false
	}
	first := s.targets[wrap(ms[0].Field, len(s.targets))]
	doc := deepCopy(h.contextBaseLocked(s, first)).(document)
	note := ""
	for i, m := range ms {
		tg := first
		if i > 0 {
			tg = s.targets[wrap(m.Field, len(s.targets))]
		}
		p := m.value()
		set(doc, tg.path, p.value, p.absent, emptyObject)
		note += pathString(tg.path) + "=" + assignment{tg.path, p}.note() + " "
	}
	return Case{Type: s.name, Field: first.String(), Tag: first.field.Validate.Raw.Value, Probe: "fuzz: " + note, Doc: encode(doc), Path: s.path, subject: s, target: first}, true
}

func wrap(i, n int) int {
	i %= n
	if i < 0 {
		i += n
	}
	return i
}

func (m Mutation) value() probe {
	n := json.Number(strconv.FormatInt(m.N, 10))
	switch m.Op % MutationOps {
	case 0:
		return absentProbe()
	case 1:
		return nullProbe()
	case 2:
		return probe{value: m.S}
	case 3:
		return probe{value: n}
	case 4:
		if math.IsNaN(m.X) || math.IsInf(m.X, 0) {
			return probe{value: n}
		}
		return probe{value: json.Number(strconv.FormatFloat(m.X, 'g', -1, 64))}
	case 5:
		return probe{value: m.N%2 == 0}
	case 6:
		return probe{value: []any{m.S}}
	case 7:
		return probe{value: map[string]any{m.S: m.S}}
	case 8:
		return probe{value: []any{n}}
	case 9:
		return probe{value: map[string]any{"k": n}}
	case 10:
		return probe{value: []any{m.S, m.S}}
	case 11:
		return probe{value: map[string]any{}}
	case 12:
		return probe{value: []any{}}
	}
	// a JSON number spelled by the fuzzer, when it is one
	var v json.Number
	if err := json.Unmarshal([]byte(m.S), &v); err == nil && v != "" {
		return probe{value: v}
	}
	return probe{value: m.S}
}
