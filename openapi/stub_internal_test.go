package openapi

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// refDoc is a document whose component Item (a string with a pattern) is
// named twice by the component Kind, and Kind by a request and a response
// of each of three paths.
func refDoc(t *testing.T, pattern string) *openapi3.T {
	t.Helper()
	ref := func(name string) *openapi3.SchemaRef { return openapi3.NewSchemaRef("#/components/schemas/"+name, nil) }
	kind := openapi3.NewObjectSchema().
		WithPropertyRef("one", ref("Item")).
		WithPropertyRef("many", &openapi3.SchemaRef{Value: openapi3.NewArraySchema().WithItems(nil)})
	kind.Properties["many"].Value.Items = ref("Item")
	doc := &openapi3.T{
		OpenAPI: "3.0.3",
		Info:    &openapi3.Info{Title: "t", Version: "1"},
		Components: &openapi3.Components{Schemas: openapi3.Schemas{
			"Item": openapi3.NewSchemaRef("", openapi3.NewStringSchema().WithPattern(pattern)),
			"Kind": openapi3.NewSchemaRef("", kind),
		}},
		Paths: openapi3.NewPaths(),
	}
	for _, p := range []string{"/a", "/b", "/c"} {
		body := openapi3.NewRequestBody().WithJSONSchemaRef(ref("Kind"))
		resp := openapi3.NewResponses(openapi3.WithStatus(200, &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("ok").WithJSONSchemaRef(ref("Kind"))}))
		doc.Paths.Set(p, &openapi3.PathItem{Put: &openapi3.Operation{RequestBody: &openapi3.RequestBodyRef{Value: body}, Responses: resp}})
	}
	if err := openapi3.NewLoader().ResolveRefsIn(doc, nil); err != nil {
		t.Fatal(err)
	}
	return doc
}

// validations counts the patterns kin-openapi compiles while validating
// the document with its references stubbed: one per schema it validates.
func validations(t *testing.T, doc *openapi3.T) (int, error) {
	t.Helper()
	n := 0
	restore := stubReferences(doc)
	err := doc.Validate(context.Background(), openapi3.SetRegexCompiler(func(expr string) (openapi3.RegexMatcher, error) {
		n++
		return ECMARegexCompiler(expr)
	}))
	restore()
	return n, err
}

func TestEachComponentIsValidatedOnce(t *testing.T) {
	doc := refDoc(t, "^[a-z]+$")
	n, err := validations(t, doc)
	if err != nil {
		t.Fatal(err)
	}
	// kin-openapi alone validates Item from its component, from Kind's
	// component and from the six bodies: 8 times
	if n != 1 {
		t.Errorf("the component with a pattern was validated %d times, want once", n)
	}
	// the values are back: a reader of the document sees what it references
	item := doc.Components.Schemas["Item"].Value
	kind := doc.Components.Schemas["Kind"].Value
	if kind.Properties["one"].Value != item || kind.Properties["many"].Value.Items.Value != item {
		t.Error("a reference inside a component lost its value")
	}
	for _, p := range []string{"/a", "/b", "/c"} {
		op := doc.Paths.Value(p).Put
		if op.RequestBody.Value.Content.Get("application/json").Schema.Value != kind ||
			op.Responses.Status(200).Value.Content.Get("application/json").Schema.Value != kind {
			t.Errorf("%s: a body's reference lost its value", p)
		}
	}
}

func TestAComponentReachedOnlyByReferenceIsStillValidated(t *testing.T) {
	_, err := validations(t, refDoc(t, "(unclosed"))
	if err == nil || !strings.Contains(err.Error(), "unclosed") {
		t.Errorf("an invalid pattern in a referenced component: got %v, want its error", err)
	}
}
