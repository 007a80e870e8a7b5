/*
Package gate is the compatibility gate behind `modelgen gate`: it compares the
last release's OpenAPI contract with this one and fails when the declared
version does not match what changed.

# Use

From CI, against the previous tag:

	modelgen gate --base git:$(git describe --tags --abbrev=0):openapi.yaml --go-mod go.mod

From Go, without flags:

	report, err := gate.Run(ctx, gate.Options{Base: "git:v1.4.0:openapi.yaml", GoMod: "go.mod"})
	if gate.IsInputError(err) { ... }   // missing, unreadable or invalid input: fail closed
	if !report.Verdict.Pass { ... }      // report.Verdict.Violations say what to do

Command is the CLI entry point (flags, output, exit code 0 pass, 1 violation,
2 usage or input error); Write prints a Report as text, JSON or GitHub Actions
annotations.

# What counts as a change

oasdiff (github.com/oasdiff/oasdiff: load, diff, checker with all its rules)
classifies every difference reachable from a path. Its ERR changes are
breaking; WARN changes are breaking too unless Options.WarnIsAdditive, because
the gate fails closed; INFO changes are additive. oasdiff's own info.version
findings (api-version-not-bumped and friends) are dropped: the gate judges the
version itself, for additive changes as well as breaking ones.

oasdiff does not read schema extensions, so the gate compares the two the
generator writes (their format is declared once, in package openapi/ext, and
versioned) by place in the contract, never by component name: it walks both
documents side by side from each operation's request and response bodies,
through $refs, properties, items, additionalProperties and allOf (flattened:
its members describe the same value), anyOf and oneOf (by position), and
compares the extensions it meets at the same place, named like

	POST /apis/payments.example.com/v1/namespaces/{namespace}/paymentorders request → .status.phase
	POST /models/shop/Order request → .lines[].state
	POST /models/shop/Order request → .extras{}.note

Each pair of schemas is compared once: a $ref cycle ends there, and a change
reached from many operations is reported once, at the first place met (paths,
then methods, sorted; the request before the responses). The number of pairs
is bounded by the documents' size. Components no operation reaches are
compared by name, as "components.schemas.X → .path".

A place whose component has another name in the revision (the old name gone,
the new one not in the base) is a rename (component-renamed, info); what
changed inside it is judged exactly as if the name had stayed. The rename
says whether the shape changed (ignoring descriptions and extensions). Unless
a component was split in two or two were merged, the revision's component gets
its old name back before oasdiff runs, so that oasdiff, which matches allOf
members and components by name, also judges its content as if the name had
stayed, and reports nothing when only the name changed.

Removing a state or a transition, changing the initial state, removing a role
from read or write, and any change of which property is the tenant key are
breaking; adding a state, a transition or a role is additive. A property
without x-modelgen-access is taken to be open to every role, so adding the
extension to an existing property is breaking and removing it additive. An
extension that disappears with its property is left to oasdiff, which reports
the property. A malformed extension, or one of a later format version, is an
input error. Rules lists these rule ids with their level and meaning.

The Kubernetes extensions the generator writes (x-kubernetes-validations,
x-kubernetes-list-type, -list-map-keys, -map-type) are compared the same way:
a CEL rule added or replaced, or a list or map type changed, is breaking; a
rule removed, or only its message changed, additive. The CEL rules of a state
machine are left to the machine rules. Before oasdiff classifies, allOf is
merged (oasdiff's flatten/allof), so a change inside a generated kind's allOf
keeps its level.

# The CRD side

With CRDOptions (--crd-base, --crd-revision) RunCRD judges CRDs instead: for
what the API server does to stored objects and the next write, with
validation ratcheting (KEP-4008) in mind. Both sides first pass the API
server's own CRD validation (k8s.io/apiextensions-apiserver's
ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate):
a base it refuses is an input error, a revision it refuses is crd-refused. New
CEL rules are compiled with the libraries of --kube-version's server. Its rules
are CRDRules; the page docs/gate-crd.md explains the verdicts and the version
rule for CRDs, and lists every rule with its level and reason.

With CRDOptions.Objects (--crd-objects: files, directories or stdin holding
objects as kubectl get -o yaml|json writes them) RunCRD also judges the
objects a cluster stores, with the API server's own code
(internal/crdjudge): each is read through every served version of
the revision, updated unchanged and label-only, and created again as it is.
CRDReport.Objects lists one ObjectFinding per object and finding (rules:
ObjectRules); messages never quote a stored value unless
CRDOptions.ShowValues.

# The version rule

Versions are the info.version of both documents, MAJOR.MINOR.PATCH with or
without a leading "v", compared with golang.org/x/mod/semver. A breaking change
needs a major bump (below v1.0.0 a minor bump is enough); an additive change
at least a minor bump (a patch bump with Options.PatchForAdditions); no change
allows any version not lower than the base. A version that goes backwards is a
violation; a version that is not semver is an input error. Only
MAJOR.MINOR.PATCH decide which part moved: prerelease and build are ignored,
so compare against the last release, not a release candidate.
Verdict.Suggested is the smallest version that passes.

# The Go module rule

With Options.GoMod, the module path must carry the major version of the
revision's info.version: /vN for N >= 2, no suffix for v0 and v1, .vN for
gopkg.in paths (golang.org/x/mod/modfile and module.CheckPathMajor). The
violation names the exact module line to write and reminds that imports must
follow.

# Inputs

A location is a file or git:<ref>:<path>, read with `git show` in Options.Dir
(the path is relative to the repository root, as git takes it); a missing ref
and a missing path each get their own message.

Each side is one self-contained OpenAPI 3.0 document, read within Limits
before anything decodes it: a regular file (checked by path and again on the
open descriptor, so a symlink to /dev/zero, a FIFO or a directory is refused)
or a git blob (its size asked first, git show's output read through a bound)
of at most Limits.MaxBytes; YAML aliases counted, with the nodes they would
add, on the unexpanded node tree (Limits.MaxAliases, Limits.MaxAliasNodes);
only local $refs (#/...), an external one refused by name without being
read; "swagger: 2.0" and "openapi: 3.1.x" refused; the YAML nested no deeper
than schemas within Limits.MaxDepth could be. kin-openapi then loads the
document with external references disallowed and a reader that refuses every
location, and validates it; the longest chain of nested schemas, through
$refs, must be at most Limits.MaxDepth (oasdiff's work grows with the square
of it). The work is bounded too (Limits.MaxSchemaPairs): a linear estimate
of what kin-openapi and oasdiff would visit ($refs unfolded, anyOf and oneOf
branch pairs, allOf merges) is refused above it. The two sides load in parallel. A refusal is an *InputError (exit 2) and, for a
limit, a *LimitError naming the flag that raises it.
*/
package gate
