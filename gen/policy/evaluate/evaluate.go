// Package evaluate runs a generated ValidatingAdmissionPolicy as the
// validating admission policy plugin of k8s.io/apiserver does, with the
// plugin's own compiler and validator, for tests. It is apart from
// gen/policy so that the modelgen command does not link the plugin.
package evaluate

import (
	"context"
	"fmt"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/cel/environment"
)

// NewEvaluator compiles a policy exactly as the validating admission policy
// plugin of k8s.io/apiserver does for a stored policy (its compilePolicy),
// into the plugin's own Validator.
func NewEvaluator(p *admissionv1.ValidatingAdmissionPolicy) (validating.Validator, error) {
	hasParams := p.Spec.ParamKind != nil
	opts := plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}
	msgOpts := plugincel.OptionalVariableDeclarations{HasParams: hasParams}
	cc, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return nil, err
	}
	mode := environment.StoredExpressions
	var vars []plugincel.NamedExpressionAccessor
	for _, v := range p.Spec.Variables {
		vars = append(vars, &validating.Variable{Name: v.Name, Expression: v.Expression})
	}
	cc.CompileAndStoreVariables(vars, opts, mode)
	var matcher matchconditions.Matcher
	if len(p.Spec.MatchConditions) > 0 {
		acc := make([]plugincel.ExpressionAccessor, len(p.Spec.MatchConditions))
		for i := range p.Spec.MatchConditions {
			acc[i] = (*matchconditions.MatchCondition)(&p.Spec.MatchConditions[i])
		}
		matcher = matchconditions.NewMatcher(cc.CompileCondition(acc, opts, mode), p.Spec.FailurePolicy, "policy", "validate", p.Name)
	}
	vals := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	msgs := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	for i, v := range p.Spec.Validations {
		vals[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			msgs[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	v := validating.NewValidator(cc.CompileCondition(vals, opts, mode), matcher, cc.CompileCondition(nil, opts, mode), cc.CompileCondition(msgs, msgOpts, mode), p.Spec.FailurePolicy, nil)
	return v, v.CompileError()
}

// Request is one admission request, as the plugin receives it.
type Request struct {
	Old, New    runtime.Object // Old nil for a create, New nil for a delete
	Resource    schema.GroupVersionResource
	Kind        schema.GroupVersionKind
	Subresource string
	Namespace   string
	User        UserInfo
	Params      runtime.Object
}

// UserInfo is the authenticated caller.
type UserInfo struct {
	Name   string
	Groups []string
	Extra  map[string][]string
}

// Verdict is what the policy decided.
type Verdict struct {
	Allowed  bool
	Messages []string // of the failed validations
}

// Evaluate runs a compiled policy on one request with the plugin's runtime
// cost budget. An evaluation error denies (failurePolicy Fail).
func Evaluate(v validating.Validator, r Request) Verdict {
	op := admission.Update
	switch {
	case r.Old == nil:
		op = admission.Create
	case r.New == nil:
		op = admission.Delete
	}
	attr := admission.NewAttributesRecord(r.New, r.Old, r.Kind, r.Namespace, "", r.Resource, r.Subresource, op, nil, false, userInfo(r.User))
	va := &admission.VersionedAttributes{Attributes: attr, VersionedKind: r.Kind, VersionedObject: admission.NewLazyObject(r.New), VersionedOldObject: admission.NewLazyObject(r.Old)}
	var ns *corev1.Namespace
	if r.Namespace != "" {
		ns = &corev1.Namespace{}
		ns.Name = r.Namespace
	}
	res := v.Validate(context.Background(), r.Resource, va, r.Params, ns, celconfig.RuntimeCELCostBudget, allowAll{})
	out := Verdict{Allowed: true}
	for _, d := range res.Decisions {
		if d.Action != validating.ActionAdmit {
			out.Allowed = false
			out.Messages = append(out.Messages, fmt.Sprintf("%s: %s", d.Action, d.Message))
		}
	}
	return out
}

type allowAll struct{}

func (allowAll) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}

func userInfo(u UserInfo) user.Info {
	return &user.DefaultInfo{Name: u.Name, Groups: u.Groups, Extra: u.Extra}
}
