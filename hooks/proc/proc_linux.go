package proc

import "syscall"

// dieWithHookd has the kernel kill the hook's shell when hookd dies, should
// the watchdog be killed with it; the watchdog kills the rest of the group.
func dieWithHookd(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
