#!/usr/bin/env bash
# prometheus.sh makes a Prometheus server and promtool available for the SLA
# operator's end-to-end test and prints the directory holding both binaries.
#
# It uses binaries already on PATH; otherwise, as root on a Debian-like
# machine, it installs Debian's `prometheus` package (which ships promtool).
# The package must not leave a Prometheus service running: services are kept
# from starting during the install (policy-rc.d), and if one runs anyway it is
# stopped and disabled. The test starts its own Prometheus on a loopback port
# on backfilled data and stops it afterwards.
#
# Exit status 1, with the reason on stderr, when Prometheus cannot be made
# available; callers skip the Prometheus tier and say so.
set -euo pipefail

found() {
	command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1
}

if found; then
	dirname "$(command -v prometheus)"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "prometheus.sh: prometheus/promtool are not on PATH and installing them needs root (apt-get install prometheus)" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "prometheus.sh: prometheus/promtool are not on PATH and there is no apt-get to install them" >&2
	exit 1
fi

# Keep the package's service from starting while it installs.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' >"$policy"
	chmod +x "$policy"
	own_policy=1
fi
cleanup() { [ "$own_policy" = 1 ] && rm -f "$policy"; return 0; }
trap cleanup EXIT

echo "prometheus.sh: installing Debian's prometheus package" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends prometheus >&2; }; then
	echo "prometheus.sh: apt-get install prometheus failed" >&2
	exit 1
fi

# If a service was started anyway, stop it and keep it from starting again.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet prometheus 2>/dev/null; then
	systemctl disable --now prometheus >&2 || true
fi
if command -v service >/dev/null 2>&1 && service prometheus status >/dev/null 2>&1; then
	service prometheus stop >&2 || true
fi
if command -v update-rc.d >/dev/null 2>&1; then
	update-rc.d prometheus disable >/dev/null 2>&1 || true
fi

if ! found; then
	echo "prometheus.sh: the prometheus package installed, but prometheus/promtool are not on PATH" >&2
	exit 1
fi
dirname "$(command -v prometheus)"
