// Package client imports a module nothing requires.
package client

import _ "github.com/modelgen-fixtures/nomodule/pkg"
