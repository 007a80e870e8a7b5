package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	apiextinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// checkBaseDefinitions runs the API server's own validation of a CRD on
// create over every CRD of the base: a base the server would refuse was
// never installed, so comparing with it means nothing (exit 2).
func checkBaseDefinitions(ctx context.Context, base []crdSource) error {
	var errs []error
	for _, c := range base {
		internal, err := toInternalCRD(c.crd, nil)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.at, err))
			continue
		}
		if list := serverCheck(func() field.ErrorList { return crdvalidation.ValidateCustomResourceDefinition(ctx, internal) }); len(list) > 0 {
			errs = append(errs, fmt.Errorf("%s: the API server refuses CRD %s: %w", c.at, c.crd.Name, list.ToAggregate()))
		}
	}
	return errors.Join(errs...)
}

// refusedUpdate is the API server's validation of the revision of a CRD:
// as an update of the installed (established) base, or as a create for a
// new CRD. status.storedVersions is what the server's strategy records:
// the base's storage version and the revision's (a base storage version
// the revision dropped is crd-storage-version-removed already).
func refusedUpdate(ctx context.Context, b, r *apiext.CustomResourceDefinition) field.ErrorList {
	var stored []string
	if b != nil {
		if s := storageVersion(b); findVersion(r, s) != nil {
			stored = append(stored, s)
		}
	}
	if s := storageVersion(r); !slices.Contains(stored, s) {
		stored = append(stored, s)
	}
	rev, err := toInternalCRD(r, stored)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	if b == nil {
		return serverCheck(func() field.ErrorList { return crdvalidation.ValidateCustomResourceDefinition(ctx, rev) })
	}
	old, err := toInternalCRD(b, []string{storageVersion(b)})
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	// an update carries the resourceVersion it read
	old.ResourceVersion, rev.ResourceVersion = "1", "1"
	old.Status.Conditions = []apiextinternal.CustomResourceDefinitionCondition{{Type: apiextinternal.Established, Status: apiextinternal.ConditionTrue}}
	return serverCheck(func() field.ErrorList { return crdvalidation.ValidateCustomResourceDefinitionUpdate(ctx, rev, old) })
}

// toInternalCRD converts a CRD to the API server's internal form, with
// status.storedVersions set (nil: the storage version, as on create).
func toInternalCRD(crd *apiext.CustomResourceDefinition, stored []string) (*apiextinternal.CustomResourceDefinition, error) {
	internal := &apiextinternal.CustomResourceDefinition{}
	if err := apiext.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd.DeepCopy(), internal, nil); err != nil {
		return nil, fmt.Errorf("converting CRD %s: %w", crd.Name, err)
	}
	if stored == nil {
		stored = []string{storageVersion(crd)}
	}
	internal.Status = apiextinternal.CustomResourceDefinitionStatus{StoredVersions: stored}
	return internal, nil
}

// serverCheck runs one of the server's validations; a panic inside it (a
// schema the server's code does not expect) is a refusal, not a crash.
func serverCheck(check func() field.ErrorList) (list field.ErrorList) {
	defer func() {
		if r := recover(); r != nil {
			list = field.ErrorList{field.InternalError(nil, fmt.Errorf("the API server's validation failed: %v", r))}
		}
	}()
	return check()
}

// refusals are the crd-refused findings: each error of the API server's
// validation of a revision CRD, in the order of the CRDs' names.
func refusals(ctx context.Context, base, rev []crdSource) []CRDChange {
	old := map[string]*apiext.CustomResourceDefinition{}
	for _, c := range base {
		old[c.crd.Name] = c.crd
	}
	sorted := slices.Clone(rev)
	slices.SortFunc(sorted, func(a, b crdSource) int { return strings.Compare(a.crd.Name, b.crd.Name) })
	rule := crdRuleByID[CRDRuleRefused]
	var out []CRDChange
	for _, c := range sorted {
		for _, e := range refusedUpdate(ctx, old[c.crd.Name], c.crd) {
			out = append(out, CRDChange{ID: rule.ID, Level: rule.Level, CRD: c.crd.Name, Message: fmt.Sprintf(rule.Format, refusalText(e)), Reason: rule.Reason})
		}
	}
	return out
}

// refusalText is a server error on one line, without the refused value
// (which may be the whole versions list).
func refusalText(e *field.Error) string {
	text := e.Field + ": " + e.Type.String()
	if e.Detail != "" {
		text += ": " + e.Detail
	}
	return strings.Join(strings.Fields(text), " ")
}
