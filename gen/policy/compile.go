package policy

import (
	"github.com/google/cel-go/cel"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/version"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
)

// MinKubernetes is the oldest API server the generated policies load on
// (docs/kubernetes-versions.md): they iterate lists by index and drop null
// fields with two-variable comprehensions (exists(i, v, ...),
// transformMap), which belong to the CEL environment of compatibility
// version 1.32, and an API server compiles a new policy's expressions with
// the environment of its minimum compatibility version, one minor below
// its own (k8s.io/apiserver pkg/cel/environment, DefaultCompatibilityVersion).
var MinKubernetes = version.MajorMinor(1, 33)

// ExprError is an expression the API server would refuse.
type ExprError struct {
	Expr Expr
	Err  error
}

// CompileErrors compiles every expression of a policy as the API server
// does when the policy is created (environment.NewExpressions) on the
// oldest server the policies support, with the validating admission policy
// plugin's own compiler: variables composed in order, params declared when
// the policy has a paramKind, messageExpressions without the authorizer.
func CompileErrors(p *admissionv1.ValidatingAdmissionPolicy, checks []Check) []ExprError {
	return compileErrorsOn(p, checks, MinKubernetes)
}

// compileErrorsOn compiles as an API server of version server does.
func compileErrorsOn(p *admissionv1.ValidatingAdmissionPolicy, checks []Check, server *version.Version) []ExprError {
	cc, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(server.SubtractMinor(1)))
	if err != nil {
		return []ExprError{{Err: err}}
	}
	hasParams := p.Spec.ParamKind != nil
	opts := plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}
	msgOpts := plugincel.OptionalVariableDeclarations{HasParams: hasParams}
	mode := environment.NewExpressions
	exprs := Exprs(p, checks)
	var out []ExprError
	add := func(e Expr, r plugincel.CompilationResult) {
		if r.Error != nil {
			out = append(out, ExprError{Expr: e, Err: r.Error})
		}
	}
	k := 0
	for i := range p.Spec.MatchConditions {
		add(exprs[k], cc.CompileCELExpression((*matchconditions.MatchCondition)(&p.Spec.MatchConditions[i]), opts, mode))
		k++
	}
	for _, v := range p.Spec.Variables {
		add(exprs[k], cc.CompileAndStoreVariable(&variable{name: v.Name, expression: v.Expression}, opts, mode))
		k++
	}
	for _, v := range p.Spec.Validations {
		add(exprs[k], cc.CompileCELExpression(&condition{expression: v.Expression}, opts, mode))
		add(exprs[k+1], cc.CompileCELExpression(&message{expression: v.MessageExpression}, msgOpts, mode))
		k += 2
	}
	return out
}

// The expressions the plugin compiles, with the return types its
// validating package gives them (Variable, ValidationCondition,
// MessageExpressionCondition; TestAccessorsAreThePlugins holds them
// equal). They live here so that generate does not link that package,
// which brings client-go's typed clients, informers and fakes (a third of
// the command's packages) into every build of the tool; the evaluator the
// tests use is in gen/policy/evaluate.
type variable struct{ name, expression string }

func (v *variable) GetExpression() string    { return v.expression }
func (v *variable) ReturnTypes() []*cel.Type { return []*cel.Type{cel.AnyType, cel.DynType} }
func (v *variable) GetName() string          { return v.name }

type condition struct{ expression string }

func (c *condition) GetExpression() string    { return c.expression }
func (c *condition) ReturnTypes() []*cel.Type { return []*cel.Type{cel.BoolType} }

type message struct{ expression string }

func (m *message) GetExpression() string    { return m.expression }
func (m *message) ReturnTypes() []*cel.Type { return []*cel.Type{cel.StringType} }
