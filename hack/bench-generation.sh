#!/usr/bin/env bash
# bench-generation.sh compares whole processes, side by side in one run:
# modelgen (all outputs, and --only crd) against controller-gen v0.23.0
# (`crd object`, and `crd`), on synthetic packages of 10, 100 and 1000 kinds
# and on the upstream modules of the compatibility tier. Each
# contender runs ROUNDS times, alternating, as a separate process under
# GNU time (/usr/bin/time -v: elapsed time and peak RSS); the table shows
# medians and the ratios to controller-gen.
#   hack/bench-generation.sh                 ROUNDS=3, sizes 10 100 1000, upstream too
#   SIZES="100 1000" UPSTREAM=0 hack/bench-generation.sh
#   SIZES=" " UPSTREAM_CASES='KubeRay|LWS' ...  only the upstream rows whose name matches
#   PROFILE=dir hack/bench-generation.sh     also CPU and heap profiles of modelgen at the largest size
#   KEEP=1 hack/bench-generation.sh          keep the work directory (printed on stderr)
#   COLD=0 hack/bench-generation.sh          skip the empty-GOCACHE rows (COLD_ROUNDS=1 rounds)
#   COLD_ONLY=1 hack/bench-generation.sh     only the empty-GOCACHE rows
#   BUILD=1 hack/bench-generation.sh         also the tool-build row (minutes)
#   NOCHANGE=0 hack/bench-generation.sh      skip the run-with-nothing-to-change table
#   INCREMENTAL=0 hack/bench-generation.sh   skip the incremental table (50 API packages of 20
#                                            kinds: a full run against a run after a tag of one
#                                            package changed, which redoes that package alone;
#                                            and a kubebuilder-shaped module: the same packages,
#                                            a controller with rbac markers and a webhook)
#   DROPIN=0 hack/bench-generation.sh        skip the drop-in table (modelgen controller-gen
#                                            against controller-gen on a kubebuilder project
#                                            whose reconciler imports controller-runtime, and
#                                            on 1000 synthetic kinds, `object crd`)
#   DROPIN_BUILD=0 hack/bench-generation.sh  no `go build` of the drop-in project and of the
#                                            upstream modules before they are timed (by default
#                                            the build cache holds their dependencies' export
#                                            data, as after a developer's first build)
#   SCALE="500 1000 2000" hack/bench-generation.sh  the scale table: a synthetic module shaped
#                                            like upjet's providers (kinds over packages as
#                                            2,000 over 150, nested parameter blocks); SCALE=
#                                            skips it (the default)
# The empty-GOCACHE rows run each contender on the upstream modules with a
# fresh, empty GOCACHE of its own (a fresh CI runner: the module cache stays
# warm, the build cache is empty); the tool-build row times `go build` of
# each tool from an empty GOCACHE.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
rounds=${ROUNDS:-3}
sizes=${SIZES:-10 100 1000}
[ -x /usr/bin/time ] || { echo "bench-generation: needs GNU time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
export GOWORK=off GOFLAGS=-mod=mod
# the rows below time runs that do their work; the run with nothing to
# change (which skips it) has a table of its own, with a cache of its own
export MODELGEN_CACHE=off
[ -z "${KEEP:-}" ] || echo "bench-generation: work directory $work" >&2
(cd compat/upstream && go build -o "$work/bin/" github.com/modelgen/modelgen/cmd/modelgen sigs.k8s.io/controller-tools/cmd/controller-gen)
mg=$work/bin/modelgen
cg=$work/bin/controller-gen

# kinds prints a package v1 of $1 synthetic kinds (see synth).
kinds() {
	local n=$1
	awk -v n="$n" 'BEGIN {
		print "package v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n"
		for (i = 0; i < n; i++) {
			k = sprintf("Kind%04d", i)
			printf "// %s is synthetic kind number %d.\n// +kubebuilder:object:root=true\n// +kubebuilder:subresource:status\n// +kubebuilder:printcolumn:name=\"Mode\",type=string,JSONPath=`.spec.mode`\n", k, i
			printf "type %s struct {\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec   %sSpec   `json:\"spec\"`\n\tStatus %sStatus `json:\"status,omitempty\"`\n}\n\n", k, k, k
			printf "// %sSpec is the desired state.\ntype %sSpec struct {\n", k, k
			printf "\t// +kubebuilder:validation:MinLength=1\n\t// +kubebuilder:validation:MaxLength=63\n\tName string `json:\"name\"`\n"
			printf "\t// +kubebuilder:validation:Minimum=0\n\t// +optional\n\tReplicas *int32 `json:\"replicas,omitempty\"`\n"
			printf "\tLabels map[string]string `json:\"labels,omitempty\"`\n"
			printf "\t// +listType=map\n\t// +listMapKey=name\n\tItems []Item `json:\"items,omitempty\"`\n"
			printf "\t// +kubebuilder:validation:Enum=Fast;Slow\n\tMode string `json:\"mode,omitempty\"`\n}\n\n"
			printf "// %sStatus is the observed state.\ntype %sStatus struct {\n\tConditions []metav1.Condition `json:\"conditions,omitempty\"`\n\tObservedGeneration int64 `json:\"observedGeneration,omitempty\"`\n}\n\n", k, k
			printf "// %sList is a list of %s.\n// +kubebuilder:object:root=true\ntype %sList struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ListMeta `json:\"metadata,omitempty\"`\n\tItems []%s `json:\"items\"`\n}\n\n", k, k, k, k
		}
	}'
}

