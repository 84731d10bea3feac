//go:build windows

package proc

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestDefaultShell(t *testing.T) {
	t.Setenv("COMSPEC", `C:\Windows\system32\cmd.exe`)
	if got, want := DefaultShell(), []string{`C:\Windows\system32\cmd.exe`, "/C"}; !slices.Equal(got, want) {
		t.Fatalf("DefaultShell() = %q, want %q", got, want)
	}
	os.Unsetenv("COMSPEC")
	if got, want := DefaultShell(), []string{"cmd.exe", "/C"}; !slices.Equal(got, want) {
		t.Fatalf("DefaultShell() = %q, want %q", got, want)
	}
}

// cmd.exe gets the script raw inside outer quotes, as Codex passes it.
func TestConfigureQuotesForCmdExe(t *testing.T) {
	argv := []string{`C:\Windows\system32\cmd.exe`, "/C", `echo "a b" & exit 2`}
	cmd := exec.Command(argv[0], argv[1:]...)
	configure(cmd, argv)
	want := `C:\Windows\system32\cmd.exe /C "echo "a b" & exit 2"`
	if cmd.SysProcAttr == nil || cmd.SysProcAttr.CmdLine != want {
		t.Fatalf("CmdLine = %+v, want %q", cmd.SysProcAttr, want)
	}
}
