package schema

import (
	"strconv"
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
			e, ok := keyExpr(u)
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

// keyExpr is a CEL expression over the key k for one keyword on a string
// key; ok is false when none says it (model.Carry.OnKey decides which, at
// Load, and TestLoweringFollowsCarry holds the two together).
func keyExpr(u *model.Use) (string, bool) {
	if u.Type.Kind != model.KindString {
		return "", false
	}
	n, isNum := u.Value.(float64)
	size := "size(k)"
	lit := strconv.FormatInt(int64(n), 10)
	switch u.Keyword.Name() {
	case "min", "gte":
		return size + " >= " + lit, isNum
	case "max", "lte":
		return size + " <= " + lit, isNum
	case "len":
		return size + " == " + lit, isNum
	case "gt":
		return size + " > " + lit, isNum
	case "lt":
		return size + " < " + lit, isNum
	case "oneof":
		var q []string
		for _, v := range u.Value.([]any) {
			q = append(q, strconv.Quote(v.(string)))
		}
		return "k in [" + strings.Join(q, ", ") + "]", true
	}
	if u.Keyword.Class() == model.Schema {
		probe, _, _ := LowerUse(u, model.TargetOpenAPI)
		if probe.Pattern != "" && len(probe.AllOf) == 0 && probe.Not == nil {
			return "k.matches(" + strconv.Quote(probe.Pattern) + ")", true
		}
	}
	return "", false
}
