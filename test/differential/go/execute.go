package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"ongridskill/harness/skill"
)

// Limits of the manager's executor (bytes).
const (
	maxStdout     = 16 << 20
	maxStderrTail = 4 << 10
)

// capped keeps the first max bytes written to it and drops the rest without an error.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

// tail is at most n trailing bytes of b, white space trimmed (strings.TrimSpace), with "..."
// in front when cut.
func tail(b []byte, n int) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) <= n {
		return strings.TrimSpace(string(b))
	}
	return "..." + strings.TrimSpace(string(b[len(b)-n:]))
}

// execute answers what the manager's subprocess executor gives for an entry: the manifest
// (data) decoded as the loader decodes it gives timeout_seconds and env_allow; path is the
// resolved entry, s the skill's key, params the params bytes (null: none), environ the
// manager's environment (K=V byte strings; this process's own is replaced by it).
//
// Built with this Go's os/exec: before Go 1.20 a Cmd has no WaitDelay nor Cancel, so the
// process group is not killed on timeout and Wait waits for every holder of the pipes;
// "waitdelay" says which it was, and a caller asks nothing of an old Go that depends on them.
func execute(r *request) object {
	var m skill.SkillManifest
	if err := json.Unmarshal(r.Data, &m); err != nil {
		return object{"fatal": "manifest: " + err.Error()}
	}
	timeout := time.Duration(m.TimeoutSeconds) * time.Second
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	res := object{"timeout": b64(timeout.String()), "waitdelay": hasWaitDelay}
	if !r.Run {
		return res
	}
	fail := func(err error) object {
		res["err"] = errText(err)
		return res
	}
	entry, key, params := string(r.Path), string(r.S), r.Params
	if entry == "" {
		return fail(errors.New("subprocess skill: entry path required"))
	}
	if !filepath.IsAbs(entry) {
		return fail(fmt.Errorf("subprocess skill: entry %q must be absolute", entry))
	}
	fi, err := os.Stat(entry)
	switch {
	case err != nil:
		return fail(fmt.Errorf("subprocess skill: stat %s: %w", entry, err))
	case fi.IsDir():
		return fail(fmt.Errorf("subprocess skill: entry %s is a directory", entry))
	case fi.Mode()&0o111 == 0:
		return fail(fmt.Errorf("subprocess skill: entry %s not executable", entry))
	}
	if len(bytes.TrimSpace(params)) == 0 {
		params = []byte("{}")
	} else if !json.Valid(params) {
		return fail(errors.New("subprocess skill: invalid params JSON"))
	}

	os.Clearenv()
	for _, kv := range r.Environ {
		if k, v, ok := strings.Cut(string(kv), "="); ok {
			os.Setenv(k, v)
		}
	}
	env := make([]string, 0, len(m.EnvAllow))
	for _, name := range m.EnvAllow {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, entry)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setWaitDelay(cmd)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(params)
	stdout := &capped{max: maxStdout}
	stderr := &capped{max: maxStderrTail * 4}
	cmd.Stdout, cmd.Stderr = stdout, stderr

	code := 0
	if err = cmd.Start(); err != nil {
		err = fmt.Errorf("start: %w", err)
	} else if err = cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code, err = ee.ExitCode(), nil
		}
	}
	res["stdout"] = b64(stdout.buf.String())
	errb := stderr.buf.Bytes()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fail(fmt.Errorf("subprocess skill %s: timed out after %s", key, timeout))
	case err != nil:
		return fail(fmt.Errorf("subprocess skill %s: %w (stderr: %s)", key, err, tail(errb, maxStderrTail)))
	case code != 0:
		return fail(fmt.Errorf("subprocess skill %s: exit %d (stderr: %s)", key, code, tail(errb, maxStderrTail)))
	case !json.Valid(stdout.buf.Bytes()):
		return fail(fmt.Errorf("subprocess skill %s: stdout is not valid JSON (first 200B: %s)", key, tail(stdout.buf.Bytes(), 200)))
	}
	return fail(nil)
}
