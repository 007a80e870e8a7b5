module github.com/modelgen/modelgen/bench/statemachine

go 1.26.0

require (
	github.com/looplab/fsm v1.0.3
	github.com/modelgen/modelgen v0.0.0
	github.com/qmuntal/stateless v1.7.2
)

// The benchmarked machine is generated code that imports the runtime of the
// root module.
replace github.com/modelgen/modelgen => ../../
