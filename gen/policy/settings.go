package policy

import (
	"path/filepath"
	"regexp"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// Options are the settings of the generated ValidatingAdmissionPolicies
// in modelgen.yaml, as written (docs/admission-policy.md); SettingsOf
// resolves them. Empty means the default.
type Options struct {
	// Policy is auto (every kind with access rules and a tenant key; the
	// default) or never.
	Policy string `json:"policy"`
	// PolicyDir is where policies go, relative to the module root.
	PolicyDir string `json:"policyDir" path:"module"`
	// PolicyRolePrefix: a group "<prefix><role>" gives the role
	// (default modelgen:role:).
	PolicyRolePrefix string `json:"policyRolePrefix"`
	// PolicyTenantFrom is group (default), extra or namespace.
	PolicyTenantFrom string `json:"policyTenantFrom"`
	// PolicyTenantPrefix: a group "<prefix><tenant>" gives the tenant
	// (default modelgen:tenant:).
	PolicyTenantPrefix string `json:"policyTenantPrefix"`
	// PolicyTenantExtra is the user extra key holding the tenant
	// (default modelgen.io/tenant).
	PolicyTenantExtra string `json:"policyTenantExtra"`
	// PolicyServiceAccounts gives roles to service accounts, which then act
	// for the tenant of the object they write: "ns/name=role|role,...".
	PolicyServiceAccounts string `json:"policyServiceAccounts"`
	// PolicyExemptGroups and PolicyExemptUsers are never judged
	// (comma-separated; "-" for none). Defaults: system:masters,
	// system:serviceaccounts:kube-system and system:kube-controller-manager.
	PolicyExemptGroups string `json:"policyExemptGroups"`
	PolicyExemptUsers  string `json:"policyExemptUsers"`
	// PolicyBookkeepingAnnotations and PolicyBookkeepingLabels are the
	// metadata keys tools write for their own bookkeeping, which the
	// policies do not govern (comma-separated; a key ending in "/" or "*"
	// is a prefix). kubectl.kubernetes.io/last-applied-configuration is
	// never governed. Examples: argocd.argoproj.io/ (Argo CD's tracking
	// annotation), kustomize.toolkit.fluxcd.io/ (Flux's labels).
	PolicyBookkeepingAnnotations string `json:"policyBookkeepingAnnotations"`
	PolicyBookkeepingLabels      string `json:"policyBookkeepingLabels"`
	// PolicyParamName names the AccessPolicy the bindings read
	// (default modelgen-access).
	PolicyParamName string `json:"policyParamName"`
}

// DefaultOptions are the options of a package that sets none.
var DefaultOptions = Options{PolicyDir: DefaultDir}

// Settings are the backend's settings (gen.Configurable).
func (Generator) Settings() any { return DefaultOptions }

// optionsOf returns a package's options as set.
func optionsOf(cfg gen.Config) Options { return gen.Own(cfg, DefaultOptions) }

// SettingsOf reads a package's policy settings; a malformed one is an error
// at the package's modelgen.yaml.
func SettingsOf(pk *model.Package, c gen.Config) (Settings, model.Diagnostics) {
	var diags model.Diagnostics
	cfg := optionsOf(c)
	at := model.Pos{File: filepath.Join(pk.Dir, "modelgen.yaml"), Line: 1, Col: 1}
	s := DefaultSettings()
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&s.RolePrefix, cfg.PolicyRolePrefix)
	set(&s.TenantFrom, cfg.PolicyTenantFrom)
	set(&s.TenantPrefix, cfg.PolicyTenantPrefix)
	set(&s.TenantExtra, cfg.PolicyTenantExtra)
	set(&s.ParamName, cfg.PolicyParamName)
	switch cfg.Policy {
	case "", "auto", "never":
	default:
		diags.Errorf(at, "setting \"policy\": %q: want auto or never", cfg.Policy)
	}
	switch s.TenantFrom {
	case TenantFromGroup, TenantFromExtra, TenantFromNamespace:
	default:
		diags.Errorf(at, "setting \"policyTenantFrom\": %q: want group, extra or namespace", s.TenantFrom)
	}
	if cfg.PolicyExemptGroups != "" {
		s.ExemptGroups = splitList(cfg.PolicyExemptGroups)
	}
	if cfg.PolicyExemptUsers != "" {
		s.ExemptUsers = splitList(cfg.PolicyExemptUsers)
	}
	s.BookkeepingAnnotations = splitList(cfg.PolicyBookkeepingAnnotations)
	s.BookkeepingLabels = splitList(cfg.PolicyBookkeepingLabels)
	for _, set := range []struct {
		name string
		keys []string
	}{{"policyBookkeepingAnnotations", s.BookkeepingAnnotations}, {"policyBookkeepingLabels", s.BookkeepingLabels}} {
		name := set.name
		for _, k := range set.keys {
			if !metadataKey.MatchString(strings.TrimSuffix(k, "*")) {
				diags.Errorf(at, "setting %q: %q: want a label or annotation key, or a prefix of one ending in / or * (not every key)", name, k)
			}
		}
	}
	for _, item := range splitList(cfg.PolicyServiceAccounts) {
		sa, roles, ok := strings.Cut(item, "=")
		ns, name, okName := strings.Cut(sa, "/")
		if !ok || !okName || ns == "" || name == "" || roles == "" {
			diags.Errorf(at, "setting \"policyServiceAccounts\": %q: want namespace/name=role|role", item)
			continue
		}
		entry := ServiceAccount{User: "system:serviceaccount:" + ns + ":" + name}
		for _, r := range strings.Split(roles, "|") {
			if !roleName.MatchString(r) {
				diags.Errorf(at, "setting \"policyServiceAccounts\": invalid role name %q: want lower-case letters, digits and '-', starting and ending with a letter or digit", r)
			}
			entry.Roles = append(entry.Roles, r)
		}
		s.ServiceAccounts = append(s.ServiceAccounts, entry)
	}
	return s, diags
}

