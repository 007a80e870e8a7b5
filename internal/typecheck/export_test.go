package typecheck

import "slices"

// Sources lists the dependencies the last Compile read from export data
// and those it checked from source, sorted.
func Sources(k *Check) (exported, sourced []string) {
	return slices.Sorted(slices.Values(k.exported)), slices.Sorted(slices.Values(k.sourced))
}

// Graph lists the packages the part of the check Start began covers, sorted.
func Graph(k *Check) []string {
	if k.src == nil {
		return nil
	}
	k.src.waitReady()
	var out []string
	for _, n := range k.src.order {
		out = append(out, n.pkg.PkgPath)
	}
	return slices.Sorted(slices.Values(out))
}
