package rpc

import (
	"errors"

	"golang.org/x/sys/windows"
)

// stillActive is the exit code GetExitCodeProcess reports for a process that
// has not exited (STILL_ACTIVE).
const stillActive = 259

// processAlive reports whether pid runs. Opening the process is not enough:
// an exited process can be opened for as long as anyone holds a handle to it
// (its parent, typically), the Windows form of a zombie; its exit code says.
func processAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		// Access denied: it exists, under someone else.
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	// A process that exits with 259 itself reads as running; stdin EOF
	// still ends the session then.
	return code == stillActive
}
