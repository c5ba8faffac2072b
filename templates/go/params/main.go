// Command {{name}} is a sample entry for its params ({{params_names}}).
//
// The ongrid manager runs the built binary (bin/{{name}}, made by ./build.sh)
// with the call's JSON args on stdin and only the environment variables listed
// in env_allow: a static Go binary needs none. Standard library only.
// stdout gets exactly one JSON object; progress goes to stderr; bad args exit 1
// with one stderr line naming the field.
//
// It checks the args as the schema in skill.json states them and answers with
// them: {"args": {...}}. Do the skill's work in work and return its result.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
)

const skill = "{{name}}"

// Each param and its JSON type, as skill.json's schema has them; keep them in step.
const paramsJSON = `{{params_json}}`
const requiredJSON = `{{required_json}}`

// The params in the order skill.json lists them.
const namesJSON = `{{names_json}}`

var typeWords = map[string]string{
	"string":  "a string",
	"integer": "an integer",
	"number":  "a number",
	"boolean": "true or false",
	"array":   "an array",
	"object":  "an object",
}

func logf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, skill+": "+format+"\n", a...)
}

func hasType(raw json.RawMessage, kind string) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return false
	}
	switch kind {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer", "number":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := strconv.ParseFloat(n.String(), 64)
		if err != nil || math.IsInf(f, 0) {
			return false
		}
		return kind == "number" || f == math.Trunc(f)
	case "array":
		_, ok := v.([]any)
		return ok
	default:
		_, ok := v.(map[string]any)
		return ok
	}
}

// parseArgs checks the args as the schema in skill.json states them; its errors name the field.
func parseArgs(data []byte) (map[string]json.RawMessage, error) {
	// The constants above are JSON that init wrote: they always parse.
	var params map[string]string
	var order, required []string
	for text, v := range map[string]any{paramsJSON: &params, namesJSON: &order, requiredJSON: &required} {
		if err := json.Unmarshal([]byte(text), v); err != nil {
			panic(err)
		}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
		return nil, errors.New("args must be a JSON object")
	}
	if fields == nil { // the literal null
		return nil, errors.New("args must be a JSON object")
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := params[name]; !ok {
			return nil, fmt.Errorf("%s: unknown field", name)
		}
	}
	for _, name := range required {
		if _, ok := fields[name]; !ok {
			return nil, fmt.Errorf("%s: required", name)
		}
	}
	for _, name := range order {
		if raw, given := fields[name]; given && !hasType(raw, params[name]) {
			return nil, fmt.Errorf("%s: must be %s", name, typeWords[params[name]])
		}
	}
	return fields, nil
}

// work is the skill's work: replace it with yours, and return the result (JSON).
func work(args map[string]json.RawMessage) (any, error) {
	return map[string]any{"args": args}, nil
}

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		logf("reading stdin: %v", err)
		os.Exit(1)
	}
	args, err := parseArgs(data)
	if err != nil {
		logf("invalid args: %v", err)
		os.Exit(1)
	}
	out, err := work(args)
	if err != nil {
		logf("failed: %v", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		logf("writing the result: %v", err)
		os.Exit(1)
	}
}
