package agree

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/webhook"
	"github.com/modelgen/modelgen/model"
)

// The server side judges a document as a cluster with modelgen's output
// installed does: the CRD's create path, then, for a kind that gets a
// generated validating webhook, the webhook on the object the API server
// sends it (pruned, defaulted, re-encoded), decoded as controller-runtime
// decodes it (sigs.k8s.io/json, case-sensitive) and checked by validator,
// as zz_generated.webhook.go does. The API server calls validating webhooks
// only for objects its schema validation admitted.

// webhookJudge is the generated webhook of one kind.
type webhookJudge struct {
	validatorJudge
}

// hasWebhook reports whether the webhook configuration the pipeline
// generated sends the resource type's creates to its generated webhook.
func (h *Harness) hasWebhook(t *model.Type) bool {
	for _, data := range h.generatedFile(func(f gen.File) bool { return filepath.Base(f.Path) == webhook.ManifestName(t.Pkg) }) {
		conf := &admissionv1.ValidatingWebhookConfiguration{}
		if err := yaml.Unmarshal(data, conf); err != nil {
			continue
		}
		for _, w := range conf.Webhooks {
			if w.ClientConfig.Service == nil || w.ClientConfig.Service.Path == nil || *w.ClientConfig.Service.Path != webhook.Path(t) {
				continue
			}
			for _, r := range w.Rules {
				if slices.Contains(r.APIGroups, t.Pkg.Group) && slices.Contains(r.Resources, t.Resource.Plural) && slices.Contains(r.Operations, admissionv1.Create) {
					return true
				}
			}
		}
	}
	return false
}

// judgeObject is the webhook's verdict on an object the CRD admitted.
func (j *webhookJudge) judgeObject(obj map[string]any) Verdict {
	raw, err := json.Marshal(obj)
	if err != nil {
		return reject("webhook: encoding the admitted object: " + err.Error())
	}
	ptr := reflect.New(j.typ)
	if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, ptr.Interface()); err != nil {
		return reject("webhook: decoding: " + err.Error())
	}
	v, _ := j.validate(ptr)
	return v
}

// crdAndServer admits the document through the CRD once and returns the
// CRD's verdict and the server's: the CRD's, then the webhook's on the
// object the server would send it.
func (s *subject) crdAndServer(doc []byte) (crd, server Verdict) {
	if s.crd == nil {
		return Verdict{}, Verdict{}
	}
	v, obj := s.crd.admit(doc)
	if !v.Accept || s.hook == nil {
		return v, v
	}
	return v, s.hook.judgeObject(obj)
}
