#!/bin/sh
# compare.sh runs the state machine benchmarks side by side and prints, for
# each contender, the median ns/op and allocs/op over COUNT runs and how many
# times slower it is than the generated transition (BenchmarkModelgen).
#
#   bench/statemachine/compare.sh            # COUNT=6
#   COUNT=10 bench/statemachine/compare.sh
#
# The raw `go test` output is kept in $OUT (default: a temporary file) for
# benchstat.
set -eu
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
OUT=${OUT:-$(mktemp)}

go test -run '^$' -bench . -benchmem -count "$COUNT" . | tee "$OUT" >/dev/null

grep '^Benchmark' "$OUT" |
	awk '{
		name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 2; i < NF; i++) {
			if ($(i+1) == "ns/op") ns = $i
			if ($(i+1) == "allocs/op") allocs = $i
		}
		print name, ns, allocs
	}' |
	sort -k1,1 -k2,2g |
	awk -v count="$COUNT" '
	function row(name) { printf "%-20s %12.1f %10s %15.1fx\n", name, med[name], a[name], med[name] / base }
	{ n[$1]++; v[$1, n[$1]] = $2; a[$1] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
	END {
		for (i = 1; i <= k; i++) {
			name = order[i]; c = n[name]
			m = (c % 2) ? v[name, (c + 1) / 2] : (v[name, c / 2] + v[name, c / 2 + 1]) / 2
			med[name] = m
		}
		base = med["Modelgen"]
		printf "%-20s %12s %10s %16s\n", "benchmark", "ns/op", "allocs/op", "x Modelgen"
		split("Modelgen ModelgenWithHooks LooplabFSM Stateless", first, " ")
		for (i = 1; i <= 4; i++) if (first[i] in med) { row(first[i]); done[first[i]] = 1 }
		for (i = 1; i <= k; i++) if (!(order[i] in done)) row(order[i])
		printf "(median of %d runs; raw output in '"$OUT"')\n", count
	}'
