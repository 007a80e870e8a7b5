//go:build tools

// The runtime packages the generated clients import, so that `go mod
// tidy` keeps them while no generated client is on disk.
package clients

import (
	_ "github.com/go-faster/errors"
	_ "github.com/go-faster/jx"
	_ "github.com/oapi-codegen/runtime"
	_ "github.com/ogen-go/ogen/conv"
	_ "github.com/ogen-go/ogen/http"
	_ "github.com/ogen-go/ogen/json"
	_ "github.com/ogen-go/ogen/middleware"
	_ "github.com/ogen-go/ogen/ogenerrors"
	_ "github.com/ogen-go/ogen/ogenregex"
	_ "github.com/ogen-go/ogen/otelogen"
	_ "github.com/ogen-go/ogen/uri"
	_ "github.com/ogen-go/ogen/validate"
	_ "go.opentelemetry.io/otel"
	_ "go.opentelemetry.io/otel/metric"
	_ "go.opentelemetry.io/otel/trace"
)
