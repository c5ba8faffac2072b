#!/bin/sh
# Reads {"path": "..."} on stdin, prints {"path", "total_bytes", "used_bytes", "free_bytes"}.
set -eu
args=$(cat)
path=$(printf '%s' "$args" | sed -n 's/.*"path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
[ -n "$path" ] || path=/
echo "disk_usage: checking $path" >&2
set -- $(df -Pk "$path" | awk 'NR == 2 { print $2, $3, $4 }')
[ $# -eq 3 ] || { echo "disk_usage: df gave no figures for $path" >&2; exit 1; }
printf '{"path":"%s","total_bytes":%s,"used_bytes":%s,"free_bytes":%s}\n' "$path" $(($1 * 1024)) $(($2 * 1024)) $(($3 * 1024))
