package rbac

// Mask is a set of rows of a field table. Generated code tests it; a row
// outside the mask's range is never in it.
type Mask struct{ bits []uint64 }

func newMask(n int) Mask { return Mask{bits: make([]uint64, (n+63)/64)} }

// Has reports whether row i is in the mask.
func (m Mask) Has(i int) bool {
	w := uint(i) >> 6 // a negative i becomes huge: out of range
	return w < uint(len(m.bits)) && m.bits[w]&(1<<(uint(i)&63)) != 0
}

func (m Mask) set(i int) { m.bits[i>>6] |= 1 << (uint(i) & 63) }

func (m Mask) or(o Mask) {
	for i := range m.bits {
		m.bits[i] |= o.bits[i]
	}
}

// masks are the compiled rights of a subject on a type.
type masks struct {
	read, write Mask
	// tenantWritable says whether the roles themselves may write the tenant
	// key; write always holds it, since tenancy pins its value.
	tenantWritable bool
}

func newMasks(n int) *masks { return &masks{read: newMask(n), write: newMask(n)} }

func (m *masks) or(o *masks) {
	m.read.or(o.read)
	m.write.or(o.write)
}
