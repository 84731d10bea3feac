//go:build linux && !(mips || mipsle || mips64 || mips64le)

package proc

// siCodeOffset is where si_code lies in siginfo_t: after si_signo and
// si_errno.
const siCodeOffset = 8
