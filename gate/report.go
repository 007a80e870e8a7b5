package gate

import "fmt"

// Level is how severe a change is, on oasdiff's scale.
type Level int

// Levels, numerically equal to oasdiff's checker levels.
const (
	LevelInfo    Level = 1
	LevelWarning Level = 2
	LevelError   Level = 3
)

var levelNames = map[Level]string{LevelInfo: "info", LevelWarning: "warning", LevelError: "error"}

func (l Level) String() string { return enumString(levelNames, l) }

// MarshalText writes the level's name, so JSON output says "error", not 3.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Impact is what a change means for the version: a breaking change needs a
// major bump, an additive one a minor bump.
type Impact int

// Impacts, from none to breaking.
const (
	ImpactNone Impact = iota
	ImpactAdditive
	ImpactBreaking
)

var impactNames = map[Impact]string{ImpactNone: "none", ImpactAdditive: "additive", ImpactBreaking: "breaking"}

func (i Impact) String() string { return enumString(impactNames, i) }

// MarshalText writes the impact's name.
func (i Impact) MarshalText() ([]byte, error) { return []byte(i.String()), nil }

// Bump is which part of a semantic version moved, or must move.
type Bump int

// Bumps, from smallest to largest. BumpNone as a requirement means that any
// version not lower than the base passes, including the base itself.
const (
	BumpNone Bump = iota
	BumpPatch
	BumpMinor
	BumpMajor
)

var bumpNames = map[Bump]string{BumpNone: "none", BumpPatch: "patch", BumpMinor: "minor", BumpMajor: "major"}

func (b Bump) String() string { return enumString(bumpNames, b) }

// MarshalText writes the bump's name.
func (b Bump) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

func enumString[K ~int](names map[K]string, k K) string {
	if s, ok := names[k]; ok {
		return s
	}
	return fmt.Sprintf("unknown(%d)", int(k))
}

// Report is the result of one gate run: every contract change found, and the
// verdict on the version and the Go module path.
type Report struct {
	Base     Document `json:"base"`
	Revision Document `json:"revision"`
	Changes  []Change `json:"changes"`
	Verdict  Verdict  `json:"verdict"`
}

// Document names one side of the comparison.
type Document struct {
	Source  string `json:"source"`  // as given: a path or git:<ref>:<path>
	Version string `json:"version"` // info.version as written
}

// Change is one difference between the two contracts.
type Change struct {
	Level   Level  `json:"level"`
	ID      string `json:"id"`    // rule id: oasdiff's, or one of Rules()
	Where   string `json:"where"` // "GET /path", or "POST /path request → .status.phase" for the gate's own rules
	Message string `json:"message"`
	Impact  Impact `json:"impact"`
	// Origin is "oasdiff" or "modelgen" (the gate's own extension rules).
	Origin string `json:"origin"`
}

// Verdict says which version bump the changes need, which one was made, and
// whether that (and the Go module path) passes.
type Verdict struct {
	Pass     bool `json:"pass"`
	Breaking int  `json:"breaking"` // number of breaking changes
	Additive int  `json:"additive"` // number of additive changes
	Needed   Bump `json:"needed"`   // the smallest bump the changes allow
	Made     Bump `json:"made"`     // the bump from base to revision info.version
	// Suggested is the smallest version that passes: the base version moved
	// by Needed, written with or without "v" as the revision writes it.
	Suggested  string       `json:"suggested"`
	Module     *ModuleCheck `json:"goModule,omitempty"`
	Violations []Violation  `json:"violations"`
}

// ModuleCheck is the Go module path rule's input and result; present only
// when a go.mod was given.
type ModuleCheck struct {
	File string `json:"file"`
	Path string `json:"path"` // module path declared in go.mod
	Want string `json:"want"` // module path info.version requires
}

// Violation is a reason the gate fails, with what to do about it.
type Violation struct {
	ID      string `json:"id"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}
