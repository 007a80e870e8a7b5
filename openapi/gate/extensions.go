package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The schema extensions the generator writes on property schemas; their shape
// is the contract between the generator and the gate.
const (
	ExtensionStateMachine = "x-modelgen-state-machine"
	ExtensionAccess       = "x-modelgen-access"
)

// stateMachine is the value of x-modelgen-state-machine.
type stateMachine struct {
	Name        string       `json:"name"`
	Initial     string       `json:"initial"`
	States      []string     `json:"states"`
	Transitions []transition `json:"transitions"`
}

// transition is identified by all three fields: the same event from the same
// state to another target is a different transition.
type transition struct {
	From  string `json:"from"`
	Event string `json:"event"`
	To    string `json:"to"`
}

func (t transition) String() string { return t.From + " -" + t.Event + "-> " + t.To }

// accessRule is the value of x-modelgen-access: the roles that may read and
// write a property. A property without it is open to every role.
type accessRule struct {
	Read  []string `json:"read"`
	Write []string `json:"write"`
}

// site is where a property lives: a component schema and the JSON path of
// the property inside it ("status.phase", "items[].name", "labels{}").
// allOf/anyOf/oneOf add no segment: they describe the same JSON value.
type site struct {
	schema string
	path   string
}

func (s site) String() string {
	if s.path == "" || strings.HasPrefix(s.path, "[") || strings.HasPrefix(s.path, "{") {
		return s.schema + s.path
	}
	return s.schema + "." + s.path
}

// extensions is what one document says through the modelgen extensions.
type extensions struct {
	sites    map[site]bool // every property seen, with or without an extension
	machines map[site]stateMachine
	access   map[site]accessRule
}

// collectExtensions walks components.schemas recursively (properties, items,
// additionalProperties, allOf/anyOf/oneOf) and decodes every modelgen
// extension. A malformed extension is an error: the gate fails closed rather
// than compare a contract it cannot read. $ref'd schemas are not entered: each
// component is walked once, under its own name.
func collectExtensions(doc *openapi3.T) (*extensions, error) {
	ext := &extensions{sites: map[site]bool{}, machines: map[site]stateMachine{}, access: map[site]accessRule{}}
	if doc.Components == nil {
		return ext, nil
	}
	var errs []error
	for _, name := range sortedKeys(doc.Components.Schemas) {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil || ref.Ref != "" {
			continue
		}
		w := walker{ext: ext, schema: name, seen: map[*openapi3.Schema]bool{}}
		w.walk(ref.Value, "", "#/components/schemas/"+jsonPointerEscape(name))
		errs = append(errs, w.errs...)
	}
	return ext, errors.Join(errs...)
}

type walker struct {
	ext    *extensions
	schema string
	seen   map[*openapi3.Schema]bool
	errs   []error
}

func (w *walker) walk(s *openapi3.Schema, path, pointer string) {
	if w.seen[s] {
		return
	}
	w.seen[s] = true
	at := site{w.schema, path}
	w.ext.sites[at] = true
	w.decode(s.Extensions, at, pointer)
	for _, name := range sortedKeys(s.Properties) {
		w.child(s.Properties[name], joinPath(path, name), pointer+"/properties/"+jsonPointerEscape(name))
	}
	w.child(s.Items, path+"[]", pointer+"/items")
	w.child(s.AdditionalProperties.Schema, path+"{}", pointer+"/additionalProperties")
	for _, group := range []struct {
		keyword string
		refs    openapi3.SchemaRefs
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i, ref := range group.refs {
			w.child(ref, path, fmt.Sprintf("%s/%s/%d", pointer, group.keyword, i))
		}
	}
}

// child walks an inline schema. A $ref'd one is left to the walk of the
// component it names; only the extensions written next to the $ref belong to
// this site.
func (w *walker) child(ref *openapi3.SchemaRef, path, pointer string) {
	if ref == nil || ref.Value == nil {
		return
	}
	if ref.Ref == "" {
		w.walk(ref.Value, path, pointer)
		return
	}
	at := site{w.schema, path}
	w.ext.sites[at] = true
	w.decode(ref.Extensions, at, pointer)
}

// decode reads the modelgen extensions of one schema, keeping a positioned
// error for each one that is malformed.
func (w *walker) decode(extensions map[string]any, at site, pointer string) {
	if raw, ok := extensions[ExtensionStateMachine]; ok {
		var m stateMachine
		err := decodeExtension(raw, &m)
		if err == nil {
			err = m.validate()
		}
		if err == nil {
			err = putOnce(w.ext.machines, at, m)
		}
		w.fail(pointer, ExtensionStateMachine, err)
	}
	if raw, ok := extensions[ExtensionAccess]; ok {
		var a accessRule
		err := decodeExtension(raw, &a)
		if err == nil {
			err = a.validate()
		}
		if err == nil {
			err = putOnce(w.ext.access, at, a)
		}
		w.fail(pointer, ExtensionAccess, err)
	}
}

func (w *walker) fail(pointer, extension string, err error) {
	if err != nil {
		w.errs = append(w.errs, fmt.Errorf("%s: %s: %w", pointer, extension, err))
	}
}

// putOnce refuses two different values for one site (say, from two allOf
// branches): the gate cannot know which one the generator meant.
func putOnce[V any](m map[site]V, at site, v V) error {
	if old, ok := m[at]; ok && !equalJSON(old, v) {
		return fmt.Errorf("conflicting values for %s", at)
	}
	m[at] = v
	return nil
}

func decodeExtension(raw any, into any) error {
	data, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("malformed value: %w", err)
	}
	return nil
}

func (m stateMachine) validate() error {
	var problems []string
	if m.Name == "" {
		problems = append(problems, "name is empty")
	}
	if len(m.States) == 0 {
		problems = append(problems, "states is empty")
	}
	for i, s := range m.States {
		if s == "" {
			problems = append(problems, fmt.Sprintf("states[%d] is empty", i))
		}
	}
	if !slices.Contains(m.States, m.Initial) {
		problems = append(problems, fmt.Sprintf("initial %q is not one of the states", m.Initial))
	}
	for i, t := range m.Transitions {
		if t.Event == "" {
			problems = append(problems, fmt.Sprintf("transitions[%d].event is empty", i))
		}
		for field, state := range map[string]string{"from": t.From, "to": t.To} {
			if !slices.Contains(m.States, state) {
				problems = append(problems, fmt.Sprintf("transitions[%d].%s %q is not one of the states", i, field, state))
			}
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

func (a accessRule) validate() error {
	if slices.Contains(a.Read, "") {
		return errors.New("read has an empty role name")
	}
	if slices.Contains(a.Write, "") {
		return errors.New("write has an empty role name")
	}
	return nil
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func jsonPointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func equalJSON(a, b any) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}
