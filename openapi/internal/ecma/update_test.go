package ecma

import "github.com/modelgen/modelgen/internal/testkit"

// This package has no golden files; it accepts -update (see testkit) so
// that go test ./... -update runs it too.
var _ = testkit.Update
