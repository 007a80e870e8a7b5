package served

import (
	"slices"
	"strings"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// Modes of the webhook setting in modelgen.yaml.
const (
	ModeAuto   = "auto"   // a webhook for each kind with runtime-only checks (the default)
	ModeAlways = "always" // a webhook for every kind
	ModeNever  = "never"  // no webhook
)

// Kind is one custom resource that gets a validating webhook.
type Kind struct {
	Type *model.Type
	// RuntimeOnly are the checks no schema carries, reached from the kind,
	// sorted by position (empty under ModeAlways for a kind without any).
	RuntimeOnly []*model.Use
	// RuntimeFields are the fields reached from the kind whose whole value
	// no schema checks (model.OptionalStruct).
	RuntimeFields []*model.Field
	// Machines are the state machines of structs the kind holds directly
	// (status.phase), with the Go field chain and JSON path to their owner.
	Machines []MachineAt
}

// MachineAt is a state machine and where it sits in the kind.
type MachineAt struct {
	Machine *model.Machine
	GoPath  []string // Go field names from the kind to the owner ("Status")
	JSON    []string // JSON names from the kind to the phase ("status", "phase")
}

// Keywords lists the runtime-only keywords of the kind, sorted, once each.
func (k *Kind) Keywords() []string {
	var out []string
	for _, u := range k.RuntimeOnly {
		if !slices.Contains(out, u.Keyword.Name()) {
			out = append(out, u.Keyword.Name())
		}
	}
	slices.Sort(out)
	return out
}

// ApplicationKeywords lists the kind's runtime-only keywords that the application
// registers itself (modelgen.yaml's validatorKeywords), sorted, once each.
func (k *Kind) ApplicationKeywords() []string {
	var out []string
	for _, u := range k.RuntimeOnly {
		if model.ApplicationKeyword(u.Keyword) && !slices.Contains(out, u.Keyword.Name()) {
			out = append(out, u.Keyword.Name())
		}
	}
	slices.Sort(out)
	return out
}

// RuntimeOnly returns the positions of the checks that generation warned
// are enforced by the validator at run time only: the keywords of the
// registry's runtime class, and the uses the CRD schema could not carry in
// their context (alternatives with such a keyword, keys, clock times...).
func RuntimeOnly(c *gen.Context) map[model.Pos]bool {
	return c.Model.RuntimeOnlyAt()
}

// Kinds returns the kinds of a package that get a webhook under a mode, in
// the package's type order.
func Kinds(c *gen.Context, pk *model.Package, mode string) []*Kind {
	if mode == ModeNever {
		return nil
	}
	warned := RuntimeOnly(c)
	whole := map[*model.Field]bool{} // fields whose whole value is runtime-only
	for _, r := range c.Model.RuntimeOnly {
		if len(r.Uses) == 0 {
			whole[r.Field] = true
		}
	}
	var out []*Kind
	for _, t := range pk.Types {
		if !t.Root || t.Resource == nil {
			continue
		}
		k := &Kind{Type: t}
		Visit(t, []string{}, []string{}, map[*model.Type]bool{}, func(f *model.Field, goPath, jsonPath []string) {
			k.RuntimeOnly = append(k.RuntimeOnly, warnedUses(f, warned)...)
			if whole[f] {
				k.RuntimeFields = append(k.RuntimeFields, f)
			}
			if f.Machine != nil && len(goPath) > 0 {
				k.Machines = append(k.Machines, MachineAt{Machine: f.Machine, GoPath: goPath[:len(goPath)-1], JSON: jsonPath})
			}
		})
		slices.SortFunc(k.RuntimeOnly, func(a, b *model.Use) int { return comparePos(a.Pos, b.Pos) })
		if len(k.RuntimeOnly) > 0 || len(k.RuntimeFields) > 0 || mode == ModeAlways {
			out = append(out, k)
		}
	}
	return out
}

func comparePos(a, b model.Pos) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Col - b.Col
}

// Visit calls fn for every field reachable from t (through struct values,
// pointers, list elements and map values), with the Go and JSON paths of
// the field when every step to it is a plain struct value (nil otherwise:
// a state machine is only checked where the path is unambiguous).
func Visit(t *model.Type, goPath, jsonPath []string, seen map[*model.Type]bool, fn func(f *model.Field, goPath, jsonPath []string)) {
	if seen[t] {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	for _, f := range t.Fields {
		if f.Skip {
			continue
		}
		var gp, jp []string
		if goPath != nil {
			gp = append(slices.Clone(goPath), f.GoName)
			jp = slices.Clone(jsonPath)
			if f.JSONName != "" && !f.Inline {
				jp = append(jp, f.JSONName)
			}
		}
		fn(f, gp, jp)
		if f.Validate != nil && f.Validate.Skip {
			continue
		}
		inner, plain := innerStruct(f.Type)
		if inner == nil {
			continue
		}
		if !plain {
			gp, jp = nil, nil
		}
		Visit(inner, gp, jp, seen, fn)
	}
}

// innerStruct is the struct a field holds, and whether it holds it as a
// plain value (no pointer, list or map on the way).
func innerStruct(r *model.TypeRef) (*model.Type, bool) {
	plain := r != nil && r.Kind == model.KindStruct
	d := r.Deref()
	if d != nil && (d.Kind == model.KindSlice || d.Kind == model.KindMap) {
		d = d.Elem.Deref()
		plain = false
	}
	if d != nil && d.Named != nil && d.Named.TypeKind == model.TypeStruct {
		return d.Named, plain
	}
	return nil, false
}

// warnedUses returns the uses of a field's tag that generation warned about
// (a warning on a whole check counts for each of its alternatives).
func warnedUses(f *model.Field, warned map[model.Pos]bool) []*model.Use {
	if f.Validate == nil {
		return nil
	}
	var out []*model.Use
	var level func(lv *model.Level)
	level = func(lv *model.Level) {
		if lv == nil {
			return
		}
		for _, c := range lv.Checks {
			for _, u := range c.Or {
				if warned[u.Pos] || warned[c.Pos] {
					out = append(out, u)
				}
			}
		}
		level(lv.Keys)
		level(lv.Dive)
	}
	level(f.Validate.Root)
	return out
}