# synth writes a module with one API package of $1 kinds, each with a spec
# (string bounds, an optional int32 with a minimum, a map, a list map of a
# shared struct, an enum), a status with conditions, and a list type.
synth() {
	local n=$1 dir=$2
	mkdir -p "$dir/api/v1"
	printf 'module example.com/synth\n\ngo 1.26.0\n\nrequire k8s.io/apimachinery v0.37.2\n' >"$dir/go.mod"
	cp "$root/go.sum" "$dir/go.sum"
	cat >"$dir/api/v1/doc.go" <<'EOF'
// Package v1 is a synthetic API.
// +groupName=synth.example.com
// +kubebuilder:object:generate=true
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Item is shared by every kind.
type Item struct {
	// +kubebuilder:validation:MinLength=1
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

var _ metav1.Object = &metav1.ObjectMeta{}
EOF
	kinds "$n" >"$dir/api/v1/types.go"
	(cd "$dir" && go mod tidy >/dev/null 2>&1 && go build ./... )
}

# measure prints "seconds MiB" of one process (its exit status ignored: a
# run that fails is reported by the caller's check).
measure() {
	local dir=$1
	shift
	(cd "$dir" && /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>&1) || true
	awk '{ printf "%s %.0f\n", $1, $2 / 1024 }' "$work/time"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# incremental_rounds DIR CACHE FILE... -- KEY...: ROUNDS rounds of modelgen
# generate ./... in DIR with its run record in CACHE, the keys alternated:
# key full is a run with the cache off, any other key first calls
# edit_KEY ROUND (which changes one input and dates it a minute back, so the
# record's two-second settling window has passed) and then a run that finds
# the record and must write something. It settles first: a full run, the
# FILEs dated back, a run that leaves a record. incremental_row gets the
# medians, time and RSS for each key in order.
incremental_rounds() {
	local dir=$1 cache=$2 i k r files=()
	shift 2
	while [ "$1" != -- ]; do files+=("$1"); shift; done
	shift
	local keys=("$@")
	local -A t m
	export MODELGEN_CACHE=$cache
	(cd "$dir" && MODELGEN_CACHE=off "$mg" generate -q ./... >/dev/null 2>&1) || true
	touch -d '1 minute ago' "${files[@]}"
	(cd "$dir" && "$mg" generate -q ./... >/dev/null 2>&1) || true
	for i in $(seq "$rounds"); do
		for k in "${keys[@]}"; do
			if [ "$k" = full ]; then
				r=$(MODELGEN_CACHE=off measure "$dir" "$mg" generate -q ./...)
			else
				"edit_$k" "$i"
				r=$(measure "$dir" "$mg" generate -q ./...)
				grep -q '^modelgen: .* [1-9][0-9]* files written' "$work/out" ||
					echo "bench-generation: the $k run wrote nothing: $(tail -1 "$work/out")" >&2
			fi
			t[$k]="${t[$k]:-} ${r% *}"
			m[$k]="${m[$k]:-} ${r#* }"
		done
	done
	export MODELGEN_CACHE=off
	incremental_row=()
	for k in "${keys[@]}"; do
		incremental_row+=("$(echo "${t[$k]}" | tr ' ' '\n' | grep . | median)" "$(echo "${m[$k]}" | tr ' ' '\n' | grep . | median)")
	done
}

# bump_max_length FILE N: the first MaxLength marker of FILE becomes N (a
# tag change of one package), FILE dated a minute back
bump_max_length() {
	sed -i "0,/MaxLength=[0-9]*/s//MaxLength=$2/" "$1"
	touch -d '1 minute ago' "$1"
}

# bench NAME DIR PATTERN [CRD]: the four contenders, ROUNDS rounds, one
# table row each; CRD is controller-gen's crd generator with its options
# ("crd" unless given: KubeRay's float fields need allowDangerousTypes)
bench() {
	local name=$1 dir=$2 pattern=$3 crd=${4:-crd}
	local -A t m
	local keys=(cg-all mg-all cg-crd mg-crd)
	local failed=
	# warm the build cache and go list's cache: not measured
	(cd "$dir" && "$cg" "$crd" paths="$pattern" output:crd:dir="$work/cg" >/dev/null 2>&1 || true)
	(cd "$dir" && "$mg" generate "$pattern" >/dev/null 2>&1 || true)
	for _ in $(seq "$rounds"); do
		for k in "${keys[@]}"; do
			rm -rf "$work/cg"
			case $k in
			cg-all) r=$(measure "$dir" "$cg" "$crd" object paths="$pattern" output:crd:dir="$work/cg") ;;
			cg-crd) r=$(measure "$dir" "$cg" "$crd" paths="$pattern" output:crd:dir="$work/cg") ;;
			mg-all) r=$(measure "$dir" "$mg" generate "$pattern") ;;
			mg-crd) r=$(measure "$dir" "$mg" generate --only crd "$pattern") ;;
			esac
			if [ "${k#mg}" != "$k" ] && ! grep -q '^modelgen: .* files' "$work/out"; then
				echo "bench-generation: $k failed on $name (timed all the same): $(tail -1 "$work/out")" >&2
				failed=" (modelgen failed: see stderr)"
			elif [ "${k#cg}" != "$k" ] && grep -q '^Error: ' "$work/out"; then
				echo "bench-generation: $k failed on $name (timed all the same): $(grep -m1 . "$work/out")" >&2
				failed=" (controller-gen failed: see stderr)"
			fi
			t[$k]="${t[$k]:-} ${r% *}"
			m[$k]="${m[$k]:-} ${r#* }"
		done
	done
	local row=()
	for k in "${keys[@]}"; do
		row+=("$(echo "${t[$k]}" | tr ' ' '\n' | grep . | median)" "$(echo "${m[$k]}" | tr ' ' '\n' | grep . | median)")
	done
	awk -v name="$name$failed" -v r="${row[*]}" 'BEGIN {
		split(r, v, " ")
		printf "| %s | %.2f s, %d MiB | %.2f s, %d MiB | **%.2f×** time, **%.2f×** RSS | %.2f s, %d MiB | %.2f s, %d MiB | **%.2f×** time, **%.2f×** RSS |\n",
			name, v[1], v[2], v[3], v[4], v[3] / v[1], v[4] / v[2], v[5], v[6], v[7], v[8], v[7] / v[5], v[8] / v[6]
	}'
}

