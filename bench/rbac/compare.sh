#!/usr/bin/env bash
# compare.sh runs the field-filtering benchmarks side by side, in one
# `go test` run, and prints a table: the median ns/op, B/op and allocs/op of
# each implementation and its ratio to modelgen's generated filter.
#
#   ./compare.sh            # 5 rounds
#   COUNT=10 ./compare.sh   # more rounds
#
# The raw output is benchstat-friendly; RAW=1 prints it too.
set -euo pipefail
cd "$(dirname "$0")"
count="${COUNT:-5}"
raw="$(go test -run '^$' -bench '^BenchmarkFilter$' -benchmem -count "$count" .)"
if [ "${RAW:-0}" = 1 ]; then
	printf '%s\n\n' "$raw"
fi
printf '%s\n' "$raw" | grep -E '^(goos|goarch|cpu):' || true
printf '%s\n' "$raw" | awk '
/^BenchmarkFilter\// {
	name = $1; sub(/^BenchmarkFilter\//, "", name); sub(/-[0-9]+$/, "", name)
	if (!(name in n)) order[++k] = name
	i = ++n[name]
	for (f = 3; f < NF; f++) {
		if ($(f+1) == "ns/op") ns[name, i] = $f
		if ($(f+1) == "B/op") bytes[name] = $f
		if ($(f+1) == "allocs/op") allocs[name] = $f
	}
}
function median(name,    i, j, t, c, a) {
	c = n[name]
	for (i = 1; i <= c; i++) a[i] = ns[name, i] + 0
	for (i = 2; i <= c; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return (c % 2) ? a[(c+1)/2] : (a[c/2] + a[c/2+1]) / 2
}
END {
	if (!("modelgen" in n)) { print "no modelgen result" > "/dev/stderr"; exit 1 }
	base = median("modelgen")
	printf "%-16s %12s %10s %10s %12s\n", "implementation", "ns/op", "B/op", "allocs/op", "x modelgen"
	for (i = 1; i <= k; i++) {
		m = median(order[i])
		printf "%-16s %12.1f %10s %10s %12.0f\n", order[i], m, bytes[order[i]], allocs[order[i]], m / base
	}
	printf "(median of %d rounds)\n", n["modelgen"]
}'
