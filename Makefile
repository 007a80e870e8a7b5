# The everyday commands; CONTRIBUTING.md says what each tier checks and how
# long it takes.
.PHONY: test test-all update lint

# The fast loop: every package of the root module with -short (the slow
# parts of the slowest tests skip; unit, golden, generated-code and
# in-process API-server checks stay).
test:
	go test -short ./...

# Everything CI runs: vet, lint, every module, the upstream, client and
# envtest tiers.
test-all:
	./hack/test.sh

# Regenerate every golden, generated document block, example and benchmark
# package.
update:
	./hack/update.sh

# staticcheck, at the version pinned in hack/lint.sh, over every module.
lint:
	./hack/lint.sh
