package webhook

import (
	"path/filepath"
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/internal/served"
	"github.com/modelgen/modelgen/model"
)

// InjectCAAnnotation is cert-manager's CA injector annotation.
const InjectCAAnnotation = "cert-manager.io/inject-ca-from"

// ManifestName is the file of a package's configuration, under the webhook
// directory of its module.
func ManifestName(pk *model.Package) string { return served.ManifestName(pk) }

// manifest renders the ValidatingWebhookConfiguration of a package's kinds,
// as controller-gen lays it out (a service reference with the webhook's
// path, for kustomize or a chart to complete), failing closed.
func manifest(pk *model.Package, kinds []*served.Kind, cfg served.Settings) (*gen.File, model.Diagnostics) {
	var diags model.Diagnostics
	ns, svc, _ := strings.Cut(cfg.WebhookService, "/")
	fail, none := admissionv1.Fail, admissionv1.SideEffectClassNone
	conf := &admissionv1.ValidatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: "validating-webhook-configuration." + pk.Version + "." + pk.Group},
	}
	if cfg.WebhookCertificate != "" {
		conf.Annotations = map[string]string{InjectCAAnnotation: cfg.WebhookCertificate}
	}
	for _, k := range kinds {
		t := k.Type
		path := served.Path(t)
		resources := []string{t.Resource.Plural}
		if len(k.Machines) > 0 && t.Resource.Status {
			// phase changes arrive on the status subresource
			resources = append(resources, t.Resource.Plural+"/status")
		}
		conf.Webhooks = append(conf.Webhooks, admissionv1.ValidatingWebhook{
			Name:                    served.WebhookName(t),
			AdmissionReviewVersions: []string{"v1"},
			ClientConfig: admissionv1.WebhookClientConfig{
				Service: &admissionv1.ServiceReference{Namespace: ns, Name: svc, Path: &path},
			},
			FailurePolicy: &fail,
			SideEffects:   &none,
			Rules: []admissionv1.RuleWithOperations{{
				Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
				Rule: admissionv1.Rule{
					APIGroups:   []string{pk.Group},
					APIVersions: []string{pk.Version},
					Resources:   resources,
				},
			}},
		})
	}
	data, err := yaml.Marshal(conf)
	if err != nil {
		diags.Errorf(kinds[0].Type.Pos, "webhook: %v", err)
		return nil, diags
	}
	dir := filepath.Join(pk.ModDir, cfg.WebhookDir)
	return &gen.File{Path: filepath.Join(dir, ManifestName(pk)), Data: data, Owner: pk.Path}, diags
}

// Path is controller-runtime's path of a kind's validating webhook:
// /validate-<group with dashes>-<version>-<kind in lower case>.
func Path(t *model.Type) string { return served.Path(t) }
