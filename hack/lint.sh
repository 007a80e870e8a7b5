#!/usr/bin/env bash
# lint.sh runs staticcheck (honnef.co/go/tools, the version below) over every
# module of the workspace, with the checks staticcheck.conf names. The go
# command builds staticcheck from the Go module proxy the first time (about
# a minute on 2 cores) and keeps it in its build cache; nothing else is
# downloaded. staticcheck skips its style checks in generated files, so the
# generators are held to them by the tests, not here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

STATICCHECK_VERSION="${STATICCHECK_VERSION:-v0.8.2}"
bin="${MODELGEN_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/modelgen/tools}/staticcheck-$STATICCHECK_VERSION"
if [ ! -x "$bin/staticcheck" ]; then
	GOBIN="$bin" go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi

modules=(. ./examples)
for d in bench/*/; do
	[ -f "$d/go.mod" ] && modules+=("./${d%/}")
done
for m in "${modules[@]}"; do
	echo "staticcheck $m" >&2
	(cd "$m" && "$bin/staticcheck" ./...)
done
