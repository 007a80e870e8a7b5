package schema

import (
	"errors"
	"fmt"
	"strings"
	"time"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/library"
)

// compileAtMin compiles the rules of one schema node as an API server of
// MinKubernetes compiles a new CRD's rules (apiextensions-apiserver's
// cel.Compile with its NewExpressions environment), with the same results
// and errors, at a fraction of the cost: cel.Compile extends four
// environments per node (new and stored expressions, each with oldSelf and
// with an optional oldSelf) and estimates every rule's cost, and this check
// reads one environment (the optional oldSelf's only for a rule that asks
// for it) and no cost, the budget being the CRD validation's concern.
// Whether a rule compiles is decided exactly as there: the same
// environment, the same parse and type check, the output type, the program.
func (c *ruleCompiler) compileAtMin(s *structuralschema.Structural, declType *apiservercel.DeclType) ([]cel.CompilationResult, error) {
	if len(s.XValidations) == 0 {
		return nil, nil
	}
	if declType == nil {
		return nil, errors.New("failed to convert to declType for CEL validation rules")
	}
	envs := selfEnvs{
		base:   c.serverEnv(MinKubernetes.Minor()).NewExpressionsEnv(),
		compat: MinKubernetes.SubtractMinor(1),
		// the server's name for the node's type (a name of its own per
		// compilation)
		self: declType.MaybeAssignTypeName(fmt.Sprintf("selfType%d", time.Now().Nanosecond())),
	}
	results := make([]cel.CompilationResult, len(s.XValidations))
	for i, rule := range s.XValidations {
		env, err := envs.get(rule.OptionalOldSelf != nil && *rule.OptionalOldSelf)
		if err != nil {
			return nil, err
		}
		results[i] = compileOne(rule, env)
	}
	return results, nil
}

// selfEnvs are the environments of one node's rules: the base environment
// with self and oldSelf declared as the node's type, as prepareEnvSet of
// apiextensions-apiserver's cel package extends it, built when first asked.
type selfEnvs struct {
	base          *celgo.Env
	compat        *version.Version
	self          *apiservercel.DeclType
	plain, optOld *celgo.Env
}

func (e *selfEnvs) get(optionalOldSelf bool) (*celgo.Env, error) {
	at := &e.plain
	if optionalOldSelf {
		at = &e.optOld
	}
	if *at != nil {
		return *at, nil
	}
	old := e.self.CelType()
	if optionalOldSelf {
		old = types.NewOptionalType(old)
	}
	opts := []celgo.EnvOption{celgo.Variable(cel.ScopedVarName, e.self.CelType())}
	if e.compat.AtLeast(version.MajorMinor(1, 24)) {
		opts = append(opts, celgo.Variable(cel.OldScopedVarName, old))
	}
	provider := apiservercel.NewDeclTypeProvider(e.self)
	if e.compat.AtLeast(version.MajorMinor(1, 31)) {
		provider.SetRecognizeKeywordAsFieldName(true)
	}
	providerOpts, err := provider.EnvOptions(e.base.CELTypeProvider())
	if err != nil {
		return nil, err
	}
	env, err := e.base.Extend(celgo.Lib(compileOptions(append(opts, providerOpts...))))
	if err != nil {
		return nil, err
	}
	*at = env
	return env, nil
}

// compileOptions is a library of compile options only, as the
// environment package's extensions are.
type compileOptions []celgo.EnvOption

func (o compileOptions) CompileOptions() []celgo.EnvOption   { return o }
func (compileOptions) ProgramOptions() []celgo.ProgramOption { return nil }

// compileOne is apiextensions-apiserver's compileRule without the cost
// estimates: the same errors, with the same details, in the same order.
func compileOne(rule apiext.ValidationRule, env *celgo.Env) (r cel.CompilationResult) {
	if len(strings.TrimSpace(rule.Rule)) == 0 {
		return r
	}
	if r.Error = compileExpr(env, rule.Rule, celgo.BoolType, "", "cel expression must evaluate to a bool"); r.Error != nil {
		return r
	}
	if rule.MessageExpression != "" {
		r.MessageExpressionError = compileExpr(env, rule.MessageExpression, celgo.StringType, "messageExpression ", "messageExpression must evaluate to a string")
	}
	return r
}

// compileExpr compiles one expression and makes its program, as the
// server does, and returns the server's error for what fails.
func compileExpr(env *celgo.Env, expr string, want *celgo.Type, prefix, wrongType string) *apiservercel.Error {
	ast, issues := env.Compile(expr)
	if issues != nil {
		return &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: prefix + "compilation failed: " + issues.String()}
	}
	if ast.OutputType() != want {
		return &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: wrongType}
	}
	if _, err := celgo.AstToCheckedExpr(ast); err != nil {
		return &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "unexpected " + prefix + "compilation error: " + err.Error()}
	}
	_, err := env.Program(ast,
		celgo.CostLimit(celconfig.PerCallLimit),
		celgo.CostTracking(&library.CostEstimator{}),
		celgo.InterruptCheckFrequency(celconfig.CheckFrequency),
	)
	if err != nil {
		what := "program"
		if prefix != "" {
			what = "messageExpression"
		}
		return &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: what + " instantiation failed: " + err.Error()}
	}
	return nil
}
