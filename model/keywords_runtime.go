package model

// runtimeOnly keywords are accepted and enforced by validator at run time;
// no schema keyword or CEL function can say the same thing, so generation
// warns instead of dropping them silently.
type runtimeOnly struct {
	name, doc, why string
	ok             kinds
}

func (k runtimeOnly) Name() string   { return k.name }
func (k runtimeOnly) Class() Class   { return Runtime }
func (k runtimeOnly) Doc() string    { return k.doc }
func (k runtimeOnly) Schema() string { return "runtime only: " + k.why }
func (k runtimeOnly) Resolve(u *Use) (any, error) {
	if k.ok == 0 {
		return nil, nil
	}
	return nil, checkKind(u, k.ok)
}

// addRuntimeOnly registers the runtime-only keywords, after every other
// (a name some family already defines is skipped).
func (t keywordTable) addRuntimeOnly() {
	const (
		checksum = "needs a checksum or a parser, not a pattern"
		lookup   = "checks against validator's own tables"
		system   = "depends on the machine (files, DNS, clock)"
		parser   = "needs a parser no schema keyword or Kubernetes CEL function offers"
		other    = "compares with fields of other structs or needs Go code"
		fold     = "Unicode case folding differs from CEL's ASCII-only lowerAscii"
	)
	rows := []struct {
		names, why string
		ok         kinds
	}{
		{"isdefault skip_unless", "depends on validator's evaluation order", anyKinds},
		{"eqcsfield necsfield gtcsfield gtecsfield ltcsfield ltecsfield fieldcontains fieldexcludes postcode_iso3166_alpha2_field", other, anyKinds},
		{"validateFn", other, anyKinds},
		{"eq_ignore_case ne_ignore_case lowercase uppercase", fold, strKinds},
		{"rgb rgba hsl hsla cmyk", "the pattern is kept by validator only (kept runtime only to keep CRD patterns small)", strKinds},
		{"url http_url https_url uri origin urn_rfc8141 urn_rfc2141 url_encoded html html_encoded datauri", parser, strKinds},
		{"file filepath image mimetype dir dirpath uds_exists", system, strKinds},
		{"isbn isbn10 isbn13 issn btc_addr btc_addr_bech32 eth_addr eth_addr_checksum credit_card luhn_checksum bic_iso_9362_2014 bic", checksum, strKinds | numKinds},
		{"tcp4_addr tcp6_addr tcp_addr udp4_addr udp6_addr udp_addr ip4_addr ip6_addr ip_addr unix_addr hostname_port port mac fqdn hostname_label", parser, strKinds | numKinds},
		{"json jwt_claims datetime timezone duration cron mongodb_connection_string spicedb dns_rfc1035_label", parser, strKinds},
		{"iso3166_1_alpha2 iso3166_1_alpha2_eu iso3166_1_alpha3 iso3166_1_alpha3_eu iso3166_1_alpha_numeric iso3166_1_alpha_numeric_eu iso3166_2 iso4217 iso4217_numeric bcp47_language_tag bcp47_strict_language_tag postcode_iso3166_alpha2", lookup, strKinds | numKinds},
	}
	for _, row := range rows {
		for _, name := range splitWords(row.names) {
			if _, done := t[name]; done || name == "jwt_claims" {
				continue
			}
			doc := runtimeDocs[name]
			if doc == "" {
				doc = "see validator's documentation"
			}
			t.add(runtimeOnly{name: name, doc: doc, why: row.why, ok: row.ok})
		}
	}
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// runtimeDocs says in one line what each runtime-only keyword checks.
var runtimeDocs = map[string]string{
	"isdefault":                     "the value is the zero value",
	"skip_unless":                   "skips the checks unless the named field has the given value",
	"eqcsfield":                     "equals a field of another struct (namespace path)",
	"necsfield":                     "differs from a field of another struct",
	"gtcsfield":                     "greater than a field of another struct",
	"gtecsfield":                    "at least a field of another struct",
	"ltcsfield":                     "less than a field of another struct",
	"ltecsfield":                    "at most a field of another struct",
	"fieldcontains":                 "contains the value of the named field",
	"fieldexcludes":                 "does not contain the value of the named field",
	"postcode_iso3166_alpha2_field": "a postcode of the country in the named field",
	"validateFn":                    "calls a method of the value",
	"eq_ignore_case":                "equals the text, ignoring case",
	"ne_ignore_case":                "differs from the text, ignoring case",
	"lowercase":                     "non-empty and all lowercase",
	"uppercase":                     "non-empty and all uppercase",
	"rgb":                           "an rgb() color",
	"rgba":                          "an rgba() color",
	"hsl":                           "an hsl() color",
	"hsla":                          "an hsla() color",
	"cmyk":                          "a cmyk() color",
	"url":                           "a URL with a scheme",
	"http_url":                      "an http or https URL with a host",
	"https_url":                     "an https URL with a host",
	"uri":                           "a URI",
	"origin":                        "a web origin (scheme, host, port)",
	"urn_rfc8141":                   "an RFC 8141 URN",
	"urn_rfc2141":                   "an RFC 2141 URN",
	"url_encoded":                   "percent-encoded text",
	"html":                          "contains an HTML tag",
	"html_encoded":                  "contains an HTML entity",
	"datauri":                       "a data: URI with base64 content",
	"file":                          "an existing file",
	"filepath":                      "a valid file path",
	"image":                         "an existing image file",
	"mimetype":                      "a file of one of the MIME types",
	"dir":                           "an existing directory",
	"dirpath":                       "a valid directory path",
	"uds_exists":                    "an existing Unix domain socket",
	"isbn":                          "an ISBN-10 or ISBN-13 with a valid checksum",
	"isbn10":                        "an ISBN-10 with a valid checksum",
	"isbn13":                        "an ISBN-13 with a valid checksum",
	"issn":                          "an ISSN with a valid checksum",
	"btc_addr":                      "a Bitcoin address with a valid checksum",
	"btc_addr_bech32":               "a Bech32 Bitcoin address with a valid checksum",
	"eth_addr":                      "an Ethereum address",
	"eth_addr_checksum":             "an Ethereum address with a valid checksum",
	"credit_card":                   "a credit card number (Luhn)",
	"luhn_checksum":                 "digits with a valid Luhn checksum",
	"bic_iso_9362_2014":             "an ISO 9362:2014 BIC",
	"bic":                           "an ISO 9362 BIC",
	"tcp4_addr":                     "a resolvable TCP over IPv4 address",
	"tcp6_addr":                     "a resolvable TCP over IPv6 address",
	"tcp_addr":                      "a resolvable TCP address",
	"udp4_addr":                     "a resolvable UDP over IPv4 address",
	"udp6_addr":                     "a resolvable UDP over IPv6 address",
	"udp_addr":                      "a resolvable UDP address",
	"ip4_addr":                      "a resolvable IPv4 address",
	"ip6_addr":                      "a resolvable IPv6 address",
	"ip_addr":                       "a resolvable IP address",
	"unix_addr":                     "a resolvable Unix address",
	"hostname_port":                 "host:port with a port from 1 to 65535",
	"port":                          "a port number from 1 to 65535",
	"mac":                           "a MAC address (net.ParseMAC)",
	"fqdn":                          "a fully qualified domain name",
	"hostname_label":                "one DNS label of 1 to 63 characters",
	"json":                          "valid JSON text",
	"datetime":                      "a time in the given Go layout",
	"timezone":                      "an IANA time zone name",
	"duration":                      "a Go duration such as 1h30m",
	"cron":                          "a cron expression",
	"mongodb_connection_string":     "a MongoDB connection string",
	"spicedb":                       "a SpiceDB id, permission or type",
	"dns_rfc1035_label":             "an RFC 1035 DNS label",
	"iso3166_1_alpha2":              "an ISO 3166-1 alpha-2 country code",
	"iso3166_1_alpha2_eu":           "an ISO 3166-1 alpha-2 code of an EU country",
	"iso3166_1_alpha3":              "an ISO 3166-1 alpha-3 country code",
	"iso3166_1_alpha3_eu":           "an ISO 3166-1 alpha-3 code of an EU country",
	"iso3166_1_alpha_numeric":       "an ISO 3166-1 numeric country code",
	"iso3166_1_alpha_numeric_eu":    "an ISO 3166-1 numeric code of an EU country",
	"iso3166_2":                     "an ISO 3166-2 subdivision code",
	"iso4217":                       "an ISO 4217 currency code",
	"iso4217_numeric":               "an ISO 4217 numeric currency code",
	"bcp47_language_tag":            "a BCP 47 language tag",
	"bcp47_strict_language_tag":     "a strictly valid BCP 47 language tag",
	"postcode_iso3166_alpha2":       "a postcode of the given country",
}

// applicationKeyword is a keyword the application registers on its own validator
// (RegisterValidation) and modelgen.yaml declares (validatorKeywords,
// Config.ValidatorKeywords): modelgen knows nothing of what it checks, so
// no schema carries it and the webhook enforces it with the application's
// validator. It is in no registry: its name is the package's.
type applicationKeyword struct{ name string }

func newApplicationKeyword(name string) Keyword { return applicationKeyword{name: name} }

func (k applicationKeyword) Name() string { return k.name }
func (applicationKeyword) Class() Class   { return Runtime }
func (applicationKeyword) Doc() string {
	return "a check the application registers on its validator (modelgen.yaml's validatorKeywords)"
}
func (applicationKeyword) Schema() string {
	return "runtime only: the application's own validation (validatorKeywords)"
}
func (applicationKeyword) Resolve(*Use) (any, error) { return nil, nil }
func (applicationKeyword) Carry(*Use) Carry          { return Carry{} }

// ApplicationKeyword reports whether k is a keyword the application
// registers itself (modelgen.yaml's validatorKeywords), not one of
// validator's own.
func ApplicationKeyword(k Keyword) bool {
	_, ok := k.(applicationKeyword)
	return ok
}
