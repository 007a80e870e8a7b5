package accesstag

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Tag
	}{
		{"tenant", Tag{Tenant: true}},
		{"read=*", Tag{Read: Roles{Set: true, Any: true, Offset: 5}}},
		{"write=-", Tag{Write: Roles{Set: true, None: true, Offset: 6}}},
		{"read=tenant-admin|auditor,write=tenant-admin", Tag{
			Read:  Roles{Set: true, Names: []string{"tenant-admin", "auditor"}, Offset: 5},
			Write: Roles{Set: true, Names: []string{"tenant-admin"}, Offset: 32},
		}},
		{"tenant,read=a1", Tag{Tenant: true, Read: Roles{Set: true, Names: []string{"a1"}, Offset: 12}}},
		{"write=x,tenant", Tag{Tenant: true, TenantOffset: 8, Write: Roles{Set: true, Names: []string{"x"}, Offset: 6}}},
	}
	for _, tt := range tests {
		got, errs := Parse(tt.in)
		if len(errs) > 0 {
			t.Errorf("Parse(%q): unexpected errors %v", tt.in, errs)
			continue
		}
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, *got, tt.want)
		}
	}
}

// TestParseErrors checks each mistake's message and byte offset. The
// offset is where file:line:col points.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "empty access tag"},
		{"read=a,", 7, "empty clause"},
		{",read=a", 0, "empty clause"},
		{"reed=a", 0, `unknown clause "reed"`},
		{"read", 0, "read needs roles"},
		{"read=", 5, "empty role list"},
		{"read=a||b", 7, "empty role name"},
		{"read=Admin", 5, `invalid role name "Admin"`},
		{"read=a|-b", 7, `invalid role name "-b"`},
		{"read=a-", 5, `invalid role name "a-"`},
		{"read=a_b", 5, `invalid role name "a_b"`},
		{"read=a|*", 7, "* must stand alone"},
		{"write=-|a", 6, "- must stand alone"},
		{"read=a|b|a", 9, `duplicate role "a"`},
		{"read=a,read=b", 7, "duplicate read clause"},
		{"tenant,tenant", 7, "duplicate tenant clause"},
		{"tenant=yes", 6, "tenant takes no value"},
		{"read=a, write=b", 7, "unexpected space"},
		{"read=" + strings.Repeat("a", 64), 5, "longer than 63"},
		{"read=a b", 5, `invalid role name "a b"`},
	}
	for _, tt := range tests {
		_, errs := Parse(tt.in)
		if len(errs) != 1 {
			t.Errorf("Parse(%q): want one error, got %v", tt.in, errs)
			continue
		}
		if errs[0].Offset != tt.offset || !strings.Contains(errs[0].Msg, tt.msg) {
			t.Errorf("Parse(%q) = %d: %s, want %d: ...%s...", tt.in, errs[0].Offset, errs[0].Msg, tt.offset, tt.msg)
		}
	}
}

func TestParseReportsEveryError(t *testing.T) {
	_, errs := Parse("reed=a,read=B,write=")
	if len(errs) != 3 {
		t.Fatalf("want 3 errors, got %v", errs)
	}
	for i, want := range []int{0, 12, 20} {
		if errs[i].Offset != want {
			t.Errorf("error %d at %d, want %d (%s)", i, errs[i].Offset, want, errs[i].Msg)
		}
	}
}

// FuzzParse checks that the parser never panics, that every error points
// inside the value, and that a tag it accepts means the same once written
// back in canonical form.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"tenant", "read=*", "read=a|b,write=c", "tenant,read=-,write=-", "read=a,,", "read=a|*", "write=Admin"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tag, errs := Parse(in)
		for _, e := range errs {
			if e.Offset < 0 || e.Offset > len(in) {
				t.Fatalf("Parse(%q): error offset %d outside the value: %s", in, e.Offset, e.Msg)
			}
			if e.Msg == "" {
				t.Fatalf("Parse(%q): empty message", in)
			}
		}
		if len(errs) > 0 {
			return
		}
		for _, r := range append(append([]string(nil), tag.Read.Names...), tag.Write.Names...) {
			if msg := CheckRole(r); msg != "" {
				t.Fatalf("Parse(%q) accepted role %q: %s", in, r, msg)
			}
		}
		again, errs := Parse(canonical(tag))
		if len(errs) > 0 {
			t.Fatalf("canonical form %q of %q does not parse: %v", canonical(tag), in, errs)
		}
		if again.Tenant != tag.Tenant || !sameRoles(again.Read, tag.Read) || !sameRoles(again.Write, tag.Write) {
			t.Fatalf("canonical form %q of %q means something else", canonical(tag), in)
		}
	})
}

func canonical(t *Tag) string {
	var parts []string
	if t.Tenant {
		parts = append(parts, "tenant")
	}
	for _, c := range []struct {
		name string
		r    Roles
	}{{"read", t.Read}, {"write", t.Write}} {
		switch {
		case !c.r.Set:
		case c.r.Any:
			parts = append(parts, c.name+"=*")
		case c.r.None:
			parts = append(parts, c.name+"=-")
		default:
			parts = append(parts, c.name+"="+strings.Join(c.r.Names, "|"))
		}
	}
	return strings.Join(parts, ",")
}

func sameRoles(a, b Roles) bool {
	return a.Set == b.Set && a.Any == b.Any && a.None == b.None && reflect.DeepEqual(a.Names, b.Names)
}
