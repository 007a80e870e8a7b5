package agree

import (
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/modelgen/modelgen/model"
)

// Side is one of the two generated schemas judged against validator.
type Side string

const (
	OpenAPI Side = "openapi"
	CRD     Side = "crd"
	// Server is the CRD together with the generated validating webhook of
	// the kind, when it has one: what a cluster with modelgen's output
	// installed admits. No category excuses it: a check the CRD cannot
	// carry is the webhook's, so only the documented exceptions of the CRD
	// side (with the same verdict) explain a server divergence.
	Server Side = "server"
)

// Categories of divergences that are expected by design: the generator
// says so with a positioned warning, or the OpenAPI document carries the
// check only as a CEL rule (x-kubernetes-validations), which OpenAPI
// validators do not run. Only the lenient direction is expected: a schema
// accepts what validator rejects. A schema that rejects what validator
// accepts is never excused by a category.
const (
	RuntimeOnly = "runtime-only"
	CELOnly     = "cel-only"
)

// Judgement is the three verdicts on one document.
type Judgement struct {
	Case
	Validator, OpenAPI, CRD Verdict
	// Server is the CRD's verdict followed by the generated webhook's.
	Server Verdict
	// Keywords are the validator keywords that failed (alternatives joined
	// by '|').
	Keywords []string
	// Listed says, per diverging side, why the divergence is expected: a
	// category (RuntimeOnly, CELOnly) or "exception <name>".
	Listed []string
	// Unlisted is set when a side diverges for no listed reason: a bug in
	// the generator (or in the harness).
	Unlisted bool
}

// Diverges reports whether a schema disagrees with validator.
func (j *Judgement) Diverges() bool {
	return j.differs(OpenAPI) || j.differs(CRD) || j.differs(Server)
}

func (j *Judgement) differs(side Side) bool {
	v := j.verdict(side)
	return v.Judged && v.Accept != j.Validator.Accept
}

func (j *Judgement) verdict(side Side) Verdict {
	switch side {
	case CRD:
		return j.CRD
	case Server:
		return j.Server
	}
	return j.OpenAPI
}

func (j *Judgement) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s `validate:%q` probe %q\n", j.Type, j.Field, j.Tag, j.Probe)
	fmt.Fprintf(&b, "\tdocument:  %s\n", j.Doc)
	fmt.Fprintf(&b, "\tvalidator: %s\n\topenapi:   %s\n\tcrd:       %s\n\tserver:    %s", j.Validator, j.OpenAPI, j.CRD, j.Server)
	if len(j.Listed) > 0 {
		fmt.Fprintf(&b, "\n\tlisted:    %s", strings.Join(j.Listed, "; "))
	}
	return b.String()
}

// Report is the outcome of a run.
type Report struct {
	Types []string
	// Fields is the number of constrained fields probed.
	Fields int
	// Documents is the number of documents judged (three ways each).
	Documents int
	// Covered lists the keyword/kind pairs probed, such as "min/string".
	Covered []string
	// Divergences are all documents on which a schema and validator
	// disagree, listed or not.
	Divergences []Judgement
}

// RuntimeOnlyCount is, for one keyword, how many documents the CRD admits
// although validator refuses them for that keyword's check (generation
// warned that the CRD cannot carry it), and on how many of them the server
// side (CRD plus the generated webhook) agrees with validator.
type RuntimeOnlyCount struct {
	Keyword      string
	Documents    int
	ServerAgrees int
}

// RuntimeOnly counts, per failed keyword, the documents the CRD lets
// through by design and the server refuses, sorted by keyword.
func (r *Report) RuntimeOnly() []RuntimeOnlyCount {
	byKeyword := map[string]*RuntimeOnlyCount{}
	for i := range r.Divergences {
		j := &r.Divergences[i]
		if !slices.Contains(j.Listed, string(CRD)+": "+RuntimeOnly) {
			continue
		}
		for _, kw := range j.Keywords {
			c := byKeyword[kw]
			if c == nil {
				c = &RuntimeOnlyCount{Keyword: kw}
				byKeyword[kw] = c
			}
			c.Documents++
			if j.Server.Judged && !j.differs(Server) {
				c.ServerAgrees++
			}
		}
	}
	out := make([]RuntimeOnlyCount, 0, len(byKeyword))
	for _, k := range slices.Sorted(maps.Keys(byKeyword)) {
		out = append(out, *byKeyword[k])
	}
	return out
}

