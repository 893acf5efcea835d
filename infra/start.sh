#!/usr/bin/env bash
# `npm start`: provision what is missing, then replace this shell with the stack launcher so
# signals (Ctrl-C, SIGTERM) reach it directly.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/infra/provision.sh"
exec bash "$root/infra/node.sh" "$root/infra/stack/start.ts" "$@"
