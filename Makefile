# mcp-terminal: `make lint readme-check test` is what CI runs (race detector on).
GO      ?= go
BIN     ?= bin/mcp-terminal
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# Every package, and the test reporter in .ci (go's ./... skips dot directories).
PKGS    := ./... ./.ci/testreport
# Pinned here and run with `go run pkg@version` (checksummed like any module) rather
# than as a go.mod tool directive, which would make staticcheck's dependencies
# (golang.org/x/tools and others) requirements of the server's own build.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.6.1

# Recipes run in bash with pipefail, so `go test -json | testreport` fails when
# go test does.
SHELL       := bash
.SHELLFLAGS := -eu -o pipefail -c

.PHONY: build test test-long lint readme-check bench bench-scale soak fuzz ci clean run doctor

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN) ./cmd/mcp-terminal

run:
	$(GO) run ./cmd/mcp-terminal

doctor:
	$(GO) run ./cmd/mcp-terminal doctor

# Prints each package's result, the output of failed tests and, at the end, every
# skipped test with its reason (a program that is not installed shows up there).
# integration is listed first: go test builds and runs packages in the order given,
# and integration is the longest (mostly waiting on real programs), so the others
# build and run beside it instead of before it.
test:
	$(GO) test -race -count=1 -timeout 15m -json ./integration/ $(PKGS) | $(GO) run ./.ci/testreport

# The long forms of the tests that have one (-long): 500 create/close cycles
# instead of 100 in session's leak test.
test-long:
	$(GO) test -race -count=1 -timeout 30m -json ./session/ -long | $(GO) run ./.ci/testreport

# gofmt; go vet here, for macOS and for arm64 (Linux-only code keeps its stubs
# building); staticcheck; go.mod and go.sum tidy.
lint:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)
	GOOS=darwin $(GO) vet $(PKGS)
	GOARCH=arm64 $(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }

# The README's install lines, run on a fresh clone of this checkout's HEAD; each
# binary they build must answer an MCP initialize over stdio.
readme-check:
	.ci/readme-check

# Benchmarks: unit hot paths and end-to-end figures through the built binary.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s -timeout 60m ./screen/ ./detect/ ./security/... ./session/ ./integration/

# Scale figures alone (issue 12): bulk output against the raw PTY in one run
# (x-raw), and a thousand idle sessions (memory, threads, echo, create, close-all).
bench-scale:
	$(GO) test -run '^$$' -bench 'Throughput|ThousandSessions' -benchtime 3x -timeout 60m ./integration/

# 50 sessions of mixed work for 30 minutes: RSS, threads and zombies must stay flat.
# SOAK=3m for a short run.
SOAK ?= 30m
soak:
	$(GO) test -count=1 -v -run '^$$' -bench '^BenchmarkSoak$$' -benchtime 1x -timeout 90m ./integration/ -soak=$(SOAK)

# A short run of every fuzz target (seed corpora run in `make test` already).
FUZZTIME ?= 30s
fuzz:
	@for pkg in ./screen/ ./security/danger/ ./security/redact/ ./detect/ ./session/; do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

ci: lint readme-check test

clean:
	rm -rf bin
