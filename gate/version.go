package gate

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
)

// version is an info.version that is a full semantic version
// (MAJOR.MINOR.PATCH, optional prerelease and build, optional leading "v").
type version struct {
	raw       string // as written in the document
	canonical string // "v1.2.0" or "v1.2.0-rc.1": x/mod/semver form, no build
	major     int
	minor     int
	patch     int
	vPrefix   bool
}

// parseVersion accepts what semver.org calls a version, with or without a
// leading "v". x/mod/semver alone would also take "v1" and "v1.2" as
// shorthands; an API version that short is refused, since the gate could not
// tell which part moved.
func parseVersion(raw string) (version, error) {
	v := "v" + strings.TrimPrefix(raw, "v")
	withoutBuild := strings.TrimSuffix(v, semver.Build(v))
	if !semver.IsValid(v) || semver.Canonical(v) != withoutBuild {
		return version{}, fmt.Errorf("%q is not a semantic version (want MAJOR.MINOR.PATCH, such as 1.4.0 or v1.4.0)", raw)
	}
	core, _, _ := strings.Cut(strings.TrimPrefix(withoutBuild, "v"), "-")
	parts := strings.Split(core, ".")
	numbers := make([]int, 3)
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return version{}, fmt.Errorf("%q: %w", raw, err)
		}
		numbers[i] = n
	}
	return version{
		raw: raw, canonical: withoutBuild, vPrefix: strings.HasPrefix(raw, "v"),
		major: numbers[0], minor: numbers[1], patch: numbers[2],
	}, nil
}

// madeBump is which number moved from base to revision; the caller has
// already refused a revision lower than the base. Prerelease and build do not
// count: 1.3.0-rc.1 to 1.3.0 is no bump.
func madeBump(base, revision version) Bump {
	switch {
	case revision.major != base.major:
		return BumpMajor
	case revision.minor != base.minor:
		return BumpMinor
	case revision.patch != base.patch:
		return BumpPatch
	}
	return BumpNone
}

// neededBump is the version rule: a breaking change needs a major bump
// (below 1.0.0 a minor one, as semver and Go allow), an additive change a
// minor bump (a patch bump when patchForAdditions), and no change none.
func neededBump(base version, breaking, additive int, patchForAdditions bool) Bump {
	switch {
	case breaking > 0 && base.major == 0:
		return BumpMinor
	case breaking > 0:
		return BumpMajor
	case additive > 0 && patchForAdditions:
		return BumpPatch
	case additive > 0:
		return BumpMinor
	}
	return BumpNone
}

// satisfies reports whether a bump of made carries a change that needs
// needed. Leaving v0 for v1.0.0 is a major bump, so it carries anything.
func satisfies(made, needed Bump) bool { return made >= needed }

// bumped is the smallest version that is base moved by b, written with a
// leading "v" when withV.
func bumped(base version, b Bump, withV bool) string {
	next := base.canonical
	switch b {
	case BumpMajor:
		next = fmt.Sprintf("v%d.0.0", base.major+1)
	case BumpMinor:
		next = fmt.Sprintf("v%d.%d.0", base.major, base.minor+1)
	case BumpPatch:
		next = fmt.Sprintf("v%d.%d.%d", base.major, base.minor, base.patch+1)
	}
	if withV {
		return next
	}
	return strings.TrimPrefix(next, "v")
}

// describeBump says what a move from base to revision was, for messages.
func describeBump(made Bump) string {
	if made == BumpNone {
		return "unchanged"
	}
	return "a " + made.String() + " bump"
}
