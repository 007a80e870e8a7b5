package schema

import (
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
)

// applyKeys turns the checks of a keys...endkeys block into CEL rules over
// the map's keys: a schema has no keyword for property names that both
// OpenAPI 3.0 and the API server understand.
func (s *Set) applyKeys(self *apiext.JSONSchemaProps, lv *model.Level) {
	for _, c := range lv.Checks {
		var alts []string
		for _, u := range c.Or {
			e, ok := model.KeyExpr(u)
			if !ok {
				// runtime only: the model says so (model.RuntimeOnly)
				alts = nil
				break
			}
			alts = append(alts, e)
		}
		if len(alts) == 0 {
			continue
		}
		rule := "self.all(k, " + strings.Join(alts, " || ") + ")"
		self.XValidations = append(self.XValidations, apiext.ValidationRule{Rule: rule, Message: "map keys must satisfy " + c.Or[0].Name + "=" + c.Or[0].Param})
	}
}
