//go:build go1.20

package main

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

const hasWaitDelay = true

// setWaitDelay: the manager's 1 s WaitDelay, and its Cancel that kills the whole group.
func setWaitDelay(cmd *exec.Cmd) {
	cmd.WaitDelay = time.Second
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			if errors.Is(err, syscall.ESRCH) {
				return os.ErrProcessDone
			}
			return cmd.Process.Kill()
		}
		return nil
	}
}
