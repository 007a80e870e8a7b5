#!/usr/bin/env bash
# controlplane.sh: build a real Kubernetes control plane (kube-apiserver and etcd) for
# envtest (sigs.k8s.io/controller-runtime/pkg/envtest) from the Go module proxy, and cache it
# outside the checkout. It needs only Go and the module proxy: no downloads of release
# tarballs, no setup-envtest.
#
# Usage:
#   export KUBEBUILDER_ASSETS="$(hack/controlplane.sh)"
#
# Prints only the asset directory on stdout; progress goes to stderr. The first run takes
# minutes (6.5-10 min on 2 cores with a cold Go build cache; the kube-apiserver link needs
# about 2.5-3 GB of RAM); later runs reuse the cached binaries and return at once. The
# versions are pinned by the tools modules in hack/controlplane/{kube-apiserver,etcd}/go.mod
# (each with a `tool` directive so `go mod tidy` keeps the requirement); change them
# together with the two variables below.
set -euo pipefail

K8S_VERSION=v1.37.2
ETCD_VERSION=v3.6.16

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/modelgen/controlplane/k8s-${K8S_VERSION}-etcd-${ETCD_VERSION}"

tmp=""
trap 'rm -f "${tmp}"' EXIT

# build NAME PACKAGE LDFLAGS [MODULE]: build NAME in its tools module (hack/controlplane/NAME,
# or MODULE) into $dir, unless already there.
# It links to a temporary name in $dir and renames it, so an interrupted build never
# leaves a partial binary under the final name.
build() {
	local name=$1 pkg=$2 ldflags=$3 mod=${4:-$1}
	[[ -x "$dir/$name" ]] && return
	echo "controlplane.sh: building $name from $pkg (this takes minutes)..." >&2
	tmp="$dir/.$name.tmp.$$"
	# -mod=readonly and GOWORK=off: use exactly the committed go.mod/go.sum, whatever
	# GOFLAGS or a go.work say. CGO_ENABLED=0: static binaries, no C toolchain needed.
	(cd "$here/controlplane/$mod" &&
		GOWORK=off CGO_ENABLED=0 go build -mod=readonly -trimpath -ldflags "$ldflags" -o "$tmp" "$pkg") >&2
	mv -f "$tmp" "$dir/$name"
	tmp=""
}

if [[ ! -x "$dir/kube-apiserver" || ! -x "$dir/etcd" || ! -x "$dir/kubectl" ]]; then
	mkdir -p "$dir"
	build etcd go.etcd.io/etcd/server/v3 "-s -w"
	major=${K8S_VERSION#v}; major=${major%%.*}
	minor=${K8S_VERSION#v*.}; minor=${minor%%.*}
	kversion="-s -w \
-X k8s.io/component-base/version.gitVersion=${K8S_VERSION} \
-X k8s.io/component-base/version.gitMajor=${major} \
-X k8s.io/component-base/version.gitMinor=${minor}"
	build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver "$kversion"
	# kubectl of the same version, so that the envtest tier runs the real
	# client's apply against the real server (the tenant policies)
	build kubectl k8s.io/kubernetes/cmd/kubectl "$kversion" kube-apiserver
	echo "controlplane.sh: done" >&2
fi

echo "$dir"
