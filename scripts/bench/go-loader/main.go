// Command benchloader is the bench's reference for `load-dirs`: a standard-library Go
// program doing the loader's work as docs (the manager contract, sections 2 to 4) describe
// it — walk each absolute dir, decode every skill.json with encoding/json, check the
// manifest, resolve the entry and the root, and register names against the builtin keys —
// printing one plain line per event on stdout, as `ongrid-skill load-dirs` does.
//
// It is not the manager (nor a copy of its code): it exists so that `npm run bench` can
// compare the CLI's wall time and memory with what Go needs for the same work. The bench
// builds it with the toolchain test/differential uses (`go build`, GOPROXY=off).
//
//	benchloader DIR...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

type SkillManifest struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Entry       string          `json:"entry"`
	EnvAllow    []string        `json:"env_allow"`
	Timeout     int             `json:"timeout_seconds"`
	Class       string          `json:"class"`
	Category    string          `json:"category"`
}

type skill struct {
	key, entry, class, category string
	timeout                     time.Duration
}

var builtins = []string{
	"capture_pcap", "get_packet_capture", "host_netns_inspect", "host_probe_dns",
	"host_probe_http", "host_probe_ping", "host_probe_tcp", "host_read_journal",
	"host_tail_file", "host_restart_service", "web_search",
}

func lowerSnake(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func build(m *SkillManifest, path, root string) (*skill, error) {
	switch {
	case m.Name == "":
		return nil, fmt.Errorf("name required")
	case !lowerSnake(m.Name):
		return nil, fmt.Errorf("name %q must be lower_snake [a-z0-9_]", m.Name)
	case m.Description == "":
		return nil, fmt.Errorf("description required")
	case m.Entry == "":
		return nil, fmt.Errorf("entry required")
	}
	entry := m.Entry
	if !filepath.IsAbs(entry) {
		entry = filepath.Join(filepath.Dir(path), entry)
	}
	abs, err := filepath.Abs(entry)
	if err != nil {
		return nil, fmt.Errorf("resolve entry: %w", err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("eval entry symlinks: %w", err)
	}
	resolvedRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("eval allowlist root: %w", err)
	}
	if rel, err := filepath.Rel(resolvedRoot, resolved); err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("entry %s escapes allowlist root %s", resolved, resolvedRoot)
	}
	switch m.Class {
	case "", "safe", "mutating", "dangerous":
	default:
		return nil, fmt.Errorf("class %q invalid", m.Class)
	}
	s := &skill{key: m.Name, entry: resolved, class: m.Class, category: m.Category}
	if s.class == "" {
		s.class = "safe"
	}
	if s.category == "" {
		s.category = "external"
	}
	s.timeout = time.Duration(m.Timeout) * time.Second
	if s.timeout <= 0 {
		s.timeout = 30 * time.Second
	}
	return s, nil
}

func main() {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	logf := func(format string, a ...interface{}) {
		fmt.Fprintf(out, "skill loader: "+format+"\n", a...)
	}
	registry := map[string]*skill{}
	for _, k := range builtins {
		registry[k] = nil
	}
	for _, raw := range os.Args[1:] {
		dir := strings.TrimSpace(raw)
		if dir == "" {
			continue
		}
		if !filepath.IsAbs(dir) {
			logf("skip non-absolute dir %q", dir)
			continue
		}
		st, err := os.Stat(dir)
		if err != nil {
			if os.IsNotExist(err) {
				logf("dir %s not present, skipping", dir)
			} else {
				logf("stat %s: %v", dir, err)
			}
			continue
		}
		if !st.IsDir() {
			logf("%s is not a directory, skipping", dir)
			continue
		}
		_ = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil {
				logf("walk %s: %v", path, err)
				return nil
			}
			if info.IsDir() || info.Name() != "skill.json" {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				logf("parse %s: read: %v", path, err)
				return nil
			}
			var m SkillManifest
			if err := json.Unmarshal(data, &m); err != nil {
				logf("parse %s: decode: %v", path, err)
				return nil
			}
			s, err := build(&m, path, dir)
			if err != nil {
				logf("build %s (%s): %v", m.Name, path, err)
				return nil
			}
			if _, dup := registry[s.key]; dup {
				logf("skill %q already registered, skipping %s", s.key, path)
				return nil
			}
			registry[s.key] = s
			logf("registered subprocess skill %q from %s", s.key, path)
			return nil
		})
	}
}
