// Package machine is the compile-and-run test of the generated code: a
// machine with guards, several sources for one event and explicit terminal
// states. zz_generated.statemachine.go is generated from it by the test in
// gen/statemachine (go test -update rewrites it); machine_test.go exercises it.
package machine

// OrderPhase is where an order is.
type OrderPhase string

const (
	Draft     OrderPhase = "Draft"
	Placed    OrderPhase = "Placed"
	Paid      OrderPhase = "Paid"
	Shipped   OrderPhase = "Shipped"
	Delivered OrderPhase = "Delivered"
	Cancelled OrderPhase = "Cancelled"
)

// Order is a customer's order.
// +modelgen:model
type Order struct {
	Status OrderStatus `json:"status"`
}

// OrderStatus is the order's lifecycle.
type OrderStatus struct {
	Phase OrderPhase `json:"phase,omitempty" state:"initial=Draft;terminal=Delivered|Cancelled;Draft->Placed:Place;Placed->Paid:Pay[PaymentCleared];Paid->Shipped:Ship[InStock];Shipped->Delivered:Deliver;Draft|Placed|Paid->Cancelled:Cancel"`
	// Log is written by the hooks of the test.
	Log []string `json:"log,omitempty"`
}
