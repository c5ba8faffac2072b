#!/bin/sh
# No env is passed (no env_allow), so only shell builtins and absolute paths are used.
set -eu
read -r up _ < /proc/uptime
read -r l1 l5 l15 _ < /proc/loadavg
printf '{"uptime_seconds":%s,"load":[%s,%s,%s]}\n' "$up" "$l1" "$l5" "$l15"
