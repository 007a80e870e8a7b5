package openapi

import (
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi/ext"
)

// Extensions are the x- extensions of a field's property, written from the
// resolved model in the format openapi/ext declares (the one the gate
// reads): x-modelgen-state-machine on a phase field (guards are not part of
// the contract) and x-modelgen-access on the properties of governed types
// (the roles of the field's own rule, and whether it holds the tenant key).
// A field without either has none.
func Extensions(f *model.Field) map[string]any {
	out := map[string]any{}
	if m := f.Machine; m != nil {
		v := ext.StateMachine{Name: m.Name, Initial: m.Initial}
		for _, st := range m.States {
			v.States = append(v.States, st.Value)
		}
		for _, t := range m.Transitions {
			v.Transitions = append(v.Transitions, ext.Transition{From: t.From, Event: t.Event, To: t.To})
		}
		out[ext.StateMachineName] = v.Encode()
	}
	if a := f.Access; a != nil && !f.Skip {
		out[ext.AccessName] = ext.Access{Read: a.Read, Write: a.Write, Tenant: a.Tenant}.Encode()
	}
	return out
}
