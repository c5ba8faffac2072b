#!/bin/bash
# {{name}}: checks whether a TCP port on a host accepts connections.
#
# The ongrid manager runs this file with the call's JSON args on stdin and an
# empty environment: only the names listed in env_allow are passed, so there is
# no PATH here. Everything below is bash itself (4.0 or newer): no jq, no python,
# no coreutils. stdout gets exactly one JSON object; progress goes to stderr;
# bad args exit 1 with one stderr line naming the field.
#
#   args:   {"host": "db1.internal", "port": 5432, "timeout_ms": 2000}
#   result: {"host": "db1.internal", "port": 5432, "reachable": true, "latency_ms": 0.412, "error": null}
#
# An unreachable port is a result (reachable: false), not a failure.
set -u
export LC_ALL=C # the JSON reader below works on bytes

SKILL={{name}}
DEFAULT_TIMEOUT_MS=2000

log() { printf '%s: %s\n' "$SKILL" "$*" >&2; }
die() {
  log "$*"
  exit 1
}

if ((BASH_VERSINFO[0] < 4)); then
  die "needs bash 4.0 or newer (this is $BASH_VERSION)"
fi

# --- JSON in: a reader for one flat object of strings, numbers, booleans and null ---
# parse_object TEXT sets ARGS[key]=value and TYPES[key]=string|number|boolean|null.
# Strings are unescaped (\" \\ \/ \b \f \n \r \t \uXXXX, surrogate pairs as UTF-8).

declare -A ARGS=() TYPES=()
J='' # the text being read
P=0  # the read position in J (a byte offset)
N=0  # the length of J
STR='' # what read_string read

bad_json() { die "invalid args: $1 (at byte $P of stdin)"; }

skip_space() {
  while ((P < N)); do
    case ${J:P:1} in
      ' ' | $'\t' | $'\n' | $'\r') P=$((P + 1)) ;;
      *) return ;;
    esac
  done
}

# Appends the UTF-8 encoding of code point $1 to STR.
append_utf8() {
  local cp=$1 fmt s
  if ((cp < 0x80)); then
    printf -v fmt '\\x%02x' "$cp"
  elif ((cp < 0x800)); then
    printf -v fmt '\\x%02x\\x%02x' $((0xC0 | cp >> 6)) $((0x80 | (cp & 0x3F)))
  elif ((cp < 0x10000)); then
    printf -v fmt '\\x%02x\\x%02x\\x%02x' $((0xE0 | cp >> 12)) $((0x80 | (cp >> 6 & 0x3F))) $((0x80 | (cp & 0x3F)))
  else
    printf -v fmt '\\x%02x\\x%02x\\x%02x\\x%02x' $((0xF0 | cp >> 18)) $((0x80 | (cp >> 12 & 0x3F))) \
      $((0x80 | (cp >> 6 & 0x3F))) $((0x80 | (cp & 0x3F)))
  fi
  printf -v s '%b' "$fmt"
  STR+=$s
}

