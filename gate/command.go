package gate

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Exit codes of Command.
const (
	ExitPass      = 0
	ExitViolation = 1
	ExitError     = 2 // usage or input error
)

const usageText = `usage: modelgen gate --base <file | git:<ref>:<path>> [--revision openapi.yaml]
                     [--go-mod go.mod] [--format text|json|githubactions] [--suggest]
       modelgen gate --crd-base <file | dir | git:<ref>:<path>> --crd-revision <file | dir>
                     [--kube-version X.Y] [--format text|json|githubactions]
                     [--crd-objects <file | dir | ->]... [--show-values]
                     [--crd-patches <file | dir | git:<ref>:<path>>] [--crd-base-patches ...]

Compares the last release's OpenAPI contract (--base) with this one (--revision).
oasdiff classifies every change (ERR and WARN are breaking, INFO additive); removing
a state, a transition, or a role's read or write access (x-modelgen-state-machine,
x-modelgen-access) is breaking too. The gate then demands the matching bump of
info.version: a major bump for a breaking change (a minor one below v1.0.0), at
least a minor bump for an additive change, anything for no change. With --go-mod,
the module path must end in /vN for N >= 2 and carry no suffix for v0 and v1.

With --crd-base and --crd-revision the gate judges the CRDs instead, for what
the API server does to stored objects and to the next write once the revision
replaces the base (docs/gate-crd.md): error for a breaking change (pruned data,
refused updates, unreadable versions), warning for validation tightened for new
writes only (ratcheted by the server from Kubernetes 1.30; an error with
--kube-version below 1.30), info for an additive one. Exit 1 on any error.
Both sides pass the API server's own CRD validation first: a base it refuses is
exit 2, a revision it refuses (as an update of the base) is an error. New CEL
rules must compile with the libraries of the --kube-version server. Every rule,
with its level and reason: docs/gate-crd.md.

With --crd-objects (repeatable; a file, a directory, or - for stdin, holding
objects as kubectl get -o yaml or -o json writes them) the gate also judges
the stored objects under the revision: what a read through each served
version returns (pruned fields are an error, defaults that appear a
warning), whether an unchanged and a label-only update are admitted (an
error when refused), and whether the object could be created again as it is
(a warning when refused). Messages name paths and rules, never stored
values, unless --show-values.

With --crd-patches (kubebuilder's config/crd/patches) the spec.conversion and
annotations of each patch are applied to the revision's CRD of its name, and
--crd-base-patches (default: the same path at the --crd-base git ref) to the
base's: a group with generated conversion is judged with its webhook
(docs/gate-crd.md, "A group with generated conversion").

git:<ref>:<path> reads the document with git show; the path is relative to the
repository root.

Each side must be one self-contained OpenAPI 3.0 document (2.0 and 3.1 are
refused) and stay within limits: a regular file (no device, FIFO or directory,
through a symlink or not) or git blob of at most --max-size, at most
--max-yaml-aliases aliases adding at most --max-yaml-alias-nodes nodes once
expanded (counted before expanding), only local $refs (#/...), and schemas
nested at most --max-schema-depth deep. A document beyond a limit is refused
with exit 2 before it is compared.

Exit status: 0 pass, 1 violation, 2 usage or input error.

Examples:
  modelgen gate --base git:v1.4.0:openapi.yaml
  modelgen gate --base git:$(git describe --tags --abbrev=0):openapi.yaml --go-mod go.mod
  modelgen gate --base git:$(git merge-base HEAD origin/main):api/openapi.yaml \
                --revision api/openapi.yaml --format githubactions
  modelgen gate --base released.yaml --revision openapi.yaml --suggest
  modelgen gate --crd-base git:v1.4.0:config/crd/bases --crd-revision config/crd/bases
  modelgen gate --crd-base git:v1.4.0:config/crd/bases --crd-revision config/crd/bases \
                --crd-patches config/crd/patches
  kubectl get payments -A -o yaml | modelgen gate --crd-base git:v1.4.0:config/crd/bases \
                --crd-revision config/crd/bases --crd-objects -

Flags:
`

// Command runs the gate from command-line arguments (without the "gate"
// word), prints to stdout and stderr, and returns the exit code.
func Command(args []string, stdout, stderr io.Writer) int {
	return CommandIO(args, os.Stdin, stdout, stderr)
}

