package model

import (
	"sort"
	"sync"
	"sync/atomic"
)

// The registry: every baked-in keyword of validator v10.30 the generator
// understands, each a typed definition (keywords_*.go). Families share a Go
// type; each registered value is one keyword. It is built once, from the
// one list in newRegistry, when the package is initialized; nothing else
// adds to it. It is built on first use, not when the package is
// initialized: a run whose packages carry no validate tag (most CRD-only
// modules) never needs it, and every run would pay for its patterns.
var registry = sync.OnceValue(newRegistry)

// keywordTable is the registry under construction, by name.
type keywordTable map[string]Keyword

// tablesBuilt counts the builds of the registry and of validate (for the
// test that loading the package builds neither).
var tablesBuilt atomic.Int32

func newRegistry() keywordTable {
	tablesBuilt.Add(1)
	t := keywordTable{}
	t.add(
		structural{"omitempty", "the zero value (nil for slices, maps and pointers) skips the other checks"},
		structural{"omitnil", "nil skips the other checks"},
		structural{"omitzero", "the zero value skips the other checks"},
		structural{"dive", "the checks after it apply to each element (or map value)"},
		structural{"keys", "after dive: the checks up to endkeys apply to map keys"},
		structural{"endkeys", "ends a keys block"},
		structural{"structonly", "validates a struct field's own tag only, not its fields"},
		structural{"nostructlevel", "skips struct-level validation functions"},
		required{},
	)
	for _, op := range BoundKeywords {
		t.add(bound{op})
	}
	t.add(regexKeywords()...)
	t.add(
		oneOf{"oneof", false}, oneOf{"noneof", true},
		foldOneOf{"oneofci", false}, foldOneOf{"noneofci", true},
		unique{},
		boolean{},
		celFormat{"ip", "isIP(self)", "an IP address"},
		celFormat{"ipv4", "isIP(self) && ip(self).family() == 4", "an IPv4 address"},
		celFormat{"ipv6", "isIP(self) && ip(self).family() == 6", "an IPv6 address"},
		celFormat{"cidr", "isCIDR(self)", "a CIDR"},
		celFormat{"cidrv4", "isCIDR(self) && cidr(self).ip().family() == 4 && cidr(self).ip() == cidr(self).masked().ip()", "an IPv4 CIDR with no host bits set"},
		celFormat{"cidrv6", "isCIDR(self) && cidr(self).ip().family() == 6", "an IPv6 CIDR"},
	)
	for _, name := range StrMatchKeywords {
		t.add(strMatch{name, strMatchDocs[name]})
	}
	for _, op := range FieldCompareKeywords {
		t.add(fieldCompare{op})
	}
	for _, name := range ConditionalKeywords {
		t.add(conditional{name})
	}
	t.addRuntimeOnly()
	return t
}

// The keyword families the registry defines and the schema lowering
// places, each named once here.
var (
	BoundKeywords        = []string{"len", "min", "max", "eq", "ne", "lt", "lte", "gt", "gte"}
	StrMatchKeywords     = []string{"contains", "containsany", "containsrune", "excludes", "excludesall", "excludesrune", "startswith", "endswith", "startsnotwith", "endsnotwith"}
	FieldCompareKeywords = []string{"eqfield", "nefield", "gtfield", "gtefield", "ltfield", "ltefield"}
	ConditionalKeywords  = []string{"required_if", "required_unless", "required_with", "required_with_all", "required_without", "required_without_all",
		"excluded_if", "excluded_unless", "excluded_with", "excluded_with_all", "excluded_without", "excluded_without_all"}
)

var strMatchDocs = map[string]string{
	"contains": "contains the text", "containsany": "contains any of the characters",
	"containsrune": "contains the rune", "excludes": "does not contain the text",
	"excludesall": "contains none of the characters", "excludesrune": "does not contain the rune",
	"startswith": "starts with the text", "endswith": "ends with the text",
	"startsnotwith": "does not start with the text", "endsnotwith": "does not end with the text",
}

// add registers keywords; a name registered twice is a bug in the list.
func (t keywordTable) add(ks ...Keyword) {
	for _, k := range ks {
		if _, dup := t[k.Name()]; dup {
			panic("modelgen: keyword registered twice: " + k.Name())
		}
		t[k.Name()] = k
	}
}

// Aliases are validator's baked-in aliases, expanded the way validator does.
var Aliases = map[string]string{
	"iscolor":         "hexcolor|rgb|rgba|hsl|hsla|cmyk",
	"country_code":    "iso3166_1_alpha2|iso3166_1_alpha3|iso3166_1_alpha_numeric",
	"eu_country_code": "iso3166_1_alpha2_eu|iso3166_1_alpha3_eu|iso3166_1_alpha_numeric_eu",
}

// Lookup finds a keyword by name.
func Lookup(name string) (Keyword, bool) {
	k, ok := registry()[name]
	return k, ok
}

// Keywords returns every registered keyword sorted by name.
func Keywords() []Keyword {
	reg := registry()
	out := make([]Keyword, 0, len(reg))
	for _, k := range reg {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}