largest=
[ "${COLD_ONLY:-}" != "1" ] || { sizes=; UPSTREAM=0; }
if [ -n "$sizes" ] || [ "${UPSTREAM:-1}" = "1" ]; then
	echo "| package | controller-gen crd object | modelgen (all outputs) | modelgen / controller-gen | controller-gen crd | modelgen --only crd | modelgen / controller-gen |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
fi
for n in $sizes; do
	synth "$n" "$work/synth$n"
	bench "synthetic, $n kinds" "$work/synth$n" ./...
	largest=$work/synth$n
done

# the run with nothing to change, at the largest size, ROUNDS rounds
# alternated: modelgen finding its record (MODELGEN_CACHE on), modelgen
# doing the work with the cache off (it writes nothing either), the load
# and type check alone (--only role, which writes nothing on this tree),
# and controller-gen crd object (which has no such shortcut)
if [ -n "$largest" ] && [ "${NOCHANGE:-1}" = "1" ]; then
	declare -A nt nm
	nkeys=(cg mg-hit mg-off mg-load)
	export MODELGEN_CACHE=$work/runcache
	# controller-gen's object generator rewrites zz_generated.deepcopy.go in
	# place, so it runs on a copy of the tree of its own
	rm -rf "$work/nochange-cg" && cp -r "$largest" "$work/nochange-cg"
	# a record: the tree's inputs are older than two seconds by now
	(cd "$largest" && "$mg" generate -q ./... >/dev/null 2>&1 && "$mg" generate -q ./... >/dev/null 2>&1) || true
	for _ in $(seq "$rounds"); do
		for k in "${nkeys[@]}"; do
			rm -rf "$work/cg"
			case $k in
			cg) r=$(measure "$work/nochange-cg" "$cg" crd object paths=./... output:crd:dir="$work/cg") ;;
			mg-hit) r=$(measure "$largest" "$mg" generate -q ./...) ;;
			mg-off) r=$(MODELGEN_CACHE=off measure "$largest" "$mg" generate -q ./...) ;;
			mg-load) r=$(MODELGEN_CACHE=off measure "$largest" "$mg" generate -q --only role ./...) ;;
			esac
			if [ "${k#mg}" != "$k" ] && ! grep -q '^modelgen: .* 0 files written' "$work/out"; then
				echo "bench-generation: $k wrote files on a tree with nothing to change: $(tail -1 "$work/out")" >&2
			fi
			nt[$k]="${nt[$k]:-} ${r% *}"
			nm[$k]="${nm[$k]:-} ${r#* }"
		done
	done
	export MODELGEN_CACHE=off
	echo
	echo "| nothing to change, $(basename "$largest") | controller-gen crd object | modelgen, record found | modelgen, cache off | modelgen --only role, cache off (load and type check) | found / controller-gen | found / load and check |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	row=()
	for k in "${nkeys[@]}"; do
		row+=("$(echo "${nt[$k]}" | tr ' ' '\n' | grep . | median)" "$(echo "${nm[$k]}" | tr ' ' '\n' | grep . | median)")
	done
	awk -v r="${row[*]}" 'BEGIN {
		split(r, v, " ")
		printf "| medians of the rounds | %.2f s, %d MiB | %.2f s, %d MiB | %.2f s, %d MiB | %.2f s, %d MiB | **%.2f×** time, **%.2f×** RSS | **%.2f×** time, **%.2f×** RSS |\n",
			v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[3] / v[1], v[4] / v[2], v[3] / v[7], v[4] / v[8]
	}'
