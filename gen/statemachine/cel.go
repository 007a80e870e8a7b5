package statemachine

import (
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/statetag"
)

// maxListedTransitions bounds the static message; past it the message
// names the machine only (the messageExpression names both states anyway).
const maxListedTransitions = 200

// Rules are the CEL rules, for the schema of the struct that has the phase
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
func Rules(m *statetag.Machine) []apiext.ValidationRule {
	return []apiext.ValidationRule{transitionRule(m), initialRule(m)}
}

func transitionRule(m *statetag.Machine) apiext.ValidationRule {
	self, old := "self."+ident(m), "oldSelf."+ident(m)
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

func initialRule(m *statetag.Machine) apiext.ValidationRule {
	self, name, yes := "self."+ident(m), m.Field.JSONName, true
	start := name + " must start at " + m.Initial + ", the initial state of the " + m.Name + " state machine"
	return apiext.ValidationRule{
		Rule:              "(oldSelf.hasValue() && has(oldSelf.value()." + ident(m) + ")) || !has(" + self + ") || " + self + " == " + celString(m.Initial),
		Message:           start,
		MessageExpression: celString(start+", not ") + " + " + self,
		FieldPath:         fieldPath(m),
		OptionalOldSelf:   &yes,
	}
}

// targetsOf lists the distinct targets of the transitions out of a state
// (staying put is always allowed, so a self-loop adds nothing).
func targetsOf(m *statetag.Machine, from string) []string {
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
func allowed(m *statetag.Machine) string {
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

func ident(m *statetag.Machine) string { return model.CELIdent(m.Field.JSONName) }

// fieldPath points the error at the phase property.
func fieldPath(m *statetag.Machine) string {
	if simpleID.MatchString(m.Field.JSONName) {
		return "." + m.Field.JSONName
	}
	return "[" + celString(m.Field.JSONName) + "]"
}

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
