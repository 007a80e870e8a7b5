package gate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/oasdiff/oasdiff/load"
	"golang.org/x/mod/semver"
)

// DefaultRevision is the revision document when Options.Revision is empty.
const DefaultRevision = "openapi.yaml"

// Options configures one gate run. Base is required.
type Options struct {
	// Base is the last release's contract: a file, or git:<ref>:<path>
	// (read with git show; the path is relative to the repository root).
	Base string
	// Revision is this contract, in the same forms; default openapi.yaml.
	Revision string
	// GoMod, when set, is the go.mod whose module path must carry the major
	// version of the revision's info.version. Empty skips the module rule.
	GoMod string
	// Dir is the directory relative paths and git commands are taken from;
	// empty means the current directory.
	Dir string
	// PatchForAdditions lets a patch bump carry additive changes.
	PatchForAdditions bool
	// WarnIsAdditive counts oasdiff's WARN changes as additive rather than
	// breaking.
	WarnIsAdditive bool
	// Limits bound what is read from each document, base and revision
	// alike; zero fields take the defaults (DefaultLimits).
	Limits Limits
}

// InputError is returned by Run when an input is missing, unreadable or
// invalid; the gate then fails closed (the CLI exits 2).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, args ...any) error {
	return &InputError{fmt.Errorf(format, args...)}
}

// Run compares the base and revision contracts and judges the version bump
// and the Go module path. It returns an *InputError when an input is missing
// or invalid; a failing verdict is not an error (see Report.Verdict.Pass).
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Base == "" {
		return nil, inputErrorf("the base (--base) is required: the last release's contract, a file or git:<ref>:<path>")
	}
	opts.Revision = cmp.Or(opts.Revision, DefaultRevision)
	opts.Limits = opts.Limits.orDefaults()
	// The two sides load in parallel: loading is most of a large run.
	var base, revision *side
	var baseErr, revErr error
	var wg sync.WaitGroup
	wg.Go(func() { base, baseErr = readSide(ctx, opts.Base, opts.Dir, opts.Limits) })
	revision, revErr = readSide(ctx, opts.Revision, opts.Dir, opts.Limits)
	wg.Wait()
	if baseErr != nil {
		return nil, inputErrorf("base: %w", baseErr)
	}
	if revErr != nil {
		return nil, inputErrorf("revision: %w", revErr)
	}
	changes, err := compare(base, revision, opts.WarnIsAdditive)
	if err != nil {
		return nil, err
	}
	report := &Report{
		Base:     Document{Source: opts.Base, Version: base.version.raw},
		Revision: Document{Source: opts.Revision, Version: revision.version.raw},
		Changes:  changes,
		Verdict:  judge(base.version, revision.version, changes, opts.PatchForAdditions),
	}
	if opts.GoMod != "" {
		if err := checkGoMod(&report.Verdict, opts, revision.version); err != nil {
			return nil, err
		}
	}
	report.Verdict.Pass = len(report.Verdict.Violations) == 0
	return report, nil
}

// side is one loaded document.
type side struct {
	spec    *load.SpecInfo
	version version
	ext     *extensions
	lim     Limits // what it was read with; bounds the comparison's work too
}

// readSide reads, loads and validates one document; Run marks its errors as
// input errors.
func readSide(ctx context.Context, given, dir string, lim Limits) (*side, error) {
	loc, err := parseLocation(given, dir)
	if err != nil {
		return nil, err
	}
	data, err := loc.read(ctx, dir, lim.MaxBytes)
	if err != nil {
		return nil, err
	}
	return parseSide(ctx, loc, data, lim)
}

// parseSide loads, validates and reads the extensions of one document's
// bytes.
func parseSide(ctx context.Context, loc location, data []byte, lim Limits) (*side, error) {
	if int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("%s: %w", loc.given, tooLarge(lim.MaxBytes))
	}
	spec, err := loadSpec(ctx, loc, data, lim)
	if err != nil {
		return nil, err
	}
	v, err := parseVersion(spec.Version)
	if err != nil {
		return nil, fmt.Errorf("%s: info.version: %w", loc.given, err)
	}
	ext, err := collectExtensions(spec.Spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", loc.given, err)
	}
	if ext.depth > lim.MaxDepth {
		return nil, fmt.Errorf("%s: %w", loc.given, &LimitError{
			Msg:  fmt.Sprintf("schemas nest %d levels deep, more than the limit of %d", ext.depth, lim.MaxDepth),
			Flag: "max-schema-depth"})
	}
	return &side{spec: spec, version: v, ext: ext, lim: lim}, nil
}

