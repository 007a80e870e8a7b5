package resource

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Phase is where an order is in its lifecycle.
type Phase string

const (
	PhasePending Phase = "Pending"
	PhaseShipped Phase = "Shipped"
	PhaseClosed  Phase = "Closed"
)

// Order is a customer's order.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=ord
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   OrderSpec   `json:"spec"`
	Status OrderStatus `json:"status,omitempty"`
}

// OrderSpec is what the customer asks for.
type OrderSpec struct {
	// Customer names the buyer.
	Customer string `json:"customer" validate:"required,min=3,max=64"`
	// Quantity of items, 1 to 100.
	Quantity int32 `json:"quantity" validate:"required,gte=1,lte=100"`
	// Price is at least one cent.
	Price float64 `json:"price" validate:"gt=0,lt=10000"`
	// Shipping is a quoted oneof.
	Shipping string `json:"shipping" validate:"required,oneof=standard express 'next day'"`
	// Coupon is optional, but if set, exactly 8 alphanumerics.
	Coupon string `json:"coupon,omitempty" validate:"omitempty,len=8,alphanum"`
	// Lines are the order lines.
	Lines []Line `json:"lines" validate:"required,min=1,max=50,dive"`
	// Labels are free-form.
	Labels map[string]string `json:"labels,omitempty" validate:"omitempty,max=8,dive,keys,min=1,max=32,endkeys,max=128"`
	// Gift is optional; a pointer keeps nil apart from the zero value.
	Gift *GiftWrap `json:"gift,omitempty"`
	// Discount is a pointer to a bounded number.
	Discount *int64 `json:"discount,omitempty" validate:"omitempty,min=0,max=50"`
	// NotBefore and NotAfter bound the delivery window.
	NotBefore int64 `json:"notBefore,omitempty"`
	NotAfter  int64 `json:"notAfter,omitempty" validate:"omitempty,gtfield=NotBefore"`
	// GiftNote is required when Shipping is express.
	GiftNote string `json:"giftNote,omitempty" validate:"required_if=Shipping express,omitempty,max=200"`
}

// Line is one order line.
type Line struct {
	SKU   string `json:"sku" validate:"required,uppercase,alphanum,len=10"`
	Count uint16 `json:"count" validate:"min=1"`
}

// GiftWrap is a nested optional struct.
type GiftWrap struct {
	Color string   `json:"color" validate:"required,oneof=red green gold"`
	Tags  []string `json:"tags,omitempty" validate:"omitempty,unique,dive,min=1"`
}

// OrderStatus is what the controller observed.
type OrderStatus struct {
	Phase              Phase              `json:"phase,omitempty"`
	ObservedGeneration int64              `json:"observedGeneration,omitempty" validate:"omitempty,gte=0"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// OrderList is a list of Orders.
//
// +kubebuilder:object:root=true
type OrderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Order `json:"items"`
}
