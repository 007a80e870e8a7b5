#!/usr/bin/env bash
# bench.sh runs every benchmark suite side by side in one run and prints
# ratio tables (the machines are noisy: ratios from one run are what
# BENCHMARKS.md reports, not absolute times).
#   hack/bench.sh            all suites
#   COUNT=5 hack/bench.sh    more samples per benchmark
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${COUNT:-3}

echo "## Generation: modelgen vs controller-gen (same package, loaded from scratch each time)"
out=$(go test -run '^$' -bench 'BenchmarkGenerateCRD' -benchtime 5x -count "$count" ./gen/crd/)
echo "$out" | awk '
/^BenchmarkGenerateCRD/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^BenchmarkGenerateCRD/, "", name)
	sum[name] += $3; n[name]++
}
END {
	printf "| tool | ns/op (mean of %d) |\n|---|---|\n", n["Modelgen"]
	for (k in sum) printf "| %s | %.0f |\n", k, sum[k] / n[k]
	if (n["Modelgen"] && n["ControllerGen"])
		printf "\nmodelgen / controller-gen time: %.2fx\n", (sum["Modelgen"] / n["Modelgen"]) / (sum["ControllerGen"] / n["ControllerGen"])
}'

echo
echo "## Generation, whole processes: modelgen vs controller-gen v0.23.0 (time, peak RSS)"
if [ "${SKIP_PROCESS_BENCH:-}" = "1" ]; then
	echo "(skipped: SKIP_PROCESS_BENCH=1)"
else
	ROUNDS="$count" hack/bench-generation.sh
fi

for d in bench/*/; do
	if [ -x "$d/compare.sh" ]; then
		echo
		(cd "$d" && COUNT="$count" ./compare.sh)
	fi
done
