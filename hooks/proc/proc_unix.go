//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// DefaultShell is the shell Codex falls back to when no session shell is
// configured: a login shell, so hooks see the PATH the user set up in their
// profile rather than whatever environment started the host.
func DefaultShell() []string {
	if sh := os.Getenv("SHELL"); sh != "" {
		return []string{sh, "-lc"}
	}
	return []string{"/bin/sh", "-lc"}
}

// canTerminate: POSIX has a polite signal, so KillGrace is honoured.
const canTerminate = true

// configure makes the shell lead a new process group, so that everything it
// starts can be signalled at once without touching hookd's own group.
func configure(cmd *exec.Cmd, _ []string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithHookd(cmd.SysProcAttr)
}

func terminateGroup(p *os.Process) error { return signalGroup(p, syscall.SIGTERM) }

func killGroup(p *os.Process) error { return signalGroup(p, syscall.SIGKILL) }

// signalGroup signals the group the hook leads. An empty group reports
// os.ErrProcessDone, which os/exec treats as "already finished" rather than a
// failure to cancel.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	// kill(-1) would reach every process we may signal, kill(0) our own group.
	if p == nil || p.Pid <= 1 {
		return os.ErrProcessDone
	}
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }

// isResourceLimit reports a start that failed for want of fds, processes or
// memory.
func isResourceLimit(err error) bool {
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.EAGAIN, syscall.ENOMEM} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
