package statemachine

import (
	"encoding/json"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/statetag"
)

// maxDescribedDiagram is the longest diagram appended to the phase
// property's description in a CRD; a larger machine's diagram lives in the
// docs directory only.
const maxDescribedDiagram = 2048

// Hook is the schema.Hook of state machines. For a struct with a state tag
// it sets the phase property's enum to the machine's states, adds the CEL
// transition rules (Rules) to the struct, and, in CRDs, appends the Mermaid
// diagram to the phase's description. It reports only errors: the
// generator reports the warnings, once.
func Hook(t *model.Type, s *apiext.JSONSchemaProps, target model.Target, diags *model.Diagnostics) {
	for _, f := range t.Fields {
		if !f.State.Set || f.JSONName == "" {
			continue
		}
		m, d := statetag.Resolve(t, f)
		if d.HasErrors() || m == nil {
			for _, e := range d {
				if e.Severity == model.Error {
					diags.Add(model.Diagnostics{e})
				}
			}
			return
		}
		prop, ok := s.Properties[f.JSONName]
		if !ok {
			return
		}
		prop.Enum = enum(m)
		if target == model.TargetCRD {
			describe(&prop, m)
		}
		s.Properties[f.JSONName] = prop
		s.XValidations = append(s.XValidations, Rules(m)...)
		return // one machine per struct; Machines reports a second tag
	}
}

func enum(m *statetag.Machine) []apiext.JSON {
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
