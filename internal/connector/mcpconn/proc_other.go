//go:build !unix

package mcpconn

import (
	"os"
	"os/exec"
)

func setGroup(*exec.Cmd) {}

// signalGroup interrupts the server, or kills it when kill is true.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	if kill {
		cmd.Process.Kill()
		return
	}
	if cmd.Process.Signal(os.Interrupt) != nil {
		cmd.Process.Kill()
	}
}