fi

# the incremental run: 50 API packages of 20 kinds each (a group each),
# ROUNDS rounds alternated: modelgen with the cache off (a full run) and
# modelgen with its record after a tag of one package changed (it loads,
# generates and type-checks that package and replays the other 49). Each
# round changes the tag to a value no record holds, and dates the edit a
# minute back so that the run records (an input younger than two seconds
# is not recorded).
if [ "${INCREMENTAL:-1}" = "1" ] && [ "${COLD_ONLY:-}" != "1" ]; then
	idir=$work/incremental
	mkdir -p "$idir"
	printf 'module example.com/synth\n\ngo 1.26.0\n\nrequire k8s.io/apimachinery v0.37.2\n' >"$idir/go.mod"
	cp "$root/go.sum" "$idir/go.sum"
	for p in $(seq -w 1 50); do
		mkdir -p "$idir/api/p$p/v1"
		sed "s/synth.example.com/p$p.synth.example.com/" >"$idir/api/p$p/v1/doc.go" <<'EOF'
// Package v1 is a synthetic API.
// +groupName=synth.example.com
// +kubebuilder:object:generate=true
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Item is shared by every kind.
type Item struct {
	// +kubebuilder:validation:MinLength=1
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

var _ metav1.Object = &metav1.ObjectMeta{}
EOF
		kinds 20 >"$idir/api/p$p/v1/types.go"
	done
	(cd "$idir" && go mod tidy >/dev/null 2>&1 && go build ./...)
	edit_incremental() { bump_max_length "$idir/api/p25/v1/types.go" $((100 + $1)); }
	incremental_rounds "$idir" "$work/incrcache" "$idir/api/p25/v1/types.go" -- full incremental
	echo
	echo "| incremental, 50 packages of 20 kinds | modelgen, cache off (full run) | modelgen, one package's tag changed (record found) | incremental / full |"
	echo "|---|---:|---:|---:|"
	awk -v r="${incremental_row[*]}" 'BEGIN {
		split(r, v, " ")
		printf "| medians of the rounds | %.2f s, %d MiB | %.2f s, %d MiB | **%.2f×** time, **%.2f×** RSS |\n", v[1], v[2], v[3], v[4], v[3] / v[1], v[4] / v[2]
	}'
fi

# the incremental run on a kubebuilder-shaped module: the 50 API packages
# above, a controller package that imports every one of them and carries
# +kubebuilder:rbac markers, a webhook package with a +kubebuilder:webhook
# marker, and a main package; generate ./... writes the operator's role and
# the webhook configuration (files of the whole module, made again of each
# package's recorded markers). ROUNDS rounds alternated: a full run (cache
# off), a run after a tag of one API package changed (it loads that
# package, the controller and main), a run after an rbac marker changed
# (it loads the controller and main).
if [ "${INCREMENTAL:-1}" = "1" ] && [ "${COLD_ONLY:-}" != "1" ]; then
	kdir=$work/incremental-kb
	mkdir -p "$kdir/internal/controller" "$kdir/internal/webhook/v1" "$kdir/cmd"
	cp "$idir/go.mod" "$idir/go.sum" "$kdir/"
	cp -r "$idir/api" "$kdir/"
	find "$kdir/api" -name 'zz_generated*' -delete
	{
		echo '// Package controller reconciles every synthetic kind.'
		echo 'package controller'
		echo
		echo 'import ('
		for p in $(seq -w 1 50); do echo "	p$p \"example.com/synth/api/p$p/v1\""; done
		echo ')'
		echo
		for p in $(seq -w 1 50); do
			echo "// +kubebuilder:rbac:groups=p$p.synth.example.com,resources=kind0000s;kind0001s,verbs=get;list;watch;create;update;patch;delete"
			echo "// +kubebuilder:rbac:groups=p$p.synth.example.com,resources=kind0000s/status,verbs=get;update;patch"
		done
		echo '// +kubebuilder:rbac:groups=core,resources=events,verbs=create;patch'
		echo
		echo '// Kinds are the kinds it reconciles.'
		echo 'var Kinds = []any{'
		for p in $(seq -w 1 50); do echo "	&p$p.Kind0000{},"; done
		echo '}'
	} >"$kdir/internal/controller/controller.go"
	cat >"$kdir/internal/webhook/v1/webhook.go" <<'EOF'
// Package v1 holds a marker webhook.
package v1

import p01 "example.com/synth/api/p01/v1"

// +kubebuilder:webhook:path=/mutate-p01-synth-example-com-v1-kind0000,mutating=true,failurePolicy=fail,sideEffects=None,groups=p01.synth.example.com,resources=kind0000s,verbs=create;update,versions=v1,name=mkind0000-v1.kb.io,admissionReviewVersions=v1

// Defaulter defaults Kind0000.
type Defaulter struct{ Kind *p01.Kind0000 }
EOF
	cat >"$kdir/cmd/main.go" <<'EOF'
// Command manager starts the operator.
package main

