// Command {{name}} checks whether a TCP port on a host accepts connections.
//
// The ongrid manager runs the built binary (bin/{{name}}, made by ./build.sh)
// with the call's JSON args on stdin and only the environment variables listed
// in env_allow: a static Go binary needs none. Standard library only.
// stdout gets exactly one JSON object; progress goes to stderr; bad args exit 1
// with one stderr line naming the field.
//
//	args:   {"host": "db1.internal", "port": 5432, "timeout_ms": 2000}
//	result: {"host": "db1.internal", "port": 5432, "reachable": true, "latency_ms": 0.412, "error": null}
//
// An unreachable port is a result (reachable: false), not a failure.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"
)

const (
	skill            = "{{name}}"
	defaultTimeoutMS = 2000
)

var hostPattern = regexp.MustCompile(`^[A-Za-z0-9.:-]{1,253}$`)

// args are the call's arguments, as the schema in skill.json states them.
type args struct {
	Host      string
	Port      int
	TimeoutMS int
}

// result is what the skill prints: one JSON object.
type result struct {
	Host      string   `json:"host"`
	Port      int      `json:"port"`
	Reachable bool     `json:"reachable"`
	LatencyMS *float64 `json:"latency_ms"`
	Error     *string  `json:"error"`
}

func logf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, skill+": "+format+"\n", a...)
}

// parseArgs checks the args field by field; its errors name the field.
func parseArgs(data []byte) (args, error) {
	a := args{TimeoutMS: defaultTimeoutMS}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return a, fmt.Errorf("not valid JSON: %v", err)
		}
		return a, errors.New("args must be a JSON object")
	}
	if fields == nil { // the literal null
		return a, errors.New("args must be a JSON object")
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		switch name {
		case "host", "port", "timeout_ms":
		default:
			return a, fmt.Errorf("%s: unknown field", name)
		}
	}
	for _, name := range []string{"host", "port"} {
		if _, ok := fields[name]; !ok {
			return a, fmt.Errorf("%s: required", name)
		}
	}
	if err := json.Unmarshal(fields["host"], &a.Host); err != nil || !hostPattern.MatchString(a.Host) {
		return a, errors.New("host: must be a host name, IPv4 or IPv6 address (letters, digits, . - :)")
	}
	var err error
	if a.Port, err = integer(fields, "port", 1, 65535); err != nil {
		return a, err
	}
	if _, ok := fields["timeout_ms"]; ok {
		if a.TimeoutMS, err = integer(fields, "timeout_ms", 1, 10000); err != nil {
			return a, err
		}
	}
	return a, nil
}

// integer reads a whole number (80 or 80.0, as JSON Schema counts them) within [low, high].
func integer(fields map[string]json.RawMessage, name string, low, high int) (int, error) {
	var f float64
	raw := fields[name]
	if string(raw) == "null" || json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || f < float64(low) || f > float64(high) {
		return 0, fmt.Errorf("%s: must be an integer from %d to %d", name, low, high)
	}
	return int(f), nil
}

// probe connects once; the deadline covers the name lookup too.
func probe(a args) result {
	r := result{Host: a.Host, Port: a.Port}
	timeout := time.Duration(a.TimeoutMS) * time.Millisecond
	started := time.Now()
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(a.Host, strconv.Itoa(a.Port)), timeout)
	if err != nil {
		msg := err.Error()
		var netErr net.Error
		if errors.As(err, &netErr) && netErr.Timeout() {
			msg = fmt.Sprintf("timed out after %d ms", a.TimeoutMS)
		}
		r.Error = &msg
		return r
	}
	conn.Close()
	latency := math.Round(float64(time.Since(started).Microseconds())) / 1000
	r.Reachable, r.LatencyMS = true, &latency
	return r
}

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		logf("reading stdin: %v", err)
		os.Exit(1)
	}
	a, err := parseArgs(data)
	if err != nil {
		logf("invalid args: %v", err)
		os.Exit(1)
	}
	logf("connecting to %s (timeout %d ms)", net.JoinHostPort(a.Host, strconv.Itoa(a.Port)), a.TimeoutMS)
	r := probe(a)
	if r.Reachable {
		logf("reachable in %v ms", *r.LatencyMS)
	} else {
		logf("not reachable: %s", *r.Error)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		logf("writing the result: %v", err)
		os.Exit(1)
	}
}
