#!/usr/bin/env python3
"""{{name}}: a sample entry for its params ({{params_names}}).

The ongrid manager runs this file with the call's JSON args on stdin and only
the environment variables listed in env_allow (PATH is there so that the
`#!/usr/bin/env python3` line can find python3). Standard library only.
stdout gets exactly one JSON object; progress goes to stderr; bad args exit 1
with one stderr line naming the field.

It checks the args as the schema in skill.json states them and answers with
them: {"args": {...}}. Do the skill's work in work() and return its result.
"""

import json
import sys

SKILL = "{{name}}"
# Each param and its JSON type, as skill.json's schema has them; keep them in step.
PARAMS = {{params_json}}
REQUIRED = {{required_json}}
TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "an array",
    "object": "an object",
}


class ArgsError(Exception):
    """Args that do not match the schema in skill.json; the message names the field."""


def log(message):
    print(f"{SKILL}: {message}", file=sys.stderr, flush=True)


def has_type(value, kind):
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":  # bool is an int in Python; 80.0 is an integer to JSON Schema
        whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        return whole and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    return isinstance(value, dict)


def parse_args(raw):
    """The args as the schema in skill.json states them."""
    try:
        args = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, ValueError) as e:
        raise ArgsError(f"not valid JSON: {e}") from None
    if not isinstance(args, dict):
        raise ArgsError("args must be a JSON object")
    for field in sorted(args):
        if field not in PARAMS:
            raise ArgsError(f"{field}: unknown field")
    for field in REQUIRED:
        if field not in args:
            raise ArgsError(f"{field}: required")
    for field, kind in PARAMS.items():
        if field in args and not has_type(args[field], kind):
            raise ArgsError(f"{field}: must be {TYPE_WORDS[kind]}")
    return args


def work(args):
    """The skill's work: replace this with yours, and return the result (JSON)."""
    return {"args": args}


def main():
    try:
        args = parse_args(sys.stdin.buffer.read())
    except ArgsError as e:
        log(f"invalid args: {e}")
        return 1
    json.dump(work(args), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
