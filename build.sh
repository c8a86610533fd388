#!/usr/bin/env bash
# build.sh: set-up, build, run and test for recmem.
#
#   ./build.sh          install what is needed, build out/plugin.wasm and bin/recmem
#   ./build.sh run      build, then run the main job
#   ./build.sh test     build, then run every test (Go, conformance on all hosts, Node, browser)
#   ./build.sh deps     install dependencies only
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
export GOFLAGS=${GOFLAGS:--mod=readonly}

log() { printf '==> %s\n' "$*" >&2; }

deps_go() {
  command -v go >/dev/null || { echo "build.sh: Go 1.26 is required (https://go.dev/dl)" >&2; exit 1; }
  go mod download
}

deps_node() {
  command -v npm >/dev/null || { echo "build.sh: Node.js 20+ and npm are required" >&2; exit 1; }
  if [ ! -d web/node_modules/@extism/extism ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    log "npm ci (web/)"
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

build() {
  deps_go
  mkdir -p out bin
  log "building out/plugin.wasm"
  GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags="-s -w" -o out/plugin.wasm ./plugin
  log "building bin/recmem"
  go build -trimpath -o bin/recmem ./host/cmd/recmem
  local raw gz
  raw=$(wc -c < out/plugin.wasm)
  gz=$(gzip -9 -c out/plugin.wasm | wc -c)
  log "out/plugin.wasm: $raw bytes, $gz gzipped"
}

# deps_browser installs Debian's chromium for the browser tests when it is
# missing (as root; playwright-core drives it, no browser is downloaded).
deps_browser() {
  if [ -x "${RECMEM_CHROMIUM:-/usr/bin/chromium}" ]; then return; fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "build.sh: the browser tests need Debian's chromium: apt-get install -y chromium (as root)" >&2
    exit 1
  fi
  log "apt-get install chromium"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
}

run_tests() {
  build
  deps_node
  export RECMEM_WASM=$ROOT/out/plugin.wasm
  log "gofmt"
  local bad
  bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './web/*'))
  if [ -n "$bad" ]; then echo "gofmt needed: $bad" >&2; exit 1; fi
  log "go vet"
  go vet ./pkg/... ./host/...
  GOOS=wasip1 GOARCH=wasm go vet ./plugin/
  log "go test (native, Go host on the .wasm)"
  go test -count=1 -timeout 30m ./pkg/... ./host/...
  log "go test -race (many goroutines on one compiled module)"
  go test -count=1 -race -run 'TestHammer' ./host/
  log "node --test (conformance through @extism/extism)"
  (cd web && node --test test/)
  log "node --test (the local model server's HTTP layer and refusals; no model, no node-llama-cpp)"
  (cd scripts/llm && node --test test/)
  deps_browser
  log "browser tests (bin/recmem serve + headless chromium through playwright-core)"
  (cd web && node --test --test-concurrency=1 e2e/)
}

case "${1:-build}" in
  build) build ;;
  deps) deps_go; deps_node ;;
  run) build; deps_node; exec bin/recmem serve "${@:2}" ;;
  test) run_tests ;;
  *) echo "usage: ./build.sh [build|run|test|deps]" >&2; exit 2 ;;
esac
