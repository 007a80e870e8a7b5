package typecheck

import "slices"

// Sources lists the dependencies the last Compile read from export data
// and those it checked from source, sorted.
func Sources(k *Check) (exported, sourced []string) {
	return slices.Sorted(slices.Values(k.exported)), slices.Sorted(slices.Values(k.sourced))
}