// metadataKey is the characters of label and annotation keys, at least
// one: a bookkeeping prefix never covers every key.
var metadataKey = regexp.MustCompile(`^[A-Za-z0-9._/-]+$`)

// roleName is the access tags' role grammar (a DNS-1123 label).
var roleName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// splitList splits a comma-separated setting; "-" is the empty list.
func splitList(v string) []string {
	if v == "" || v == "-" {
		return nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// paramFiles are the AccessPolicy CRD and the default AccessPolicy (no
// override: every tenant gets the tags' rights), for a policy directory.
func paramFiles(dir, owner, name string) []gen.File {
	crd, _ := manifest(ParamCRD())
	obj, _ := yaml.Marshal(map[string]any{
		"apiVersion": ParamGroup + "/" + ParamVersion,
		"kind":       ParamKind,
		"metadata":   map[string]any{"name": name, "labels": map[string]string{"app.kubernetes.io/managed-by": "modelgen"}},
		"spec":       map[string]any{},
	})
	return []gen.File{
		{Path: filepath.Join(dir, ParamGroup+"_"+ParamPlural+".yaml"), Data: crd, Owner: owner},
		{Path: filepath.Join(dir, ParamGroup+"_"+strings.ToLower(ParamKind)+"_"+name+".yaml"), Data: obj, Owner: owner},
	}
}

// ParamCRD is the AccessPolicy CRD: cluster-scoped, its spec is
// rbac.PolicyDoc (listedTenantsOnly, tenants -> types -> roles -> read and
// write paths).
func ParamCRD() *apiextv1.CustomResourceDefinition {
	strs := apiextv1.JSONSchemaProps{Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: &apiextv1.JSONSchemaProps{Type: "string"}}}
	mapOf := func(p apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
		return apiextv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Allows: true, Schema: &p}}
	}
	grant := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"read": strs, "write": strs}}
	tenant := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"types": mapOf(mapOf(grant))}}
	spec := apiextv1.JSONSchemaProps{
		Type:        "object",
		Description: "The runtime access policy of rbac.ParsePolicy: per tenant, type and role, the field paths the role may read and write (replacing the access tags' rights).",
		Properties: map[string]apiextv1.JSONSchemaProps{
			"listedTenantsOnly": {Type: "boolean"},
			"tenants":           mapOf(tenant),
		},
	}
	return &apiextv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: ParamPlural + "." + ParamGroup, Labels: map[string]string{"app.kubernetes.io/managed-by": "modelgen"}},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group: ParamGroup,
			Names: apiextv1.CustomResourceDefinitionNames{Plural: ParamPlural, Singular: strings.ToLower(ParamKind), Kind: ParamKind, ListKind: ParamKind + "List"},
			Scope: apiextv1.ClusterScoped,
			Versions: []apiextv1.CustomResourceDefinitionVersion{{
				Name: ParamVersion, Served: true, Storage: true,
				Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiextv1.JSONSchemaProps{"apiVersion": {Type: "string"}, "kind": {Type: "string"}, "metadata": {Type: "object"}, "spec": spec},
				}},
			}},
		},
	}
}
