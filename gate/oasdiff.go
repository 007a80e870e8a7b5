package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/flatten/allof"
	"github.com/oasdiff/oasdiff/load"
)

// oasdiffVersionRules are oasdiff's own info.version findings. The gate
// judges the version itself (with additive changes and go.mod, which
// oasdiff's policy does not cover), so these would only repeat the verdict.
var oasdiffVersionRules = []string{
	checker.APIVersionNotBumpedId,
	checker.APIVersionDecreasedId,
	checker.APIMajorVersionNotBumpedId,
}

// oasdiffChanges diffs the two specs and classifies every change with all of
// oasdiff's rules, at every level. It never passes user input to
// checker.WithSeverityLevels (which calls log.Fatal on an unknown id), and it
// turns a panic inside oasdiff into an error so the gate fails closed.
func oasdiffChanges(base, revision *load.SpecInfo, warnIsAdditive bool, lim Limits) (changes []Change, err error) {
	defer func() {
		if r := recover(); r != nil {
			changes, err = nil, fmt.Errorf("oasdiff failed while comparing the documents: %v", r)
		}
	}()
	// oasdiff compares allOf members one by one and caps what it finds
	// there at WARN (all-of-not-flattened), which --warn-is-additive would
	// then demote: merged first, a narrowed enum under allOf is the ERR it is.
	// Both the merge and oasdiff's diff are bounded in work before they
	// start (checkWork).
	if err := checkWork(base.Spec, revision.Spec, lim); err != nil {
		return nil, err
	}
	for _, spec := range []*load.SpecInfo{base, revision} {
		if _, err := allof.MergeSpec(spec.Spec); err != nil {
			return nil, fmt.Errorf("%s: merging allOf: %w", spec.Url, err)
		}
	}
	if err := checkWork(base.Spec, revision.Spec, lim); err != nil {
		return nil, err
	}
	report, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), base, revision)
	if err != nil {
		return nil, fmt.Errorf("comparing the documents: %w", err)
	}
	config := checker.NewConfig(checker.GetAllChecks())
	found := checker.CheckBackwardCompatibilityUntilLevel(config, report, sources, checker.INFO)
	localize := checker.NewDefaultLocalizer()
	for _, c := range found {
		if slices.Contains(oasdiffVersionRules, c.GetId()) {
			continue
		}
		changes = append(changes, fromOasdiff(c, localize, warnIsAdditive))
	}
	return changes, nil
}

func fromOasdiff(c checker.Change, localize checker.Localizer, warnIsAdditive bool) Change {
	return Change{
		Level:   Level(c.GetLevel()),
		ID:      c.GetId(),
		Where:   oasdiffWhere(c),
		Message: c.GetUncolorizedText(localize),
		Impact:  oasdiffImpact(c.GetLevel(), warnIsAdditive),
		Origin:  "oasdiff",
	}
}

// oasdiffImpact maps oasdiff's levels onto the version rule. ERR is
// breaking. WARN ("may break some clients": a removed request property, a
// changed pattern) is breaking too unless the caller opted out, because the
// gate fails closed. INFO is any other contract change, which needs at least
// a minor bump: oasdiff reports no INFO for documentation-only edits.
func oasdiffImpact(level checker.Level, warnIsAdditive bool) Impact {
	switch {
	case level >= checker.ERR:
		return ImpactBreaking
	case level == checker.WARN && !warnIsAdditive:
		return ImpactBreaking
	default:
		return ImpactAdditive
	}
}

func oasdiffWhere(c checker.Change) string {
	if c.GetPath() != "" {
		return strings.TrimSpace(c.GetOperation() + " " + c.GetPath())
	}
	if component, ok := c.(checker.ComponentChange); ok && component.Component != "" {
		return "components." + component.Component
	}
	return c.GetSection()
}