// CommandIO is Command reading --crd-objects - from stdin.
func CommandIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts Options
	fs.StringVar(&opts.Base, "base", "", "the last release's contract: a file or git:<ref>:<path> (required)")
	fs.StringVar(&opts.Revision, "revision", DefaultRevision, "this contract: a file or git:<ref>:<path>")
	fs.StringVar(&opts.GoMod, "go-mod", "", "go.mod whose module path must match the major version (skipped when empty)")
	format := fs.String("format", FormatText, "output: "+strings.Join(Formats, ", "))
	suggest := fs.Bool("suggest", false, "print only the smallest info.version that would pass")
	fs.BoolVar(&opts.PatchForAdditions, "patch-for-additions", false, "let a patch bump carry additive changes")
	fs.StringVar(&opts.Dir, "C", "", "run as if started in this directory (files, go.mod and git)")
	fs.BoolVar(&opts.WarnIsAdditive, "warn-is-additive", false, "count oasdiff WARN changes as additive instead of breaking")
	opts.Limits = DefaultLimits()
	fs.Var(sizeFlag{&opts.Limits.MaxBytes}, "max-size", "largest document read per side: a `size` in bytes, or with a KiB, MiB or GiB suffix")
	fs.IntVar(&opts.Limits.MaxAliases, "max-yaml-aliases", DefaultMaxAliases, "most YAML aliases a document may use (with --crd-base: all documents of a side together)")
	fs.IntVar(&opts.Limits.MaxAliasNodes, "max-yaml-alias-nodes", DefaultMaxAliasNodes, "most YAML nodes the aliases of a document may add once expanded (with --crd-base: all documents of a side together)")
	fs.IntVar(&opts.Limits.MaxDepth, "max-schema-depth", DefaultMaxDepth, "longest chain of nested schemas (through $refs) a document may have")
	fs.IntVar(&opts.Limits.MaxSchemaPairs, "max-schema-pairs", DefaultMaxSchemaPairs, "most pairs of schemas one comparison may visit (bounds the work)")
	var crd CRDOptions
	fs.StringVar(&crd.Base, "crd-base", "", "the last release's CRDs: a file, a directory or git:<ref>:<path> (judges the CRDs instead of the OpenAPI contract)")
	fs.StringVar(&crd.Revision, "crd-revision", "", "this release's CRDs: a file, a directory or git:<ref>:<path>")
	fs.StringVar(&crd.BaseGoMod, "crd-base-go-mod", "", "the last release's go.mod, for --go-mod with --crd-base (default: --go-mod at the --crd-base git ref)")
	fs.StringVar(&crd.Patches, "crd-patches", "", "this release's kustomize patches of the CRDs (config/crd/patches): their spec.conversion and annotations are applied to the revision's CRDs")
	fs.StringVar(&crd.BasePatches, "crd-base-patches", "", "the last release's CRD patches (default: --crd-patches at the --crd-base git ref, if it has them)")
	fs.Func("crd-objects", "stored objects to judge under the revision (repeatable): a `file`, a directory or - (stdin), as kubectl get -o yaml|json writes them", func(v string) error {
		crd.Objects = append(crd.Objects, v)
		return nil
	})
	fs.BoolVar(&crd.ShowValues, "show-values", false, "let --crd-objects findings quote the stored values refused (off: stored objects may hold secrets)")
	fs.StringVar(&crd.KubeVersion, "kube-version", "", "oldest Kubernetes X.Y the CRDs are installed on (below 1.30 nothing is ratcheted; new CEL rules must compile with its libraries); default 1.30")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitPass // flag has printed the usage
		}
		return ExitError // flag has printed the error and the usage
	}
	if crd.Base != "" || crd.Revision != "" || len(crd.Objects) > 0 {
		crd.Dir, crd.Limits, crd.GoMod, crd.Stdin = opts.Dir, opts.Limits, opts.GoMod, stdin
		return crdCommand(fs, crd, opts.Base, *format, stdout, stderr)
	}
	if err := checkUsage(fs, opts, *format); err != nil {
		fmt.Fprintf(stderr, "modelgen gate: %v\n", err)
		fmt.Fprintln(stderr, "run 'modelgen gate -h' for usage")
		return ExitError
	}
	report, err := Run(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(stderr, "modelgen gate: %v\n", err)
		return ExitError
	}
	if *suggest {
		fmt.Fprintln(stdout, report.Verdict.Suggested)
		return ExitPass
	}
	if err := Write(stdout, report, *format); err != nil {
		fmt.Fprintf(stderr, "modelgen gate: writing the report: %v\n", err)
		return ExitError
	}
	if !report.Verdict.Pass {
		return ExitViolation
	}
	return ExitPass
}

func checkUsage(fs *flag.FlagSet, opts Options, format string) error {
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case opts.Base == "":
		return errors.New("--base is required (a file or git:<ref>:<path>)")
	case !slices.Contains(Formats, format):
		return fmt.Errorf("--format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	return nil
}

// crdCommand runs the CRD side of the gate: exit 0 when no change is
// breaking, 1 when one is, 2 for usage or input errors.
func crdCommand(fs *flag.FlagSet, opts CRDOptions, openapiBase, format string, stdout, stderr io.Writer) int {
	var err error
	switch {
	case fs.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case openapiBase != "":
		err = errors.New("--base and --crd-base judge different contracts: run the gate once for each")
	case opts.Base == "" || opts.Revision == "":
		err = errors.New("--crd-base and --crd-revision go together")
	case !slices.Contains(Formats, format):
		err = fmt.Errorf("--format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		fmt.Fprintf(stderr, "modelgen gate: %v\n", err)
		fmt.Fprintln(stderr, "run 'modelgen gate -h' for usage")
		return ExitError
	}
	report, err := RunCRD(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(stderr, "modelgen gate: %v\n", err)
		return ExitError
	}
	if err := WriteCRD(stdout, report, format); err != nil {
		fmt.Fprintf(stderr, "modelgen gate: writing the report: %v\n", err)
		return ExitError
	}
	if !report.Verdict.Pass {
		return ExitViolation
	}
	return ExitPass
}
