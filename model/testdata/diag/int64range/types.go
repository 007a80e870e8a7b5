package int64range

// Limits is a plain model.
// +modelgen:model
type Limits struct {
	// warned: the CRD leaves the bound out
	Big uint64 `json:"big" validate:"lte=10000000000000000000"`
	// errors: no value the API server stores passes
	Low  uint64 `json:"low" validate:"gte=9300000000000000000"`
	Same uint64 `json:"same" validate:"eq=10000000000000000000"`
	// exact, no diagnostic: every int64 meets them
	Full int64 `json:"full" validate:"gte=-9223372036854775808,lte=9223372036854775807"`
}
