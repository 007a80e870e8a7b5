package openapi_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-playground/validator/v10"
)

// Mirrors of the golden cases' types with the same tags, so validator can
// judge JSON documents against them. TestMirrorsMatchTestdata keeps them in
// step with testdata. Cross-field and runtime-only rules are left out of the
// samples: kin-openapi does not run CEL, and runtime-only checks are not in
// the schema by design.

type ticket struct {
	Title      string            `json:"title" validate:"required,min=5,max=120"`
	Email      string            `json:"email" validate:"required,email"`
	Level      string            `json:"level" validate:"required,oneof=low high"`
	Score      float64           `json:"score" validate:"gte=0,lte=1"`
	Attempts   *int              `json:"attempts,omitempty" validate:"omitempty,max=3"`
	Tags       []string          `json:"tags" validate:"required,min=1,max=5,unique,dive,alpha,max=16"`
	Attrs      map[string]int    `json:"attrs,omitempty" validate:"omitempty,max=10,dive,gte=0"`
	Labels     map[string]string `json:"labels,omitempty"`
	Reporter   person            `json:"reporter" validate:"required"`
	Assignee   *person           `json:"assignee,omitempty"`
	Escalation *string           `json:"escalation,omitempty" validate:"omitempty,oneof=low high"`
	Color      string            `json:"color,omitempty" validate:"omitempty,hexcolor|rgb"`
	Active     bool              `json:"active" validate:"required"`
	Start      int               `json:"start,omitempty"`
	End        int               `json:"end,omitempty" validate:"omitempty,gtfield=Start"`
	Notes      string            `json:"notes,omitempty" validate:"-"`
}

type person struct {
	Name string `json:"name" validate:"required,max=64"`
	Age  uint8  `json:"age,omitempty" validate:"omitempty,gt=0,lte=150"`
}

type orderSpec struct {
	Customer  string            `json:"customer" validate:"required,min=3,max=64"`
	Quantity  int32             `json:"quantity" validate:"required,gte=1,lte=100"`
	Price     float64           `json:"price" validate:"gt=0,lt=10000"`
	Shipping  string            `json:"shipping" validate:"required,oneof=standard express 'next day'"`
	Coupon    string            `json:"coupon,omitempty" validate:"omitempty,len=8,alphanum"`
	Lines     []line            `json:"lines" validate:"required,min=1,max=50,dive"`
	Labels    map[string]string `json:"labels,omitempty" validate:"omitempty,max=8,dive,keys,min=1,max=32,endkeys,max=128"`
	Gift      *giftWrap         `json:"gift,omitempty"`
	Discount  *int64            `json:"discount,omitempty" validate:"omitempty,min=0,max=50"`
	NotBefore int64             `json:"notBefore,omitempty"`
	NotAfter  int64             `json:"notAfter,omitempty" validate:"omitempty,gtfield=NotBefore"`
	GiftNote  string            `json:"giftNote,omitempty" validate:"required_if=Shipping express,omitempty,max=200"`
}

type line struct {
	SKU   string `json:"sku" validate:"required,uppercase,alphanum,len=10"`
	Count uint16 `json:"count" validate:"min=1"`
}

type giftWrap struct {
	Color string   `json:"color" validate:"required,oneof=red green gold"`
	Tags  []string `json:"tags,omitempty" validate:"omitempty,unique,dive,min=1"`
}

type omits struct {
	NilString  string            `json:"nilString" validate:"omitnil,min=3"`
	ZeroPtr    *string           `json:"zeroPtr,omitempty" validate:"omitzero,min=3"`
	EmptyPtr   *string           `json:"emptyPtr,omitempty" validate:"omitempty,min=3"`
	NilPtr     *string           `json:"nilPtr,omitempty" validate:"omitnil,min=3"`
	ZeroList   []string          `json:"zeroList,omitempty" validate:"omitzero,min=2"`
	ZeroMap    map[string]string `json:"zeroMap,omitempty" validate:"omitzero,min=2"`
	EmptyList  []string          `json:"emptyList,omitempty" validate:"omitempty,min=2"`
	ZeroInt    int               `json:"zeroInt,omitempty" validate:"omitzero,gte=5"`
	BeforeOmit string            `json:"beforeOmit,omitempty" validate:"max=5,omitempty,min=2"`
}