import (
	"fmt"

	"example.com/synth/internal/controller"
	webhookv1 "example.com/synth/internal/webhook/v1"
)

func main() { fmt.Println(len(controller.Kinds), webhookv1.Defaulter{}) }
EOF
	(cd "$kdir" && go build ./...)
	# (the API packages are copies of the ones above, edited there: other lengths)
	edit_api() { bump_max_length "$kdir/api/p25/v1/types.go" $((200 + $1)); }
	edit_rbac() {
		sed -i "s/resources=events[a-z0-9;]*,/resources=events;configmaps$1,/" "$kdir/internal/controller/controller.go"
		touch -d '1 minute ago' "$kdir/internal/controller/controller.go"
	}
	incremental_rounds "$kdir" "$work/incrcache-kb" "$kdir/api/p25/v1/types.go" "$kdir/internal/controller/controller.go" -- full api rbac
	echo
	echo "| incremental, kubebuilder-shaped (50 API packages, a controller importing them with rbac markers, a webhook) | modelgen, cache off (full run) | one API package's tag changed | an rbac marker changed | API / full | rbac / full |"
	echo "|---|---:|---:|---:|---:|---:|"
	awk -v r="${incremental_row[*]}" 'BEGIN {
		split(r, v, " ")
		printf "| medians of the rounds | %.2f s, %d MiB | %.2f s, %d MiB | %.2f s, %d MiB | **%.2f×** time, **%.2f×** RSS | **%.2f×** time, **%.2f×** RSS |\n", v[1], v[2], v[3], v[4], v[5], v[6], v[3] / v[1], v[4] / v[2], v[5] / v[1], v[6] / v[2]
	}'
fi

# approve DIR PATTERN: a protected group gets the approval marker
# modelgen's error names (gateway-api)
approve() {
	(cd "$1" && "$mg" generate --only crd "$2" 2>&1 || true) |
		grep -E '^[^ :]+\.go:[0-9]+:[0-9]+: .*api-approved' | awk -F: '{ print $1, $2 }' | sort -k1,1 -k2,2nr |
		while read -r file line; do
			sed -i "${line}i // +kubebuilder:metadata:annotations=\"api-approved.kubernetes.io=https://github.com/kubernetes-sigs/gateway-api/pull/4530\"" "$1/$file"
		done || true
}

if [ "${UPSTREAM:-1}" = "1" ]; then
	# upstream NAME MODULE PATTERN [CRD]: a row for a module of the
	# compatibility tier (UPSTREAM_CASES, a regular expression, keeps the
	# rows whose name matches)
	upstream() {
		local name=$1 module=$2 pattern=$3 crd=${4:-crd} src dir
		echo "$name" | grep -Eq -- "${UPSTREAM_CASES:-.}" || return 0
		dir=$work/upstream-$(echo "${module%@*}" | tr / -)
		src=$(go mod download -json "$module" | awk -F'"' '/"Dir"/ { print $4 }')
		rm -rf "$dir"
		cp -r "$src" "$dir"
		chmod -R u+w "$dir"
		approve "$dir" "$pattern"
		# the build cache holds the dependencies' export data, as after a
		# developer's first build (DROPIN_BUILD=0: it may not)
		[ "${DROPIN_BUILD:-1}" = "0" ] || (cd "$dir" && go build "$pattern" >/dev/null 2>&1) || true
		bench "$name" "$dir" "$pattern" "$crd"
	}
	upstream 'gateway-api v1.6.3 `./apis/...`' sigs.k8s.io/gateway-api@v1.6.3 ./apis/...
	upstream 'cluster-api/api v1.14.2 `./core/v1beta2/...`' sigs.k8s.io/cluster-api/api@v1.14.2 ./core/v1beta2/...
	upstream 'cluster-api/api v1.14.2 `./...`' sigs.k8s.io/cluster-api/api@v1.14.2 ./...
	upstream 'prometheus-operator monitoring v0.95.2 `./v1/...`' github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring@v0.95.2 ./v1/...
	# whole repositories' modules: their API packages import
	# controller-runtime and client-go (conversion hubs, openapi-gen output,
	# webhooks); external-secrets' go.mod brings every cloud SDK its
	# providers use
	upstream 'kueue v0.17.0 `./apis/...`' sigs.k8s.io/kueue@v0.17.0 ./apis/...
	upstream 'external-secrets v0.16.2 `./apis/...`' github.com/external-secrets/external-secrets@v0.16.2 ./apis/...
	upstream 'KubeRay ray-operator v1.5.0 `./apis/...`' github.com/ray-project/kuberay/ray-operator@v1.5.0 ./apis/... crd:allowDangerousTypes=true
	upstream 'LWS v0.8.0 `./api/...`' sigs.k8s.io/lws@v0.8.0 ./api/...
fi

