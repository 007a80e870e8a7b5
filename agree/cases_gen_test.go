package agree_test

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"

	"github.com/modelgen/modelgen/internal/testkit"
)

const casesFile = "internal/cases/cases.go"

// caseKind is one Go type the keyword cases are declared on. Each becomes
// one resource (a CRD) whose spec holds, for every keyword the registry
// maps (class schema or CEL) and that accepts the kind, one small struct:
// the keyword without omitempty (Value), with it (Omit), and the fields
// cross-field keywords name (Peer, Mode).
type caseKind struct {
	typ    string // resource name
	goType string
	ref    *model.TypeRef
	// tagPrefix and tagSuffix wrap each keyword: a dive puts it on the
	// elements or keys; max bounds the container so that CEL rules stay
	// within the API server's cost budget.
	tagPrefix, tagSuffix string
}

var (
	stringRef = &model.TypeRef{Kind: model.KindString, GoType: "string"}
	innerRef  = &model.TypeRef{Kind: model.KindStruct, GoType: "Inner"}
	caseKinds = []caseKind{
		{typ: "Strings", goType: "string", ref: stringRef},
		{typ: "StringPointers", goType: "*string", ref: &model.TypeRef{Kind: model.KindPointer, Elem: stringRef, GoType: "*string"}},
		{typ: "Ints", goType: "int", ref: &model.TypeRef{Kind: model.KindInt, GoType: "int"}},
		{typ: "Int32s", goType: "int32", ref: &model.TypeRef{Kind: model.KindInt, Bits: 32, GoType: "int32"}},
		{typ: "Uint8s", goType: "uint8", ref: &model.TypeRef{Kind: model.KindInt, Bits: 8, Unsigned: true, GoType: "uint8"}},
		{typ: "IntPointers", goType: "*int64", ref: &model.TypeRef{Kind: model.KindPointer, Elem: &model.TypeRef{Kind: model.KindInt, Bits: 64, GoType: "int64"}, GoType: "*int64"}},
		{typ: "Floats", goType: "float64", ref: &model.TypeRef{Kind: model.KindFloat, Bits: 64, GoType: "float64"}},
		{typ: "Float32s", goType: "float32", ref: &model.TypeRef{Kind: model.KindFloat, Bits: 32, GoType: "float32"}},
		{typ: "Bools", goType: "bool", ref: &model.TypeRef{Kind: model.KindBool, GoType: "bool"}},
		{typ: "Durations", goType: "time.Duration", ref: &model.TypeRef{Kind: model.KindDuration, Bits: 64, GoType: "time.Duration"}},
		{typ: "Times", goType: "time.Time", ref: &model.TypeRef{Kind: model.KindTime, GoType: "time.Time", ImportPath: "time", TypeName: "Time"}},
		{typ: "MetaTimes", goType: "metav1.Time", ref: &model.TypeRef{Kind: model.KindTime, GoType: "metav1.Time", ImportPath: "k8s.io/apimachinery/pkg/apis/meta/v1", TypeName: "Time"}},
		{typ: "Slices", goType: "[]string", ref: &model.TypeRef{Kind: model.KindSlice, Len: -1, Elem: stringRef, GoType: "[]string"}},
		{typ: "Maps", goType: "map[string]string", ref: &model.TypeRef{Kind: model.KindMap, Key: stringRef, Elem: stringRef, GoType: "map[string]string"}},
		{typ: "Bytes", goType: "[]byte", ref: &model.TypeRef{Kind: model.KindBytes, GoType: "[]byte"}},
		{typ: "Structs", goType: "Inner", ref: innerRef},
		{typ: "StructPointers", goType: "*Inner", ref: &model.TypeRef{Kind: model.KindPointer, Elem: innerRef, GoType: "*Inner"}},
		{typ: "Elements", goType: "[]string", ref: stringRef, tagPrefix: "omitempty,max=4,dive,"},
		{typ: "Keys", goType: "map[string]string", ref: stringRef, tagPrefix: "omitempty,max=4,dive,keys,", tagSuffix: ",endkeys"},
	}
)

// params are the parameters each keyword is declared with, per kind; a
// keyword whose Resolve refuses the kind and parameter is not declared.
func params(kw string, k model.Kind) []string {
	numeric := map[model.Kind][]string{
		model.KindString: {"3"}, model.KindInt: {"3"}, model.KindFloat: {"0.5", "2", "-1.5"},
		model.KindDuration: {"3"}, model.KindSlice: {"2"}, model.KindMap: {"2"}, model.KindBytes: {"2"}, model.KindTime: {""},
	}
	switch kw {
	case "len", "min", "max", "lt", "lte", "gt", "gte":
		return numeric[k]
	case "eq", "ne":
		switch k {
		case model.KindString:
			return []string{"yes"}
		case model.KindBool:
			return []string{"true", "false"}
		}
		return numeric[k]
	case "oneof", "noneof":
		if k == model.KindString {
			return []string{"red green 'light blue'"}
		}
		return []string{"1 2 3"}
	case "oneofci", "noneofci":
		return []string{"alpha kelvin sun"}
	case "contains":
		return []string{"mid", "a.b"}
	case "containsany", "excludesall":
		return []string{"!@", "^-]"}
	case "containsrune", "excludesrune":
		return []string{"@"}
	case "excludes":
		return []string{"bad"}
	case "startswith", "startsnotwith":
		return []string{"ab", "a+"}
	case "endswith", "endsnotwith":
		return []string{"yz"}
	case "eqfield", "nefield", "gtfield", "gtefield", "ltfield", "ltefield":
		return []string{"Peer"}
	}
	if strings.HasSuffix(kw, "_if") || strings.HasSuffix(kw, "_unless") {
		return []string{"Mode on"}
	}
	if strings.HasPrefix(kw, "required_") || strings.HasPrefix(kw, "excluded_") {
		return []string{"Peer"}
	}
	return []string{""}
}

