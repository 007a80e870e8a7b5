package model_test

import (
	"testing"

	"github.com/modelgen/modelgen/model"
)

// TestGoTypes checks what Load records of a type as Go sees it: every
// field in order (unexported and embedded ones too), how each is spelled,
// named types' packages, aliases, Equal methods, type arguments, and a
// recursive type pointing back at itself.
func TestGoTypes(t *testing.T) {
	m, err := model.Load(model.Config{Dir: "testdata", Patterns: []string{"./gotypes"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() || len(m.Packages) != 1 {
		t.Fatalf("loading: %v", m.Diags)
	}
	var holder, node, twice *model.Type
	for _, ty := range m.Packages[0].Types {
		switch ty.Name {
		case "Holder":
			holder = ty
		case "Node":
			node = ty
		case "Twice":
			twice = ty
		}
	}
	if holder == nil || holder.Go == nil || holder.Go.Kind != model.GoNamed || holder.Go.Under.Kind != model.GoStruct {
		t.Fatalf("Holder's Go type: %+v", holder)
	}
	const pkg = "github.com/modelgen/modelgen/model/testdata/gotypes"
	fields := map[string]model.GoField{}
	var order []string
	for _, f := range holder.Go.Under.Fields {
		fields[f.Name] = f
		order = append(order, f.Name)
	}
	if want := "Name hidden When Ptr List Grid Index Any Alias Tree Boxed Callback Embedded"; join(order) != want {
		t.Errorf("fields %q, want %q", join(order), want)
	}
	for _, c := range []struct {
		field  string
		kind   model.GoKind
		str    string
		under  model.GoKind
		equal  model.EqualMethod
		pkg    string
		exprts bool
	}{
		{"Name", model.GoBasic, "string", model.GoBasic, model.NoEqual, "", true},
		{"hidden", model.GoBasic, "int", model.GoBasic, model.NoEqual, "", false},
		{"When", model.GoNamed, "time.Time", model.GoStruct, model.EqualValue, "time", true},
		{"Ptr", model.GoPointer, "*" + pkg + ".Value", model.GoPointer, model.NoEqual, "", true},
		{"List", model.GoSlice, "[]" + pkg + ".Value", model.GoSlice, model.NoEqual, "", true},
		{"Grid", model.GoArray, "[2]bool", model.GoArray, model.NoEqual, "", true},
		{"Index", model.GoMap, "map[string]*" + pkg + ".Value", model.GoMap, model.NoEqual, "", true},
		{"Any", model.GoAlias, "any", model.GoInterface, model.NoEqual, "", true},
		{"Alias", model.GoAlias, pkg + ".Values", model.GoSlice, model.NoEqual, pkg, true},
		{"Tree", model.GoNamed, pkg + ".Node", model.GoStruct, model.NoEqual, pkg, true},
		{"Boxed", model.GoNamed, pkg + ".Box[int]", model.GoStruct, model.NoEqual, pkg, true},
		{"Callback", model.GoFunc, "func()", model.GoFunc, model.NoEqual, "", true},
		{"Embedded", model.GoNamed, pkg + ".Embedded", model.GoStruct, model.EqualPointer, pkg, true},
	} {
		f, ok := fields[c.field]
		if !ok {
			t.Errorf("no field %s", c.field)
			continue
		}
		g := f.Type
		if g.Kind != c.kind || g.String != c.str || g.Underlying().Kind != c.under || g.Unalias().Equal != c.equal || g.PkgPath != c.pkg || f.Exported != c.exprts || f.PkgPath != pkg {
			t.Errorf("%s: kind %d %q under %d equal %d pkg %q exported %v (field of %q); want kind %d %q under %d equal %d pkg %q exported %v",
				c.field, g.Kind, g.String, g.Underlying().Kind, g.Unalias().Equal, g.PkgPath, f.Exported, f.PkgPath, c.kind, c.str, c.under, c.equal, c.pkg, c.exprts)
		}
	}
	if e := fields["Embedded"]; !e.Embedded || fields["Name"].Embedded {
		t.Error("Embedded is the one embedded field")
	}
	if b := fields["Boxed"].Type; len(b.TypeArgs) != 1 || b.TypeArgs[0].Name != "int" || b.Under.Fields[0].Type.String != "int" {
		t.Errorf("Box[int]: type arguments %v, item %v", b.TypeArgs, b.Under.Fields)
	}
	if node == nil || node.Go == nil || node.Go.Under.Fields[0].Type.Elem != node.Go {
		t.Error("Node.Children's element is Node's own GoType: a recursive type is one node")
	}
	if fields["Tree"].Type != node.Go {
		t.Error("a named type has one GoType wherever it is used")
	}
	if twice == nil || twice.Go == nil {
		t.Fatal("no Twice")
	}
	again := map[string]*model.GoType{}
	for _, f := range twice.Go.Under.Fields {
		again[f.Name] = f.Type
	}
	if again["Name"] != fields["Name"].Type || again["Ptr"] != fields["Ptr"].Type || again["Times"] != again["Strs"] {
		t.Error("a basic type, and a pointer or slice of the same element, is one GoType wherever it is used")
	}
	if again["Bytes"] == again["Octets"] || again["Bytes"].String != "[]byte" || again["Octets"].String != "[]uint8" {
		t.Errorf("[]byte and []uint8 keep their spellings: %q, %q", again["Bytes"].String, again["Octets"].String)
	}
}

// TestTagsFirstKey: of a key a struct tag gives twice, the first counts, as
// reflect.StructTag.Get (encoding/json, controller-gen) reads it; the keys
// keep the tag's order.
func TestTagsFirstKey(t *testing.T) {
	m, err := model.Load(model.Config{Dir: "testdata", Patterns: []string{"./gotypes"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ty := range m.Packages[0].Types {
		if ty.Name != "Twice" {
			continue
		}
		f := ty.Fields[0]
		var keys []string
		for _, tag := range f.Tags {
			keys = append(keys, tag.Key)
		}
		if f.JSONName != "name" || join(keys) != "json validate" {
			t.Errorf("Twice.Name: json name %q, tag keys %q; want name, json validate", f.JSONName, join(keys))
		}
		if v, ok := f.Tags.Get("validate"); !ok || v.Value != "required" || v.Pos.Col == 0 {
			t.Errorf("validate tag %+v", v)
		}
		return
	}
	t.Fatal("no Twice")
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
