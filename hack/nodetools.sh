#!/usr/bin/env bash
# nodetools.sh installs the third-party OpenAPI tools the client tier checks
# every generated document with (Ajv, Redocly CLI, orval: versions pinned by
# hack/nodetools/package-lock.json) and prints the directory that holds them.
#
# It needs Node.js and npm (Debian's packages, installed here as root when
# missing) and the npm registry. The install is cached outside the checkout,
# keyed by the lock file, so later runs return at once. Install scripts are
# not run: none of the tools needs one.
#
# Exit status 1, with the reason on stderr, when the tools cannot be made
# available; callers skip the tier and say so.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/nodetools"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "nodetools.sh: installing Debian's nodejs and npm..." >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm >&2 ||
			{ apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm >&2; }
	fi
	if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
		echo "nodetools.sh: node and npm are not on PATH and cannot be installed" >&2
		exit 1
	fi
fi

key="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/modelgen/nodetools/$key"
if [ ! -x "$dir/node_modules/.bin/redocly" ]; then
	echo "nodetools.sh: installing the OpenAPI tools into $dir..." >&2
	tmp="$dir.tmp.$$"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	cp "$here/package.json" "$here/package-lock.json" "$tmp/"
	(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
	rm -rf "$dir"
	mv "$tmp" "$dir"
fi
cp "$here"/*.mjs "$here/redocly.yaml" "$dir/"
echo "$dir"