// mapped are the keywords the generator carries into schemas.
func mapped() []model.Keyword {
	var out []model.Keyword
	for _, k := range model.Keywords() {
		if schema.HasLowering(k.Name()) && (k.Class() == model.Schema || k.Class() == model.CEL) {
			out = append(out, k)
		}
	}
	return out
}

// applies reports whether a keyword with a parameter resolves on a kind.
func applies(kw model.Keyword, param string, ck caseKind) bool {
	peerType := ck.ref
	owner := &model.Type{Name: ck.typ + "Spec", TypeKind: model.TypeStruct}
	owner.Fields = []*model.Field{
		{GoName: "Peer", JSONName: "peer", Type: peerType},
		{GoName: "Mode", JSONName: "mode", Type: stringRef},
	}
	self := &model.Field{GoName: "Self", JSONName: "self", Type: ck.ref}
	dived := ck.tagPrefix != ""
	if dived && isCross(kw.Name()) {
		return false
	}
	u := &model.Use{Keyword: kw, Name: kw.Name(), Param: param, Type: ck.ref, Owner: owner, Field: self, Dived: dived}
	_, err := kw.Resolve(u)
	return err == nil
}

func isCross(name string) bool {
	return strings.HasSuffix(name, "field") || strings.HasPrefix(name, "required_") || strings.HasPrefix(name, "excluded_")
}

func renderCases() []byte {
	var b bytes.Buffer
	b.WriteString(`// Code generated by TestCasesAreCurrent (go test ./agree -run TestCasesAreCurrent -update). DO NOT EDIT.

// Package cases declares one resource per kind and, in its spec, one small
// struct per validate keyword the registry maps on that kind: Value holds
// the keyword without omitempty, Omit with it, Peer and Mode are the
// fields cross-field keywords name. Small structs keep each document (and
// each CEL rule's object) small: the agreement suite's inputs.
//
// +groupName=cases.agree.modelgen.dev
package cases

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var _ time.Duration

// Inner is the struct the struct kinds hold; its zero value is valid.
type Inner struct {
	Name  string ` + "`" + `json:"name,omitempty" validate:"omitempty,max=3"` + "`" + `
	Count int    ` + "`" + `json:"count,omitempty"` + "`" + `
}

`)
	var structs bytes.Buffer
	for _, ck := range caseKinds {
		fmt.Fprintf(&b, "// %s declares the keywords on %s.\n//\n// +kubebuilder:object:root=true\ntype %s struct {\n", ck.typ, ck.goType, ck.typ)
		fmt.Fprintf(&b, "\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec %sSpec `json:\"spec\"`\n}\n\n", ck.typ)
		fmt.Fprintf(&b, "// %sSpec holds one struct per keyword.\ntype %sSpec struct {\n", ck.typ, ck.typ)
		for _, kw := range mapped() {
			for i, p := range params(kw.Name(), ck.ref.Deref().Kind) {
				if !applies(kw, p, ck) {
					continue
				}
				name := goName(kw.Name())
				if i > 0 {
					name += fmt.Sprint(i + 1)
				}
				term := kw.Name()
				if p != "" {
					term += "=" + p
				}
				typ := ck.typ + name
				fmt.Fprintf(&b, "\t%s *%s `json:%q`\n", name, typ, lowerFirst(name)+",omitempty")
				fmt.Fprintf(&structs, "// %s declares %s on %s.\ntype %s struct {\n", typ, term, ck.goType, typ)
				if ck.tagPrefix != "" {
					fmt.Fprintf(&structs, "\tValue %s `json:\"value,omitempty\" validate:%q`\n}\n\n", ck.goType, ck.tagPrefix+term+ck.tagSuffix)
					continue
				}
				fmt.Fprintf(&structs, "\tValue %s `json:\"value,omitempty\" validate:%q`\n", ck.goType, term)
				fmt.Fprintf(&structs, "\tOmit %s `json:\"omit,omitempty\" validate:%q`\n", ck.goType, "omitempty,"+term)
				if isCross(kw.Name()) {
					fmt.Fprintf(&structs, "\tPeer %s `json:\"peer,omitempty\"`\n", ck.goType)
					if strings.Contains(p, "Mode") {
						fmt.Fprintf(&structs, "\tMode string `json:\"mode,omitempty\"`\n")
					}
				}
				structs.WriteString("}\n\n")
			}
		}
		b.WriteString("}\n\n")
	}
	b.Write(structs.Bytes())
	out, err := format.Source(b.Bytes())
	if err != nil {
		panic(fmt.Sprintf("%v\n%s", err, b.Bytes()))
	}
	return out
}

func goName(kw string) string {
	var b strings.Builder
	up := true
	for _, r := range kw {
		if r == '_' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

func lowerFirst(s string) string {
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// TestCasesAreCurrent keeps internal/cases in step with the registry: a
// keyword added to the registry is declared (and so probed) on every kind
// it accepts.
func TestCasesAreCurrent(t *testing.T) {
	want := renderCases()
	path := filepath.FromSlash(casesFile)
	if testkit.Update() {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go test ./agree -run TestCasesAreCurrent -update", casesFile)
	}
}