var mirrors = []struct {
	file, typ string
	v         any
}{
	{"plainmodel/types.go", "Ticket", ticket{}},
	{"plainmodel/types.go", "Person", person{}},
	{"resource/types.go", "OrderSpec", orderSpec{}},
	{"resource/types.go", "Line", line{}},
	{"resource/types.go", "GiftWrap", giftWrap{}},
	{"omit/types.go", "Omits", omits{}},
}

func TestMirrorsMatchTestdata(t *testing.T) {
	for _, m := range mirrors {
		want := structTags(t, filepath.Join("testdata", m.file), m.typ)
		rt := reflect.TypeOf(m.v)
		if rt.NumField() != len(want) {
			t.Errorf("%s: mirror has %d fields, testdata has %d", m.typ, rt.NumField(), len(want))
			continue
		}
		for i := 0; i < rt.NumField(); i++ {
			if got := string(rt.Field(i).Tag); got != want[i] {
				t.Errorf("%s field %d: mirror tag %q, testdata tag %q", m.typ, i, got, want[i])
			}
		}
	}
}

func structTags(t *testing.T, file, typ string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != typ {
			return true
		}
		for _, fld := range ts.Type.(*ast.StructType).Fields.List {
			tag := ""
			if fld.Tag != nil {
				tag, _ = strconv.Unquote(fld.Tag.Value)
			}
			for range max(1, len(fld.Names)) {
				tags = append(tags, tag)
			}
		}
		return false
	})
	return tags
}