// Unlisted returns the divergences no category or exception explains.
func (r *Report) Unlisted() []Judgement {
	var out []Judgement
	for _, d := range r.Divergences {
		if d.Unlisted {
			out = append(out, d)
		}
	}
	return out
}

// ByReason counts listed divergences by category or exception.
func (r *Report) ByReason() map[string]int {
	out := map[string]int{}
	for _, d := range r.Divergences {
		for _, l := range d.Listed {
			out[l]++
		}
	}
	return out
}

// Summary is one paragraph for a test log.
func (r *Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agree: %d types, %d constrained fields, %d keyword/kind pairs, %d documents judged; %d divergences, %d unlisted",
		len(r.Types), r.Fields, len(r.Covered), r.Documents, len(r.Divergences), len(r.Unlisted()))
	reasons := r.ByReason()
	for _, k := range slices.Sorted(maps.Keys(reasons)) {
		fmt.Fprintf(&b, "\n\t%6d  %s", reasons[k], k)
	}
	return b.String()
}

// Run judges every boundary document.
func (h *Harness) Run() *Report {
	cases := h.Cases()
	results := make([]Judgement, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = h.Judge(cases[i])
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	r := &Report{Types: h.names(), Documents: len(cases), Covered: h.covered()}
	for _, s := range h.subjects {
		r.Fields += len(s.targets)
	}
	for _, j := range results {
		if j.Diverges() {
			r.Divergences = append(r.Divergences, j)
		}
	}
	return r
}

// Judge runs the three judges on a case's document and classifies a
// divergence.
func (h *Harness) Judge(c Case) Judgement {
	s := c.subject
	j := Judgement{Case: c}
	var errs []fieldError
	j.Validator, errs = s.val.judge(c.Doc)
	for _, e := range errs {
		j.Keywords = append(j.Keywords, e.Tag)
	}
	j.OpenAPI = s.oapi.judge(c.Doc)
	j.CRD, j.Server = s.crdAndServer(c.Doc)
	crdReason := ""
	for _, side := range []Side{OpenAPI, CRD} {
		if !j.differs(side) {
			continue
		}
		reason := ""
		if !j.Validator.Accept {
			reason = h.expected(s, errs, side)
		}
		if reason == "" {
			reason = h.exception(&j, side)
		}
		if reason == "" {
			j.Unlisted = true
			continue
		}
		if side == CRD {
			crdReason = reason
		}
		j.Listed = append(j.Listed, string(side)+": "+reason)
	}
	if j.differs(Server) {
		if crdReason == "" || crdReason == RuntimeOnly || j.CRD.Accept != j.Server.Accept {
			j.Unlisted = true
		} else {
			j.Listed = append(j.Listed, string(Server)+": "+crdReason)
		}
	}
	return j
}

// exception returns the documented exception that explains a divergence:
// one that matches it as is, or the normalizing ones that, applied
// together, make the side judge the document as validator does.
func (h *Harness) exception(j *Judgement, side Side) string {
	var normalizers []Exception
	for _, ex := range h.exceptions {
		if ex.Side != "" && ex.Side != side {
			continue
		}
		if ex.Match != nil && ex.Match(j, side) {
			return "exception " + ex.Name
		}
		if ex.Normalize != nil {
			normalizers = append(normalizers, ex)
		}
	}
	if j.subject == nil {
		return ""
	}
	doc, err := decode(j.Doc)
	if err != nil {
		return ""
	}
	var names []string
	for _, ex := range normalizers {
		if ex.Normalize(j, doc) {
			names = append(names, ex.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	v := j.subject.oapi.judge(encode(doc))
	if side == CRD {
		v = j.subject.crd.judge(encode(doc))
	}
	if v.Accept != j.Validator.Accept {
		// what is left may be a matching exception's
		j2 := *j
		j2.Doc = encode(doc)
		if side == CRD {
			j2.CRD = v
		} else {
			j2.OpenAPI = v
		}
		for _, ex := range h.exceptions {
			if ex.Match != nil && (ex.Side == "" || ex.Side == side) && ex.Match(&j2, side) {
				return "exception " + strings.Join(append(names, ex.Name), "+")
			}
		}
		return ""
	}
	return "exception " + strings.Join(names, "+")
}

// expected returns the category that explains why a schema lets through
// what validator rejects, or "" when some failed check should have been
// enforced by the schema.
func (h *Harness) expected(s *subject, errs []fieldError, side Side) string {
	if len(errs) == 0 {
		return ""
	}
	cats := map[string]bool{}
	for _, fe := range errs {
		cat := h.errorCategory(s, fe, side)
		if cat == "" {
			return ""
		}
		cats[cat] = true
	}
	var out []string
	for c := range cats {
		out = append(out, c)
	}
	sort.Strings(out)
	return strings.Join(out, "+")
}

func (h *Harness) errorCategory(s *subject, fe fieldError, side Side) string {
	if h.insideRuntimeOnly(s, fe.Namespace) {
		return RuntimeOnly
	}
	_, f, dives, ok := s.locate(fe.Namespace)
	if !ok {
		return ""
	}
	value, keys := levelAt(f, dives)
	for _, lv := range []*model.Level{value, keys} {
		if lv == nil {
			continue
		}
		for _, c := range lv.Checks {
			if checkName(c) != fe.Tag {
				continue
			}
			if cat := h.checkCategory(c, lv == keys && keys != nil, side); cat != "" {
				return cat
			}
		}
	}
	return ""
}

// insideRuntimeOnly reports a namespace below a field whose whole value
// is runtime-only (model.OptionalStruct), such as Sample.Spec.Opt.Name.
func (h *Harness) insideRuntimeOnly(s *subject, ns string) bool {
	if len(h.wholeRuntimeOnly) == 0 {
		return false
	}
	depth := 0
	for i := 0; i < len(ns); i++ {
		switch ns[i] {
		case '[':
			depth++
		case ']':
			depth--
		}
		if ns[i] != '.' || depth != 0 {
			continue
		}
		// a prefix that ends between fields (map keys may hold dots)
		if _, f, _, ok := s.locate(ns[:i]); ok && h.wholeRuntimeOnly[f] {
			return true
		}
	}
	return false
}

func checkName(c *model.Check) string {
	names := make([]string, len(c.Or))
	for i, u := range c.Or {
		names[i] = u.Keyword.Name()
	}
	return strings.Join(names, "|")
}

// checkCategory says whether a check is, by design, not enforced by one
// side's schema.
func (h *Harness) checkCategory(c *model.Check, onKeys bool, side Side) string {
	if h.warned[c.Pos] {
		return RuntimeOnly
	}
	for _, u := range c.Or {
		if h.warned[u.Pos] {
			return RuntimeOnly
		}
	}
	if side != OpenAPI {
		return ""
	}
	if onKeys {
		return CELOnly
	}
	for _, u := range c.Or {
		self, parent := scratch(u, model.TargetOpenAPI)
		if len(self.XValidations)+len(parent.XValidations) > 0 {
			return CELOnly
		}
	}
	return ""
}

// covered lists the keyword/kind pairs of every probed field.
func (h *Harness) covered() []string {
	set := map[string]bool{}
	var visit func(lv *model.Level)
	visit = func(lv *model.Level) {
		if lv == nil {
			return
		}
		for _, u := range uses(lv) {
			set[u.Keyword.Name()+"/"+kindOf(u.Type).String()] = true
		}
		visit(lv.Dive)
		visit(lv.Keys)
	}
	for _, s := range h.subjects {
		for _, tg := range s.targets {
			visit(tg.field.Validate.Root)
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// JudgeDocument judges a document of one of the types under test, as Run
// judges its boundary documents (divergences classified the same way).
func (h *Harness) JudgeDocument(t reflect.Type, doc []byte) (Judgement, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, s := range h.subjects {
		if s.rt == t {
			return h.Judge(Case{Type: s.name, Field: "(document)", Probe: "given", Doc: doc, Path: s.path, subject: s}), nil
		}
	}
	return Judgement{}, fmt.Errorf("agree: %s is not a type under test", t)
}
