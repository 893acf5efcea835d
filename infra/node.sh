#!/usr/bin/env bash
# Runs a script with the Node.js that infra/provision.sh installed (Vigil's TypeScript runs
# directly on Node's type stripping: no build step).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
node="$root/.tools/node/bin/node"
if [ ! -x "$node" ]; then
  echo "Node.js for Vigil is not installed yet: run 'bash infra/provision.sh' first." >&2
  exit 1
fi
export PATH="$root/.tools/node/bin:$root/.tools/bin:$PATH"
exec "$node" "$@"