# the drop-in: `modelgen controller-gen` and controller-gen on the same
# command lines (the kubebuilder Makefile's manifests and generate lines),
# on compat/upstream's kubebuilder project with a reconciler that embeds
# controller-runtime's client, as a scaffold's does
dropin_line() {
	local name=$1 dir=$2 k r
	shift 2
	local -A t m
	for _ in $(seq "$rounds"); do
		for k in cg mg; do
			rm -rf "$dir/out"
			case $k in
			cg) r=$(measure "$dir" "$cg" "$@") ;;
			mg) r=$(measure "$dir" "$mg" controller-gen "$@")
				grep -q 'modelgen controller-gen:' "$work/out" && echo "bench-generation: modelgen controller-gen failed on $name (timed all the same): $(tail -1 "$work/out")" >&2 ;;
			esac
			t[$k]="${t[$k]:-} ${r% *}"
			m[$k]="${m[$k]:-} ${r#* }"
		done
	done
	awk -v name="$name" -v r="$(echo "${t[cg]}" | tr ' ' '\n' | grep . | median) $(echo "${m[cg]}" | tr ' ' '\n' | grep . | median) $(echo "${t[mg]}" | tr ' ' '\n' | grep . | median) $(echo "${m[mg]}" | tr ' ' '\n' | grep . | median)" 'BEGIN {
		split(r, v, " ")
		printf "| %s | %.2f s, %d MiB | %.2f s, %d MiB | **%.2f×** time, **%.2f×** RSS |\n", name, v[1], v[2], v[3], v[4], v[3] / v[1], v[4] / v[2]
	}'
}
if [ "${DROPIN:-1}" = "1" ]; then
	rm -rf "$work/dropin"
	cp -r compat/upstream/testdata/kubebuilder "$work/dropin"
	cat >"$work/dropin/internal/controller/reconciler.go" <<'GO'
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	batchv1 "example.com/guestbook/api/v1"
)

// Reconciler is shaped as kubebuilder scaffolds one.
type Reconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// Reconcile does nothing.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&batchv1.CronJob{}).Complete(r)
}
GO
	(cd "$work/dropin" && go get sigs.k8s.io/controller-runtime@v0.25.2 >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1)
	manifests=(rbac:roleName=manager-role crd webhook paths=./... output:crd:artifacts:config=out/crd output:rbac:artifacts:config=out/rbac output:webhook:artifacts:config=out/webhook)
	object=(object:headerFile=hack/boilerplate.go.txt paths=./...)
	# warm the caches: not measured; then, as after a developer's first
	# build, the build cache holds the project's export data (the API
	# package compiles once the deepcopy file is there)
	(cd "$work/dropin" && "$cg" "${object[@]}" >/dev/null 2>&1 && "$cg" "${manifests[@]}" >/dev/null 2>&1 && "$mg" controller-gen "${manifests[@]}" >/dev/null 2>&1) || true
	[ "${DROPIN_BUILD:-1}" = "0" ] || (cd "$work/dropin" && go build ./... >/dev/null 2>&1) || echo "bench-generation: go build ./... of the drop-in project failed" >&2
	echo
	echo "| drop-in (\`DROPIN_BUILD=${DROPIN_BUILD:-1}\`) | controller-gen v0.23.0 | modelgen controller-gen | modelgen / controller-gen |"
	echo "|---|---:|---:|---:|"
	dropin_line 'kubebuilder project, manifests line (`rbac:roleName=manager-role crd webhook`)' "$work/dropin" "${manifests[@]}"
	dropin_line 'kubebuilder project, generate line (`object:headerFile=...`)' "$work/dropin" "${object[@]}"
	[ -d "$work/synth1000" ] || synth 1000 "$work/synth1000"
	kinds=(object crd paths=./... output:crd:dir=out/crd)
	(cd "$work/synth1000" && "$cg" "${kinds[@]}" >/dev/null 2>&1 && "$mg" controller-gen "${kinds[@]}" >/dev/null 2>&1) || true
	dropin_line 'synthetic, 1000 kinds (`object crd`)' "$work/synth1000" "${kinds[@]}"
fi

