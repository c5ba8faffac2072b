//go:build !go1.20

package main

import "os/exec"

// Before Go 1.20 an exec.Cmd has neither WaitDelay nor Cancel.
const hasWaitDelay = false

func setWaitDelay(*exec.Cmd) {}
