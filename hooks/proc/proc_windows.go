//go:build windows

package proc

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// DefaultShell is Codex's Windows fallback: %COMSPEC% /C, or cmd.exe.
func DefaultShell() []string {
	if cs := os.Getenv("COMSPEC"); cs != "" {
		return []string{cs, "/C"}
	}
	return []string{"cmd.exe", "/C"}
}

// canTerminate: Windows has no SIGTERM for console processes that os can
// send, so a timeout kills at once and KillGrace is ignored.
const canTerminate = false

// configure passes the script to cmd.exe the way Codex does, as one raw
// argument in outer quotes. Go's default quoting escapes quotes with
// backslashes, which cmd.exe does not understand (see os/exec's notes on
// cmd.exe); other shells get the default quoting.
func configure(cmd *exec.Cmd, argv []string) {
	name := strings.ToLower(filepath.Base(argv[0]))
	if name != "cmd" && name != "cmd.exe" {
		return
	}
	var b strings.Builder
	for _, a := range argv[:len(argv)-1] {
		b.WriteString(syscall.EscapeArg(a))
		b.WriteByte(' ')
	}
	b.WriteByte('"')
	b.WriteString(argv[len(argv)-1])
	b.WriteByte('"')
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: b.String()}
}

// There are no process groups here: only the shell itself is killed, and
// children it started survive it. Running the hook in a Job Object with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE (as Codex tries to) would reach them.

func terminateGroup(p *os.Process) error { return killGroup(p) }

func killGroup(p *os.Process) error {
	if p == nil {
		return os.ErrProcessDone
	}
	return p.Kill()
}

// errorNoData is ERROR_NO_DATA, "the pipe is being closed": what a write gets
// when the reader has closed its end, next to ERROR_BROKEN_PIPE.
const errorNoData = syscall.Errno(232)

func isBrokenPipe(err error) bool {
	return errors.Is(err, syscall.ERROR_BROKEN_PIPE) || errors.Is(err, errorNoData) || errors.Is(err, syscall.EPIPE)
}
