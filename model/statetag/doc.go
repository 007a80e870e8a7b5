// Package statetag parses the `state` struct tag, which declares the
// lifecycle of a phase field. model.Load checks the parsed tag against the
// phase type; the result, model.Machine, is what the backends turn into Go
// code, CEL transition rules, an OpenAPI extension and a diagram.
//
// # Grammar
//
//	tag        = clause { ";" clause } [ ";" ]
//	clause     = "initial" "=" state
//	           | "terminal" "=" state { "|" state }
//	           | "events" "=" event { "|" event }
//	           | transition
//	transition = state { "|" state } "->" state ":" event [ "[" guard "]" ]
//	state      = the value of a constant of the field's type (letters, digits, _ . - / + @)
//	event      = an exported Go identifier (ASCII)
//	guard      = an exported Go identifier (ASCII)
//
// Spaces and tabs may surround every token. Example:
//
//	state:"initial=Submitted;Submitted->Authorized:Authorize;Authorized|Submitted->Cancelled:Cancel[NotCaptured]"
//
// A state no transition leaves is terminal; terminal= makes that explicit,
// and then a state no transition leaves that is not listed is an error.
// events= declares the events up front, and then each must have a transition.
//
// # Checks
//
// Parse reads the text only. model.Load checks it against the phase type
// (model.Field.Machine is the result); every
// mistake is a positioned diagnostic (model.Tag.At): a state that is not a
// constant, a constant no clause mentions (warning), states unreachable from
// the initial state, states with no way out, one (state, event) pair with two
// targets, an event with no transition, a missing initial state.
//
// See docs/state-machines.md for the user's guide.
package statetag
