package schema

import (
	"encoding/json"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/mermaid"
)

// maxDescribedDiagram is the longest diagram appended to the phase
// property's description in a CRD; a larger machine's diagram lives in the
// docs directory only.
const maxDescribedDiagram = 2048

// applyMachine lays a struct's state machine over its schema: the phase
// property's enum is the machine's states, the CEL transition rules
// (MachineRules) go on the struct, and, in CRDs, the Mermaid diagram is
// appended to the phase's description. Load resolved the machine; a tag
// with errors has none (Load reported why).
func applyMachine(t *model.Type, s *apiext.JSONSchemaProps, target model.Target) {
	m := t.Machine()
	if m == nil || m.Field.JSONName == "" {
		return
	}
	prop, ok := s.Properties[m.Field.JSONName]
	if !ok {
		return
	}
	prop.Enum = MachineEnum(m)
	if target == model.TargetCRD {
		describe(&prop, m)
	}
	s.Properties[m.Field.JSONName] = prop
	s.XValidations = append(s.XValidations, MachineRules(m)...)
}

// MachineEnum is the phase property's enum: the machine's states.
func MachineEnum(m *model.Machine) []apiext.JSON {
	out := make([]apiext.JSON, len(m.States))
	for i, s := range m.States {
		raw, _ := json.Marshal(s.Value)
		out[i] = apiext.JSON{Raw: raw}
	}
	return out
}

func describe(prop *apiext.JSONSchemaProps, m *model.Machine) {
	diagram := mermaid.StateDiagram(m)
	if len(diagram) > maxDescribedDiagram {
		return
	}
	if prop.Description != "" {
		prop.Description += "\n\n"
	}
	prop.Description += "The " + m.Name + " state machine (enforced by the API server):\n" + diagram
}

// maxListedTransitions bounds the static message; past it the message
// names the machine only (the messageExpression names both states anyway).
const maxListedTransitions = 200

// MachineRules are the CEL rules, for the schema of the struct that has the phase
// field, that make the API server enforce the machine:
//
//   - a transition rule (oldSelf): once the phase is set it may only stay or
//     follow a transition, and it may not be cleared;
//   - an initial rule (optionalOldSelf: true, so it also runs on create and
//     when the old object has no phase): a phase is first set to the initial
//     state.
//
// Every access to the phase is guarded by has(), so clearing it makes the
// rule fail cleanly instead of erroring. The rules compare the phase with
// literals only, so their cost grows with the number of transitions, and the
// phase's enum bounds the length of each string.
func MachineRules(m *model.Machine) []apiext.ValidationRule {
	return []apiext.ValidationRule{transitionRule(m), initialRule(m)}
}

func transitionRule(m *model.Machine) apiext.ValidationRule {
	self, old := phaseField("self", m), phaseField("oldSelf", m)
	legal := []string{self + " == " + old}
	for _, from := range m.States {
		targets := targetsOf(m, from.Value)
		switch len(targets) {
		case 0:
			continue
		case 1:
			legal = append(legal, "("+old+" == "+celString(from.Value)+" && "+self+" == "+celString(targets[0])+")")
		default:
			legal = append(legal, "("+old+" == "+celString(from.Value)+" && "+self+" in "+celList(targets)+")")
		}
	}
	name := m.Field.JSONName
	return apiext.ValidationRule{
		Rule:    "!has(" + old + ") || has(" + self + ") && (" + strings.Join(legal, " || ") + ")",
		Message: name + " may only change along the " + m.Name + " state machine" + allowed(m),
		MessageExpression: "has(" + self + ") ? " +
			celString(name+" cannot change from ") + " + " + old + " + ' to ' + " + self + " + " + celString(": the "+m.Name+" state machine has no such transition") +
			" : " + celString(name+" cannot be cleared once set (it was ") + " + " + old + " + ')'",
		FieldPath: fieldPath(m),
	}
}

func initialRule(m *model.Machine) apiext.ValidationRule {
	self, name, yes := phaseField("self", m), m.Field.JSONName, true
	start := name + " must start at " + m.Initial + ", the initial state of the " + m.Name + " state machine"
	return apiext.ValidationRule{
		Rule:              "(oldSelf.hasValue() && has(" + phaseField("oldSelf.value()", m) + ")) || !has(" + self + ") || " + self + " == " + celString(m.Initial),
		Message:           start,
		MessageExpression: celString(start+", not ") + " + " + self,
		FieldPath:         fieldPath(m),
		OptionalOldSelf:   &yes,
	}
}

// targetsOf lists the distinct targets of the transitions out of a state
// (staying put is always allowed, so a self-loop adds nothing).
func targetsOf(m *model.Machine, from string) []string {
	var out []string
	for _, t := range m.From(from) {
		if t.To != from && !contains(out, t.To) {
			out = append(out, t.To)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// allowed lists the transitions for the static message, when they are few.
func allowed(m *model.Machine) string {
	var parts []string
	for _, s := range m.States {
		if targets := targetsOf(m, s.Value); len(targets) > 0 {
			parts = append(parts, s.Value+"->"+strings.Join(targets, "|"))
		}
	}
	out := ": " + strings.Join(parts, ", ")
	if len(parts) == 0 || len(out) > maxListedTransitions {
		return ""
	}
	return out
}

// phaseField reads the phase property on base, escaped as the API server
// expects (CELField; Load refuses a phase CEL cannot read).
func phaseField(base string, m *model.Machine) string {
	sel, _ := CELField(base, m.Field.JSONName)
	return sel
}

// fieldPath points the error at the phase property.
func fieldPath(m *model.Machine) string { return CELFieldPath(m.Field.JSONName) }

func celString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func celList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = celString(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
