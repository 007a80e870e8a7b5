package gate

// Rule ids the gate adds to oasdiff's own. oasdiff's rules live in its
// checker package (checker.GetAllRules); these cover what it cannot see: the
// modelgen schema extensions, and the verdict on info.version and go.mod.
const (
	RuleStateMachineAdded             = "state-machine-added"
	RuleStateMachineRemoved           = "state-machine-removed"
	RuleStateMachineInitialChanged    = "state-machine-initial-changed"
	RuleStateMachineStateAdded        = "state-machine-state-added"
	RuleStateMachineStateRemoved      = "state-machine-state-removed"
	RuleStateMachineTransitionAdded   = "state-machine-transition-added"
	RuleStateMachineTransitionRemoved = "state-machine-transition-removed"

	RuleAccessAdded            = "access-rule-added"
	RuleAccessRemoved          = "access-rule-removed"
	RuleAccessReadRoleAdded    = "access-read-role-added"
	RuleAccessReadRoleRemoved  = "access-read-role-removed"
	RuleAccessWriteRoleAdded   = "access-write-role-added"
	RuleAccessWriteRoleRemoved = "access-write-role-removed"
	RuleAccessTenantKeyChanged = "access-tenant-key-changed"

	RuleComponentRenamed = "component-renamed"

	RuleKubeValidationAdded          = "x-kubernetes-validation-added"
	RuleKubeValidationRemoved        = "x-kubernetes-validation-removed"
	RuleKubeValidationChanged        = "x-kubernetes-validation-changed"
	RuleKubeValidationMessageChanged = "x-kubernetes-validation-message-changed"
	RuleKubeListTypeChanged          = "x-kubernetes-list-type-changed"
	RuleKubeListMapKeysChanged       = "x-kubernetes-list-map-keys-changed"
	RuleKubeMapTypeChanged           = "x-kubernetes-map-type-changed"

	RuleVersionDecreased     = "version-decreased"
	RuleVersionBumpTooSmall  = "version-bump-too-small"
	RuleGoModulePathMismatch = "go-module-path-major-mismatch"
)

// Rule is one finding the gate itself can produce. Change rules have an
// Impact and a Format that takes the rule's arguments; verdict rules
// (version, go.mod) have ImpactNone and are reported as Violations.
type Rule struct {
	ID          string
	Level       Level
	Impact      Impact
	Description string
	// Format renders a change's message; its verbs are filled by the
	// arguments the finder passes (machine name, state, role...).
	Format string
}

// rules is the table of every rule the gate adds. rules_test.go audits it:
// ids are unique, and each "removed" rule has an "added" twin.
var rules = []Rule{
	{RuleStateMachineAdded, LevelInfo, ImpactAdditive,
		"an existing property gained a state machine", "state machine %s was added (states %s)"},
	{RuleStateMachineRemoved, LevelError, ImpactBreaking,
		"a property kept its place but lost its state machine", "state machine %s was removed; its lifecycle is no longer part of the contract"},
	{RuleStateMachineInitialChanged, LevelError, ImpactBreaking,
		"the initial state of a machine changed", "state machine %s: initial state changed from %s to %s"},
	{RuleStateMachineStateAdded, LevelInfo, ImpactAdditive,
		"a state was added to a machine", "state machine %s: state %s was added"},
	{RuleStateMachineStateRemoved, LevelError, ImpactBreaking,
		"a state was removed from a machine", "state machine %s: state %s was removed"},
	{RuleStateMachineTransitionAdded, LevelInfo, ImpactAdditive,
		"a transition (from, event, to) was added to a machine", "state machine %s: transition %s was added"},
	{RuleStateMachineTransitionRemoved, LevelError, ImpactBreaking,
		"a transition (from, event, to) was removed from a machine", "state machine %s: transition %s was removed"},

	{RuleAccessAdded, LevelError, ImpactBreaking,
		"an existing property became role-restricted (no x-modelgen-access means every role may read and write it)", "access is now restricted to read %s, write %s"},
	{RuleAccessRemoved, LevelInfo, ImpactAdditive,
		"a property is no longer role-restricted", "access restriction removed (was read %s, write %s): every role may read and write"},
	{RuleAccessReadRoleAdded, LevelInfo, ImpactAdditive,
		"a role may now read a property", "role %s may now read this property"},
	{RuleAccessReadRoleRemoved, LevelError, ImpactBreaking,
		"a role can no longer read a property it could read", "role %s can no longer read this property"},
	{RuleAccessWriteRoleAdded, LevelInfo, ImpactAdditive,
		"a role may now write a property", "role %s may now write this property"},
	{RuleAccessWriteRoleRemoved, LevelError, ImpactBreaking,
		"a role can no longer write a property it could write", "role %s can no longer write this property"},
	{RuleAccessTenantKeyChanged, LevelError, ImpactBreaking,
		"a property became, or stopped being, the tenant key: which tenant sees which object changes", "this property %s"},

	{RuleComponentRenamed, LevelInfo, ImpactAdditive,
		"the component schema at a place has a new name (client generators name their types after it); what changed inside it is judged as if the name had stayed",
		"component %s was renamed %s; %s"},

	{RuleKubeValidationAdded, LevelError, ImpactBreaking,
		"a CEL rule (x-kubernetes-validations) was added: the API server refuses what it refuses", "CEL rule added: %s"},
	{RuleKubeValidationRemoved, LevelInfo, ImpactAdditive,
		"a CEL rule (x-kubernetes-validations) was removed: validation is looser", "CEL rule removed: %s"},
	{RuleKubeValidationChanged, LevelError, ImpactBreaking,
		"a CEL rule (x-kubernetes-validations) was replaced by another, which may refuse what the old one allowed", "CEL rule changed from %s to %s"},
	{RuleKubeValidationMessageChanged, LevelInfo, ImpactAdditive,
		"a CEL rule kept its text, but clients see another message, reason or field", "CEL rule %s: %s → %s"},
	{RuleKubeListTypeChanged, LevelError, ImpactBreaking,
		"x-kubernetes-list-type changed: a set refuses duplicates, a map duplicate keys, and server-side apply merges the list differently", "x-kubernetes-list-type changed from %s to %s"},
	{RuleKubeListMapKeysChanged, LevelError, ImpactBreaking,
		"x-kubernetes-list-map-keys changed: list entries are identified (and merged by server-side apply) by other keys", "x-kubernetes-list-map-keys changed from %s to %s"},
	{RuleKubeMapTypeChanged, LevelError, ImpactBreaking,
		"x-kubernetes-map-type changed: server-side apply merges the object differently", "x-kubernetes-map-type changed from %s to %s"},

	{RuleVersionDecreased, LevelError, ImpactNone,
		"info.version went backwards", ""},
	{RuleVersionBumpTooSmall, LevelError, ImpactNone,
		"info.version moved by less than the changes require", ""},
	{RuleGoModulePathMismatch, LevelError, ImpactNone,
		"the go.mod module path does not carry the major version of info.version (/vN for N >= 2, none for v0 and v1)", ""},
}

// Rules returns a copy of the gate's own rule table, for documentation and
// for tools that list rule ids.
func Rules() []Rule {
	return append([]Rule(nil), rules...)
}

// ruleByID is the table indexed by id; a missing id is a programming error
// caught by the table audit, so lookups return the zero Rule rather than fail.
var ruleByID = func() map[string]Rule {
	m := make(map[string]Rule, len(rules))
	for _, r := range rules {
		m[r.ID] = r
	}
	return m
}()
