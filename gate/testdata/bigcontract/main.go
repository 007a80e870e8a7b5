// Command bigcontract writes a large OpenAPI contract of the shape modelgen
// generates, for measuring the gate: the PaymentOrder example's document,
// copied (components and paths renamed per copy) until the file reaches the
// requested size. With -revision it removes one transition from the first
// copy's state machine and bumps info.version, so the gate has a breaking
// change to find.
//
//	go run ./gate/testdata/bigcontract -size 50 -o /tmp/base.yaml
//	go run ./gate/testdata/bigcontract -size 50 -revision -o /tmp/revision.yaml
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

func main() {
	template := flag.String("template", "examples/payments/api/v1alpha1/openapi.yaml", "the generated document to copy")
	sizeMB := flag.Int("size", 50, "size of the output in MB (10^6 bytes)")
	revision := flag.Bool("revision", false, "write the revision: one transition removed, version 2.0.0")
	out := flag.String("o", "", "output file")
	flag.Parse()
	data, err := os.ReadFile(*template)
	if err != nil {
		log.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		log.Fatal(err)
	}
	one, err := yaml.Marshal(doc)
	if err != nil {
		log.Fatal(err)
	}
	copies := max(1, *sizeMB*1_000_000/len(one))
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	paths := doc["paths"].(map[string]any)
	bigSchemas, bigPaths := map[string]any{}, map[string]any{}
	for i := range copies {
		suffix := fmt.Sprintf("C%d", i)
		for name, s := range schemas {
			bigSchemas[name+suffix] = renameRefs(clone(s), schemas, suffix)
		}
		for p, item := range paths {
			bigPaths[strings.Replace(p, "/apis/", fmt.Sprintf("/apis/c%d.", i), 1)] = renameRefs(clone(item), schemas, suffix)
		}
	}
	doc["components"] = map[string]any{"schemas": bigSchemas}
	doc["paths"] = bigPaths
	info := doc["info"].(map[string]any)
	info["version"] = "1.0.0"
	if *revision {
		info["version"] = "2.0.0"
		phase := bigSchemas["PaymentOrderStatusC0"].(map[string]any)["properties"].(map[string]any)["phase"].(map[string]any)
		machine := phase["x-modelgen-state-machine"].(map[string]any)
		machine["transitions"] = machine["transitions"].([]any)[1:]
	}
	result, err := yaml.Marshal(doc)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, result, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d copies, %d bytes\n", *out, copies, len(result))
}

func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = clone(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = clone(val)
		}
		return out
	}
	return v
}

func renameRefs(v any, schemas map[string]any, suffix string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && k == "operationId" {
				x[k] = s + suffix
				continue
			}
			if s, ok := val.(string); ok && k == "$ref" {
				name := strings.TrimPrefix(s, "#/components/schemas/")
				if _, ok := schemas[name]; ok {
					x[k] = "#/components/schemas/" + name + suffix
				}
				continue
			}
			x[k] = renameRefs(val, schemas, suffix)
		}
	case []any:
		for i, val := range x {
			x[i] = renameRefs(val, schemas, suffix)
		}
	}
	return v
}
