package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"golang.org/x/mod/module"
	kubeversion "k8s.io/apimachinery/pkg/util/version"
)

// RatchetingSince is the first Kubernetes minor version whose API server
// ratchets CRD validation by default (KEP-4008: beta, on by default, in
// 1.30; GA in 1.33).
const RatchetingSince = 30

// CRDOptions configures one run of the CRD gate. Base and Revision are
// required.
type CRDOptions struct {
	// Base is the last release's CRDs: a file, a directory, or
	// git:<ref>:<path> to a file or a directory.
	Base string
	// Revision is this release's CRDs, in the same forms.
	Revision string
	// KubeVersion is the oldest Kubernetes the CRDs are installed on,
	// "X.Y"; empty means one that ratchets validation (1.30 or later).
	KubeVersion string
	// GoMod, when set, is this release's go.mod; BaseGoMod the last
	// release's (a file or git:<ref>:<path>; default, when Base is
	// git:<ref>:..., GoMod at that ref). When the module's major version
	// moved (/vN), removing a version or a CRD is allowed (a warning).
	GoMod, BaseGoMod string
	// Patches, when set, are this release's kustomize patches of the CRDs
	// (config/crd/patches: a file, a directory or git:<ref>:<path>): their
	// spec.conversion and annotations are applied to the revision's CRDs
	// of their names, so that the gate judges the CRD the server gets.
	// BasePatches are the base's (default, when Base is git:<ref>:...,
	// Patches at that ref if it has them; a base not from git is judged as
	// given).
	Patches, BasePatches string
	// Dir is the directory relative paths and git commands are taken from.
	Dir string
	// Limits bound what is read from each side and the comparison's work.
	Limits Limits
	// Objects are stored objects to judge under the revision
	// (--crd-objects): files, directories, or "-" for Stdin, as
	// `kubectl get -o yaml` or `-o json` writes them. All together stay
	// within Limits.
	Objects []string
	Stdin   io.Reader
	// ShowValues lets findings quote the stored values the server refused
	// (stored objects may hold secrets: off by default).
	ShowValues bool
}

// CRDReport is the result of one CRD gate run.
type CRDReport struct {
	Base        string      `json:"base"`
	Revision    string      `json:"revision"`
	KubeVersion string      `json:"kubeVersion"`
	Changes     []CRDChange `json:"changes"`
	// ObjectsJudged counts the stored objects read (--crd-objects);
	// Objects holds one entry per object and finding.
	ObjectsJudged int             `json:"objectsJudged,omitempty"`
	Objects       []ObjectFinding `json:"objects,omitzero"` // nil without --crd-objects
	Verdict       CRDVerdict      `json:"verdict"`
}

// CRDVerdict counts the changes by level; the gate passes when none is an
// error.
type CRDVerdict struct {
	Pass     bool `json:"pass"`
	Errors   int  `json:"errors"`
	Warnings int  `json:"warnings"`
	Infos    int  `json:"infos"`
	// the findings of stored objects (--crd-objects), by verdict
	ObjectErrors   int    `json:"objectErrors,omitempty"`
	ObjectWarnings int    `json:"objectWarnings,omitempty"`
	ObjectInfos    int    `json:"objectInfos,omitempty"`
	Fix            string `json:"fix,omitempty"`
}

// crdFix is what to do about a breaking CRD change (docs/gate-crd.md).
const crdFix = "a served API version cannot change incompatibly: keep it as it was and serve the change as a new version " +
	"(v1 → v2, served beside v1, with a conversion webhook or compatible schemas); " +
	"removing a version, or the CRD, is a new major version of the Go module (/vN)"

