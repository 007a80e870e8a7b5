package model

import (
	"strconv"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// KeyExpr is a CEL expression over the key k for one keyword on a string key.
func KeyExpr(u *Use) (string, bool) {
	if u.Type.Kind != KindString {
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
	if u.Keyword.Class() == Schema {
		probe := apiext.JSONSchemaProps{}
		ctx := &ApplyContext{Self: &probe, Parent: &apiext.JSONSchemaProps{}, Use: u, Diags: &Diagnostics{}}
		if a, ok := u.Keyword.(Applier); ok {
			a.Apply(ctx)
		}
		if probe.Pattern != "" && len(probe.AllOf) == 0 && probe.Not == nil {
			return "k.matches(" + strconv.Quote(probe.Pattern) + ")", true
		}
	}
	return "", false
}
