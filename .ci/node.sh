#!/usr/bin/env bash
# Installs an official Node.js build from the npm registry's `node` package (no other download) and prints the
# folder of its `node` binary; the headers native addons build against are in ../include/node beside it.
#   export PATH="$(bash .ci/node.sh 24):$PATH"      # Node 24 for this shell
# VERSION is a major (24) or an exact version (24.21.0); the exact versions CI uses are pinned in .ci/run.
set -euo pipefail
VERSION="${1:?usage: .ci/node.sh VERSION [DIR]}"
DIR="${2:-${PLUMBLINE_NODE_DIR:-$HOME/.cache/plumbline-node}/$VERSION}"
bin_dir() { ls -d "$DIR"/node_modules/node/node_modules/node-*/bin 2>/dev/null | head -n 1; }
if [ -z "$(bin_dir)" ]; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --loglevel=error "node@$VERSION" >&2
fi
BIN="$(bin_dir)"
"$BIN/node" --version >&2
echo "$BIN"