// RunCRD compares the base and revision CRDs. It returns an *InputError
// when an input is missing or invalid, or a limit is passed.
func RunCRD(ctx context.Context, opts CRDOptions) (*CRDReport, error) {
	if opts.Base == "" || opts.Revision == "" {
		return nil, inputErrorf("both --crd-base and --crd-revision are required")
	}
	ratchets, err := parseKubeVersion(opts.KubeVersion)
	if err != nil {
		return nil, &InputError{err}
	}
	opts.Limits = opts.Limits.orDefaults()
	var base, rev []crdSource
	var baseErr, revErr error
	var wg sync.WaitGroup
	wg.Go(func() { base, baseErr = readCRDSide(ctx, opts.Base, opts.Dir, opts.Limits) })
	rev, revErr = readCRDSide(ctx, opts.Revision, opts.Dir, opts.Limits)
	wg.Wait()
	if baseErr != nil {
		return nil, inputErrorf("crd base: %w", baseErr)
	}
	if revErr != nil {
		return nil, inputErrorf("crd revision: %w", revErr)
	}
	if opts.Patches != "" {
		if err := applyPatches(ctx, opts.Patches, opts.Dir, opts.Limits, rev); err != nil {
			return nil, inputErrorf("crd patches: %w", err)
		}
	}
	if given := basePatches(ctx, opts); given != "" {
		if err := applyPatches(ctx, given, opts.Dir, opts.Limits, base); err != nil {
			return nil, inputErrorf("crd base patches: %w", err)
		}
	}
	if err := checkBaseDefinitions(ctx, base); err != nil {
		return nil, inputErrorf("crd base: %w", err)
	}
	var objs []storedObject
	if len(opts.Objects) > 0 {
		if objs, err = readObjects(opts.Objects, opts.Dir, opts.Stdin, opts.Limits); err != nil {
			return nil, inputErrorf("crd objects: %w", err)
		}
	}
	changes, err := compareCRDSides(base, rev, ratchets, opts.Limits)
	if err != nil {
		return nil, err
	}
	changes = append(refusals(ctx, base, rev), changes...)
	changes = append(changes, celUnavailable(base, rev, kubeVersionOf(opts.KubeVersion))...)
	if opts.GoMod != "" {
		from, to, err := moduleMajors(ctx, opts)
		if err != nil {
			return nil, &InputError{err}
		}
		allowRemovals(changes, from, to)
	}
	report := &CRDReport{Base: opts.Base, Revision: opts.Revision, KubeVersion: opts.KubeVersion, Changes: changes}
	if report.KubeVersion == "" {
		report.KubeVersion = fmt.Sprintf(">=1.%d (assumed)", RatchetingSince)
	}
	report.Verdict = crdVerdict(changes)
	if len(opts.Objects) > 0 {
		report.ObjectsJudged = len(objs)
		report.Objects = judgeObjects(base, rev, objs, ratchets, opts.ShowValues)
		objectsVerdict(&report.Verdict, report.Objects)
	}
	return report, nil
}

// compareCRDSides runs the comparison within the work limit.
func compareCRDSides(base, rev []crdSource, ratchets bool, lim Limits) ([]CRDChange, error) {
	d := &crdDiffer{ratchets: ratchets, maxPairs: lim.MaxSchemaPairs}
	d.compareCRDs(base, rev)
	if d.pairs > d.maxPairs {
		return nil, &InputError{d.limitError()}
	}
	return d.changes, nil
}

func crdVerdict(changes []CRDChange) CRDVerdict {
	var v CRDVerdict
	for _, c := range changes {
		switch c.Level {
		case LevelError:
			v.Errors++
		case LevelWarning:
			v.Warnings++
		default:
			v.Infos++
		}
	}
	v.Pass = v.Errors == 0
	if !v.Pass {
		v.Fix = crdFix
	}
	return v
}

// parseKubeVersion reads "X.Y" (or "vX.Y", or "X.Y.Z") and says whether
// that Kubernetes ratchets CRD validation.
func parseKubeVersion(s string) (bool, error) {
	if s == "" {
		return true, nil
	}
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false, fmt.Errorf("--kube-version %q: want X.Y, such as 1.30", s)
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || major < 1 || minor < 0 {
		return false, fmt.Errorf("--kube-version %q: want X.Y, such as 1.30", s)
	}
	return major > 1 || minor >= RatchetingSince, nil
}

// kubeVersionOf is the Kubernetes X.Y of a --kube-version parseKubeVersion
// accepted; without one, the oldest the gate assumes (1.30).
func kubeVersionOf(s string) *kubeversion.Version {
	if v, err := kubeversion.ParseGeneric(strings.TrimPrefix(s, "v")); err == nil && s != "" {
		return kubeversion.MajorMinor(v.Major(), v.Minor())
	}
	return kubeversion.MajorMinor(1, RatchetingSince)
}

