package testkit

import "flag"

// updateFlag is the name of the flag every test package accepts.
const updateFlag = "update"

func init() {
	if flag.Lookup(updateFlag) == nil {
		flag.Bool(updateFlag, false, "rewrite the golden files and generated document blocks instead of comparing with them")
	}
}

// Update reports whether the test run was given -update.
func Update() bool {
	f := flag.Lookup(updateFlag)
	return f != nil && f.Value.String() == "true"
}
