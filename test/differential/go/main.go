// Command harness answers questions about Go's own behaviour for the
// differential tests of ongrid-skill's Go emulation (src/core/go).
//
// It reads one JSON request per line on stdin and writes one JSON response
// per line on stdout, in order. Byte strings travel base64-encoded (standard
// alphabet, padded) in both directions, so that invalid UTF-8 survives the
// trip. Standard library only.
//
// Requests are {"op": ..., args}; a response carries "fatal" when the request
// itself was bad. Ops ([]byte arguments and results are base64):
//
//	version                      → go, unicode, goos
//	unmarshal     data           → err, offset, the eight SkillManifest fields
//	                               (schema/env_allow null when nil, timeout_seconds decimal)
//	valid         data           → valid
//	syntax        data           → err, offset, syntax (Unmarshal into interface{})
//	quote         s              → q
//	trimspace     s              → out (strings.TrimSpace)
//	isprint       r              → print, unassigned (in none of unicode.Categories)
//	printtable                   → print, unassigned as flat [lo, hi, ...] ranges
//	encstring     s, html        → out (Encoder, SetEscapeHTML(html), no newline)
//	bridgeparams  data           → out, err: the LLM bridge's params for tool-call args data
//	                               (Unmarshal into map[string]json.RawMessage, edge_id and
//	                               device_id deleted, json.Marshal)
//	toolschema    data (manifest) → decode (the manifest's Unmarshal error), then for a
//	                               non-empty schema: params (what the LLM bridge sends as the
//	                               tool's parameters for a skill keyed "k") or err
//	duration      ns (decimal)   → s
//	parseduration s              → ns (decimal) or err
//	clean/abs/base/dir/isabs path, join elems, rel base targ → out, err (isabs: abs)
//	evalsymlinks  path           → out, err
//	walk          root, limit    → events [{path, err, isdir, mode}], err
//	execute       data (manifest), run, path (entry), s (key), params, environ
//	                             → timeout (the manifest's, as Execute applies it),
//	                               waitdelay, and with run: err, stdout (execute.go)
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode"

	"ongridskill/harness/skill"
)

// request carries every op's arguments; []byte fields arrive base64-encoded.
type request struct {
	Op    string   `json:"op"`
	Data  []byte   `json:"data"`
	S     []byte   `json:"s"`
	R     int64    `json:"r"`
	Ns    string   `json:"ns"`
	Path  []byte   `json:"path"`
	Root  []byte   `json:"root"`
	Elems [][]byte `json:"elems"`
	Base  []byte   `json:"base"`
	Targ  []byte   `json:"targ"`
	HTML  bool     `json:"html"`
	Limit int      `json:"limit"`
	// execute's
	Run     bool     `json:"run"`
	Params  []byte   `json:"params"`
	Environ [][]byte `json:"environ"`
}

type object = map[string]interface{}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// errText is the error's text as base64, or nil (JSON null) for a nil error.
func errText(err error) interface{} {
	if err == nil {
		return nil
	}
	return b64(err.Error())
}

var allCategories []*unicode.RangeTable

func init() {
	for _, t := range unicode.Categories {
		allCategories = append(allCategories, t)
	}
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	enc := json.NewEncoder(out)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var req request
			var resp object
			if e := json.Unmarshal(line, &req); e != nil {
				resp = object{"fatal": "bad request: " + e.Error()}
			} else {
				resp = handle(&req)
			}
			if e := enc.Encode(resp); e != nil {
				fmt.Fprintln(os.Stderr, "harness: encode:", e)
				os.Exit(2)
			}
		}
		// Flush once the caller has no more requests queued up for us, so a
		// batch costs one write while a lone request still gets its answer.
		if in.Buffered() == 0 || err != nil {
			if e := out.Flush(); e != nil {
				os.Exit(0) // the reader went away
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "harness: read:", err)
			os.Exit(2)
		}
	}
}

func handle(r *request) object {
	switch r.Op {
	case "version":
		return object{"go": runtime.Version(), "unicode": unicode.Version, "goos": runtime.GOOS}
	case "unmarshal":
		return unmarshal(r.Data)
	case "valid":
		return object{"valid": json.Valid(r.Data)}
	case "syntax":
		err := json.Unmarshal(r.Data, new(interface{}))
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return object{"err": b64(se.Error()), "offset": se.Offset, "syntax": true}
		}
		return object{"err": errText(err), "offset": nil, "syntax": false}
	case "trimspace":
		return object{"out": b64(strings.TrimSpace(string(r.S)))}
	case "quote":
		return object{"q": b64(strconv.Quote(string(r.S)))}
	case "isprint":
		rn := rune(r.R)
		return object{"print": strconv.IsPrint(rn), "unassigned": !unicode.In(rn, allCategories...)}
	case "printtable":
		return printTable()
	case "encstring":
		return object{"out": b64(encodeString(string(r.S), r.HTML))}
	case "bridgeparams":
		return bridgeParams(r.Data)
	case "toolschema":
		return toolSchema(r.Data)
	case "duration":
		n, err := strconv.ParseInt(r.Ns, 10, 64)
		if err != nil {
			return object{"fatal": "bad ns: " + err.Error()}
		}
		return object{"s": b64(time.Duration(n).String())}
	case "parseduration":
		d, err := time.ParseDuration(string(r.S))
		if err != nil {
			return object{"ns": nil, "err": errText(err)}
		}
		return object{"ns": strconv.FormatInt(int64(d), 10), "err": nil}
	case "clean":
		return object{"out": b64(filepath.Clean(string(r.Path))), "err": nil}
	case "join":
		elems := make([]string, len(r.Elems))
		for i, e := range r.Elems {
			elems[i] = string(e)
		}
		return object{"out": b64(filepath.Join(elems...)), "err": nil}
	case "rel":
		s, err := filepath.Rel(string(r.Base), string(r.Targ))
		return object{"out": b64(s), "err": errText(err)}
	case "abs":
		s, err := filepath.Abs(string(r.Path))
		return object{"out": b64(s), "err": errText(err)}
	case "base":
		return object{"out": b64(filepath.Base(string(r.Path))), "err": nil}
	case "dir":
		return object{"out": b64(filepath.Dir(string(r.Path))), "err": nil}
	case "isabs":
		return object{"abs": filepath.IsAbs(string(r.Path))}
	case "evalsymlinks":
		s, err := filepath.EvalSymlinks(string(r.Path))
		return object{"out": b64(s), "err": errText(err)}
	case "walk":
		return walk(string(r.Root), r.Limit)
	case "execute":
		return execute(r)
	}
	return object{"fatal": "unknown op " + strconv.Quote(r.Op)}
}

