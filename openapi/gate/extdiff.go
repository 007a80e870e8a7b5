package gate

import (
	"fmt"
	"slices"
	"strings"
)

// diffExtensions compares what the two documents say through the modelgen
// extensions. An extension that disappears together with its property is
// left to oasdiff, which reports the property itself.
func diffExtensions(base, revision *extensions) []Change {
	var changes []Change
	for _, at := range unionSites(base.machines, revision.machines) {
		changes = append(changes, diffMachine(at, base, revision)...)
	}
	for _, at := range unionSites(base.access, revision.access) {
		changes = append(changes, diffAccess(at, base, revision)...)
	}
	return changes
}

func diffMachine(at site, base, revision *extensions) []Change {
	old, hadOld := base.machines[at]
	cur, hasNew := revision.machines[at]
	switch {
	case hadOld && hasNew:
		return compareMachines(at, old, cur)
	case hadOld && revision.sites[at]:
		return []Change{newChange(RuleStateMachineRemoved, at, code(old.Name))}
	case hasNew && base.sites[at]:
		return []Change{newChange(RuleStateMachineAdded, at, code(cur.Name), codes(cur.States))}
	}
	return nil
}

func compareMachines(at site, old, cur stateMachine) []Change {
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

func diffAccess(at site, base, revision *extensions) []Change {
	old, hadOld := base.access[at]
	cur, hasNew := revision.access[at]
	switch {
	case hadOld && hasNew:
		return compareAccess(at, old, cur)
	case hadOld && revision.sites[at]:
		return []Change{newChange(RuleAccessRemoved, at, codes(old.Read), codes(old.Write))}
	case hasNew && base.sites[at]:
		return []Change{newChange(RuleAccessAdded, at, codes(cur.Read), codes(cur.Write))}
	}
	return nil
}

func compareAccess(at site, old, cur accessRule) []Change {
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
func newChange(id string, at site, args ...any) Change {
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

func transitionKeys(ts []transition) []string {
	keys := make([]string, len(ts))
	for i, t := range ts {
		keys[i] = t.String()
	}
	return keys
}

func unionSites[V any](a, b map[site]V) []site {
	seen := map[site]bool{}
	var all []site
	for _, m := range []map[site]V{a, b} {
		for at := range m {
			if !seen[at] {
				seen[at] = true
				all = append(all, at)
			}
		}
	}
	slices.SortFunc(all, func(x, y site) int { return strings.Compare(x.String(), y.String()) })
	return all
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