# Reads the string that starts at P (on its opening quote) into STR.
read_string() {
  local rest plain c hex cp lo
  STR=''
  P=$((P + 1))
  while ((P < N)); do
    rest=${J:P}
    plain=${rest%%[\"\\]*} # everything up to the next quote or backslash
    if [[ $plain == *[$'\x01'-$'\x1f']* ]]; then
      bad_json 'control character in a string'
    fi
    STR+=$plain
    P=$((P + ${#plain}))
    c=${J:P:1}
    if [[ $c == '"' ]]; then
      P=$((P + 1))
      return
    fi
    [[ $c == "\\" ]] || break
    c=${J:P+1:1}
    P=$((P + 2))
    case $c in
      '"' | "\\" | /) STR+=$c ;;
      b) STR+=$'\b' ;;
      f) STR+=$'\f' ;;
      n) STR+=$'\n' ;;
      r) STR+=$'\r' ;;
      t) STR+=$'\t' ;;
      u)
        hex=${J:P:4}
        [[ $hex =~ ^[0-9A-Fa-f]{4}$ ]] || bad_json 'bad \u escape'
        P=$((P + 4))
        cp=$((16#$hex))
        if ((cp >= 0xD800 && cp <= 0xDBFF)) && [[ ${J:P:6} =~ ^\\u[dD][c-fC-F][0-9A-Fa-f]{2}$ ]]; then
          lo=$((16#${J:P+2:4}))
          P=$((P + 6))
          cp=$((0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)))
        elif ((cp >= 0xD800 && cp <= 0xDFFF)); then
          cp=0xFFFD # a lone surrogate
        fi
        ((cp != 0)) || bad_json '\u0000 cannot be held in a bash string'
        append_utf8 "$cp"
        ;;
      *) bad_json "bad escape \\$c" ;;
    esac
  done
  bad_json 'unterminated string'
}

NUMBER_RE='^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?'

# Reads the value at P for field $1.
read_value() {
  local key=$1
  case ${J:P:1} in
    '"')
      read_string
      ARGS[$key]=$STR TYPES[$key]=string
      ;;
    t | f | n)
      local word
      for word in true false null; do
        if [[ ${J:P:${#word}} == "$word" ]]; then
          ARGS[$key]=$word
          [[ $word == null ]] && TYPES[$key]=null || TYPES[$key]=boolean
          P=$((P + ${#word}))
          return
        fi
      done
      bad_json "bad value for \"$key\""
      ;;
    '{' | '[') die "invalid args: $key: must not be an object or an array" ;;
    *)
      [[ ${J:P} =~ $NUMBER_RE ]] || bad_json "bad value for \"$key\""
      ARGS[$key]=${BASH_REMATCH[0]} TYPES[$key]=number
      P=$((P + ${#BASH_REMATCH[0]}))
      ;;
  esac
}

parse_object() {
  local key
  J=$1 P=0 N=${#1}
  skip_space
  if ((P == N)); then return; fi # no args at all: the manager sends {} then, but be kind
  [[ ${J:P:1} == '{' ]] || bad_json 'args must be a JSON object'
  P=$((P + 1))
  skip_space
  if [[ ${J:P:1} == '}' ]]; then
    P=$((P + 1))
  else
    while :; do
      [[ ${J:P:1} == '"' ]] || bad_json 'expected a field name in double quotes'
      read_string
      key=$STR
      [[ -n $key ]] || die 'invalid args: "": unknown field'
      skip_space
      [[ ${J:P:1} == : ]] || bad_json "expected ':' after \"$key\""
      P=$((P + 1))
      skip_space
      read_value "$key"
      skip_space
      case ${J:P:1} in
        ,) P=$((P + 1)) && skip_space ;;
        '}') P=$((P + 1)) && break ;;
        *) bad_json "expected ',' or '}' after the value of \"$key\"" ;;
      esac
    done
  fi
  skip_space
  ((P == N)) || bad_json 'unexpected text after the object'
}

# --- JSON out ---
# json_string VALUE sets REPLY to VALUE as a JSON string literal.
json_string() {
  local s=$1 c esc
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\r'/\\r}
  s=${s//$'\t'/\\t}
  while [[ $s =~ [$'\x01'-$'\x1f'] ]]; do # the other control characters
    c=${BASH_REMATCH[0]}
    printf -v esc '\\u%04x' "'$c"
    s=${s//"$c"/$esc}
  done
  REPLY="\"$s\""
}

# --- the args, checked as the schema in skill.json states them ---
# integer_arg FIELD MIN MAX sets REPLY to the field's value, or dies naming it.
integer_arg() {
  local field=$1 min=$2 max=$3 v
  v=${ARGS[$field]}
  if [[ ${TYPES[$field]} != number || ! $v =~ ^-?[0-9]{1,6}(\.0+)?$ ]] ||
    ((${v%%.*} < min || ${v%%.*} > max)); then
    die "invalid args: $field: must be an integer from $min to $max"
  fi
  REPLY=$((10#${v%%.*}))
}

IFS= read -r -d '' input # all of stdin (read stops at EOF with status 1)
parse_object "$input"

for field in "${!ARGS[@]}"; do
  case $field in
    host | port | timeout_ms) ;;
    *) die "invalid args: $field: unknown field" ;;
  esac
done

[[ ${ARGS[host]+set} ]] || die 'invalid args: host: required'
host=${ARGS[host]}
if [[ ${TYPES[host]} != string || ! $host =~ ^[A-Za-z0-9.:-]{1,253}$ ]]; then
  die 'invalid args: host: must be a host name, IPv4 or IPv6 address (letters, digits, . - :)'
fi
[[ ${ARGS[port]+set} ]] || die 'invalid args: port: required'
integer_arg port 1 65535
port=$REPLY
timeout_ms=$DEFAULT_TIMEOUT_MS
if [[ ${ARGS[timeout_ms]+set} ]]; then
  integer_arg timeout_ms 1 10000
  timeout_ms=$REPLY
fi

# --- the check ---
# bash opens /dev/tcp/HOST/PORT as a TCP connection. A watchdog ends the attempt
# when the deadline passes (name lookup included): `read -t` on a pipe that never
# gets data is a sleep without the sleep command.
log "connecting to $host:$port (timeout ${timeout_ms} ms)"
printf -v secs '%d.%03d' $((timeout_ms / 1000)) $((timeout_ms % 1000))
outcome=$(
  self=$BASHPID
  { read -rt "$secs" <> <(:) || kill -TERM "$self"; } 2>/dev/null &
  watchdog=$!
  started=${EPOCHREALTIME-}
  if { : <>"/dev/tcp/$host/$port"; } 2>&1; then
    echo "connected $started ${EPOCHREALTIME-}"
  fi
  kill "$watchdog" 2>/dev/null
)
status=$?

reachable=false latency=null error=null
if [[ $outcome =~ connected\ ([0-9.,]*)\ ([0-9.,]*)$ ]]; then
  reachable=true
  if [[ -n ${BASH_REMATCH[1]} ]]; then # EPOCHREALTIME is bash 5: microseconds
    us=$((10#${BASH_REMATCH[2]//[!0-9]/} - 10#${BASH_REMATCH[1]//[!0-9]/}))
    printf -v latency '%d.%03d' $((us / 1000)) $((us % 1000))
  fi
  if [[ $latency == null ]]; then log 'reachable'; else log "reachable in $latency ms"; fi
else
  if ((status > 128)); then
    reason="timed out after ${timeout_ms} ms"
  else
    reason=${outcome%%$'\n'*} # bash's first line: ".../run.sh: line 9: connect: Connection refused"
    reason=${reason##*: }
    [[ -n $reason ]] || reason='connection failed'
  fi
  log "not reachable: $reason"
  json_string "$reason"
  error=$REPLY
fi

json_string "$host"
printf '{"host":%s,"port":%d,"reachable":%s,"latency_ms":%s,"error":%s}\n' \
  "$REPLY" "$port" "$reachable" "$latency" "$error"
