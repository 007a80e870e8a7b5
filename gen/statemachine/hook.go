package statemachine

import (
	"encoding/json"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/statetag"
	"github.com/modelgen/modelgen/openapi/ext"
)

// maxDescribedDiagram is the longest diagram appended to the phase
// property's description in a CRD; a larger machine's diagram lives in the
// docs directory only.
const maxDescribedDiagram = 2048

// Hook is the schema.Hook of state machines. For a struct with a state tag
// it sets the phase property's enum to the machine's states, adds the CEL
// transition rules (Rules) to the struct, and, in CRDs, appends the Mermaid
// diagram to the phase's description. A tag with errors adds nothing; the
// Generator reports its diagnostics, once (the hook runs for each target).
func Hook(t *model.Type, s *apiext.JSONSchemaProps, target model.Target, _ *model.Diagnostics) {
	for _, f := range t.Fields {
		if !f.State.Set || f.JSONName == "" {
			continue
		}
		m, d := statetag.Resolve(t, f)
		if d.HasErrors() || m == nil {
			return
		}
		prop, ok := s.Properties[f.JSONName]
		if !ok {
			return
		}
		prop.Enum = Enum(m)
		if target == model.TargetCRD {
			describe(&prop, m)
		}
		s.Properties[f.JSONName] = prop
		s.XValidations = append(s.XValidations, Rules(m)...)
		return // one machine per struct; Machines reports a second tag
	}
}

// Enum is the phase property's enum: the machine's states.
func Enum(m *statetag.Machine) []apiext.JSON {
	out := make([]apiext.JSON, len(m.States))
	for i, s := range m.States {
		raw, _ := json.Marshal(s.Value)
		out[i] = apiext.JSON{Raw: raw}
	}
	return out
}

func describe(prop *apiext.JSONSchemaProps, m *statetag.Machine) {
	diagram := Mermaid(m)
	if len(diagram) > maxDescribedDiagram {
		return
	}
	if prop.Description != "" {
		prop.Description += "\n\n"
	}
	prop.Description += "The " + m.Name + " state machine (enforced by the API server):\n" + diagram
}

// Extension is the OpenAPI property extension of state machines (an
// openapi.PropertyExtension): on a phase field with a valid state tag it is
// x-modelgen-state-machine in the format openapi/ext declares, the contract
// the compatibility gate reads. Guards are not part of it.
func Extension(t *model.Type, f *model.Field) map[string]any {
	if !f.State.Set {
		return nil
	}
	m, d := statetag.Resolve(t, f)
	if m == nil || d.HasErrors() {
		return nil
	}
	v := ext.StateMachine{Name: m.Name, Initial: m.Initial}
	for _, st := range m.States {
		v.States = append(v.States, st.Value)
	}
	for _, t := range m.Transitions {
		v.Transitions = append(v.Transitions, ext.Transition{From: t.From, Event: t.Event, To: t.To})
	}
	return map[string]any{ext.StateMachineName: v.Encode()}
}
