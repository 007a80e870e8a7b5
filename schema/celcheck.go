package schema

import (
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celmodel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/modelgen/modelgen/model"
)

// CompileRules compiles every CEL rule (x-kubernetes-validations: rule and
// messageExpression) in the schemas of the given types with the API
// server's own CEL compiler, each against the schema it sits on, and
// reports each rule that does not compile at the Go field (or type) it is
// written for. The CRD backend gets the same check from the API server's
// CRD validation; this one covers every schema, those that only the OpenAPI
// document carries included, so no output holds a rule that does not
// compile. The cost budget is the CRD check's concern: it depends on where
// a type is used.
func (s *Set) CompileRules(types []*model.Type) model.Diagnostics {
	var diags model.Diagnostics
	rc := s.RuleCompiler()
	for _, t := range types {
		diags.Add(rc.Compile(t, func() *apiext.JSONSchemaProps {
			s.Parser.NeedFlattenedSchemaFor(Ident(t))
			flat := s.Parser.FlattenedSchemata[Ident(t)]
			return &flat
		}))
	}
	return diags
}

// A RuleCompiler is CompileRules one type at a time, so that a caller that
// flattens each type's schema for its own purpose (the CRD backend, one
// CRD at a time) compiles its rules against that schema and lets it go.
type RuleCompiler struct {
	s   *Set
	env *environment.EnvSet
	// envs are the environments of older servers, by minor version
	envs map[uint]*environment.EnvSet
}

// RuleCompiler returns a compiler of the set's CEL rules.
func (s *Set) RuleCompiler() *RuleCompiler {
	return &RuleCompiler{s: s, env: environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), envs: map[uint]*environment.EnvSet{}}
}

// Compile compiles the rules of one type's schema, as CompileRules does;
// flat returns the type's flattened schema (FlattenEmbedded of controller-
// tools' flattened type), asked for only when the type has rules.
func (rc *RuleCompiler) Compile(t *model.Type, flat func() *apiext.JSONSchemaProps) model.Diagnostics {
	if t.TypeKind != model.TypeStruct {
		return nil
	}
	own := rc.s.Parser.Schemata[Ident(t)]
	if !hasRules(&own) {
		return nil
	}
	var diags model.Diagnostics
	c := &ruleCompiler{env: rc.env, diags: &diags, envs: rc.envs}
	c.walk(&own, flat(), t, t.Root && t.Resource != nil, t.Pos, t.Name)
	return diags
}

// MinKubernetes is the oldest Kubernetes the generated CRDs are for
// (docs/crds.md): the rules modelgen writes all compile there. An API
// server compiles a CRD's new rules with the CEL libraries of its minimum
// compatibility version, one minor below its own.
var MinKubernetes = version.MajorMinor(1, 31)

type ruleCompiler struct {
	env   *environment.EnvSet
	diags *model.Diagnostics
	// envs are the environments of older servers, by minor version
	envs map[uint]*environment.EnvSet
}

// serverEnv is the environment a Kubernetes 1.<minor> server compiles new
// CRD rules with.
func (c *ruleCompiler) serverEnv(minor uint) *environment.EnvSet {
	if e, ok := c.envs[minor]; ok {
		return e
	}
	e := environment.MustBaseEnvSet(version.MajorMinor(1, minor-1))
	c.envs[minor] = e
	return e
}

// walk compiles the rules of the nodes of a type's own schema (own), each
// against the flattened node (flat) that the server would see; a $ref in
// own is another type's, compiled when that type's turn comes.
func (c *ruleCompiler) walk(own, flat *apiext.JSONSchemaProps, t *model.Type, resourceRoot bool, pos model.Pos, where string) {
	if own == nil || flat == nil || own.Ref != nil {
		return
	}
	if len(own.XValidations) > 0 {
		c.compile(flat, resourceRoot, pos, where)
	}
	for _, name := range sortedNames(own.Properties) {
		o, f := own.Properties[name], flat.Properties[name]
		p := pos
		if field := fieldOf(t, name); field != nil {
			p = field.Pos
			if field.Validate != nil {
				p = field.Validate.Raw.Pos
			}
		}
		c.walk(&o, &f, nil, false, p, where+"."+name)
	}
	if own.Items != nil && own.Items.Schema != nil && flat.Items != nil {
		c.walk(own.Items.Schema, flat.Items.Schema, nil, false, pos, where+"[]")
	}
	if own.AdditionalProperties != nil && own.AdditionalProperties.Schema != nil && flat.AdditionalProperties != nil {
		c.walk(own.AdditionalProperties.Schema, flat.AdditionalProperties.Schema, nil, false, pos, where+"{}")
	}
}

