package rbac

import (
	"fmt"
	"strconv"
	"strings"
)

// Diff collects the changes a subject may not make. Generated compare
// functions call Deny for such a change and Push/PushKey/Pop around the
// elements of lists and maps, so that paths name the element
// ("spec.items[2].price"). The zero Diff only counts (see Denied).
type Diff struct {
	table *Table
	stack []string
	paths []string
	n     int
}

// Deny records a forbidden change to a row.
func (d *Diff) Deny(row int) {
	if d.table != nil && row == d.table.tenant {
		return // tenancy, checked before, pins the tenant key
	}
	d.n++
	if d.table != nil && row >= 0 && row < len(d.table.fields) {
		d.paths = append(d.paths, d.render(d.table.fields[row].Path))
	}
}

// Denied reports whether any forbidden change was found.
func (d *Diff) Denied() bool { return d.n > 0 }

// Push enters the element at index i of a list.
func (d *Diff) Push(i int) { d.stack = append(d.stack, "["+strconv.Itoa(i)+"]") }

// Pop leaves the element entered last.
func (d *Diff) Pop() { d.stack = d.stack[:len(d.stack)-1] }

// PushKey enters the element at key k of a map.
func PushKey[K comparable](d *Diff, k K) {
	var s string
	switch x := any(k).(type) {
	case string:
		s = strconv.Quote(x)
	case fmt.Stringer:
		s = strconv.Quote(x.String())
	default:
		s = fmt.Sprint(k)
	}
	d.stack = append(d.stack, "["+s+"]")
}

// render fills the "[]" and "{}" of a table path with the elements entered.
func (d *Diff) render(path string) string {
	var b strings.Builder
	next := 0
	for i := 0; i < len(path); i++ {
		if i+1 < len(path) && (path[i:i+2] == "[]" || path[i:i+2] == "{}") && next < len(d.stack) {
			b.WriteString(d.stack[next])
			next++
			i++
			continue
		}
		b.WriteByte(path[i])
	}
	return b.String()
}

// SameKeys reports whether two maps have the same keys.
func SameKeys[K comparable, V any](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}
