// Command manager starts the fixture's operator.
package main

import (
	"fmt"

	alphav1 "example.com/incremental/api/a/v1"
	"example.com/incremental/internal/controller"
	webhookv1 "example.com/incremental/internal/webhook/v1"
)

func main() {
	fmt.Println(len(controller.Kinds), alphav1.Alpha{}.Name, webhookv1.Defaulter{})
}
