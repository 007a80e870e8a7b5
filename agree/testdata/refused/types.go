// Package refused holds validate tags that validator cannot run as written:
// modelgen refuses them with positioned errors (see TestRefusedTags).
package refused

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Times compares times the ways validator cannot.
//
// +modelgen:model
type Times struct {
	After metav1.Time `json:"after" validate:"gt"`
	Peer  metav1.Time `json:"peer"`
	Later metav1.Time `json:"later" validate:"gtfield=Peer"`
	Same  time.Time   `json:"same" validate:"eq"`
}
