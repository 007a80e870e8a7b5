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

// docsDir is where a package's diagrams go, relative to its directory.
func docsDir(cfg gen.Config) string {
	if cfg.DocsDir == "" {
		return "docs"
	}
	return cfg.DocsDir
}
