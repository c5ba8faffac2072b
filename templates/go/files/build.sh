#!/bin/sh
# Builds the entry named in skill.json, bin/{{name}}, from main.go.
# `ongrid-skill init` ran this once when Go was on PATH; run it again after each
# change to main.go. The binary is static (CGO_ENABLED=0), so it runs on the
# manager host without any env_allow. Building on another machine than the
# manager's? Name the manager's platform: GOOS=linux GOARCH=arm64 ./build.sh
set -eu
cd "$(dirname "$0")"
if ! command -v go >/dev/null 2>&1; then
  echo "build.sh: go not found on PATH: install Go 1.19 or newer (https://go.dev/dl/), then run ./build.sh again" >&2
  exit 1
fi
CGO_ENABLED=${CGO_ENABLED:-0}
export CGO_ENABLED
go build -trimpath -o bin/{{name}} .
echo "build.sh: built bin/{{name}}" >&2
