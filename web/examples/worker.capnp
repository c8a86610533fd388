# workerd's configuration for examples/worker.mjs: recmem's stateless HTTP
# API (docs/http.md) in a Worker, on 127.0.0.1:8787.
#
#   cd web && npx workerd serve examples/worker.capnp
#   RECMEM_SEAL_KEY=$(head -c 32 /dev/urandom | base64) npx workerd serve examples/worker.capnp
#   RECMEM_BASE_TAG=1 npx workerd serve examples/worker.capnp
#
# Paths are relative to this file; out/plugin.wasm is built by ./build.sh.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "recmem", worker = .recmem)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "recmem")],
);

const recmem :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    # The module as a Wasm module binding: compiled when the Worker loads,
    # imported by the Worker as a WebAssembly.Module.
    (name = "plugin.wasm", wasm = embed "../../out/plugin.wasm"),
    # recmem.js, and @extism/extism's browser build (one self-contained file).
    (name = "recmem", esModule = embed "../recmem.js"),
    (name = "@extism/extism", esModule = embed "../node_modules/@extism/extism/dist/browser/mod.js"),
  ],
  bindings = [
    # The catalog rank uses: server configuration, as recmem serve --catalog.
    (name = "RECMEM_CATALOG", data = embed "../../testdata/catalog/tiny.json"),
    # A secret that seals the states handed out (at least 32 bytes), taken
    # from the environment; unset, states are tagged with their SHA-256.
    (name = "RECMEM_SEAL_KEY", fromEnvironment = "RECMEM_SEAL_KEY"),
    # How many instances the isolate keeps warm (default 2), from the
    # environment.
    (name = "RECMEM_WARM", fromEnvironment = "RECMEM_WARM"),
    # "1" lets a request name its state by tag ("base_tag", and a "delta"
    # to append), as recmem serve --base-tag; off when unset.
    (name = "RECMEM_BASE_TAG", fromEnvironment = "RECMEM_BASE_TAG"),
    # The most bytes a request's packed state or delta may unpack to, per
    # byte of its gzip (default 6, as recmem serve --max-expansion).
    (name = "RECMEM_MAX_EXPANSION", fromEnvironment = "RECMEM_MAX_EXPANSION"),
    # The longest a request may hold an instance, in ms (default 10,000):
    # a call past it is cut off and the instance discarded (504).
    (name = "RECMEM_HOLD_MS", fromEnvironment = "RECMEM_HOLD_MS"),
  ],
  compatibilityDate = "2025-09-01",
);
