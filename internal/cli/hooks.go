package cli

import (
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// extensions describe features in the OpenAPI document, for the gate.
func extensions() []func(*model.Type, *model.Field) map[string]any {
	return []func(*model.Type, *model.Field) map[string]any{statemachine.Extension}
}

// hooks are the schema additions of features beyond validate tags.
func hooks() []schema.Hook {
	return []schema.Hook{statemachine.Hook}
}
