// Package ext declares, once, the OpenAPI schema extensions modelgen writes
// for the compatibility gate, with their encoding and decoding: the
// generator calls Encode, the gate calls Decode*, so the two cannot drift.
//
// # Format (version 1)
//
// On the property schema of a field with a state machine:
//
//	x-modelgen-state-machine:
//	  version: 1
//	  name: PaymentPhase
//	  initial: Submitted
//	  states: [Submitted, Authorized, ...]
//	  transitions: [{from: Submitted, event: Authorize, to: Authorized}, ...]
//
// On the property schema of a field of a type with access rules:
//
//	x-modelgen-access:
//	  version: 1
//	  read: [auditor, tenant-admin]   # roles that may read the property
//	  write: [tenant-admin]           # roles that may write it
//	  tenant: true                    # the property holds the tenant key (omitted when false)
//
// A property without x-modelgen-access is open to every role. Guards and
// hooks are not part of the contract.
//
// # Versions
//
// Version is written into every value. A value without it was written
// before the format was versioned and reads as version 1, whose fields it
// has. A value of a later version than this package knows is refused, as is
// any field this version does not define: a gate must not judge a contract
// it cannot fully read. A new field that older gates may ignore still needs
// a new version, so that the refusal is deliberate.
//
// This package imports only the standard library.
package ext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The extension names.
const (
	StateMachineName = "x-modelgen-state-machine"
	AccessName       = "x-modelgen-access"
)

// Version is the format version this package writes and the newest it reads.
const Version = 1

// StateMachine is the value of x-modelgen-state-machine.
type StateMachine struct {
	Version     int          `json:"version"`
	Name        string       `json:"name"`
	Initial     string       `json:"initial"`
	States      []string     `json:"states"`
	Transitions []Transition `json:"transitions"`
}

// Transition is identified by all three fields: the same event from the same
// state to another target is a different transition.
type Transition struct {
	From  string `json:"from"`
	Event string `json:"event"`
	To    string `json:"to"`
}

func (t Transition) String() string { return t.From + " -" + t.Event + "-> " + t.To }

// Access is the value of x-modelgen-access.
type Access struct {
	Version int      `json:"version"`
	Read    []string `json:"read"`
	Write   []string `json:"write"`
	Tenant  bool     `json:"tenant,omitempty"`
}

// Encode returns the extension value as a JSON-like tree (what an openapi3
// Extensions map or a schema's JSON tree holds), stamped with Version.
func (m StateMachine) Encode() map[string]any {
	transitions := make([]any, len(m.Transitions))
	for i, t := range m.Transitions {
		transitions[i] = map[string]any{"from": t.From, "event": t.Event, "to": t.To}
	}
	return map[string]any{
		"version": Version, "name": m.Name, "initial": m.Initial,
		"states": toAny(m.States), "transitions": transitions,
	}
}

// Encode returns the extension value as a JSON-like tree, stamped with
// Version; tenant appears only on the tenant key.
func (a Access) Encode() map[string]any {
	v := map[string]any{"version": Version, "read": toAny(a.Read), "write": toAny(a.Write)}
	if a.Tenant {
		v["tenant"] = true
	}
	return v
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// DecodeStateMachine reads and checks an x-modelgen-state-machine value as a
// JSON-like tree (or anything that marshals to JSON).
func DecodeStateMachine(raw any) (StateMachine, error) {
	var m StateMachine
	if err := decode(raw, &m, &m.Version); err != nil {
		return StateMachine{}, err
	}
	return m, m.check()
}

// DecodeAccess reads and checks an x-modelgen-access value.
func DecodeAccess(raw any) (Access, error) {
	var a Access
	if err := decode(raw, &a, &a.Version); err != nil {
		return Access{}, err
	}
	return a, a.check()
}

func decode(raw, into any, version *int) error {
	data, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("malformed value: %w", err)
	}
	switch {
	case *version == 0:
		*version = 1 // written before the format was versioned
	case *version < 0 || *version > Version:
		return fmt.Errorf("format version %d: this modelgen reads versions 1 to %d; upgrade modelgen", *version, Version)
	}
	return nil
}

func (m StateMachine) check() error {
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
		if !slices.Contains(m.States, t.From) {
			problems = append(problems, fmt.Sprintf("transitions[%d].from %q is not one of the states", i, t.From))
		}
		if !slices.Contains(m.States, t.To) {
			problems = append(problems, fmt.Sprintf("transitions[%d].to %q is not one of the states", i, t.To))
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

func (a Access) check() error {
	if slices.Contains(a.Read, "") {
		return errors.New("read has an empty role name")
	}
	if slices.Contains(a.Write, "") {
		return errors.New("write has an empty role name")
	}
	return nil
}
