package model

import (
	"os"
	"testing"
)

// builtAtInit is whether initializing the package (all a run that needs no
// keyword pays before it starts) built the keyword registry or validator.
var builtAtInit bool

func TestMain(m *testing.M) {
	builtAtInit = tablesBuilt.Load() > 0
	os.Exit(m.Run())
}

// TestInitBuildsNoKeywordTables: the registry (which compiles every
// keyword's pattern) and validator's instance are built when first used,
// not when the package is initialized, so that a run over packages with no
// validate tag (most CRD-only modules) does not pay for them.
func TestInitBuildsNoKeywordTables(t *testing.T) {
	if builtAtInit {
		t.Error("initializing the package built the keyword registry or validator")
	}
	if Keywords(); tablesBuilt.Load() == 0 {
		t.Error("Keywords built no registry: the count no longer counts")
	}
}
