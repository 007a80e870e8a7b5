package admit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	validator "github.com/go-playground/validator/v10"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/modelgen/modelgen/rbac"
)

// Field is a struct field as a Table knows it.
type Field struct {
	// JSON is the field's JSON name, "" for an inline (embedded) field.
	JSON string
	// Type is the struct type the field holds ("pkg.Type", the key prefix
	// of its own fields), "" for none.
	Type string
	// Dims says, for each subscript a validator namespace gives the field,
	// whether it is a list index ('s') or a map key ('m').
	Dims string
}

// Table is what the generated webhooks of one package know of its types.
type Table struct {
	// Fields maps "pkg.Type.GoField" to the field.
	Fields map[string]Field
	// Messages says what each validate keyword checks ("must be an ISO
	// 4217 currency code").
	Messages map[string]string
}

// defaultValidator is the validator of webhooks given none.
var defaultValidator = sync.OnceValue(func() *validator.Validate { return validator.New() })

// Validate runs v (nil: validator.New()) on obj, a root of the struct type
// root ("pkg.Type"), and reports each failure at its JSON path, with the
// table's message for the keyword. A required field is field.Required,
// every other failure field.Invalid; an error that is no validation error
// (a nil obj, a keyword v does not know) is one field.InternalError.
func (t *Table) Validate(v *validator.Validate, root string, obj any) (errs field.ErrorList) {
	if v == nil {
		v = defaultValidator()
	}
	defer func() {
		if r := recover(); r != nil {
			errs = field.ErrorList{field.InternalError(nil, fmt.Errorf("the webhook's validator cannot run the validate tags (%v): give the webhook the application's validator, with its own validations registered", r))}
		}
	}()
	err := v.Struct(obj)
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	for _, fe := range verrs {
		p := t.Path(root, fe.StructNamespace())
		if fe.ActualTag() == "required" {
			errs = append(errs, field.Required(p, t.Message(fe)))
			continue
		}
		errs = append(errs, field.Invalid(p, fe.Value(), t.Message(fe)))
	}
	return errs
}

// Message says which check failed: "must be an ISO 4217 currency code
// (iso4217)"; "fails the check sku" for a keyword the table has no words
// for.
func (t *Table) Message(fe validator.FieldError) string {
	check := fe.ActualTag()
	var says []string
	for _, tag := range strings.Split(check, "|") {
		if m, ok := t.Messages[tag]; ok {
			says = append(says, m)
		}
	}
	if fe.Param() != "" {
		check += "=" + fe.Param()
	}
	if len(says) == 0 {
		return "fails the check " + check
	}
	return strings.Join(says, ", or ") + " (" + check + ")"
}

// Path maps a validator namespace of a root of type root
// ("PaymentOrder.Spec.Tags[0]") to its JSON path (spec.tags[0]). A field
// the table does not know keeps its Go name.
func (t *Table) Path(root, namespace string) *field.Path {
	var p *field.Path
	typ := root
	_, rest, _ := strings.Cut(namespace, ".")
	for rest != "" {
		var name string
		var keys []string
		name, keys, rest = segment(rest)
		f, ok := t.Fields[typ+"."+name]
		if !ok {
			f = Field{JSON: name}
		}
		if f.JSON != "" {
			p = p.Child(f.JSON)
		}
		for i, k := range keys {
			n, err := strconv.Atoi(k)
			if err != nil || i < len(f.Dims) && f.Dims[i] == 'm' {
				p = p.Key(k)
			} else {
				p = p.Index(n)
			}
		}
		typ = f.Type
	}
	return p
}

// segment splits the first field off a namespace: "Tags[0][k].Name" is
// Tags, [0 k], Name. A map key may hold dots and brackets: it ends at the
// first ']' followed by '.', '[' or the end.
func segment(ns string) (name string, keys []string, rest string) {
	i := strings.IndexAny(ns, ".[")
	if i < 0 {
		return ns, nil, ""
	}
	name = ns[:i]
	for i < len(ns) && ns[i] == '[' {
		end := i + 1
		for end < len(ns) && !(ns[end] == ']' && (end+1 == len(ns) || ns[end+1] == '.' || ns[end+1] == '[')) {
			end++
		}
		keys = append(keys, ns[i+1:min(end, len(ns))])
		i = end + 1
	}
	if i < len(ns) && ns[i] == '.' {
		i++
	}
	return name, keys, ns[min(i, len(ns)):]
}

// InvalidError is the API error (422 Invalid) for the field errors of the
// object name of kind gk, nil for none.
func InvalidError(gk schema.GroupKind, name string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(gk, name, errs)
}

// AccessErrors reports an error of rbac's CheckWrite as field errors: a
// field.Forbidden at each field an *rbac.WriteError names, else one
// field.Forbidden with the error (another tenant's object). nil for nil.
func AccessErrors(err error) field.ErrorList {
	if err == nil {
		return nil
	}
	var we *rbac.WriteError
	if !errors.As(err, &we) {
		return field.ErrorList{field.Forbidden(nil, err.Error())}
	}
	var errs field.ErrorList
	for _, p := range we.Paths {
		errs = append(errs, field.Forbidden(field.NewPath(p), "the requesting subject may not change it"))
	}
	return errs
}
