package cli

import (
	"flag"

	"github.com/modelgen/modelgen/gen/all"
)

// CacheHits counts the generate runs that skipped the backends because
// nothing they read had moved.
func CacheHits() int64 { return cacheHits.Load() }

// CacheKey is the record name of a command line (cacheKey).
var CacheKey = func(args []string) string {
	var fl generateFlags
	fs := generateFlagSet(&fl, nil)
	if err := fs.Parse(args); err != nil {
		panic(err)
	}
	return cacheKey(fl, fs.Args())
}

// GenerateFlags names every flag of generate.
func GenerateFlags() []string {
	var fl generateFlags
	var names []string
	generateFlagSet(&fl, nil).VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// CoversModule reports whether a package pattern, run in dir, names every
// package of the module (coversModule).
var CoversModule = all.CoversModule

// ControllerToolsVersion is the version the controller-gen command's CRDs
// name.
var ControllerToolsVersion = all.ControllerToolsVersion

// ReplayedRuns counts the generate runs that replayed some packages'
// recorded part (an incremental run).
func ReplayedRuns() int64 { return replayedRuns.Load() }

// LastReplayed is how many packages the last generate run replayed.
func LastReplayed() int64 { return lastReplayed.Load() }
