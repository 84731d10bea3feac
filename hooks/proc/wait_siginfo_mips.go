//go:build linux && (mips || mipsle || mips64 || mips64le)

package proc

// siCodeOffset is where si_code lies in siginfo_t: MIPS puts it before
// si_errno.
const siCodeOffset = 4
