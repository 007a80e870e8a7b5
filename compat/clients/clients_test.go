package clients_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"text/template"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
	"github.com/modelgen/modelgen/schema"
)

// A subject is one OpenAPI document and the objects to round-trip through
// the clients generated from it.
type subject struct {
	name    string
	doc     func(t *testing.T) []byte
	samples []sample
	// enums are values each client must declare as typed constants
	enums []string
	// fields are Go field declarations ("Huge uint64") each client must
	// have: the Go type a format maps to
	fields []string
}

// A sample is one object of a component type, as JSON, with the boundary
// values a client must keep: 999999.99 (a float32 makes it 1e6), the
// largest int64, a phase constant and multibyte strings.
type sample struct {
	Type string
	JSON string
}

func example(path string) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", path, "openapi.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
}

// golden is a document of the OpenAPI package's goldens.
func golden(name string) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		data, err := os.ReadFile(filepath.Join("..", "..", "openapi", "testdata", name, "want", "openapi.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
}

// synthetic is the OpenAPI document of the agreement suite's cases: one
// resource per kind, declaring every keyword the registry maps.
func synthetic(t *testing.T) []byte {
	m, err := model.Load(model.Config{Dir: filepath.Join("..", "..", "agree", "internal", "cases"), Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags.Error())
	}
	set := schema.Build(m, model.TargetOpenAPI)
	doc, err := openapi.Document(set, m.Packages, openapi.Info{Title: "every keyword", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := openapi.YAML(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var subjects = []subject{
	{
		name: "payments", doc: example("payments/api/v1alpha1"),
		enums: []string{"Submitted", "Authorized", "Processed", "Settled", "Refunded"},
		samples: []sample{{"PaymentOrder", `{
			"apiVersion": "payments.example.com/v1alpha1", "kind": "PaymentOrder",
			"metadata": {"name": "order-1", "namespace": "zürich", "labels": {"team": "zahlungsverkehr-ß"},
				"annotations": {"note": "日本語 😀"}, "generation": 9223372036854775807},
			"spec": {"amount": 999999.99, "currency": "EUR", "method": "wire transfer", "cardLast4": "",
				"payerId": "DE89370400440532013000", "payeeId": "FR1420041010050500013M02606", "tenantId": "acme",
				"description": "Invoice 42 (March)", "priority": 9, "tags": ["urgent"], "metadata": {"ref": "ü"}},
			"status": {"phase": "Settled", "observedGeneration": 9223372036854775807, "attempts": 2147483647}}`}},
	},
	{
		name: "sla", doc: example("sla/api/v1alpha1"),
		enums: []string{"pending", "active", "degraded", "breached", "resolved"},
		samples: []sample{{"SLAContract", `{
			"apiVersion": "sla.example.com/v1alpha1", "kind": "SLAContract", "metadata": {"name": "gold-ü"},
			"spec": {"service": "checkout", "customer": "acme", "objective": 99.9999999, "windowSeconds": 86400,
				"query": "avg_over_time(up{job=\"checkout\"}[5m]) ü", "acknowledgement": "Zürich 日本 😀",
				"thresholds": {"degradeBelowPercent": 99.95, "degradeForSeconds": 60, "breachBelowPercent": 99.9,
					"breachForSeconds": 86400, "recoverAtPercent": 99.99, "recoverForSeconds": 1},
				"compensation": {"currency": "EUR", "maxCreditPercent": 25.5, "monthlyFeeCents": 99999999999}},
			"status": {"phase": "breached", "observedGeneration": 9223372036854775807,
				"measurement": {"availabilityPercent": 99.98765, "time": "2026-01-02T03:04:05Z"}}}`}},
	},
	{
		name: "e2e", doc: example("e2e/api/v1"),
		enums: []string{"red", "green", "light blue"},
		samples: []sample{{"Sample", `{
			"apiVersion": "e2e.modelgen.dev/v1", "kind": "Sample", "metadata": {"name": "s"},
			"spec": {"name": "größe", "choice": "light blue", "count": 10, "amount": 999999.99, "accepted": true,
				"level": 3, "ratio": 1.4999999999999998, "latitude": -89.999999, "code": "日本語😀", "text": "plain text",
				"tags": ["ab", "ü😀"], "labels": {"abc": "ß"}, "email": "jörg@exämple.com"}}`}},
	},
	{
		// every well-known Kubernetes type, properties named like schema
		// keywords, every numeric Go type (openapi/testdata/wellknown)
		name: "wellknown", doc: golden("wellknown"),
		// ogen's Validate compares a uint64 with its minimum as an int
		// (v1.24.0), so the sample stays below 2^63; the field type
		// shows the upper half is kept
		fields: []string{"Huge uint64", "Ratio64 float64", "Ratio32 float32", "Count64 int64", "Long int64"},
		samples: []sample{{"Widget", `{
			"apiVersion": "known.example.com/wellknown", "kind": "Widget",
			"metadata": {"name": "w", "labels": {"app": "日本"}, "creationTimestamp": "2026-01-02T03:04:05Z",
				"ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "ü", "uid": "0b9c6b3e-1f5a-4a59-9d7e-2b8f0f1f6a11"}],
				"managedFields": [{"manager": "kubectl", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {}}}]},
			"spec": {"port": 8080, "size": "1500m", "started": "2026-01-02T03:04:05Z", "precise": "2026-01-02T03:04:05.123456Z",
				"timeout": "1h30m0s", "raw": {"a": 1}, "value": {"any": ["json", 1.5]}, "object": {"kind": "X"},
				"selector": {"matchLabels": {"app": "ü"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["gold"]}]},
				"default": {"cert": "d"}, "enum": {"cert": "e"}, "example": {"cert": "x"}, "$ref": {"cert": "r"}, "type": {"cert": "t"},
				"properties": {"k": {"cert": "p"}}, "items": [{"cert": "i"}], "chain": [{"cert": "c1"}, {"cert": "c2"}],
				"ratio32": 0.5, "ratio64": 999999.99, "small": -128, "medium": 32767, "count32": 2147483647,
				"count64": 9223372036854775807, "count": -9223372036854775808, "byte": 255, "word": 65535,
				"long": 4294967295, "huge": 9223372036854775807}}`}},
	},
	{
		// a plain model: an enum, an optional struct and a pointer to the
		// enum (openapi/testdata/plainmodel)
		name: "plainmodel", doc: golden("plainmodel"),
		enums: []string{"low", "high"},
		samples: []sample{{"Ticket", `{"title": "Hallo Welt", "email": "a@b.co", "level": "high", "score": 0.5,
			"tags": ["ab"], "reporter": {"name": "Jörg"}, "assignee": {"name": "日本"}, "escalation": "low", "active": true}`}},
	},
	{
		name: "every_keyword", doc: synthetic,
		samples: []sample{
			{"Floats", `{"apiVersion": "cases.agree.modelgen.dev/cases", "kind": "Floats", "metadata": {"name": "f"},
				"spec": {"gte": {"value": 999999.99, "omit": 0.5}}}`},
			{"Ints", `{"apiVersion": "cases.agree.modelgen.dev/cases", "kind": "Ints", "metadata": {"name": "i"},
				"spec": {"gte": {"value": 9223372036854775807, "omit": 3}}}`},
			{"Strings", `{"apiVersion": "cases.agree.modelgen.dev/cases", "kind": "Strings", "metadata": {"name": "s"},
				"spec": {"alphaunicode": {"value": "Zürich", "omit": "日本語"}}}`},
		},
	},
}

// TestClientsTakeTheDocuments generates a client with oapi-codegen and one
// with ogen (without ignore_not_implemented) from every example's document
// and from a document with every keyword, compiles both, checks that the
// enums became typed constants, and round-trips each sample through each
// client's types and encoding/json, comparing the values.
func TestClientsTakeTheDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and compiles clients")
	}
	root := "generated"
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	for _, s := range subjects {
		dir := filepath.Join(root, s.name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		spec := filepath.Join(dir, "openapi.yaml")
		if err := os.WriteFile(spec, s.doc(t), 0o644); err != nil {
			t.Fatal(err)
		}
		oapi := filepath.Join(dir, "oapiclient")
		os.MkdirAll(oapi, 0o755)
		run(t, "go", "tool", "oapi-codegen", "-generate", "types,client", "-package", "oapiclient", "-o", filepath.Join(oapi, "client.go"), spec)
		og := filepath.Join(dir, "ogenclient")
		run(t, "go", "tool", "ogen", "--target", og, "--package", "ogenclient", "--clean", spec)
		for _, c := range []string{oapi, og} {
			writeRoundTrip(t, c, s.samples)
			checkTypedEnums(t, c, s.enums)
			checkFields(t, c, s.fields)
		}
	}
	out := run(t, "go", "test", "-count=1", "-v", "./"+root+"/...")
	t.Logf("round trips:\n%s", summary(out))
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func summary(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "    roundtrip") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// checkTypedEnums demands a typed constant (const Name Type = "value") for
// every enum value in the client's source.
func checkTypedEnums(t *testing.T, dir string, values []string) {
	t.Helper()
	var src bytes.Buffer
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		src.Write(data)
	}
	for _, v := range values {
		re := regexp.MustCompile(`(?m)^\s*\w+\s+(\w+)\s*=\s*` + regexp.QuoteMeta(fmt.Sprintf("%q", v)) + `\s*$`)
		m := re.FindStringSubmatch(src.String())
		if m == nil || m[1] == "string" {
			t.Errorf("%s: no typed constant for enum value %q", dir, v)
		}
	}
}

// checkFields demands each Go field declaration in the client's source.
func checkFields(t *testing.T, dir string, fields []string) {
	t.Helper()
	var src bytes.Buffer
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		src.Write(data)
	}
	for _, f := range fields {
		name, typ, _ := strings.Cut(f, " ")
		re := regexp.MustCompile(`(?m)^\s*` + name + `\s+` + regexp.QuoteMeta(typ) + `\b`)
		if !re.Match(src.Bytes()) {
			t.Errorf("%s: no field %q", dir, f)
		}
	}
}

var roundTrip = template.Must(template.New("").Parse(`// Code generated by the client-compatibility test. DO NOT EDIT.

package {{.Package}}

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)
{{range $i, $s := .Samples}}
func TestRoundTrip{{$s.Type}}(t *testing.T) {
	in := []byte({{printf "%q" $s.JSON}})
	var v {{$s.Type}}
	if err := json.Unmarshal(in, &v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if val, ok := any(&v).(interface{ Validate() error }); ok {
		if err := val.Validate(); err != nil {
			t.Fatalf("the client's own validation refuses the sample: %v", err)
		}
	}
	out, err := json.Marshal(&v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	want, got := decode(t, in), decode(t, out)
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("round trip changed the object:\nsent %s\ngot  %s", in, out)
	}
	t.Logf("roundtrip {{$s.Type}}: %d bytes, equal", len(out))
}
{{end}}
func decode(t *testing.T, data []byte) any {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
`))

func writeRoundTrip(t *testing.T, dir string, samples []sample) {
	t.Helper()
	var b bytes.Buffer
	err := roundTrip.Execute(&b, map[string]any{"Package": filepath.Base(dir), "Samples": samples})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "roundtrip_test.go"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
