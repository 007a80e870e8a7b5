// Command controller-gen is modelgen with controller-gen v0.23.0's command
// line (`modelgen controller-gen ...`), under controller-gen's name, so that
// a kubebuilder Makefile's go-install-tool line can install it in
// controller-gen's place:
//
//	go install github.com/modelgen/modelgen/cmd/controller-gen@latest
//
// See docs/controller-gen.md.
package main

import (
	"os"

	"github.com/modelgen/modelgen/cmd/internal/cli"
)

func main() {
	os.Exit(cli.Run(append([]string{"controller-gen"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
}
