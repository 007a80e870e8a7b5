package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the API group and version of this package.
	GroupVersion = schema.GroupVersion{Group: "payments.example.com", Version: "v1"}
	// SchemeBuilder registers the package's types with a runtime.Scheme
	// (apimachinery's builder: an API package needs no controller-runtime).
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the package's types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &PaymentOrder{}, &PaymentOrderList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