// TestSchemasAgreeWithValidator feeds boundary documents to validator (via
// json.Unmarshal into the mirrors) and to the generated component schemas
// (kin-openapi), and demands the same verdict.
func TestSchemasAgreeWithValidator(t *testing.T) {
	g := generate(t)
	v := validator.New()
	ticketBase := `{"title":"Hello","email":"a@b.co","level":"low","tags":["abc"],"reporter":{"name":"N"},"active":true}`
	orderBase := `{"customer":"Bob","quantity":1,"price":0.5,"shipping":"next day","lines":[{"sku":"ABCDEFGHIJ","count":1}]}`
	tests := []struct {
		doc, component string
		mirror         func() any
		base           string
		patch          map[string]any // fields set (nil value: removed) on base
		valid          bool           // what validator says, checked below too
	}{
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, nil, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"title": nil}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"title": "Hell"}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"title": "Héllö"}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"title": strings.Repeat("é", 120)}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"title": strings.Repeat("é", 121)}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"email": "not-an-email"}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"level": "medium"}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"level": ""}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"active": false}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"active": nil}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"score": 0}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"score": 1}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"score": 1.01}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"attempts": 0}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"attempts": 4}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"tags": []any{}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"tags": nil}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"tags": []any{"a", "a"}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"tags": []any{"a1"}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"tags": []any{"a", "b", "c", "d", "e", "f"}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"attrs": map[string]any{"a": 0}}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"attrs": map[string]any{"a": -1}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"reporter": map[string]any{"name": ""}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"reporter": map[string]any{"name": "x", "age": 0}}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"reporter": map[string]any{"name": "x", "age": 150}}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"reporter": map[string]any{"name": "x", "age": 151}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"assignee": map[string]any{"name": ""}}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"assignee": nil}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"assignee": map[string]any{"name": "x"}}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"escalation": nil}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"escalation": "high"}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"escalation": "medium"}, false},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"color": ""}, true},
		{"plainmodel", "Ticket", func() any { return &ticket{} }, ticketBase, map[string]any{"notes": strings.Repeat("x", 1000)}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, nil, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"customer": "Bo"}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"quantity": 0}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"quantity": 100}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"quantity": 101}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"price": nil}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"price": 0}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"price": 9999.99}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"price": 10000}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"shipping": "next"}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"shipping": "express", "giftNote": "for Ann"}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"coupon": ""}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"coupon": "ABCD1234"}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"coupon": "ABC"}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"coupon": "ABCD-123"}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"lines": []any{}}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"lines": []any{map[string]any{"sku": "ABCDEFGHIJ", "count": 0}}}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"lines": []any{map[string]any{"sku": "ABCDEFGHI", "count": 1}}}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"labels": map[string]any{"a": strings.Repeat("v", 128)}}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"labels": map[string]any{"a": strings.Repeat("v", 129)}}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"discount": 51}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"discount": 0}, true},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"gift": map[string]any{"color": "blue"}}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"gift": map[string]any{"color": "red", "tags": []any{"x", "x"}}}, false},
		{"resource", "OrderSpec", func() any { return &orderSpec{} }, orderBase, map[string]any{"giftNote": strings.Repeat("n", 201)}, false},
	}
	omitsBase := `{"nilString":"abc"}`
	om := func() any { return &omits{} }
	for _, c := range []struct {
		patch map[string]any
		valid bool
	}{
		{nil, true},
		{map[string]any{"nilString": nil}, false},
		{map[string]any{"nilString": ""}, false},
		{map[string]any{"zeroPtr": ""}, true},
		{map[string]any{"zeroPtr": "ab"}, false},
		{map[string]any{"zeroPtr": "abc"}, true},
		{map[string]any{"emptyPtr": ""}, false},
		{map[string]any{"emptyPtr": "abc"}, true},
		{map[string]any{"nilPtr": ""}, false},
		{map[string]any{"zeroList": []any{}}, true},
		{map[string]any{"zeroList": []any{"a"}}, false},
		{map[string]any{"zeroList": []any{"a", "b"}}, true},
		{map[string]any{"zeroMap": map[string]any{}}, true},
		{map[string]any{"zeroMap": map[string]any{"a": "b"}}, false},
		{map[string]any{"emptyList": []any{}}, false},
		{map[string]any{"emptyList": []any{"a", "b"}}, true},
		{map[string]any{"zeroInt": 0}, true},
		{map[string]any{"zeroInt": 3}, false},
		{map[string]any{"zeroInt": 5}, true},
		{map[string]any{"beforeOmit": ""}, true},
		{map[string]any{"beforeOmit": "a"}, false},
		{map[string]any{"beforeOmit": "abcdef"}, false},
	} {
		tests = append(tests, struct {
			doc, component string
			mirror         func() any
			base           string
			patch          map[string]any
			valid          bool
		}{"omit", "Omits", om, omitsBase, c.patch, c.valid})
	}
	docs := map[string]*openapiDoc{}
	for _, tt := range tests {
		doc := docs[tt.doc]
		if doc == nil {
			doc = &openapiDoc{load(t, g.docs[tt.doc])}
			docs[tt.doc] = doc
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(tt.base), &obj); err != nil {
			t.Fatal(err)
		}
		for k, val := range tt.patch {
			if val == nil {
				delete(obj, k)
			} else {
				obj[k] = val
			}
		}
		raw, _ := json.Marshal(obj)
		var value any
		_ = json.Unmarshal(raw, &value) // as a client would send it: numbers are float64

		target := tt.mirror()
		if err := json.Unmarshal(raw, target); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		byValidator := v.Struct(target) == nil
		bySchema := doc.component(t, tt.component).VisitJSON(value) == nil
		if byValidator != tt.valid {
			t.Errorf("%s %s: validator says %v, the table says %v", tt.component, raw, byValidator, tt.valid)
		}
		if bySchema != byValidator {
			t.Errorf("%s %s: schema says %v, validator says %v", tt.component, raw, bySchema, byValidator)
		}
	}
}

type openapiDoc struct{ *openapi3.T }

func (d *openapiDoc) component(t *testing.T, name string) *openapi3.Schema {
	t.Helper()
	ref := d.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		t.Fatalf("no component %s", name)
	}
	return ref.Value
}
