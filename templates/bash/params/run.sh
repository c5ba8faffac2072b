#!/bin/bash
# {{name}}: a sample entry for its params ({{params_names}}).
#
# The ongrid manager runs this file with the call's JSON args on stdin and an
# empty environment: only the names listed in env_allow are passed, so there is
# no PATH here. Everything below is bash itself (4.0 or newer): no jq, no python,
# no coreutils. stdout gets exactly one JSON object; progress goes to stderr;
# bad args exit 1 with one stderr line naming the field.
#
# It checks the args as the schema in skill.json states them and answers with
# them: {"args": {...}}. Do the skill's work at the end, where it says so.
set -u
export LC_ALL=C # the JSON reader below works on bytes

SKILL={{name}}
# Each param and its JSON type, as skill.json's schema has them; keep them in step.
declare -A PARAMS=({{params_bash}})
NAMES=({{names_bash}}) # in the order skill.json lists them
REQUIRED=({{required_bash}})

log() { printf '%s: %s\n' "$SKILL" "$*" >&2; }
die() {
  log "$*"
  exit 1
}

if ((BASH_VERSINFO[0] < 4)); then
  die "needs bash 4.0 or newer (this is $BASH_VERSION)"
fi

# --- JSON in: a reader for one object of strings, numbers, booleans, null, arrays and objects ---
# parse_object TEXT sets ARGS[key]=value and TYPES[key]=string|number|boolean|null|array|object;
# an array or an object is kept as its JSON text.
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

# Reads the array or object that starts at P into STR, as its JSON text (strings read as
# strings, so that a bracket inside one does not count).
read_nested() {
  local start=$P depth=0 c
  while ((P < N)); do
    c=${J:P:1}
    case $c in
      '"')
        read_string
        continue
        ;;
      '{' | '[') depth=$((depth + 1)) ;;
      '}' | ']') depth=$((depth - 1)) ;;
    esac
    P=$((P + 1))
    if ((depth == 0)); then
      STR=${J:start:P-start}
      return
    fi
  done
  bad_json 'unterminated array or object'
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
    '{' | '[')
      read_nested
      ARGS[$key]=$STR
      [[ ${STR:0:1} == '[' ]] && TYPES[$key]=array || TYPES[$key]=object
      ;;
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
declare -A TYPE_WORDS=([string]='a string' [integer]='an integer' [number]='a number'
  [boolean]='true or false' [array]='an array' [object]='an object')

# has_type FIELD KIND: does the field's value have the JSON type KIND?
has_type() {
  local t=${TYPES[$1]} v=${ARGS[$1]}
  case $2 in
    integer) [[ $t == number && $v =~ ^-?[0-9]+(\.0+)?$ ]] ;;
    *) [[ $t == "$2" ]] ;;
  esac
}

IFS= read -r -d '' input # all of stdin (read stops at EOF with status 1)
parse_object "$input"

unknown=''
for field in ${ARGS[@]+"${!ARGS[@]}"}; do # the first unknown one in byte order
  if [[ -z ${PARAMS[$field]+set} ]] && [[ -z $unknown || $field < $unknown ]]; then
    unknown=$field
  fi
done
[[ -z $unknown ]] || die "invalid args: $unknown: unknown field"
for field in ${REQUIRED[@]+"${REQUIRED[@]}"}; do # (bash < 4.4: an empty array is unset under set -u)
  [[ ${ARGS[$field]+set} ]] || die "invalid args: $field: required"
done
for field in "${NAMES[@]}"; do
  if [[ ${ARGS[$field]+set} ]] && ! has_type "$field" "${PARAMS[$field]}"; then
    die "invalid args: $field: must be ${TYPE_WORDS[${PARAMS[$field]}]}"
  fi
done

# --- the skill's work: replace this with yours, and print its result (one JSON object) ---
# The args are in ARGS (strings unescaped; numbers, booleans, null, arrays and objects as
# JSON text) and their types in TYPES. The sample answers with the args it was given.
out=''
for field in "${NAMES[@]}"; do
  [[ ${ARGS[$field]+set} ]] || continue
  json_string "$field"
  key=$REPLY
  if [[ ${TYPES[$field]} == string ]]; then
    json_string "${ARGS[$field]}"
  else
    REPLY=${ARGS[$field]}
  fi
  out+="${out:+,}$key:$REPLY"
done
printf '{"args":{%s}}\n' "$out"
