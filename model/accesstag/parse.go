package accesstag

import (
	"fmt"
	"strings"
)

// Roles is one role list: `a|b`, `*` (every role of the package) or `-`
// (no role).
type Roles struct {
	Set    bool     // the clause was written
	Any    bool     // "*"
	None   bool     // "-"
	Names  []string // the roles as written, in order
	Offset int      // byte offset of the list in the tag value
}

// Tag is a parsed access tag (or the value of an access default marker).
type Tag struct {
	Tenant       bool // the field holds the tenant key
	TenantOffset int
	Read, Write  Roles
}

// Error is a syntax error at a byte offset of the tag value.
type Error struct {
	Offset int
	Msg    string
}

func (e Error) Error() string { return fmt.Sprintf("%d: %s", e.Offset, e.Msg) }

// MaxRoleLen is the longest role name (a DNS-1123 label).
const MaxRoleLen = 63

// Parse parses an access tag value. It returns every syntax error it finds,
// each at the byte offset where it starts; the Tag holds what could be read.
func Parse(value string) (*Tag, []Error) {
	t := &Tag{}
	if value == "" {
		return t, []Error{{0, "empty access tag (want tenant, read=roles or write=roles)"}}
	}
	var errs []Error
	start := 0
	for _, clause := range strings.Split(value, ",") {
		errs = append(errs, t.clause(clause, start)...)
		start += len(clause) + 1
	}
	return t, errs
}

func (t *Tag) clause(c string, at int) []Error {
	name, list, hasEq := strings.Cut(c, "=")
	switch {
	case c == "":
		return []Error{{at, "empty clause (a stray comma?)"}}
	case strings.ContainsAny(name, " \t"):
		return []Error{{at + strings.IndexAny(name, " \t"), "unexpected space in clause " + quote(name)}}
	case name == "tenant":
		return t.tenant(hasEq, at)
	case name == "read" || name == "write":
		return t.roles(name, list, hasEq, at)
	}
	return []Error{{at, "unknown clause " + quote(name) + " (want tenant, read=roles or write=roles)"}}
}

func (t *Tag) tenant(hasEq bool, at int) []Error {
	if hasEq {
		return []Error{{at + len("tenant"), "tenant takes no value"}}
	}
	if t.Tenant {
		return []Error{{at, "duplicate tenant clause"}}
	}
	t.Tenant, t.TenantOffset = true, at
	return nil
}

func (t *Tag) roles(name, list string, hasEq bool, at int) []Error {
	r := &t.Read
	if name == "write" {
		r = &t.Write
	}
	if !hasEq {
		return []Error{{at, name + " needs roles: " + name + "=role|role, " + name + "=* or " + name + "=-"}}
	}
	if r.Set {
		return []Error{{at, "duplicate " + name + " clause"}}
	}
	parsed, errs := ParseRoles(list, at+len(name)+1)
	*r = parsed
	return errs
}

// ParseRoles parses a role list written at offset `at` of a tag value.
func ParseRoles(list string, at int) (Roles, []Error) {
	r := Roles{Set: true, Offset: at}
	if list == "" {
		return r, []Error{{at, "empty role list (write - for no role)"}}
	}
	var errs []Error
	pos := at
	parts := strings.Split(list, "|")
	for _, p := range parts {
		switch {
		case (p == "*" || p == "-") && len(parts) > 1:
			errs = append(errs, Error{pos, p + " must stand alone in a role list"})
		case p == "*":
			r.Any = true
		case p == "-":
			r.None = true
		default:
			if msg := CheckRole(p); msg != "" {
				errs = append(errs, Error{pos, msg})
			} else if contains(r.Names, p) {
				errs = append(errs, Error{pos, "duplicate role " + quote(p)})
			} else {
				r.Names = append(r.Names, p)
			}
		}
		pos += len(p) + 1
	}
	return r, errs
}

// CheckRole returns why a role name is invalid, or "" when it is valid. A
// role is a DNS-1123 label: lower-case letters, digits and '-', starting
// and ending with a letter or digit, at most 63 characters; it names a
// Kubernetes ClusterRole and a file, so nothing else is allowed.
func CheckRole(name string) string {
	if name == "" {
		return "empty role name"
	}
	if len(name) > MaxRoleLen {
		return fmt.Sprintf("role name %s is longer than %d characters", quote(name), MaxRoleLen)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(name)-1) {
			return "invalid role name " + quote(name) + ": want lower-case letters, digits and '-', starting and ending with a letter or digit"
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// quote quotes user text for a message, keeping it short.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return fmt.Sprintf("%q", s)
}
