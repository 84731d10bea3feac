//go:build realhost

package newhosts

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/realhost/rh"
)

// hookdRoundTrip starts `hookd serve` for profile and times n hooks/run
// requests of event, one after another, from writing the request to
// reading its reply: what a host waits for. It returns the median.
// init is initialize's params.
func hookdRoundTrip(t *testing.T, home, cwd, init, event, input string, n int) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, rh.Hookd(t), "serve")
	cmd.Dir = cwd
	cmd.Env = baseEnv(home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	reply := func(id int) string {
		want := fmt.Sprintf(`{"id":%d,`, id)
		for lines.Scan() {
			if strings.HasPrefix(lines.Text(), want) {
				return lines.Text()
			}
		}
		t.Fatalf("hookd serve ended before reply %d", id)
		return ""
	}
	fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":%s}`+"\n", init)
	reply(0)
	var ds []time.Duration
	for i := 1; i <= n; i++ {
		start := time.Now()
		fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"event":%q,"input":%s}}`+"\n", i, event, input)
		r := reply(i)
		ds = append(ds, time.Since(start))
		if !strings.Contains(r, `"hooks":[{`) {
			t.Fatalf("no hook ran: %s", r)
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// durations finds the CLI's own "... duration: Nms" figures in its output.
func durations(re *regexp.Regexp, text string) []int {
	var out []int
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func median(xs []int) int {
	if len(xs) == 0 {
		return -1
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[len(s)/2]
}

// grepTree returns the lines of the files under dir that contain s.
func grepTree(dir, s string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, s) {
				b.WriteString(line + "\n")
			}
		}
		return nil
	})
	return b.String()
}