// compare lists oasdiff's changes and the extension changes, most severe
// first, in a stable order.
func compare(base, revision *side, warnIsAdditive bool) ([]Change, error) {
	structural, renamed, err := compareStructure(base.ext, revision.ext)
	if err != nil {
		return nil, err
	}
	adoptNames(revision.spec.Spec, renamed)
	changes, err := oasdiffChanges(base.spec, revision.spec, warnIsAdditive, base.lim.orDefaults())
	if err != nil {
		return nil, &InputError{err}
	}
	changes = append(changes, structural...)
	slices.SortStableFunc(changes, func(a, b Change) int {
		return cmp.Or(-cmp.Compare(a.Level, b.Level), cmp.Compare(a.Where, b.Where),
			cmp.Compare(a.ID, b.ID), cmp.Compare(a.Message, b.Message))
	})
	return changes, nil
}

// judge applies the version rule.
func judge(base, revision version, changes []Change, patchForAdditions bool) Verdict {
	v := Verdict{Violations: []Violation{}}
	for _, c := range changes {
		switch c.Impact {
		case ImpactBreaking:
			v.Breaking++
		case ImpactAdditive:
			v.Additive++
		}
	}
	v.Needed = neededBump(base, v.Breaking, v.Additive, patchForAdditions)
	v.Suggested = bumped(base, v.Needed, revision.vPrefix)
	if semver.Compare(revision.canonical, base.canonical) < 0 {
		v.Violations = append(v.Violations, Violation{
			ID:      RuleVersionDecreased,
			Message: fmt.Sprintf("info.version went backwards: %s → %s", base.raw, revision.raw),
			Fix:     fmt.Sprintf("set info.version to %s or later", v.Suggested),
		})
		return v
	}
	v.Made = madeBump(base, revision)
	if !satisfies(v.Made, v.Needed) {
		v.Violations = append(v.Violations, Violation{
			ID: RuleVersionBumpTooSmall,
			Message: fmt.Sprintf("%s a %s bump from %s, but info.version %s is %s",
				changeCount(v), v.Needed, base.raw, revision.raw, describeBump(v.Made)),
			Fix: fmt.Sprintf("set info.version to %s or later", v.Suggested),
		})
	}
	return v
}

// changeCount names what drives the requirement, with its verb, for
// messages: "1 breaking change needs", "3 additive changes need".
func changeCount(v Verdict) string {
	noun, n := "breaking change", v.Breaking
	if n == 0 {
		noun, n = "additive change", v.Additive
	}
	if n == 1 {
		return "1 " + noun + " needs"
	}
	return fmt.Sprintf("%d %ss need", n, noun)
}

// maxGoModBytes bounds the go.mod the gate reads (the go command's own
// bound on a go.mod is far lower than any contract's).
const maxGoModBytes = 16 << 20

// checkGoMod applies the module rule to the revision's version, and tells a
// version violation which module path the suggested version will need.
func checkGoMod(v *Verdict, opts Options, revision version) error {
	file := opts.GoMod
	if opts.Dir != "" && !filepath.IsAbs(file) {
		file = filepath.Join(opts.Dir, file)
	}
	data, err := readRegularFile(file, maxGoModBytes)
	if err != nil {
		return &InputError{fmt.Errorf("--go-mod: %w", err)}
	}
	path, err := modulePathOf(opts.GoMod, data)
	if err != nil {
		return &InputError{err}
	}
	want, ok, err := checkModulePath(path, revision)
	if err != nil {
		return &InputError{fmt.Errorf("%s: %w", opts.GoMod, err)}
	}
	v.Module = &ModuleCheck{File: opts.GoMod, Path: path, Want: want}
	if !ok {
		v.Violations = append(v.Violations, Violation{
			ID: RuleGoModulePathMismatch,
			Message: fmt.Sprintf("info.version %s is major %s, but %s declares module %s",
				revision.raw, semver.Major(revision.canonical), opts.GoMod, path),
			Fix: moduleFix(opts.GoMod, path, want),
		})
	}
	followSuggestion(v, path)
	return nil
}

// followSuggestion adds the module change the suggested version implies to a
// version violation's fix, so one run tells the whole story.
func followSuggestion(v *Verdict, path string) {
	suggested, err := parseVersion(v.Suggested)
	if err != nil {
		return
	}
	want, ok, err := checkModulePath(path, suggested)
	if err != nil || ok {
		return
	}
	for i := range v.Violations {
		if v.Violations[i].ID == RuleVersionBumpTooSmall || v.Violations[i].ID == RuleVersionDecreased {
			v.Violations[i].Fix += "; then " + moduleFix(v.Module.File, path, want)
		}
	}
}

// IsInputError reports whether err means the inputs could not be judged.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}
