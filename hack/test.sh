#!/usr/bin/env bash
# test.sh runs every test of the repository, as CI does:
#   1. go vet and go test for every module of the workspace (unit, golden,
#      generated-code and in-process API-server validation tests);
#   2. lint (hack/lint.sh: staticcheck) and a staleness check: hack/update.sh
#      regenerates every golden, generated document block, example and
#      benchmark package, and the tree must not change;
#   3. the upstream tier (compat/upstream): controller-gen and modelgen side
#      by side on gateway-api, cluster-api, prometheus-operator, kueue and
#      external-secrets;
#   4. the envtest tier: a real kube-apiserver + etcd (built once by
#      hack/controlplane.sh and cached outside the checkout), and for the
#      SLA operator a real Prometheus (hack/prometheus.sh).
# Set MODELGEN_SKIP_ENVTEST=1 to skip step 4 on a machine without the time
# to build the control plane.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

modules=(. ./examples)
for d in bench/*/; do
	[ -f "$d/go.mod" ] && modules+=("./${d%/}")
done

# Every module is tidy on its own (GOWORK=off), as a team that copies an
# example out of the workspace, or the gate run against an example package
# there, builds it: "go: updates to go.mod needed" otherwise.
echo "== go.mod files are tidy on their own (GOWORK=off go mod tidy -diff)" >&2
for m in "${modules[@]}" ./compat/upstream ./compat/clients; do
	if ! (cd "$m" && GOWORK=off go mod tidy -diff >&2); then
		echo "$m: go.mod or go.sum is not tidy: run (cd $m && GOWORK=off go mod tidy)" >&2
		exit 1
	fi
done

echo "== go vet" >&2
for m in "${modules[@]}"; do
	(cd "$m" && go vet ./...)
done

echo "== lint (staticcheck)" >&2
./hack/lint.sh

echo "== generated files are current (hack/update.sh, then git diff)" >&2
./hack/update.sh
if ! git diff --exit-code --stat || [ -n "$(git status --porcelain --untracked-files=all)" ]; then
	git status --short >&2
	git diff >&2
	echo "hack/update.sh changed the tree: run it and commit the result" >&2
	exit 1
fi

# The examples' go:generate lines (one per API package, one per group that
# converts between versions) write what the main job wrote: go generate
# ./... leaves the tree as it is.
echo "== go generate ./... in examples/ leaves the tree as it is" >&2
(cd examples && MODELGEN_CACHE=off go generate ./...)
if ! git diff --exit-code --stat || [ -n "$(git status --porcelain --untracked-files=all)" ]; then
	git status --short >&2
	echo "go generate ./... in examples/ changed the tree: a go:generate line disagrees with modelgen generate ./examples/..." >&2
	exit 1
fi

echo "== go test" >&2
for m in "${modules[@]}"; do
	(cd "$m" && go test -count=1 -timeout 20m ./...)
done

# The upstream tier: controller-gen and modelgen side by side on real API
# modules from the module proxy. Its own module, outside the workspace,
# resolved read-only (-mod=readonly): its go.sum is checked in complete,
# and CI never rewrites it. GOFLAGS=-mod=mod is only for the go commands
# the tests run in their copies of the upstream modules.
echo "== upstream compatibility tier (compat/upstream)" >&2
(cd compat/upstream && GOWORK=off GOFLAGS=-mod=mod go vet -mod=readonly ./... && GOWORK=off GOFLAGS=-mod=mod go test -mod=readonly -count=1 -timeout 30m ./...)

# The client-compatibility tier is a module of its own, outside go.work, so
# that the client generators' dependencies stay out of every other build
# list: it generates clients with oapi-codegen and ogen (pinned by its
# go.mod's tool directives) from every example's OpenAPI document and from
# one with every keyword, compiles them and round-trips boundary values.
# Like the upstream tier, it resolves read-only.
# It also gives every document to the Node tools (Ajv, Redocly, orval),
# which hack/nodetools.sh installs from the npm registry, pinned by its lock
# file.
echo "== client-compatibility tier (oapi-codegen, ogen, Ajv, Redocly, orval)" >&2
MODELGEN_NODETOOLS="$(hack/nodetools.sh)"
export MODELGEN_NODETOOLS MODELGEN_REQUIRE_NODETOOLS=1
(cd compat/clients && GOWORK=off GOFLAGS=-mod=mod go vet -mod=readonly ./... && GOWORK=off GOFLAGS=-mod=mod go test -mod=readonly -count=1 -timeout 30m ./...)

if [ "${MODELGEN_SKIP_ENVTEST:-}" = "1" ]; then
	echo "== envtest tier skipped (MODELGEN_SKIP_ENVTEST=1)" >&2
	exit 0
fi
echo "== envtest tier (real kube-apiserver + etcd)" >&2
KUBEBUILDER_ASSETS="$(hack/controlplane.sh)"
# kubectl, of the control plane's version, is built beside it: the tests
# that run the real client find it on PATH, and must not skip here
export KUBEBUILDER_ASSETS PATH="$KUBEBUILDER_ASSETS:$PATH" MODELGEN_REQUIRE_KUBECTL=1
# The SLA operator's tests also need a real Prometheus (hack/prometheus.sh
# installs Debian's package); without one they skip, and this says so.
if prom_dir="$(hack/prometheus.sh)"; then
	export PATH="$prom_dir:$PATH" MODELGEN_REQUIRE_PROMETHEUS=1
else
	echo "== WARNING: no Prometheus: the SLA operator's tests against a real Prometheus will SKIP" >&2
fi
(cd examples && go vet -tags envtest ./... && go test -count=1 -p 1 -timeout 30m -tags envtest ./...)