func (c *ruleCompiler) compile(flat *apiext.JSONSchemaProps, resourceRoot bool, pos model.Pos, where string) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiext.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(flat, internal, nil); err != nil {
		c.diags.Errorf(pos, "%s: the API server cannot read the schema its CEL rules are on: %v", where, err)
		return
	}
	structural, err := structuralschema.NewStructural(internal)
	if err != nil {
		c.diags.Errorf(pos, "%s: the API server cannot read the schema its CEL rules are on: %v", where, err)
		return
	}
	declType := celmodel.SchemaDeclType(structural, resourceRoot)
	// at the stated minimum first: what compiles there compiles on every
	// newer server, and that is the common case (one compilation)
	results, err := c.compileAtMin(structural, declType)
	if err != nil {
		c.diags.Errorf(pos, "%s: the API server cannot compile its CEL rules: %v", where, err)
		return
	}
	if !compiled(results) {
		results = c.newerOnly(structural, declType, results, flat, pos, where)
	}
	for i, r := range results {
		rule := flat.XValidations[i]
		if r.Error != nil {
			c.diags.Errorf(pos, "%s: CEL rule %q does not compile: %s", where, rule.Rule, r.Error.Detail)
		}
		if r.MessageExpressionError != nil {
			c.diags.Errorf(pos, "%s: the messageExpression %q of CEL rule %q does not compile: %s", where, rule.MessageExpression, rule.Rule, r.MessageExpressionError.Detail)
		}
	}
}

func compiled(results []cel.CompilationResult) bool {
	for _, r := range results {
		if r.Error != nil || r.MessageExpressionError != nil {
			return false
		}
	}
	return true
}

// newerOnly compiles the rules that a server of the stated minimum refuses
// with the newest environment: one that compiles there is a warning naming
// the first Kubernetes that accepts it (a rule a user wrote with a newer
// CEL library: a server older than that refuses the CRD), and the results
// returned hold only what no server accepts.
func (c *ruleCompiler) newerOnly(structural *structuralschema.Structural, declType *apiservercel.DeclType, atMin []cel.CompilationResult, flat *apiext.JSONSchemaProps, pos model.Pos, where string) []cel.CompilationResult {
	newest, err := cel.Compile(structural, declType, celconfig.PerCallLimit, c.env, cel.NewExpressionsEnvLoader())
	if err != nil || len(newest) != len(atMin) {
		return atMin
	}
	for i, r := range newest {
		if r.Error != nil || r.MessageExpressionError != nil || atMin[i].Error == nil && atMin[i].MessageExpressionError == nil {
			continue
		}
		rule := flat.XValidations[i]
		c.diags.Warnf(pos, "%s: CEL rule %q needs Kubernetes %s or later (on older servers: %s), but the generated CRDs are for Kubernetes %s and later (docs/crds.md): a %s server refuses this CRD", where, rule.Rule, c.firstAccepting(structural, declType, i), firstError(atMin[i]), MinKubernetes, MinKubernetes)
	}
	return newest
}

// firstAccepting finds the oldest Kubernetes whose server compiles rule i.
func (c *ruleCompiler) firstAccepting(structural *structuralschema.Structural, declType *apiservercel.DeclType, i int) string {
	top := environment.DefaultCompatibilityVersion().Minor() + 1
	for minor := MinKubernetes.Minor() + 1; minor < top; minor++ {
		rs, err := cel.Compile(structural, declType, celconfig.PerCallLimit, c.serverEnv(minor), cel.NewExpressionsEnvLoader())
		if err == nil && i < len(rs) && rs[i].Error == nil && rs[i].MessageExpressionError == nil {
			return version.MajorMinor(1, minor).String()
		}
	}
	return version.MajorMinor(1, top).String()
}

// firstError is the first line of a compilation error, without the
// compiler's prefixes ("undeclared reference to 'format' ...").
func firstError(r cel.CompilationResult) string {
	detail, prefix := "", ""
	switch {
	case r.Error != nil:
		detail = r.Error.Detail
	case r.MessageExpressionError != nil:
		detail, prefix = r.MessageExpressionError.Detail, "messageExpression: "
	}
	detail, _, _ = strings.Cut(detail, "\n")
	detail = strings.TrimPrefix(detail, "messageExpression ")
	detail = strings.TrimPrefix(detail, "compilation failed: ")
	detail = strings.TrimPrefix(detail, "ERROR: ")
	if _, rest, ok := strings.Cut(detail, ": "); ok && strings.HasPrefix(detail, "<input>") {
		detail = rest
	}
	return prefix + detail
}

// hasRules reports whether a schema or anything inside it (short of a
// $ref) carries CEL rules.
func hasRules(s *apiext.JSONSchemaProps) bool {
	if s == nil || s.Ref != nil {
		return false
	}
	if len(s.XValidations) > 0 {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(&p) {
			return true
		}
	}
	if s.Items != nil && hasRules(s.Items.Schema) {
		return true
	}
	return s.AdditionalProperties != nil && hasRules(s.AdditionalProperties.Schema)
}

// fieldOf finds the field of t (inlined structs included) with a JSON name.
func fieldOf(t *model.Type, name string) *model.Field {
	if t == nil {
		return nil
	}
	for _, f := range t.Fields {
		if f.JSONName == name && !f.Inline {
			return f
		}
		if f.Inline || f.JSONName == "" {
			if inner := f.Type.Deref().Named; inner != nil {
				if g := fieldOf(inner, name); g != nil {
					return g
				}
			}
		}
	}
	return nil
}

func sortedNames(m map[string]apiext.JSONSchemaProps) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