# upjet N DIR writes a module shaped like an upjet provider's API: N kinds
# over packages as 2,000 over 150, each kind with forProvider,
# initProvider and atProvider blocks (parameters, init parameters,
# observation), each with scalar pointers, a map, a list, and two nested
# list blocks three levels deep, and a CEL rule on the spec as upjet
# writes for a required parameter.
upjet() {
	local n=$1 dir=$2
	local pkgs=$(( (n * 150 + 1999) / 2000 ))
	mkdir -p "$dir"
	printf 'module example.com/upjet\n\ngo 1.26.0\n\nrequire k8s.io/apimachinery v0.37.2\n' >"$dir/go.mod"
	cp "$root/go.sum" "$dir/go.sum"
	awk -v n="$n" -v pkgs="$pkgs" -v dir="$dir" '
	function block(out, k, v, name, depth,    t) {
		t = k name v
		printf "// %s is a nested block of %s.\ntype %s struct {\n", t, k, t >out
		printf "\t// +optional\n\tKey *string `json:\"key,omitempty\" tf:\"key,omitempty\"`\n" >out
		printf "\t// +optional\n\tPriority *int64 `json:\"priority,omitempty\" tf:\"priority,omitempty\"`\n" >out
		printf "\t// +optional\n\tValues []*string `json:\"values,omitempty\" tf:\"values,omitempty\"`\n" >out
		if (depth < 3) {
			printf "\t// +optional\n\tMatch []%s `json:\"match,omitempty\" tf:\"match,omitempty\"`\n}\n\n", k name "Match" v >out
			block(out, k, v, name "Match", depth + 1)
		} else {
			printf "}\n\n" >out
		}
	}
	function variant(out, k, v, doc) {
		printf "// %s%s %s\ntype %s%s struct {\n", k, v, doc, k, v >out
		if (v == "Observation") {
			printf "\tID *string `json:\"id,omitempty\" tf:\"id,omitempty\"`\n\tArn *string `json:\"arn,omitempty\" tf:\"arn,omitempty\"`\n" >out
		}
		printf "\t// The region.\n\t// +optional\n\tRegion *string `json:\"region,omitempty\" tf:\"region,omitempty\"`\n" >out
		printf "\t// +optional\n\tName *string `json:\"name,omitempty\" tf:\"name,omitempty\"`\n" >out
		printf "\t// +optional\n\tSize *int64 `json:\"size,omitempty\" tf:\"size,omitempty\"`\n" >out
		printf "\t// +optional\n\tEnabled *bool `json:\"enabled,omitempty\" tf:\"enabled,omitempty\"`\n" >out
		printf "\t// +optional\n\t// +mapType=granular\n\tTags map[string]*string `json:\"tags,omitempty\" tf:\"tags,omitempty\"`\n" >out
		printf "\t// +optional\n\t// +listType=set\n\tZones []*string `json:\"zones,omitempty\" tf:\"zones,omitempty\"`\n" >out
		printf "\t// +optional\n\tRule []%sRule%s `json:\"rule,omitempty\" tf:\"rule,omitempty\"`\n", k, v >out
		printf "\t// +optional\n\tNetwork []%sNetwork%s `json:\"network,omitempty\" tf:\"network,omitempty\"`\n}\n\n", k, v >out
		block(out, k, v, "Rule", 1)
		block(out, k, v, "Network", 2)
	}
	BEGIN {
		for (p = 0; p < pkgs; p++) {
			pd = sprintf("%s/apis/g%03d/v1beta1", dir, p)
			system("mkdir -p " pd)
			printf "// Package v1beta1 is a synthetic provider API.\n// +groupName=g%03d.upjet.example.com\n// +kubebuilder:object:generate=true\npackage v1beta1\n", p >(pd "/doc.go")
			close(pd "/doc.go")
		}
		for (i = 0; i < n; i++) {
			p = i % pkgs
			out = sprintf("%s/apis/g%03d/v1beta1/kind%04d_types.go", dir, p, i)
			k = sprintf("Resource%04d", i)
			print "package v1beta1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n" >out
			variant(out, k, "Parameters", "are the configurable fields.")
			variant(out, k, "InitParameters", "are the fields set at creation only.")
			variant(out, k, "Observation", "are the observed fields.")
			printf "// %sSpec is the desired state.\ntype %sSpec struct {\n\tForProvider %sParameters `json:\"forProvider\"`\n\t// +optional\n\tInitProvider %sInitParameters `json:\"initProvider,omitempty\"`\n\t// +kubebuilder:validation:Enum=Delete;Orphan\n\t// +kubebuilder:default=Delete\n\t// +optional\n\tDeletionPolicy string `json:\"deletionPolicy,omitempty\"`\n}\n\n", k, k, k, k >out
			printf "// %sStatus is the observed state.\ntype %sStatus struct {\n\tAtProvider %sObservation `json:\"atProvider,omitempty\"`\n\tConditions []metav1.Condition `json:\"conditions,omitempty\"`\n}\n\n", k, k, k >out
			printf "// %s is a synthetic managed resource.\n// +kubebuilder:object:root=true\n// +kubebuilder:subresource:status\n// +kubebuilder:resource:scope=Cluster\n// +kubebuilder:printcolumn:name=\"AGE\",type=\"date\",JSONPath=\".metadata.creationTimestamp\"\n", k >out
			printf "type %s struct {\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\t// +kubebuilder:validation:XValidation:rule=\"has(self.forProvider.region) || has(self.initProvider.region)\",message=\"spec.forProvider.region is a required parameter\"\n\tSpec   %sSpec   `json:\"spec\"`\n\tStatus %sStatus `json:\"status,omitempty\"`\n}\n\n", k, k, k >out
			printf "// %sList is a list of %s.\n// +kubebuilder:object:root=true\ntype %sList struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ListMeta `json:\"metadata,omitempty\"`\n\tItems []%s `json:\"items\"`\n}\n", k, k, k, k >out
			close(out)
		}
	}'
	(cd "$dir" && go mod tidy >/dev/null 2>&1 && "$cg" object paths=./... >/dev/null 2>&1 && go build ./...)
}

