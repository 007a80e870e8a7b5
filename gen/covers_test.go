package gen_test

import (
	"testing"

	"github.com/modelgen/modelgen/gen"
)

// TestWhichPatternsCoverASetting: a command line's pattern covers the
// packages a setting's pattern names (relative to the module root) when its
// directory or import path is at or above theirs and it ends in /..., or
// when both name one package.
func TestWhichPatternsCoverASetting(t *testing.T) {
	const mod, modDir = "example.com/m", "/src/m"
	tests := []struct {
		pattern, dir, target string
		want                 bool
	}{
		{"./...", "/src/m", "./pkg/controller/...", true},
		{"./pkg/...", "/src/m", "./pkg/controller/...", true},
		{"./pkg/controller/...", "/src/m", "./pkg/controller/...", true},
		{"../...", "/src/m/pkg", "./pkg/controller", true},
		{"example.com/m/pkg/...", "/elsewhere", "./pkg/controller/...", true},
		{"./pkg/controller", "/src/m", "./pkg/controller", true},
		{"example.com/m/pkg/controller", "/src/m", "./pkg/controller", true},
		{".", "/src/m/pkg/controller", "./pkg/controller", true},
		{"./pkg/apis/...", "/src/m", "./pkg/controller/...", false},
		{"./pkg/controller", "/src/m", "./pkg/controller/...", false},
		{"./pkg/controller/...", "/src/m", "./pkg/...", false},
		{"./pkg/controllers/...", "/src/m", "./pkg/controller", false},
		{"example.com/m/pkg/apis/...", "/src/m", "./pkg/controller", false},
		{"...", "/src/m", "./pkg/controller", false},
		{"./.../controller", "/src/m", "./pkg/controller", false},
		{".", "/src/m", "./...", false},
	}
	for _, tc := range tests {
		if got := gen.Covers(tc.pattern, tc.dir, mod, modDir, tc.target); got != tc.want {
			t.Errorf("%q in %s: covers %s = %v, want %v", tc.pattern, tc.dir, tc.target, got, tc.want)
		}
	}
}