// WriteCRD prints a CRD report in one of Formats.
func WriteCRD(w io.Writer, r *CRDReport, format string) error {
	switch format {
	case FormatJSON:
		if r.Changes == nil {
			r.Changes = []CRDChange{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	case FormatText:
		return writeCRDText(w, r)
	case FormatGitHubActions:
		for _, c := range r.Changes {
			fmt.Fprintf(w, "::%s title=%s::%s\n", githubSeverity[c.Level], escapeProperty(c.ID), escapeData(crdWhere(c)+": "+c.Message))
		}
		for _, f := range r.Objects {
			fmt.Fprintf(w, "::%s title=%s::%s\n", githubSeverity[f.Verdict], escapeProperty(f.Rule), escapeData(objectWhere(f)+": "+f.Message))
		}
		fmt.Fprintf(w, "::notice title=modelgen gate::%s\n", escapeData(crdSummary(r)))
		return nil
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

func crdWhere(c CRDChange) string {
	return strings.TrimSpace(strings.Join([]string{c.CRD, c.Version, c.Path}, " "))
}

func writeCRDText(w io.Writer, r *CRDReport) error {
	fmt.Fprintf(w, "crd base %s → revision %s (Kubernetes %s)\n", r.Base, r.Revision, r.KubeVersion)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range r.Changes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Level, c.ID, crdWhere(c), c.Message)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeObjectsText(w, r)
	fmt.Fprintln(w, crdSummary(r))
	return nil
}

func crdSummary(r *CRDReport) string {
	v := r.Verdict
	s := fmt.Sprintf("%d breaking, %d tightened for new writes only, %d additive", v.Errors, v.Warnings, v.Infos)
	if r.Objects != nil {
		s += fmt.Sprintf("; stored objects: %d errors, %d warnings, %d infos", v.ObjectErrors, v.ObjectWarnings, v.ObjectInfos)
	}
	if v.Pass {
		return s + "; PASS"
	}
	return s + "; FAIL\n  fix: " + v.Fix
}

// UnmarshalText reads a level's name, so a JSON report reads back.
func (l *Level) UnmarshalText(text []byte) error {
	for k, name := range levelNames {
		if name == string(text) {
			*l = k
			return nil
		}
	}
	return fmt.Errorf("unknown level %q", text)
}

// removalRules are the changes a new major version of the Go module may
// make: a version or a CRD goes away (its Go package goes with it). An
// incompatible change inside a version stays an error: no release number
// helps the objects stored in it, nor its clients.
var removalRules = []string{CRDRuleRemoved, CRDRuleVersionRemoved, CRDRuleVersionUnserved}

// allowRemovals turns the removals into warnings when the module's major
// version moved up.
func allowRemovals(changes []CRDChange, from, to int) {
	if to <= from {
		return
	}
	for i, c := range changes {
		if slices.Contains(removalRules, c.ID) && c.Level == LevelError {
			changes[i].Level = LevelWarning
			changes[i].Message += fmt.Sprintf(" (allowed: the Go module's major version moved from v%d to v%d)", from, to)
		}
	}
}

// moduleMajors reads the major version of the base's and the revision's
// module paths (v0 and v1 count as 1).
func moduleMajors(ctx context.Context, opts CRDOptions) (from, to int, err error) {
	baseMod := opts.BaseGoMod
	if baseMod == "" {
		loc, err := parseLocation(opts.Base, opts.Dir)
		if err != nil || loc.ref == "" {
			return 0, 0, errors.New("--go-mod with a CRD base that is not git:<ref>:<path> needs --crd-base-go-mod, the last release's go.mod")
		}
		baseMod = gitPrefix + loc.ref + ":" + opts.GoMod
	}
	majors := make([]int, 2)
	for i, given := range []string{baseMod, opts.GoMod} {
		loc, err := parseLocation(given, opts.Dir)
		if err != nil {
			return 0, 0, err
		}
		data, err := loc.read(ctx, opts.Dir, 1<<20)
		if err != nil {
			return 0, 0, fmt.Errorf("go.mod: %w", err)
		}
		path, err := modulePathOf(given, data)
		if err != nil {
			return 0, 0, err
		}
		_, pathMajor, ok := module.SplitPathVersion(path)
		if !ok {
			return 0, 0, fmt.Errorf("%s: module path %s is not well formed", given, path)
		}
		majors[i] = 1
		if n, err := strconv.Atoi(strings.TrimLeft(pathMajor, "/.v")); err == nil {
			majors[i] = n
		}
	}
	return majors[0], majors[1], nil
}
