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

func registerRuntimeOnly() {
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
			if _, done := registry[name]; done || name == "jwt_claims" {
				continue
			}
			register(runtimeOnly{name: name, doc: "see validator's documentation", why: row.why, ok: row.ok})
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
