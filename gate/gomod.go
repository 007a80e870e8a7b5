package gate

import (
	"fmt"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// modulePathOf reads the module path declared in a go.mod.
func modulePathOf(file string, data []byte) (string, error) {
	f, err := modfile.ParseLax(file, data, nil)
	if err != nil {
		return "", err
	}
	if f.Module == nil || f.Module.Mod.Path == "" {
		return "", fmt.Errorf("%s: no module directive", file)
	}
	return f.Module.Mod.Path, nil
}

// checkModulePath applies the Go module rule to the version: the path ends
// in /vN for major N >= 2 and in nothing for v0 and v1 (gopkg.in paths in .vN
// for every N). It returns the path the version needs, and whether the
// declared one is it.
func checkModulePath(path string, v version) (want string, ok bool, err error) {
	prefix, pathMajor, wellFormed := module.SplitPathVersion(path)
	if !wellFormed {
		// "/v1", "/v0" or "/v2.1": not a major suffix Go accepts; what
		// precedes it is the path the suffix belongs on.
		if strings.HasPrefix(path, "gopkg.in/") {
			return "", false, fmt.Errorf("module path %q is not a valid gopkg.in path (it must end in .vN)", path)
		}
		slash := strings.LastIndex(path, "/")
		if slash < 0 {
			return "", false, fmt.Errorf("module path %q has a malformed major version suffix", path)
		}
		prefix = path[:slash]
	}
	want = withMajor(prefix, pathMajor, semver.Major(v.canonical))
	return want, wellFormed && module.CheckPathMajor(v.canonical, pathMajor) == nil, nil
}

func withMajor(prefix, pathMajor, major string) string {
	if strings.HasPrefix(prefix, "gopkg.in/") {
		unstable := ""
		if strings.HasSuffix(pathMajor, "-unstable") {
			unstable = "-unstable"
		}
		return prefix + "." + major + unstable
	}
	if major == "v0" || major == "v1" {
		return prefix
	}
	return prefix + "/" + major
}

// moduleFix tells a person exactly what to change, imports included.
func moduleFix(file, have, want string) string {
	return fmt.Sprintf("in %s change `module %s` to `module %s` (go mod edit -module %s), "+
		"and change every import of %s and its packages to %s",
		file, have, want, want, have, want)
}