if [ -n "${SCALE:-}" ]; then
	echo
	echo "| upjet-shaped module | controller-gen crd object | modelgen (all outputs) | modelgen / controller-gen | controller-gen crd | modelgen --only crd | modelgen / controller-gen |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for n in $SCALE; do
		upjet "$n" "$work/upjet$n"
		bench "$n kinds, $(( (n * 150 + 1999) / 2000 )) packages" "$work/upjet$n" ./...
		[ -n "${KEEP:-}" ] || rm -rf "$work/upjet$n"
	done
fi

# cold NAME MODULE PATTERN: controller-gen crd object and modelgen (all
# outputs) with an empty GOCACHE each, alternating, ROUNDS rounds
cold() {
	local name=$1 module=$2 pattern=$3 src k r
	local -A t m
	src=$(go mod download -json "$module" | awk -F'"' '/"Dir"/ { print $4 }')
	rm -rf "$work/coldsrc"
	cp -r "$src" "$work/coldsrc"
	chmod -R u+w "$work/coldsrc"
	approve "$work/coldsrc" "$pattern"
	for _ in $(seq "${COLD_ROUNDS:-1}"); do
		for k in cg mg; do
			rm -rf "$work/cold" "$work/cg" "$work/gocache"
			cp -r "$work/coldsrc" "$work/cold"
			mkdir "$work/gocache"
			case $k in
			cg) r=$(GOCACHE=$work/gocache measure "$work/cold" "$cg" crd object paths="$pattern" output:crd:dir="$work/cg") ;;
			mg) r=$(GOCACHE=$work/gocache measure "$work/cold" "$mg" generate "$pattern")
				grep -q '^modelgen: .* files' "$work/out" || echo "bench-generation: modelgen failed on $name (cold): $(tail -1 "$work/out")" >&2 ;;
			esac
			t[$k]="${t[$k]:-} ${r% *}"
			m[$k]="${m[$k]:-} ${r#* }"
		done
	done
	chmod -R u+w "$work/gocache" && rm -rf "$work/gocache" "$work/cold"
	awk -v name="$name" -v r="$(echo "${t[cg]}" | tr ' ' '\n' | grep . | median) $(echo "${m[cg]}" | tr ' ' '\n' | grep . | median) $(echo "${t[mg]}" | tr ' ' '\n' | grep . | median) $(echo "${m[mg]}" | tr ' ' '\n' | grep . | median)" 'BEGIN {
		split(r, v, " ")
		printf "| %s, empty GOCACHE | %.2f s, %d MiB | %.2f s, %d MiB | **%.2f×** time, **%.2f×** RSS |\n", name, v[1], v[2], v[3], v[4], v[3] / v[1], v[4] / v[2]
	}'
}

if [ "${COLD:-1}" = "1" ]; then
	echo
	echo "| package | controller-gen crd object | modelgen (all outputs) | modelgen / controller-gen |"
	echo "|---|---:|---:|---:|"
	cold gateway-api sigs.k8s.io/gateway-api@v1.6.3 ./apis/...
	cold cluster-api sigs.k8s.io/cluster-api/api@v1.14.2 ./core/v1beta2/...
	cold prometheus-operator github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring@v0.95.2 ./v1/...
fi

# the tool-build row: go build of each tool from an empty GOCACHE (the
# module cache warm), alternating
if [ "${BUILD:-}" = "1" ]; then
	local_build() {
		rm -rf "$work/gocache" && mkdir "$work/gocache"
		GOCACHE=$work/gocache measure compat/upstream go build -o "$work/built/" "$1"
		chmod -R u+w "$work/gocache" && rm -rf "$work/gocache"
	}
	declare -A bt bm
	for _ in $(seq "$rounds"); do
		for k in cg mg; do
			case $k in
			cg) r=$(local_build sigs.k8s.io/controller-tools/cmd/controller-gen) ;;
			mg) r=$(local_build github.com/modelgen/modelgen/cmd/modelgen) ;;
			esac
			bt[$k]="${bt[$k]:-} ${r% *}"
			bm[$k]="${bm[$k]:-} ${r#* }"
		done
	done
	echo
	echo "| build from an empty GOCACHE | controller-gen | modelgen | modelgen / controller-gen |"
	echo "|---|---:|---:|---:|"
	awk -v r="$(echo "${bt[cg]}" | tr ' ' '\n' | grep . | median) $(echo "${bm[cg]}" | tr ' ' '\n' | grep . | median) $(echo "${bt[mg]}" | tr ' ' '\n' | grep . | median) $(echo "${bm[mg]}" | tr ' ' '\n' | grep . | median)" 'BEGIN {
		split(r, v, " ")
		printf "| go build | %.1f s, %d MiB | %.1f s, %d MiB | **%.2f×** time |\n", v[1], v[2], v[3], v[4], v[3] / v[1]
	}'
fi

if [ -n "${PROFILE:-}" ] && [ -n "$largest" ]; then
	mkdir -p "$PROFILE"
	(cd "$largest" && "$mg" generate --cpuprofile "$PROFILE/cpu.pprof" --memprofile "$PROFILE/mem.pprof" ./... >/dev/null)
	echo
	echo "Profiles of modelgen at the largest size in $PROFILE (go tool pprof -top $mg $PROFILE/cpu.pprof)"
fi