// printTable is strconv.IsPrint and "unassigned" (in none of unicode.Categories)
// over the whole code space, each as a flat list of inclusive ranges lo, hi, ...
func printTable() object {
	var print, unassigned []int
	add := func(list []int, r int) []int {
		if n := len(list); n > 0 && list[n-1] == r-1 {
			list[n-1] = r
			return list
		}
		return append(list, r, r)
	}
	for r := 0; r <= unicode.MaxRune; r++ {
		if strconv.IsPrint(rune(r)) {
			print = add(print, r)
		}
		if !unicode.In(rune(r), allCategories...) {
			unassigned = add(unassigned, r)
		}
	}
	return object{"print": print, "unassigned": unassigned}
}

func unmarshal(data []byte) object {
	var m skill.SkillManifest
	err := json.Unmarshal(data, &m)
	var schema, envAllow interface{}
	if m.Schema != nil {
		schema = b64(string(m.Schema))
	}
	if m.EnvAllow != nil {
		list := make([]string, len(m.EnvAllow))
		for i, e := range m.EnvAllow {
			list[i] = b64(e)
		}
		envAllow = list
	}
	// The error's Offset, for the two error types that carry one.
	var offset interface{}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	if errors.As(err, &se) {
		offset = se.Offset
	} else if errors.As(err, &te) {
		offset = te.Offset
	}
	return object{
		"err":             errText(err),
		"offset":          offset,
		"name":            b64(m.Name),
		"description":     b64(m.Description),
		"schema":          schema,
		"entry":           b64(m.Entry),
		"env_allow":       envAllow,
		"timeout_seconds": strconv.Itoa(m.TimeoutSeconds),
		"class":           b64(m.Class),
		"category":        b64(m.Category),
	}
}

// encodeString is a string as an encoding/json Encoder writes it, without
// the Encoder's trailing newline.
func encodeString(s string, escapeHTML bool) string {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(escapeHTML)
	if err := e.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// errWalkLimit stops a walk after the caller's limit of events (0: no limit),
// a safety net should a root lead somewhere huge.
var errWalkLimit = errors.New("harness: walk event limit reached")

func walk(root string, limit int) object {
	events := []object{}
	err := filepath.Walk(root, func(path string, info fs.FileInfo, err error) error {
		ev := object{"path": b64(path), "err": errText(err), "isdir": nil, "mode": nil}
		if info != nil {
			ev["isdir"] = info.IsDir()
			ev["mode"] = uint32(info.Mode())
		}
		events = append(events, ev)
		if limit > 0 && len(events) >= limit {
			return errWalkLimit
		}
		return nil
	})
	return object{"events": events, "err": errText(err)}
}

// bridgeParams is what the manager's skill bridge does to a tool call's args before the skill
// runs (a manager-scoped skill: edge_id and device_id are dropped, the rest re-marshalled).
func bridgeParams(data []byte) object {
	var envelope map[string]json.RawMessage
	if len(data) > 0 {
		if err := json.Unmarshal(data, &envelope); err != nil {
			return object{"out": nil, "err": errText(err)}
		}
	}
	if envelope == nil {
		envelope = map[string]json.RawMessage{}
	}
	delete(envelope, "edge_id")
	delete(envelope, "device_id")
	out, err := json.Marshal(envelope)
	if err != nil {
		return object{"out": nil, "err": errText(err)}
	}
	return object{"out": b64(string(out)), "err": nil}
}

// toolSchema decodes a manifest as the loader does, then builds the tool's parameters from its
// schema as the manager's LLM bridge does for a subprocess skill: json.Unmarshal into
// map[string]any (an error is wrapped with the skill's key), nil made empty, "type":"object" when
// there is no "type" key, json.Marshal.
func toolSchema(data []byte) object {
	var m skill.SkillManifest
	if err := json.Unmarshal(data, &m); err != nil {
		return object{"decode": errText(err), "params": nil, "err": nil}
	}
	if len(m.Schema) == 0 {
		return object{"decode": nil, "params": nil, "err": nil}
	}
	var base map[string]any
	if err := json.Unmarshal(m.Schema, &base); err != nil {
		return object{"decode": nil, "params": nil, "err": errText(fmt.Errorf("subprocess skill %q: invalid manifest schema: %w", "k", err))}
	}
	if base == nil {
		base = map[string]any{}
	}
	if _, ok := base["type"]; !ok {
		base["type"] = "object"
	}
	out, err := json.Marshal(base)
	if err != nil {
		return object{"decode": nil, "params": nil, "err": errText(err)}
	}
	return object{"decode": nil, "params": b64(string(out)), "err": nil}
}
