package schema

import (
	"testing"

	"github.com/modelgen/modelgen/model"
)

func TestFieldPathQuotesOddNames(t *testing.T) {
	m := &model.Machine{Field: &model.Field{JSONName: "life-cycle"}}
	if got := fieldPath(m); got != "['life-cycle']" {
		t.Errorf("fieldPath = %s", got)
	}
}
