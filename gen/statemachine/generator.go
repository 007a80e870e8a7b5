// Package statemachine is the backend of the `state` tag (resolved and
// checked by model.Load into model.Field.Machine). For each struct with a
// machine it writes typed Go code (zz_generated.statemachine.go in the
// struct's package) and a Mermaid diagram (<docs dir>/<Type>-statemachine.md).
// The CRD and OpenAPI schemas carry the machine as an enum and CEL
// transition rules (package schema), and the OpenAPI document describes it
// to the compatibility gate (x-modelgen-state-machine, package openapi).
//
// # Generated Go
//
// For `Phase PaymentPhase` with `state:"initial=Submitted;Submitted->Authorized:Authorize;..."`
// on PaymentOrderStatus:
//
//	type PaymentPhaseEvent string                       // and PaymentPhaseEventAuthorize...
//	type PaymentPhaseTransition = statemachine.Transition[PaymentPhase, PaymentPhaseEvent]
//	type PaymentPhaseHooks interface { <Guard>(...) error; OnExit(...); OnEnter(...) }
//	type PaymentPhaseNoHooks struct{}                   // no-op OnExit and OnEnter to embed
//	func PaymentPhaseMachine() *statemachine.Machine[PaymentPhase, PaymentPhaseEvent]
//	func (s *PaymentOrderStatus) Authorize() error      // events without guards: no hooks
//	func (s *PaymentOrderStatus) AuthorizeWith(h PaymentPhaseHooks) error
//	func (s *PaymentOrderStatus) CanAuthorize() bool
//	func (s *PaymentOrderStatus) FirePhase(ev PaymentPhaseEvent, h PaymentPhaseHooks) error
//	func (s *PaymentOrderStatus) PhaseTransitions() []PaymentPhaseTransition
//	func (s *PaymentOrderStatus) InitPhase() bool
//
// The event methods dispatch with a switch on the phase; refusals (typed
// errors), guards and hooks go through the runtime. A staleness guard stops
// the package compiling when the phase constants change.
//
// See docs/state-machines.md for the user's guide.
package statemachine

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// FileName is the generated Go file in each package with a machine.
const FileName = "zz_generated.statemachine.go"

// Generator writes state machine code and diagrams.
type Generator struct{}

// Name is the backend's name for --only.
func (Generator) Name() string { return "statemachine" }

// Generate renders every machine of the model.
func (Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	machines := c.Model.Machines
	var diags model.Diagnostics
	var files []gen.File
	for _, pk := range c.Model.Packages {
		own := ownedBy(pk, machines)
		if len(own) == 0 {
			continue
		}
		if d := checkNames(own); d.HasErrors() {
			diags.Add(d)
			continue
		}
		src, err := goFile(pk.Path, pk.Name, own)
		if err != nil {
			diags.Errorf(own[0].Tag.Pos, "state: generating %s: %v", FileName, err)
			continue
		}
		files = append(files, gen.File{Path: filepath.Join(pk.Dir, FileName), Data: src, Owner: pk.Path})
		docs := docsDir(c.Config(pk))
		for _, m := range own {
			files = append(files, gen.File{Path: filepath.Join(pk.Dir, docs, m.Owner.Name+diagramSuffix), Data: markdown(m), Owner: pk.Path})
		}
	}
	return files, diags
}

// checkNames reports the generated identifiers of the machines that would
// clash with the package or with each other.
func checkNames(machines []*model.Machine) model.Diagnostics {
	var diags model.Diagnostics
	for _, m := range machines {
		diags.Add(namesOf(m).collisions())
	}
	return diags
}

func ownedBy(pk *model.Package, machines []*model.Machine) []*model.Machine {
	var out []*model.Machine
	for _, m := range machines {
		if m.Owner.Pkg == pk {
			out = append(out, m)
		}
	}
	return out
}
