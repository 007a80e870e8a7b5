// Command main runs the guestbook manager.
package main

import (
	"fmt"

	batchv1 "example.com/guestbook/api/v1"
	"example.com/guestbook/internal/controller"
	_ "example.com/guestbook/internal/webhook/v1"
)

func main() {
	fmt.Println(batchv1.GroupVersion, controller.Leases)
}
