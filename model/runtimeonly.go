package model

import (
	"fmt"
)

// RuntimeOnly is a check that no schema carries: validator enforces it at
// run time (and the generated webhook on the API server). Load finds every
// one, once, and warns at its position (except a check of declared
// keywords alone, RuntimeOnly.ApplicationOnly); the backends (the webhook, the
// agreement harness) read these, never the text of a diagnostic.
type RuntimeOnly struct {
	// Pos is the use's position (the check's, for alternatives).
	Pos   Pos
	Field *Field
	// Uses are the keyword uses it covers (every alternative of a check).
	Uses []*Use
	Why  string
}

// RuntimeOnlyAt is the set of positions of the model's runtime-only checks.
func (m *Model) RuntimeOnlyAt() map[Pos]bool {
	out := map[Pos]bool{}
	for _, r := range m.RuntimeOnly {
		out[r.Pos] = true
	}
	return out
}

// fieldRuntimeOnly finds the checks of a field that no schema carries.
func fieldRuntimeOnly(f *Field) []RuntimeOnly {
	if f.Validate == nil || f.Validate.Root == nil {
		return nil
	}
	var out []RuntimeOnly
	var level func(lv *Level, keys bool)
	level = func(lv *Level, keys bool) {
		if lv == nil {
			return
		}
		for _, c := range lv.Checks {
			out = append(out, checkRuntimeOnly(f, c, keys)...)
		}
		level(lv.Keys, true)
		level(lv.Dive, false)
	}
	level(f.Validate.Root, false)
	return out
}

// checkRuntimeOnly asks each keyword of a check whether a schema carries
// it: a keyword of the runtime class never does; on map keys only those
// with a CEL form over the key do (Carry.OnKey); alternatives only when
// each one is a plain schema keyword (no Carry.CRDRule); and a keyword may
// say it cannot in its context (Carry.RuntimeOnly).
func checkRuntimeOnly(f *Field, c *Check, keys bool) []RuntimeOnly {
	var out []RuntimeOnly
	alternatives := ""
	for _, u := range c.Or {
		one := func(why string) { out = append(out, RuntimeOnly{Pos: u.Pos, Field: f, Uses: []*Use{u}, Why: why}) }
		switch {
		case u.Keyword.Class() == Runtime:
			one(fmt.Sprintf("validate: %q is enforced by the validator at run time only (%s)", u.Name, u.Keyword.Schema()))
		case keys:
			if !u.Keyword.Carry(u).OnKey {
				one(fmt.Sprintf("validate: %q on map keys is enforced by the validator at run time only", u.Name))
			}
			continue
		default:
			carry := u.Keyword.Carry(u)
			if carry.RuntimeOnly != "" {
				one(carry.RuntimeOnly)
			}
			if len(c.Or) > 1 && alternatives == "" && (u.Keyword.Class() != Schema || carry.CRDRule) {
				alternatives = u.Name
			}
			continue
		}
		if len(c.Or) > 1 && alternatives == "" {
			alternatives = u.Name
		}
	}
	if alternatives != "" && !keys {
		out = append(out, RuntimeOnly{Pos: c.Pos, Field: f, Uses: c.Or, Why: fmt.Sprintf("validate: alternatives with %q are enforced by the validator at run time only", alternatives)})
	}
	return out
}

// findRuntimeOnly records and warns every runtime-only check of the model.
func (b *builder) findRuntimeOnly() {
	for _, p := range b.pendingValidate {
		if p.field.Validate == nil || p.field.Validate.Skip {
			continue
		}
		b.m.RuntimeOnly = append(b.m.RuntimeOnly, fieldRuntimeOnly(p.field)...)
		if f := p.field; OptionalStruct(f) {
			st := f.Type.Named.Name
			b.m.RuntimeOnly = append(b.m.RuntimeOnly, RuntimeOnly{Pos: f.Validate.Root.Pos, Field: f, Why: fmt.Sprintf(
				"validate: %s on the struct value %s.%s lets a zero %s through (validator skips it and everything in it) and validates any other value, but the zero %s fails %s's own rules and no schema says \"zero, or valid\": the schemas check its structure only and %s's rules are enforced by the validator at run time only; make the field a *%s to have them checked (validator then skips only nil)",
				f.Validate.Root.Omit, p.owner.Name, f.GoName, st, st, st, st, st)})
		}
	}
	for _, r := range b.m.RuntimeOnly {
		if !r.ApplicationOnly() {
			b.m.Diags.Warnf(r.Pos, "%s", r.Why)
		}
	}
}

// ApplicationOnly reports whether the check is made of keywords the
// application registers itself and declared (Config.ValidatorKeywords)
// alone: Load records it, and does not warn, since the application said so.
func (r RuntimeOnly) ApplicationOnly() bool {
	for _, u := range r.Uses {
		if !ApplicationKeyword(u.Keyword) {
			return false
		}
	}
	return len(r.Uses) > 0
}
