package agree

import (
	"encoding/json"

	"github.com/getkin/kin-openapi/openapi3"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/modelgen/modelgen/model"
)

// fix turns a document into one validator accepts, changing only what
// validator complains about: each round takes the first failing field and
// tries the field's own probes until one makes that error go away without
// adding others. Fields the schemas require and validator ignores (no
// validate tag) get their zero value first. Probes then start from a
// valid document, so that each one tests one thing.
func (h *Harness) fix(s *subject, doc document) document {
	for range 64 + len(s.targets) {
		s.fillRequired(doc)
		verdict, errs := s.val.judge(encode(doc))
		if verdict.Accept || len(errs) == 0 {
			return doc
		}
		next, ok := h.repair(s, doc, errs)
		if !ok {
			return doc
		}
		doc = next
	}
	return doc
}

func (h *Harness) repair(s *subject, doc document, errs []fieldError) (document, bool) {
	for _, fe := range errs {
		path, f, dives, ok := s.locate(fe.Namespace)
		if !ok {
			continue
		}
		for _, a := range h.repairAssignments(f, path, dives) {
			try := deepCopy(doc).(document)
			set(try, a.path, a.p.value, a.p.absent, emptyObject)
			verdict, after := s.val.judge(encode(try))
			if verdict.Accept {
				return try, true
			}
			if len(after) > 0 && len(after) < len(errs) && !failsAt(after, fe.Namespace) {
				return try, true
			}
		}
	}
	return doc, false
}

// repairAssignments are the changes tried for a failing field: its own
// candidate values, then values of the fields its cross-field keywords
// name (ltfield=Peer cannot hold while Peer is empty).
func (h *Harness) repairAssignments(f *model.Field, path []step, dives int) []assignment {
	var out []assignment
	for _, p := range h.repairCandidates(f, dives) {
		out = append(out, assignment{path: path, p: p})
	}
	if dives > 0 || f.Validate == nil || len(path) == 0 {
		return out
	}
	container := path[:len(path)-1]
	for _, u := range uses(f.Validate.Root) {
		for name := range crossRefs(u) {
			sib := u.Owner.Field(name)
			if sib == nil || sib.JSONName == "" {
				continue
			}
			for _, p := range h.repairCandidates(sib, 0) {
				out = append(out, assignment{path: appendPath(container, prop(sib.JSONName)), p: p})
			}
		}
	}
	return out
}

func failsAt(errs []fieldError, ns string) bool {
	for _, e := range errs {
		if e.Namespace == ns {
			return true
		}
	}
	return false
}

func emptyObject([]step) any { return map[string]any{} }

// repairCandidates are the values tried for a failing field: its scalar
// probes, or for collections and structs small well-formed values.
func (h *Harness) repairCandidates(f *model.Field, dives int) []probe {
	t := typeAt(f, dives)
	lv, _ := levelAt(f, dives)
	if t == nil {
		return nil
	}
	d := t.Deref()
	switch {
	case d == nil:
		return nil
	case d.Kind == model.KindSlice:
		var out []probe
		for _, e := range h.elementSeeds(d.Elem, childLevel(lv)) {
			out = append(out, probe{note: "list", value: []any{e.value}})
		}
		return append(out, probe{note: "empty list", value: []any{}})
	case d.Kind == model.KindMap:
		var out []probe
		for _, e := range h.elementSeeds(d.Elem, childLevel(lv)) {
			out = append(out, probe{note: "map", value: map[string]any{"k": e.value}})
		}
		return append(out, probe{note: "empty map", value: map[string]any{}})
	case structOf(t) != nil || d.Kind == model.KindStruct:
		return []probe{{note: "object", value: map[string]any{}}}
	}
	return scalarProbes(t, lv)
}

func childLevel(lv *model.Level) *model.Level {
	if lv == nil {
		return nil
	}
	return lv.Dive
}

