// Command modelgen generates CRDs, an OpenAPI document, state machines and
// field filters from Go structs, and gates releases on contract changes.
package main

import (
	"os"

	"github.com/modelgen/modelgen/cmd/internal/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
