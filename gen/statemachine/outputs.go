package statemachine

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
)

// Outputs declares each package's zz_generated.statemachine.go and the
// <Type>-statemachine.md diagrams in its docs directory.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, pk := range c.Model.Packages {
		out = append(out,
			gen.Output{Format: gen.FormatGo, Dir: pk.Dir, Name: FileName},
			gen.Output{Format: gen.FormatMarkdown, Dir: filepath.Join(pk.Dir, docsDir(c.Config(pk))), Name: "*" + diagramSuffix})
	}
	return out
}

// diagramSuffix ends the name of a machine's diagram.
const diagramSuffix = "-statemachine.md"

// Settings are the backend's settings of a package (modelgen.yaml).
type Settings struct {
	// DocsDir is where diagrams and docs go, relative to the package directory.
	DocsDir string `json:"docsDir" path:"package"`
}

// Defaults are the settings of a package that sets none.
var Defaults = Settings{DocsDir: "docs"}

// Settings are the backend's settings (gen.Configurable).
func (Generator) Settings() any { return Defaults }

// docsDir is where a package's diagrams go, relative to its directory.
func docsDir(cfg gen.Config) string {
	if s := gen.Own(cfg, Defaults); s.DocsDir != "" {
		return s.DocsDir
	}
	return Defaults.DocsDir
}
