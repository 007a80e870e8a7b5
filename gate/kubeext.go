package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The Kubernetes extensions the generator writes into the OpenAPI contract,
// as the API server enforces them in the CRDs: CEL rules and list and map
// types. oasdiff does not read them, so the gate compares them place by
// place, like its own extensions.
const (
	ExtensionValidations = "x-kubernetes-validations"
	ExtensionListType    = "x-kubernetes-list-type"
	ExtensionListMapKeys = "x-kubernetes-list-map-keys"
	ExtensionMapType     = "x-kubernetes-map-type"
)

// kubeFacts is what the Kubernetes extensions of one place say.
type kubeFacts struct {
	rules       []celRule
	listType    string
	listMapKeys []string
	mapType     string
}

// celRule is one x-kubernetes-validations entry.
type celRule struct {
	Rule              string `json:"rule"`
	Message           string `json:"message,omitempty"`
	MessageExpression string `json:"messageExpression,omitempty"`
	Reason            string `json:"reason,omitempty"`
	FieldPath         string `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool  `json:"optionalOldSelf,omitempty"`
}

// decodeKube reads the Kubernetes extensions of one schema; nil when it has
// none.
func decodeKube(extensions map[string]any) (*kubeFacts, error) {
	var k kubeFacts
	found := false
	for _, x := range []struct {
		name string
		into any
	}{
		{ExtensionValidations, &k.rules}, {ExtensionListType, &k.listType},
		{ExtensionListMapKeys, &k.listMapKeys}, {ExtensionMapType, &k.mapType},
	} {
		raw, ok := extensions[x.name]
		if !ok {
			continue
		}
		found = true
		if err := strictRemarshal(raw, x.into); err != nil {
			return nil, fmt.Errorf("%s: %w", x.name, err)
		}
	}
	for i, r := range k.rules {
		if r.Rule == "" {
			return nil, fmt.Errorf("%s[%d]: no rule", ExtensionValidations, i)
		}
	}
	if !found {
		return nil, nil
	}
	return &k, nil
}

func strictRemarshal(v, into any) error {
	if raw, ok := v.(json.RawMessage); ok {
		v = raw
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// mergeKube joins the Kubernetes facts of the schemas that describe one
// value (allOf members): their rules all hold; a list or map type said twice
// must agree.
func mergeKube(out, f *kubeFacts, at place) (*kubeFacts, error) {
	if f == nil {
		return out, nil
	}
	if out == nil {
		c := *f
		c.rules = slices.Clone(f.rules)
		return &c, nil
	}
	out.rules = append(out.rules, f.rules...)
	for _, s := range []struct {
		name string
		out  *string
		cur  string
	}{{ExtensionListType, &out.listType, f.listType}, {ExtensionMapType, &out.mapType, f.mapType}} {
		if *s.out != "" && s.cur != "" && *s.out != s.cur {
			return nil, fmt.Errorf("%s: conflicting values of %s", at, s.name)
		}
		*s.out = cmpOr(*s.out, s.cur)
	}
	if len(out.listMapKeys) > 0 && len(f.listMapKeys) > 0 && !slices.Equal(out.listMapKeys, f.listMapKeys) {
		return nil, fmt.Errorf("%s: conflicting values of %s", at, ExtensionListMapKeys)
	}
	if len(out.listMapKeys) == 0 {
		out.listMapKeys = f.listMapKeys
	}
	return out, nil
}

// diffKube compares the Kubernetes extensions at one place. A rule is
// matched by its text; rules left over on both sides are paired in order
// and shown as the two texts.
func diffKube(at place, old, cur *kubeFacts) []Change {
	if old == nil {
		old = &kubeFacts{}
	}
	if cur == nil {
		cur = &kubeFacts{}
	}
	var changes []Change
	used := make([]bool, len(cur.rules))
	var gone []celRule
	for _, o := range old.rules {
		j := slices.IndexFunc(cur.rules, func(c celRule) bool { return c.Rule == o.Rule })
		for j >= 0 && used[j] {
			k := slices.IndexFunc(cur.rules[j+1:], func(c celRule) bool { return c.Rule == o.Rule })
			if k < 0 {
				j = -1
			} else {
				j += 1 + k
			}
		}
		if j < 0 {
			gone = append(gone, o)
			continue
		}
		used[j] = true
		if c := cur.rules[j]; c.Message != o.Message || c.MessageExpression != o.MessageExpression || c.Reason != o.Reason || c.FieldPath != o.FieldPath {
			changes = append(changes, newChange(RuleKubeValidationMessageChanged, at, code(o.Rule), ruleDetails(o), ruleDetails(c)))
		} else if valueOf(c.OptionalOldSelf) != valueOf(o.OptionalOldSelf) {
			changes = append(changes, newChange(RuleKubeValidationChanged, at, code(o.Rule)+" optionalOldSelf "+strconv.FormatBool(valueOf(o.OptionalOldSelf)), code(c.Rule)+" optionalOldSelf "+strconv.FormatBool(valueOf(c.OptionalOldSelf))))
		}
	}
	var fresh []celRule
	for j, c := range cur.rules {
		if !used[j] {
			fresh = append(fresh, c)
		}
	}
	n := min(len(gone), len(fresh))
	for k := range n {
		changes = append(changes, newChange(RuleKubeValidationChanged, at, code(gone[k].Rule), code(fresh[k].Rule)))
	}
	for _, o := range gone[n:] {
		changes = append(changes, newChange(RuleKubeValidationRemoved, at, code(o.Rule)))
	}
	for _, c := range fresh[n:] {
		changes = append(changes, newChange(RuleKubeValidationAdded, at, code(c.Rule)))
	}
	if o, c := cmpOr(old.listType, "atomic"), cmpOr(cur.listType, "atomic"); o != c {
		changes = append(changes, newChange(RuleKubeListTypeChanged, at, code(o), code(c)))
	}
	if o, c := strings.Join(old.listMapKeys, ","), strings.Join(cur.listMapKeys, ","); o != c {
		changes = append(changes, newChange(RuleKubeListMapKeysChanged, at, code(o), code(c)))
	}
	if o, c := cmpOr(old.mapType, "granular"), cmpOr(cur.mapType, "granular"); o != c {
		changes = append(changes, newChange(RuleKubeMapTypeChanged, at, code(o), code(c)))
	}
	return changes
}

func ruleDetails(r celRule) string {
	var parts []string
	for _, p := range []struct{ k, v string }{{"message", strconv.Quote(r.Message)}, {"messageExpression", code(r.MessageExpression)}, {"reason", code(r.Reason)}, {"fieldPath", code(r.FieldPath)}} {
		if p.v != `""` && p.v != "``" {
			parts = append(parts, p.k+" "+p.v)
		}
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}

// withoutMachineRules drops the CEL rules a state machine wrote: a rule on
// an object whose fieldPath names a property of it carrying
// x-modelgen-state-machine. The gate judges the machine itself (its states,
// transitions and initial state), so its rules would be judged twice.
func (x *extensions) withoutMachineRules(n node, k *kubeFacts, at place) *kubeFacts {
	if k == nil || len(k.rules) == 0 {
		return k
	}
	out := *k
	out.rules = nil
	for _, r := range k.rules {
		name, ok := strings.CutPrefix(r.FieldPath, ".")
		if ok && !strings.ContainsAny(name, ".[") {
			if f, err := x.facts(x.expand(property(n, name)...), at); err == nil && f.machine != nil {
				continue
			}
		}
		out.rules = append(out.rules, r)
	}
	return &out
}