// elementSeeds are a few candidate element values for a list or map.
func (h *Harness) elementSeeds(t *model.TypeRef, lv *model.Level) []probe {
	d := t.Deref()
	if d == nil {
		return nil
	}
	switch {
	case structOf(t) != nil || d.Kind == model.KindStruct:
		return []probe{{note: "object", value: map[string]any{}}}
	case d.Kind == model.KindSlice:
		return []probe{{note: "list", value: []any{}}}
	case d.Kind == model.KindMap:
		return []probe{{note: "map", value: map[string]any{}}}
	}
	var out []probe
	for _, p := range scalarProbes(t, lv) {
		if !p.absent && p.value != nil {
			out = append(out, p)
		}
	}
	return out
}

// fillRequired gives every property a schema requires, and the document
// lacks, its zero value, walking the CRD's structural schema (or the
// OpenAPI component of a plain type).
func (s *subject) fillRequired(doc document) {
	if s.crd != nil {
		fillStructural(doc, s.crd.Structural())
		return
	}
	fillOpenAPI(doc, s.oapi.schema, 0)
}

func fillStructural(v any, st *structuralschema.Structural) {
	if st == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if st.ValueValidation != nil {
			for _, name := range st.ValueValidation.Required {
				if _, ok := x[name]; !ok {
					if p, ok := st.Properties[name]; ok {
						x[name] = zeroOfStructural(&p)
					}
				}
			}
		}
		for k, e := range x {
			if p, ok := st.Properties[k]; ok {
				fillStructural(e, &p)
			} else if st.AdditionalProperties != nil {
				fillStructural(e, st.AdditionalProperties.Structural)
			}
		}
	case []any:
		for _, e := range x {
			fillStructural(e, st.Items)
		}
	}
}

func zeroOfStructural(st *structuralschema.Structural) any {
	if st.XIntOrString {
		return json.Number("0")
	}
	return zeroOfType(st.Type)
}

func zeroOfType(t string) any {
	switch t {
	case "string":
		return ""
	case "integer", "number":
		return json.Number("0")
	case "boolean":
		return false
	case "array":
		return []any{}
	}
	return map[string]any{}
}

func fillOpenAPI(v any, s *openapi3.Schema, depth int) {
	if s == nil || depth > 16 {
		return
	}
	x, ok := v.(map[string]any)
	if !ok {
		return
	}
	props := map[string]*openapi3.Schema{}
	required := append([]string(nil), s.Required...)
	collect := func(sc *openapi3.Schema) {
		for k, r := range sc.Properties {
			if r != nil && r.Value != nil {
				props[k] = r.Value
			}
		}
	}
	collect(s)
	for _, a := range s.AllOf {
		if a != nil && a.Value != nil {
			collect(a.Value)
			required = append(required, a.Value.Required...)
		}
	}
	for _, name := range required {
		if _, ok := x[name]; !ok && props[name] != nil {
			x[name] = zeroOfType(typeName(props[name]))
		}
	}
	for k, e := range x {
		fillOpenAPI(e, props[k], depth+1)
	}
}

func typeName(s *openapi3.Schema) string {
	if s.Type != nil && len(*s.Type) > 0 {
		return (*s.Type)[0]
	}
	for _, a := range s.AllOf {
		if a != nil && a.Value != nil {
			if t := typeName(a.Value); t != "" {
				return t
			}
		}
	}
	return "object"
}

// contextBase is the subject's base document with the container of a
// target created and made valid: the starting point of the target's
// probes.
func (h *Harness) contextBase(s *subject, tg *target) document {
	container := tg.path[:len(tg.path)-1]
	key := pathString(container)
	if b, ok := s.bases[key]; ok {
		return b
	}
	doc := deepCopy(s.base).(document)
	if !has(doc, container) || get(doc, container) == nil {
		set(doc, container, map[string]any{}, false, emptyObject)
		doc = h.fix(s, doc)
	}
	s.bases[key] = doc
	return doc
}

// contextBaseLocked is contextBase for callers that may run concurrently.
func (h *Harness) contextBaseLocked(s *subject, tg *target) document {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.contextBase(s, tg)
}
