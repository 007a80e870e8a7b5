package gen_test

import (
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
)

type aSettings struct {
	// Dir is a directory.
	Dir string `json:"aDir" path:"module"`
	// On turns it on.
	On bool `json:"aOn"`
}

type bSettings struct {
	// Dir is another directory, under the same key.
	Dir string `json:"aDir"`
}

// TestOwnSettings: a backend's settings are its own type, read with Own
// (the defaults when the run set none) and set through its key like a
// modelgen.yaml key; two types that declare one key are an error.
func TestOwnSettings(t *testing.T) {
	def := aSettings{Dir: "config/a"}
	keys, err := gen.Keys([]any{def, def})
	if err != nil {
		t.Fatal(err)
	}
	var dir, on gen.Key
	for _, k := range keys {
		switch k.Name {
		case "aDir":
			dir = k
		case "aOn":
			on = k
		}
	}
	if dir.Path != "module" || dir.Default != "config/a" || on.Default != false || keys[0].Name != "title" {
		t.Fatalf("keys %+v", keys)
	}
	var cfg gen.Config
	if got := gen.Own(cfg, def); got != def || cfg.Get(dir) != "config/a" {
		t.Errorf("unset: %+v, %v; want the defaults", got, cfg.Get(dir))
	}
	set := cfg.With(on, true)
	if got := gen.Own(set, def); got != (aSettings{Dir: "config/a", On: true}) || gen.Own(cfg, def).On {
		t.Errorf("set aOn: %+v (the original: %+v)", got, gen.Own(cfg, def))
	}
	if set = set.With(keys[0], "A title"); set.Title != "A title" || !gen.Own(set, def).On {
		t.Errorf("a Config key: %+v", set)
	}
	if _, err := gen.Keys([]any{def, bSettings{}}); err == nil || !strings.Contains(err.Error(), `setting "aDir" is declared by gen_test.aSettings and by gen_test.bSettings`) {
		t.Errorf("a key of two types: %v", err)
	}
}
