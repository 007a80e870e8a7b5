package agree_test

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/agree"
	"github.com/modelgen/modelgen/agree/internal/runtimecases"
	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
)

// notProbed are the runtime-only keywords the corpus leaves out, and why.
var notProbed = map[string]string{
	"skip_unless":                   "needs another field of the struct",
	"eqcsfield":                     "compares with a field of another struct",
	"necsfield":                     "compares with a field of another struct",
	"gtcsfield":                     "compares with a field of another struct",
	"gtecsfield":                    "compares with a field of another struct",
	"ltcsfield":                     "compares with a field of another struct",
	"ltecsfield":                    "compares with a field of another struct",
	"fieldcontains":                 "compares with another field",
	"fieldexcludes":                 "compares with another field",
	"postcode_iso3166_alpha2_field": "reads the country from another field",
	"validateFn":                    "calls a method of the application's type",
	"image":                         "needs image files on the machine",
	"mimetype":                      "needs files of a MIME type on the machine",
	"uds_exists":                    "needs a Unix socket on the machine",
	"unix_addr":                     "accepts every string (net.ResolveUnixAddr)",
	"tcp4_addr":                     "resolves host names over the network",
	"tcp6_addr":                     "resolves host names over the network",
	"tcp_addr":                      "resolves host names over the network",
	"udp4_addr":                     "resolves host names over the network",
	"udp6_addr":                     "resolves host names over the network",
	"udp_addr":                      "resolves host names over the network",
	"ip4_addr":                      "resolves host names over the network",
	"ip6_addr":                      "resolves host names over the network",
	"ip_addr":                       "resolves host names over the network",
}

var runtimeReport = sync.OnceValues(func() (*agree.Report, error) {
	h, err := agree.RuntimeCorpus()
	if err != nil {
		return nil, err
	}
	return h.Run(), nil
})

// corpusKeywords are the keywords of the corpus's fields, in field order.
func corpusKeywords() []string {
	var out []string
	st := reflect.TypeOf(runtimecases.RuntimeOnlySpec{})
	for i := range st.NumField() {
		tag := strings.TrimPrefix(st.Field(i).Tag.Get("validate"), "omitempty,")
		out = append(out, strings.SplitN(tag, "=", 2)[0])
	}
	return out
}

// TestRuntimeOnlyKeywordsOnTheServer: for every runtime-only keyword of
// the corpus, the CRD admits documents validator refuses (by design: no
// schema can say the check), and the server side, the CRD followed by the
// generated webhook, agrees with validator on every document.
func TestRuntimeOnlyKeywordsOnTheServer(t *testing.T) {
	r, err := runtimeReport()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Summary())
	for i, d := range r.Unlisted() {
		if i == 20 {
			t.Errorf("... and %d more", len(r.Unlisted())-20)
			break
		}
		t.Errorf("unlisted divergence: %s", d.String())
	}
	counts := map[string]agree.RuntimeOnlyCount{}
	for _, c := range r.RuntimeOnly() {
		counts[c.Keyword] = c
	}
	for _, kw := range corpusKeywords() {
		c := counts[kw]
		switch {
		case c.Documents == 0:
			t.Errorf("%s: no document the CRD admits and validator refuses: add refused samples (agree/runtime_samples.go)", kw)
		case c.ServerAgrees != c.Documents:
			t.Errorf("%s: the server (CRD + webhook) agrees with validator on %d of %d documents", kw, c.ServerAgrees, c.Documents)
		}
	}
}

// TestRuntimeCorpusCoversTheRegistry: every keyword of the registry's
// runtime class is in the corpus or listed with the reason it is not.
func TestRuntimeCorpusCoversTheRegistry(t *testing.T) {
	in := map[string]bool{}
	for _, kw := range corpusKeywords() {
		in[kw] = true
	}
	for _, k := range model.Keywords() {
		if k.Class() != model.Runtime {
			continue
		}
		if in[k.Name()] == (notProbed[k.Name()] != "") {
			t.Errorf("%s: want it either in agree/internal/runtimecases or in notProbed, not both or neither", k.Name())
		}
	}
}

var serverRe = regexp.MustCompile(`(?s)<!-- BEGIN SERVER AGREEMENT -->.*<!-- END SERVER AGREEMENT -->`)

// TestServerAgreementTable keeps docs/agreement.md's per-keyword server
// table true (-update rewrites it).
func TestServerAgreementTable(t *testing.T) {
	r, err := runtimeReport()
	if err != nil {
		t.Fatal(err)
	}
	want := renderServer(r)
	data, err := os.ReadFile("../docs/agreement.md")
	if err != nil {
		t.Fatal(err)
	}
	if !serverRe.Match(data) {
		t.Fatal("docs/agreement.md has no server agreement markers")
	}
	if testkit.Update() {
		if err := os.WriteFile("../docs/agreement.md", serverRe.ReplaceAll(data, []byte(want)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := serverRe.Find(data); string(got) != want {
		t.Errorf("docs/agreement.md: the server agreement table is stale: run ./hack/update.sh")
	}
}

func renderServer(r *agree.Report) string {
	var b strings.Builder
	b.WriteString("<!-- BEGIN SERVER AGREEMENT -->\n")
	fmt.Fprintf(&b, "%d runtime-only keywords, %d documents judged, %d unlisted divergences.\n\n", len(corpusKeywords()), r.Documents, len(r.Unlisted()))
	b.WriteString("| keyword | documents the CRD admits and validator refuses | server (CRD + webhook) agrees with validator |\n|---|---|---|\n")
	for _, c := range r.RuntimeOnly() {
		fmt.Fprintf(&b, "| `%s` | %d | %d |\n", c.Keyword, c.Documents, c.ServerAgrees)
	}
	b.WriteString("<!-- END SERVER AGREEMENT -->")
	return b.String()
}
