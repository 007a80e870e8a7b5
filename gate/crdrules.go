package gate

import modelconv "github.com/modelgen/modelgen/conversion"

// CRDRule is one finding of the CRD gate: what the API server does to the
// objects already stored, and to the next write, after the revision of a
// CRD replaces the base.
//
// Level is the rule's verdict as written: error (breaking: stored objects
// lose data, become unreadable or can no longer be updated, or clients'
// requests fail), warning (tightened for new writes only) or info
// (additive). A Ratcheted rule is a tightening the API server forgives on
// update for a value that did not change (validation ratcheting, KEP-4008:
// beta and on by default in Kubernetes 1.30, GA in 1.33): stored objects
// keep working on update, creates and changed values are refused. Such a
// rule is an error instead when --kube-version is below 1.30. Under allOf,
// anyOf, oneOf or not the server ratchets only while the whole value there
// is unchanged (proved on the API server: examples/e2e/crdgate).
type CRDRule struct {
	ID        string
	Level     Level
	Ratcheted bool
	Reason    string
	// Format renders the change's message from the finder's arguments.
	Format string
}

// CRD rule ids.
const (
	CRDRuleRemoved = "crd-removed"
	CRDRuleRefused = "crd-refused"
	CRDRuleAdded   = "crd-added"

	CRDRuleVersionRemoved        = "crd-version-removed"
	CRDRuleVersionAdded          = "crd-version-added"
	CRDRuleVersionAddedConverted = "crd-version-added-converted"
	CRDRuleVersionUnserved       = "crd-version-unserved"
	CRDRuleVersionServed         = "crd-version-served"
	CRDRuleStorageVersionRemoved = "crd-storage-version-removed"
	CRDRuleStorageVersionChanged = "crd-storage-version-changed"
	CRDRuleVersionDeprecated     = "crd-version-deprecated"
	CRDRuleScopeChanged          = "crd-scope-changed"
	CRDRuleNameChanged           = "crd-name-changed"
	CRDRuleShortNameRemoved      = "crd-short-name-removed"
	CRDRuleShortNameAdded        = "crd-short-name-added"
	CRDRuleCategoryRemoved       = "crd-category-removed"
	CRDRuleCategoryAdded         = "crd-category-added"
	CRDRuleStatusRemoved         = "crd-status-subresource-removed"
	CRDRuleStatusAdded           = "crd-status-subresource-added"
	CRDRuleScaleRemoved          = "crd-scale-subresource-removed"
	CRDRuleScaleAdded            = "crd-scale-subresource-added"
	CRDRuleScaleChanged          = "crd-scale-subresource-changed"
	CRDRuleConversionChanged     = "crd-conversion-strategy-changed"
	CRDRuleConversionPrunes      = "crd-conversion-none-prunes"
	CRDRuleConversionAdded       = "crd-conversion-webhook-added"
	CRDRuleConversionDropped     = "crd-conversion-dropped"
	CRDRuleConversionUncovered   = "crd-conversion-version-uncovered"
	CRDRuleSelectableRemoved     = "crd-selectable-field-removed"
	CRDRuleSelectableAdded       = "crd-selectable-field-added"
	CRDRuleColumnRemoved         = "crd-printer-column-removed"
	CRDRuleColumnAdded           = "crd-printer-column-added"
	CRDRuleColumnChanged         = "crd-printer-column-changed"

	CRDRuleFieldRemoved            = "crd-field-removed"
	CRDRuleFieldAdded              = "crd-field-added"
	CRDRuleFieldAddedHeld          = "crd-field-added-constrains-stored"
	CRDRuleFieldAddedPrunes        = "crd-field-added-prunes-stored"
	CRDRuleTypeChanged             = "crd-type-changed"
	CRDRuleRequiredAdded           = "crd-required-added"
	CRDRuleRequiredAddedDefaulted  = "crd-required-added-with-default"
	CRDRuleRequiredRemoved         = "crd-required-removed"
	CRDRuleEnumNarrowed            = "crd-enum-narrowed"
	CRDRuleEnumWidened             = "crd-enum-widened"
	CRDRuleEnumAdded               = "crd-enum-added"
	CRDRuleEnumRemoved             = "crd-enum-removed"
	CRDRulePatternAdded            = "crd-pattern-added"
	CRDRulePatternChanged          = "crd-pattern-changed"
	CRDRulePatternRemoved          = "crd-pattern-removed"
	CRDRuleFormatAdded             = "crd-format-added"
	CRDRuleFormatChanged           = "crd-format-changed"
	CRDRuleFormatRemoved           = "crd-format-removed"
	CRDRuleNullableRemoved         = "crd-nullable-removed"
	CRDRuleNullableAdded           = "crd-nullable-added"
	CRDRuleDefaultAdded            = "crd-default-added"
	CRDRuleDefaultChanged          = "crd-default-changed"
	CRDRuleDefaultRemoved          = "crd-default-removed"
	CRDRulePreserveUnknownRemoved  = "crd-preserve-unknown-fields-removed"
	CRDRulePreserveUnknownAdded    = "crd-preserve-unknown-fields-added"
	CRDRuleIntOrStringRemoved      = "crd-int-or-string-removed"
	CRDRuleIntOrStringAdded        = "crd-int-or-string-added"
	CRDRuleEmbeddedResourceChanged = "crd-embedded-resource-changed"
	CRDRuleListTypeChanged         = "crd-list-type-changed"
	CRDRuleListTypeLoosened        = "crd-list-type-loosened"
	CRDRuleListMapKeysChanged      = "crd-list-map-keys-changed"
	CRDRuleMapTypeChanged          = "crd-map-type-changed"
	CRDRuleAdditionalPropsRemoved  = "crd-additional-properties-removed"
	CRDRuleAdditionalPropsAdded    = "crd-additional-properties-added"
	CRDRuleCombinatorChanged       = "crd-combinator-changed"
	CRDRuleUniqueItemsAdded        = "crd-unique-items-added"
	CRDRuleUniqueItemsRemoved      = "crd-unique-items-removed"
	CRDRuleRuleAdded               = "crd-cel-rule-added"
	CRDRuleTransitionRuleAdded     = "crd-cel-transition-rule-added"
	CRDRuleRuleRemoved             = "crd-cel-rule-removed"
	CRDRuleRuleChanged             = "crd-cel-rule-changed"
	CRDRuleTransitionRuleChanged   = "crd-cel-transition-rule-changed"
	CRDRuleRuleUnavailable         = "crd-cel-rule-unavailable"
	CRDRuleRuleMessageChanged      = "crd-cel-message-changed"
	CRDRuleRuleReasonChanged       = "crd-cel-reason-changed"
	CRDRuleRuleFieldPathChanged    = "crd-cel-field-path-changed"
	CRDRuleOptionalOldSelfAdded    = "crd-cel-optional-old-self-added"
	CRDRuleOptionalOldSelfRemoved  = "crd-cel-optional-old-self-removed"
	CRDRuleSchemaChanged           = "crd-schema-changed"
)

