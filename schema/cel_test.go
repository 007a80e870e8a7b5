package schema_test

import (
	"testing"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// TestCELField: property names are escaped as the API server declares them
// to CEL (k8s.io/apiserver/pkg/cel.Escape); names it does not declare are
// reported unreadable.
func TestCELField(t *testing.T) {
	for name, want := range map[string]string{
		"amount":    "self.amount",
		"in":        "self.__in__",
		"namespace": "self.__namespace__",
		"true":      "self.__true__",
		"x-y":       "self.x__dash__y",
		"a.b":       "self.a__dot__b",
		"c/d":       "self.c__slash__d",
		"e__f":      "self.e__underscores__f",
		"_private":  "self._private",
	} {
		if got, ok := schema.CELField("self", name); !ok || got != want {
			t.Errorf("CELField(self, %q) = %q, %v; want %q", name, got, ok, want)
		}
		if !model.CELReadable(name) {
			t.Errorf("CELReadable(%q) = false", name)
		}
	}
	for _, name := range []string{"", "first name", "4th", "it's", "a:b", "$ref", "naïve"} {
		if _, ok := schema.CELField("self", name); ok || model.CELReadable(name) {
			t.Errorf("%q: readable, but the API server hides it from CEL", name)
		}
	}
}

func TestCELFieldPath(t *testing.T) {
	for name, want := range map[string]string{
		"amount":  ".amount",
		"in":      ".in",
		"x-y":     "['x-y']",
		"a.b":     "['a.b']",
		"it's":    `['it\'s']`,
		"back\\s": `['back\\s']`,
	} {
		if got := schema.CELFieldPath(name); got != want {
			t.Errorf("CELFieldPath(%q) = %s, want %s", name, got, want)
		}
	}
}
