package proc

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A hook's stdin, stdout and stderr are blocking descriptors, whatever hookd
// does with its own ends: a program that gets a non-blocking one fails with
// EAGAIN where it expects to wait. The shell reports the flags of its own
// three descriptors (O_NONBLOCK is 04000), once with a payload and once with
// none (stdin is then the null device).
func TestRun_TheHooksPipesAreBlockingDescriptors(t *testing.T) {
	script := `for fd in 0 1 2; do sed -n 's/^flags:[[:space:]]*/'$fd' /p' /proc/$$/fdinfo/$fd; done`
	for _, stdin := range [][]byte{[]byte(`{"payload": true}`), nil} {
		r := Run(context.Background(), Command{Shell: sh, Script: script, Stdin: stdin})
		if r.Err != nil || r.ExitCode != 0 {
			t.Fatalf("%+v", r)
		}
		lines := strings.Split(strings.TrimSpace(string(r.Stdout)), "\n")
		if len(lines) != 3 {
			t.Fatalf("stdin %q: flags of the hook's descriptors: %q (stderr %q)", stdin, r.Stdout, r.Stderr)
		}
		for _, l := range lines {
			fd, flags, _ := strings.Cut(l, " ")
			v, err := strconv.ParseUint(flags, 8, 64)
			if err != nil {
				t.Fatalf("flags line %q: %v", l, err)
			}
			if v&0o4000 != 0 {
				t.Errorf("stdin %q: the hook's fd %s is non-blocking (flags %s)", stdin, fd, flags)
			}
		}
	}
}

// A hook given no payload reads from the null device: its stdin is open,
// and at its end at once.
func TestRun_NoPayloadIsTheNullDevice(t *testing.T) {
	r := Run(context.Background(), Command{Shell: sh, Script: `readlink /proc/$$/fd/0; cat; echo end`})
	if got := string(r.Stdout); got != "/dev/null\nend\n" || r.ExitCode != 0 {
		t.Fatalf("stdout %q, stderr %q, %+v", got, r.Stderr, r)
	}
}

// childPipe's end for hookd is non-blocking, which the poller needs, with
// its access mode kept; the child's is blocking; both close on exec.
func TestChildPipe_FlagsOfEachEnd(t *testing.T) {
	for _, parentReads := range []bool{true, false} {
		r, w, err := childPipe(parentReads)
		if err != nil {
			t.Fatal(err)
		}
		parent, child, parentMode, childMode := r, w, unix.O_RDONLY, unix.O_WRONLY
		if !parentReads {
			parent, child, parentMode, childMode = w, r, unix.O_WRONLY, unix.O_RDONLY
		}
		for _, c := range []struct {
			f    *os.File
			want int
		}{{parent, parentMode | unix.O_NONBLOCK}, {child, childMode}} {
			rc, err := c.f.SyscallConn()
			if err != nil {
				t.Fatal(err)
			}
			var fl, fd int
			var ferr, derr error
			_ = rc.Control(func(d uintptr) {
				fl, ferr = unix.FcntlInt(d, unix.F_GETFL, 0)
				fd, derr = unix.FcntlInt(d, unix.F_GETFD, 0)
			})
			if ferr != nil || derr != nil {
				t.Fatal(ferr, derr)
			}
			if got := fl &^ unix.O_LARGEFILE; got != c.want || fd&unix.FD_CLOEXEC == 0 {
				t.Errorf("parentReads %v, %s: flags %#o (want %#o), fd flags %#o (want close-on-exec)", parentReads, c.f.Name(), got, c.want, fd)
			}
		}
		r.Close()
		w.Close()
	}
}
