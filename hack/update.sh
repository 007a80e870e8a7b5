#!/usr/bin/env bash
# update.sh regenerates every generated file checked into the repository,
# in the order in which they depend on each other:
#   1. the agreement suite's cases (agree/internal/cases, from the keyword
#      registry), which the agreement counts below are computed from;
#   2. every golden file and generated document block: each test that owns
#      one rewrites it under -update (internal/testkit: every test package of
#      the root module accepts the flag, so `go test ./... -update` works too;
#      this runs only the packages that own goldens, with -short);
#   3. the examples (modelgen generate ./examples/...), the rbac package's
#      test types and the benchmark packages (bench/rbac, bench/statemachine).
# Review the diff afterwards: the goldens are the specification.
# hack/test.sh runs it and fails when it changes anything (git diff).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== agreement cases (agree/internal/cases)" >&2
go test -count=1 ./agree -run '^TestCasesAreCurrent$' -update

echo "== goldens and generated document blocks (go test -update)" >&2
mapfile -t golden_pkgs < <(grep -rlE --include='*_test.go' 'testkit\.(Update|Golden|DiagnosticGoldens)\(' . | grep -v '^./compat/' | xargs -n1 dirname | sort -u)
go test -short -count=1 "${golden_pkgs[@]}" -update

echo "== examples, rbac test types, benchmark packages (modelgen generate)" >&2
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/modelgen" ./cmd/modelgen
"$bin/modelgen" generate ./examples/...
"$bin/modelgen" generate --only rbac ./rbac/internal/testtypes
"$bin/modelgen" generate --only rbac ./bench/rbac/invoice
"$bin/modelgen" generate --only statemachine ./bench/statemachine/order
