#!/usr/bin/env python3
"""{{name}}: checks whether a TCP port on a host accepts connections.

The ongrid manager runs this file with the call's JSON args on stdin and only
the environment variables listed in env_allow (PATH is there so that the
`#!/usr/bin/env python3` line can find python3). Standard library only.
stdout gets exactly one JSON object; progress goes to stderr; bad args exit 1
with one stderr line naming the field.

  args:   {"host": "db1.internal", "port": 5432, "timeout_ms": 2000}
  result: {"host": "db1.internal", "port": 5432, "reachable": true, "latency_ms": 0.412, "error": null}

An unreachable port is a result (reachable: false), not a failure.
"""

import json
import re
import socket
import sys
import time

SKILL = "{{name}}"
FIELDS = ("host", "port", "timeout_ms")
DEFAULT_TIMEOUT_MS = 2000
HOST = re.compile(r"[A-Za-z0-9.:-]{1,253}")


class ArgsError(Exception):
    """Args that do not match the schema in skill.json; the message names the field."""


def log(message):
    print(f"{SKILL}: {message}", file=sys.stderr, flush=True)


def integer(args, field, low, high):
    value = args[field]
    # bool is an int in Python; 80.0 is an integer to JSON Schema, 1e999 is inf here.
    whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not whole or not low <= value <= high:
        raise ArgsError(f"{field}: must be an integer from {low} to {high}")
    return int(value)


def parse_args(raw):
    """The args as the schema in skill.json states them: (host, port, timeout_ms)."""
    try:
        args = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, ValueError) as e:
        raise ArgsError(f"not valid JSON: {e}") from None
    if not isinstance(args, dict):
        raise ArgsError("args must be a JSON object")
    for field in sorted(args):
        if field not in FIELDS:
            raise ArgsError(f"{field}: unknown field")
    for field in ("host", "port"):
        if field not in args:
            raise ArgsError(f"{field}: required")
    host = args["host"]
    if not isinstance(host, str) or not HOST.fullmatch(host):
        raise ArgsError("host: must be a host name, IPv4 or IPv6 address (letters, digits, . - :)")
    port = integer(args, "port", 1, 65535)
    timeout_ms = integer(args, "timeout_ms", 1, 10000) if "timeout_ms" in args else DEFAULT_TIMEOUT_MS
    return host, port, timeout_ms


def probe(host, port, timeout_ms):
    """Connects once: (reachable, latency in ms or None, why not or None)."""
    started = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=timeout_ms / 1000):
            return True, round((time.monotonic() - started) * 1000, 3), None
    except socket.timeout:
        return False, None, f"timed out after {timeout_ms} ms"
    except OSError as e:
        return False, None, e.strerror or str(e)


def main():
    try:
        host, port, timeout_ms = parse_args(sys.stdin.buffer.read())
    except ArgsError as e:
        log(f"invalid args: {e}")
        return 1
    log(f"connecting to {host}:{port} (timeout {timeout_ms} ms)")
    reachable, latency_ms, error = probe(host, port, timeout_ms)
    log(f"reachable in {latency_ms} ms" if reachable else f"not reachable: {error}")
    result = {"host": host, "port": port, "reachable": reachable, "latency_ms": latency_ms, "error": error}
    json.dump(result, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
