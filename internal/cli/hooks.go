package cli

import (
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/schema"
)

// hooks are the schema additions of features beyond validate tags.
func hooks() []schema.Hook {
	return []schema.Hook{statemachine.Hook}
}
