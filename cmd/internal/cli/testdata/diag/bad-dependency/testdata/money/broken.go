package money

// broken does not parse.
func broken( {