// Bound rule ids are "crd-<keyword>-tightened" and "crd-<keyword>-loosened"
// (crd-max-length-tightened ...), one pair per keyword in boundKeywords.
var boundKeywords = []struct{ keyword, id string }{
	{"maximum", "maximum"}, {"minimum", "minimum"},
	{"exclusiveMaximum", "exclusive-maximum"}, {"exclusiveMinimum", "exclusive-minimum"},
	{"maxLength", "max-length"}, {"minLength", "min-length"},
	{"maxItems", "max-items"}, {"minItems", "min-items"},
	{"maxProperties", "max-properties"}, {"minProperties", "min-properties"},
	{"multipleOf", "multiple-of"},
}

func boundRuleID(id string, tightened bool) string {
	if tightened {
		return "crd-" + id + "-tightened"
	}
	return "crd-" + id + "-loosened"
}

// crdRules is the CRD gate's rule table; TestCRDRuleTable audits it.
var crdRules = append([]CRDRule{
	{CRDRuleRemoved, LevelError, false, "every object of the CRD is deleted with it, and its API disappears", "CRD %s was removed"},
	{CRDRuleAdded, LevelInfo, false, "a new API", "CRD %s was added"},
	{CRDRuleRefused, LevelError, false, "the API server's own validation of a CRD (ValidateCustomResourceDefinitionUpdate, on create ValidateCustomResourceDefinition) refuses the revision outright: it cannot be installed", "the API server refuses the revision: %s"},

	{CRDRuleVersionRemoved, LevelError, false, "clients of the version get 404; the server refuses the CRD update while the version is in status.storedVersions", "version %s was removed"},
	{CRDRuleVersionAdded, LevelInfo, false, "a new version is served beside the others", "version %s was added"},
	{CRDRuleVersionAddedConverted, LevelInfo, false, "a new version is served beside the old ones, whatever its schema: the conversion webhook converts each object between the storage version and the version a client asks for, so clients of the old versions keep their API (a version is only compared with the version of the same name)", "version %s was added, served beside %s through the conversion webhook"},
	{CRDRuleVersionUnserved, LevelError, false, "clients of the version get 404", "version %s is no longer served"},
	{CRDRuleVersionServed, LevelInfo, false, "a version is served again", "version %s is served"},
	{CRDRuleStorageVersionRemoved, LevelError, false, "objects stored in the old storage version can no longer be read; the server refuses the CRD update while it is in status.storedVersions", "storage version %s was removed"},
	{CRDRuleStorageVersionChanged, LevelInfo, false, "new writes are stored in the new version; migrate stored objects before the old version is removed from status.storedVersions", "storage version moved from %s to %s"},
	{CRDRuleVersionDeprecated, LevelInfo, false, "clients see a deprecation warning", "version %s is deprecated"},
	{CRDRuleScopeChanged, LevelError, false, "the scope is immutable: the server refuses the CRD update", "scope changed from %s to %s"},
	{CRDRuleNameChanged, LevelError, false, "clients (and kubectl) address the resource by its names", "names.%s changed from %s to %s"},
	{CRDRuleShortNameRemoved, LevelError, false, "kubectl users and scripts address the resource by its short names", "short name %s was removed"},
	{CRDRuleShortNameAdded, LevelInfo, false, "a new short name for kubectl", "short name %s was added"},
	{CRDRuleCategoryRemoved, LevelError, false, "`kubectl get <category>` no longer lists the resource", "category %s was removed"},
	{CRDRuleCategoryAdded, LevelInfo, false, "`kubectl get <category>` now lists the resource", "category %s was added"},
	{CRDRuleStatusRemoved, LevelError, false, "the /status endpoint disappears (controllers writing status fail) and status becomes writable through the main resource", "the status subresource was removed"},
	{CRDRuleStatusAdded, LevelError, false, "writes to the main resource now ignore .status: clients that set status with an update silently lose it", "the status subresource was added"},
	{CRDRuleScaleRemoved, LevelError, false, "the /scale endpoint disappears (kubectl scale, autoscalers fail)", "the scale subresource was removed"},
	{CRDRuleScaleAdded, LevelInfo, false, "a new /scale endpoint", "the scale subresource was added"},
	{CRDRuleScaleChanged, LevelError, false, "autoscalers read and write other fields through /scale", "scale subresource %s changed from %s to %s"},
	{CRDRuleConversionChanged, LevelError, false, "objects stored in one version are read through another with other conversion: data may be lost or reads may fail", "conversion strategy changed from %s to %s"},
	{CRDRuleConversionPrunes, LevelError, false, "with conversion None an object is only relabelled between versions: a field of the storage version that a served version lacks is pruned when the object is read through it, and a field of a served version that the storage version lacks is pruned on every write through it", "field %s of %s is not in %s: pruned when the object is %s (conversion None)"},
	{CRDRuleConversionAdded, LevelInfo, false, "the CRD's annotation " + modelconv.VersionsAnnotation + " (written by modelgen's conversion backend) says the generated conversion converts every version the CRD serves or stores: objects read through another version than the one they were stored in are converted, not relabelled", "conversion strategy changed from `None` to `Webhook`, which converts %s"},
	{CRDRuleConversionDropped, LevelError, false, "with conversion None the server only relabels an object between versions whose schemas differ: what one version has and the other lacks is pruned, and values are read as they were stored, whatever the other version's schema says", "conversion `Webhook` was dropped (now `None`) while versions %s differ"},
	{CRDRuleConversionUncovered, LevelError, false, "the CRD's annotation " + modelconv.VersionsAnnotation + " lists the versions its generated conversion converts: the webhook fails every read and write through another version, and clients get the server's error", "version %s is served or stored, but the conversion converts only %s (annotation " + modelconv.VersionsAnnotation + "): give the version a package with +modelgen:conversion=webhook and generate again, or do not serve it"},
	{CRDRuleSelectableRemoved, LevelError, false, "clients that select objects by the field (fieldSelector=) get HTTP 400", "selectable field %s was removed"},
	{CRDRuleSelectableAdded, LevelInfo, false, "clients can select objects by a new field", "selectable field %s was added"},
	{CRDRuleColumnRemoved, LevelInfo, false, "kubectl get shows one column fewer (scripts reading its table may break); nothing stored or sent changes", "printer column %s was removed"},
	{CRDRuleColumnAdded, LevelInfo, false, "kubectl get shows a new column", "printer column %s was added"},
	{CRDRuleColumnChanged, LevelInfo, false, "kubectl get shows the column differently (scripts reading its table may break); nothing stored or sent changes", "printer column %s: %s changed from %s to %s"},

	{CRDRuleFieldRemoved, LevelError, false, "the server prunes the field from stored objects when they are read: its data is lost", "field %s was removed: pruned from stored objects on read"},
	{CRDRuleFieldAdded, LevelInfo, false, "a new optional field", "field %s was added"},
	{CRDRuleFieldAddedHeld, LevelWarning, true, "stored objects may already hold the field (kept as unknown by the base, or their own metadata): its constraints apply to stored values, which the server ratchets on update while unchanged; creates and changed values that break them are refused", "field %s was added with constraints, though stored objects may already hold it: %s"},
	{CRDRuleFieldAddedPrunes, LevelError, false, "stored objects may hold the field, kept as unknown by the base, with subfields its new schema does not name: the server prunes them on read", "field %s was added where the base kept unknown fields, and its schema prunes what stored values hold below it"},
	{CRDRuleTypeChanged, LevelError, false, "stored values of the old type fail validation on every update (type is not ratcheted when the value is re-encoded) and clients decode the wrong type", "type changed from %s to %s"},
	{CRDRuleRequiredAdded, LevelError, false, "required is not ratcheted: stored objects without the field can no longer be updated, and creates without it are refused", "field %s is now required"},
	{CRDRuleRequiredAddedDefaulted, LevelInfo, false, "the field has a default, which the server applies (on read and on write) before it checks required", "field %s is now required, and defaulted"},
	{CRDRuleRequiredRemoved, LevelInfo, false, "validation is looser", "field %s is no longer required"},
	{CRDRuleEnumNarrowed, LevelError, false, "stored objects keep the removed value (the server ratchets it on update), which clients built from the revision cannot represent: typed constants, exhaustive switches and generated enums break on read (crdify, crd-schema-checker and OLM's preflight block it too)", "enum values removed: %s"},
	{CRDRuleEnumWidened, LevelInfo, false, "validation is looser (clients with exhaustive switches may meet new values)", "enum values added: %s"},
	{CRDRuleEnumAdded, LevelWarning, true, "values outside the enum are refused in creates and changed values", "enum %s added"},
	{CRDRuleEnumRemoved, LevelInfo, false, "validation is looser", "enum %s removed"},
	{CRDRulePatternAdded, LevelWarning, true, "values that do not match are refused in creates and changed values", "pattern %s added"},
	{CRDRulePatternChanged, LevelWarning, true, "values that do not match the new pattern are refused in creates and changed values", "pattern changed from %s to %s"},
	{CRDRulePatternRemoved, LevelInfo, false, "validation is looser", "pattern %s removed"},
	{CRDRuleFormatAdded, LevelWarning, true, "values not in the format are refused in creates and changed values (the server checks the formats it knows)", "format %s added"},
	{CRDRuleFormatChanged, LevelWarning, true, "values not in the new format are refused in creates and changed values", "format changed from %s to %s"},
	{CRDRuleFormatRemoved, LevelInfo, false, "validation is looser", "format %s removed"},
	{CRDRuleNullableRemoved, LevelError, false, "null values are pruned before defaulting: stored nulls are dropped on read, and clients sending null lose the field", "nullable removed"},
	{CRDRuleNullableAdded, LevelInfo, false, "null is now kept", "nullable added"},
	{CRDRuleDefaultAdded, LevelError, false, "the server applies defaults when it reads stored objects: objects stored without the field now read with a value they were never written with, and controllers act on it (crdify and OLM's preflight block it too)", "default %s added"},
	{CRDRuleDefaultChanged, LevelError, false, "stored objects defaulted on read now show another value, and new objects get another one", "default changed from %s to %s"},
	{CRDRuleDefaultRemoved, LevelError, false, "new objects no longer get the value, which clients and controllers may rely on", "default %s removed"},
	{CRDRulePreserveUnknownRemoved, LevelError, false, "unknown fields of stored objects are pruned on read: their data is lost", "x-kubernetes-preserve-unknown-fields removed"},
	{CRDRulePreserveUnknownAdded, LevelInfo, false, "unknown fields are kept", "x-kubernetes-preserve-unknown-fields added"},
	{CRDRuleIntOrStringRemoved, LevelError, false, "stored values of the other type fail validation on update, and clients decode another type", "x-kubernetes-int-or-string removed"},
	{CRDRuleIntOrStringAdded, LevelInfo, false, "integers and strings are both accepted", "x-kubernetes-int-or-string added"},
	{CRDRuleEmbeddedResourceChanged, LevelError, false, "an embedded resource must carry apiVersion and kind and has its metadata pruned: stored objects are read differently", "x-kubernetes-embedded-resource changed from %v to %v"},
	{CRDRuleListTypeChanged, LevelError, false, "server-side apply merges the list differently, which breaks field ownership: after atomic → set an apply that conflicted under the base merges its element in, after map → set the keys no longer identify items (stored objects keep working: the server checks list invariants on update only where the stored object met them)", "x-kubernetes-list-type changed from %s to %s"},
	{CRDRuleListTypeLoosened, LevelError, false, "server-side apply now replaces the list whole: a forced apply (as controllers apply) drops the items other managers own, and field ownership of the items is lost", "x-kubernetes-list-type changed from %s to %s"},
	{CRDRuleListMapKeysChanged, LevelError, false, "server-side apply merges the list by other keys, which breaks field ownership: with a key added, an apply that removed an item under the base leaves it in place; creates with duplicate keys are refused", "x-kubernetes-list-map-keys changed from %s to %s"},
	{CRDRuleMapTypeChanged, LevelError, false, "server-side apply merges the map differently, which breaks field ownership: granular → atomic makes a forced apply replace the whole map and drop other managers' keys, atomic → granular makes an apply merge where it replaced", "x-kubernetes-map-type changed from %s to %s"},
	{CRDRuleAdditionalPropsRemoved, LevelError, false, "the map's entries are pruned from stored objects on read (not ratcheted)", "additionalProperties removed"},
	{CRDRuleAdditionalPropsAdded, LevelInfo, false, "the object now keeps arbitrary keys", "additionalProperties added"},
	{CRDRuleCombinatorChanged, LevelWarning, true, "a changed set of branches may refuse values it allowed; ratcheted only while the whole value there is unchanged", "%s changed from %d to %d branches"},
	{CRDRuleUniqueItemsAdded, LevelWarning, true, "lists with duplicates are refused in creates and changed values", "uniqueItems added"},
	{CRDRuleUniqueItemsRemoved, LevelInfo, false, "validation is looser", "uniqueItems removed"},
	{CRDRuleRuleAdded, LevelWarning, true, "a rule without oldSelf is ratcheted: stored objects keep working on update while the value is unchanged, creates that break it are refused", "CEL rule added: %s"},
	{CRDRuleTransitionRuleAdded, LevelError, false, "a rule using oldSelf (a transition rule) is not ratcheted: updates of stored objects that break it are refused", "CEL transition rule added: %s"},
	{CRDRuleRuleUnavailable, LevelError, false, "an API server compiles a new rule with the CEL libraries of its minimum compatibility version (one minor below its own) and refuses the CRD update when the rule uses a function or library those lack", "CEL rule %s does not compile on Kubernetes %s: %s"},
	{CRDRuleRuleRemoved, LevelInfo, false, "validation is looser", "CEL rule removed: %s"},
	{CRDRuleRuleChanged, LevelWarning, true, "the new rule is ratcheted like an added one", "CEL rule changed from %s to %s"},
	{CRDRuleTransitionRuleChanged, LevelError, false, "the new rule uses oldSelf and is not ratcheted", "CEL transition rule changed from %s to %s"},
	{CRDRuleRuleMessageChanged, LevelInfo, false, "clients see another error text for the same rule", "CEL rule %s: %s changed from %s to %s"},
	{CRDRuleRuleReasonChanged, LevelInfo, false, "clients see another reason (and HTTP status) for the same rule", "CEL rule %s: reason changed from %s to %s"},
	{CRDRuleRuleFieldPathChanged, LevelInfo, false, "clients see the error at another field for the same rule", "CEL rule %s: fieldPath changed from %s to %s"},
	{CRDRuleOptionalOldSelfAdded, LevelWarning, false, "the transition rule now also runs on create, with oldSelf absent: creates may be refused, stored objects are unaffected", "CEL rule %s: optionalOldSelf added"},
	{CRDRuleOptionalOldSelfRemoved, LevelInfo, false, "the transition rule no longer runs on create", "CEL rule %s: optionalOldSelf removed"},
	{CRDRuleSchemaChanged, LevelError, false, "a schema keyword the gate has no rule for changed: judged breaking, since the gate fails closed", "%s changed from %s to %s"},
}, boundRules()...)

// boundRules are the tightened and loosened rules of each bound keyword.
func boundRules() []CRDRule {
	var out []CRDRule
	for _, k := range boundKeywords {
		out = append(out,
			CRDRule{boundRuleID(k.id, true), LevelWarning, true, "values outside the new " + k.keyword + " are refused in creates and changed values", k.keyword + " %s"},
			CRDRule{boundRuleID(k.id, false), LevelInfo, false, "validation is looser", k.keyword + " %s"})
	}
	return out
}

// CRDRules returns a copy of the CRD gate's rule table.
func CRDRules() []CRDRule { return append([]CRDRule(nil), crdRules...) }

var crdRuleByID = func() map[string]CRDRule {
	m := make(map[string]CRDRule, len(crdRules))
	for _, r := range crdRules {
		m[r.ID] = r
	}
	return m
}()
