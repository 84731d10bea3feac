//go:build windows

package proc

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
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

// There are no process groups here: each hook runs in a Job Object instead,
// which reaches every process the shell starts. The job is made with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, so when hookd dies in any way and the
// system closes its handles, the hook's processes die too. The shell is put
// in the job right after it starts, so a child it starts in that instant can
// escape, as in Codex. Unlike POSIX, a clean exit also ends the helpers a hook
// left behind: Run closes the job when it returns.

// jobs maps a running hook's pid to its job.
var jobs sync.Map // int → windows.Handle

// prepareGuard: jobs are made per hook, in guard.
func prepareGuard() {}

func guard(cmd *exec.Cmd) func() {
	p := cmd.Process
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return func() {}
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	if err == nil {
		var h windows.Handle
		h, err = windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
		if err == nil {
			err = windows.AssignProcessToJobObject(job, h)
			windows.CloseHandle(h)
		}
	}
	if err != nil {
		windows.CloseHandle(job)
		return func() {}
	}
	jobs.Store(p.Pid, job)
	return func() {
		jobs.Delete(p.Pid)
		windows.CloseHandle(job)
	}
}

func terminateGroup(p *os.Process) error { return killGroup(p) }

func killGroup(p *os.Process) error {
	if p == nil {
		return os.ErrProcessDone
	}
	if job, ok := jobs.Load(p.Pid); ok {
		if err := windows.TerminateJobObject(job.(windows.Handle), 1); err == nil {
			return nil
		}
	}
	return p.Kill()
}

// isResourceLimit reports a start that failed for want of handles or memory.
func isResourceLimit(err error) bool {
	return errors.Is(err, windows.ERROR_NOT_ENOUGH_MEMORY) || errors.Is(err, windows.ERROR_NO_SYSTEM_RESOURCES) ||
		errors.Is(err, windows.ERROR_TOO_MANY_OPEN_FILES) || errors.Is(err, windows.ERROR_COMMITMENT_LIMIT)
}

// errorNoData is ERROR_NO_DATA, "the pipe is being closed": what a write gets
// when the reader has closed its end, next to ERROR_BROKEN_PIPE.
const errorNoData = syscall.Errno(232)

func isBrokenPipe(err error) bool {
	return errors.Is(err, syscall.ERROR_BROKEN_PIPE) || errors.Is(err, errorNoData) || errors.Is(err, syscall.EPIPE)
}
