package schema

import (
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// openAPIKnownTypes gives the OpenAPI document the real structure of
// ObjectMeta (name, labels, ownerReferences...), parsed from apimachinery's
// source. A CRD keeps controller-tools' `type: object`: at the root the API
// server owns metadata (it allows only name and generateName there and
// fixes the rest), and below the root an ObjectMeta (a pod template's) is
// a plain object the server prunes to nothing unless the CRD describes it:
// crd:generateEmbeddedObjectMeta=true (schema.Options.EmbeddedObjectMeta)
// gives it labels, annotations, name, namespace and finalizers, as
// controller-gen does; without it labels set on a template are dropped. The
// other well-known types (IntOrString, Quantity, Time, MicroTime, Duration,
// RawExtension, JSON, Unstructured) keep the schema the CRD uses.
func openAPIKnownTypes(p *crd.Parser) {
	known := crd.KnownPackages[metav1Path]
	p.PackageOverrides[metav1Path] = func(p *crd.Parser, pkg *loader.Package) {
		known(p, pkg)
		delete(p.Schemata, crd.TypeIdent{Name: "ObjectMeta", Package: pkg})
		// FieldsV1 marshals itself as a free JSON object (its Go field
		// is hidden from encoding/json)
		p.Schemata[crd.TypeIdent{Name: "FieldsV1", Package: pkg}] = apiext.JSONSchemaProps{
			Type: "object", AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Allows: true}}
	}
}
