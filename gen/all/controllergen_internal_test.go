package all

import (
	"runtime/debug"
	"testing"
)

// TestToolsVersion: the annotation's version is controller-tools' in the
// binary's build info (its replacement's, if replaced), else "(devel)".
func TestToolsVersion(t *testing.T) {
	dep := func(path, version string, replace *debug.Module) *debug.Module {
		return &debug.Module{Path: path, Version: version, Replace: replace}
	}
	tests := []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{&debug.BuildInfo{Deps: []*debug.Module{dep("k8s.io/api", "v0.37.2", nil), dep("sigs.k8s.io/controller-tools", "v0.23.0", nil)}}, true, "v0.23.0"},
		{&debug.BuildInfo{Deps: []*debug.Module{dep("sigs.k8s.io/controller-tools", "v0.23.0", dep("example.com/fork", "v0.23.1", nil))}}, true, "v0.23.1"},
		{&debug.BuildInfo{Deps: []*debug.Module{dep("sigs.k8s.io/controller-tools", "v0.23.0", dep("../controller-tools", "", nil))}}, true, "(devel)"},
		{&debug.BuildInfo{}, true, "(devel)"},
		{nil, false, "(devel)"},
	}
	for i, tt := range tests {
		if got := toolsVersion(tt.info, tt.ok); got != tt.want {
			t.Errorf("%d: %q, want %q", i, got, tt.want)
		}
	}
}
