// Package statemachine benchmarks one transition of a modelgen-generated
// state machine against the libraries an application would otherwise use,
// github.com/looplab/fsm and github.com/qmuntal/stateless, each configured
// with the same PaymentOrder machine. Run compare.sh for the ratio table.
package statemachine
