package policy

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCommandDoesNotLinkThePlugin: the modelgen command links the
// admission plugin's compiler, not the plugin itself, whose validating
// package brings client-go's typed clients, informers and fakes (about 400
// packages) into every build of the tool.
func TestCommandDoesNotLinkThePlugin(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../cmd/modelgen").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "k8s.io/apiserver/pkg/admission/plugin/policy/validating", "k8s.io/client-go/kubernetes":
			t.Errorf("cmd/modelgen links %s", pkg)
		}
	}
}
