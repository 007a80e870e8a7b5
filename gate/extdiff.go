package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelgen/modelgen/openapi/ext"
)

// diffFacts compares what the two documents say through the modelgen
// extensions at one place that both have. An extension that disappears
// together with its property is left to oasdiff, which reports the property
// itself (the walk only meets places present on both sides).
func diffFacts(at place, old, cur facts) []Change {
	var changes []Change
	switch {
	case old.machine != nil && cur.machine != nil:
		changes = compareMachines(at, *old.machine, *cur.machine)
	case old.machine != nil:
		changes = append(changes, newChange(RuleStateMachineRemoved, at, code(old.machine.Name)))
	case cur.machine != nil:
		changes = append(changes, newChange(RuleStateMachineAdded, at, code(cur.machine.Name), codes(cur.machine.States)))
	}
	switch {
	case old.access != nil && cur.access != nil:
		changes = append(changes, compareAccess(at, *old.access, *cur.access)...)
	case old.access != nil:
		changes = append(changes, newChange(RuleAccessRemoved, at, codes(old.access.Read), codes(old.access.Write)))
	case cur.access != nil:
		changes = append(changes, newChange(RuleAccessAdded, at, codes(cur.access.Read), codes(cur.access.Write)))
	}
	changes = append(changes, diffKube(at, old.kube, cur.kube)...)
	wasTenant, isTenant := old.access != nil && old.access.Tenant, cur.access != nil && cur.access.Tenant
	switch {
	case wasTenant && !isTenant:
		changes = append(changes, newChange(RuleAccessTenantKeyChanged, at, "is no longer the tenant key"))
	case isTenant && !wasTenant:
		changes = append(changes, newChange(RuleAccessTenantKeyChanged, at, "is now the tenant key"))
	}
	return changes
}

func compareMachines(at place, old, cur ext.StateMachine) []Change {
	var changes []Change
	name := code(cur.Name)
	if old.Initial != cur.Initial {
		changes = append(changes, newChange(RuleStateMachineInitialChanged, at, name, code(old.Initial), code(cur.Initial)))
	}
	removed, added := setDiff(old.States, cur.States)
	for _, s := range removed {
		changes = append(changes, newChange(RuleStateMachineStateRemoved, at, name, code(s)))
	}
	for _, s := range added {
		changes = append(changes, newChange(RuleStateMachineStateAdded, at, name, code(s)))
	}
	removedT, addedT := setDiff(transitionKeys(old.Transitions), transitionKeys(cur.Transitions))
	for _, t := range removedT {
		changes = append(changes, newChange(RuleStateMachineTransitionRemoved, at, name, code(t)))
	}
	for _, t := range addedT {
		changes = append(changes, newChange(RuleStateMachineTransitionAdded, at, name, code(t)))
	}
	return changes
}

func compareAccess(at place, old, cur ext.Access) []Change {
	var changes []Change
	for _, list := range []struct {
		old, cur       []string
		removed, added string
	}{
		{old.Read, cur.Read, RuleAccessReadRoleRemoved, RuleAccessReadRoleAdded},
		{old.Write, cur.Write, RuleAccessWriteRoleRemoved, RuleAccessWriteRoleAdded},
	} {
		removed, added := setDiff(list.old, list.cur)
		for _, role := range removed {
			changes = append(changes, newChange(list.removed, at, code(role)))
		}
		for _, role := range added {
			changes = append(changes, newChange(list.added, at, code(role)))
		}
	}
	return changes
}

// newChange renders a change of one of the gate's rules; its level, impact
// and message format come from the rule table.
func newChange(id string, at place, args ...any) Change {
	rule := ruleByID[id]
	return Change{
		Level:   rule.Level,
		ID:      id,
		Where:   at.String(),
		Message: fmt.Sprintf(rule.Format, args...),
		Impact:  rule.Impact,
		Origin:  "modelgen",
	}
}

// setDiff returns the sorted elements only in old (removed) and only in cur
// (added).
func setDiff(old, cur []string) (removed, added []string) {
	for _, s := range old {
		if !slices.Contains(cur, s) && !slices.Contains(removed, s) {
			removed = append(removed, s)
		}
	}
	for _, s := range cur {
		if !slices.Contains(old, s) && !slices.Contains(added, s) {
			added = append(added, s)
		}
	}
	slices.Sort(removed)
	slices.Sort(added)
	return removed, added
}

func transitionKeys(ts []ext.Transition) []string {
	keys := make([]string, len(ts))
	for i, t := range ts {
		keys[i] = t.String()
	}
	return keys
}

// code quotes a name the way oasdiff's messages do.
func code(s string) string { return "`" + s + "`" }

func codes(list []string) string {
	if len(list) == 0 {
		return "(none)"
	}
	sorted := slices.Clone(list)
	slices.Sort(sorted)
	quoted := make([]string, len(sorted))
	for i, s := range sorted {
		quoted[i] = code(s)
	}
	return strings.Join(quoted, ", ")
}

func equalJSON(a, b any) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}
