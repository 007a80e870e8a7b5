package cli

import (
	"fmt"
	"io"

	"github.com/modelgen/modelgen/gen/all"
	"github.com/modelgen/modelgen/model"
)

// `modelgen controller-gen` is gen/all's run of the command line's
// generators (all.ControllerGen): the backends they select, with their
// options, and the command line's output rules as the run's routing.

const controllerGenUsage = `Usage: modelgen controller-gen [controller-gen's arguments]

Runs modelgen with controller-gen v0.23.0's command line, writing the same
files to the same places: crd (modelgen's CRD backend), object (deepcopy),
rbac (+kubebuilder:rbac → role.yaml), webhook (+kubebuilder:webhook →
manifests.yaml) and applyconfiguration (+kubebuilder:ac:generate → the
package's applyconfiguration/ directory), with their options, paths=, and output:<gen>:<rule> /
output:<rule> rules (artifacts:config=,code=; dir=; stdout; none).

  modelgen controller-gen rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases
  modelgen controller-gen object:headerFile="hack/boilerplate.go.txt" paths="./..."

The same command is github.com/modelgen/modelgen/cmd/controller-gen, for a
kubebuilder Makefile. An option or generator modelgen does not support is
an error naming it (exit 2). See docs/controller-gen.md.
`

func controllerGen(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		switch a {
		case "-h", "--help", "--detailed-help":
			fmt.Fprint(stdout, controllerGenUsage)
			return ExitOK
		case "--version":
			fmt.Fprintln(stdout, "Version: modelgen", Version(), "(controller-gen v0.23.0 command line)")
			return ExitOK
		}
	}
	cg, err := all.ParseControllerGen(args)
	if err != nil {
		fmt.Fprintln(stderr, "modelgen controller-gen:", err)
		return ExitUsage
	}
	res := cg.Run(stdout).Execute()
	if res.Failed == all.StepLoad {
		fmt.Fprintln(stderr, "modelgen controller-gen:", res.Err)
		return ExitFail
	}
	if res.Cached {
		cacheHits.Add(1)
	}
	for _, d := range res.Diags {
		fmt.Fprintln(stderr, d)
	}
	if res.Diags.HasErrors() {
		fmt.Fprintf(stderr, "modelgen controller-gen: %d error(s); nothing written\n", res.Diags.Count(model.Error))
		return ExitFail
	}
	if res.Err != nil {
		fmt.Fprintln(stderr, "modelgen controller-gen:", res.Err)
		return ExitFail
	}
	return ExitOK
}
