package hooks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookd/hookd/spill"
)

// printCmd is a command that prints n bytes of "hook output " text.
func printCmd(n int) string {
	return "cat >/dev/null; yes 'hook output' | tr '\\n' ' ' | head -c " + strconv.Itoa(n)
}

func TestSpill_ContextOverTheHandlerLimitIsPreviewedAndSavedWhole(t *testing.T) {
	e := newHostEngine(t, `{"UserPromptSubmit": [{"hooks": [
		{"type": "command", "command": "`+printCmd(12000)+`"},
		{"type": "command", "command": "`+printCmd(12000)+`", "additionalContextLimit": 0},
		{"type": "command", "command": "`+printCmd(400)+`", "additionalContextLimit": 50}]}]}`, nil, 0)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"x"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.AdditionalContext) != 3 {
		t.Fatalf("contexts: %+v", res.AdditionalContext)
	}
	// The context is the trimmed stdout: 11999 bytes.
	whole := strings.TrimSpace(strings.Repeat("hook output ", 1000))
	c := res.AdditionalContext[0]
	if filepath.Dir(c.Spilled) != spill.Dir("sess_h") || c.Bytes != 11999 {
		t.Fatalf("default limit: spilled %q bytes %d", c.Spilled, c.Bytes)
	}
	want, _ := spill.Preview(strings.NewReader(whole), int64(len(whole)), spill.DefaultLimit, c.Spilled)
	if c.Text != want || !strings.Contains(c.Text, "…") {
		t.Errorf("default limit: text is not the preview")
	}
	if data, err := os.ReadFile(c.Spilled); err != nil || string(data) != whole {
		t.Errorf("spill file does not hold the whole context (%d bytes, %v)", len(data), err)
	}
	if c := res.AdditionalContext[1]; c.Spilled != "" || c.Bytes != 0 || c.Text != whole {
		t.Errorf("limit 0 must never spill: %q bytes %d len %d", c.Spilled, c.Bytes, len(c.Text))
	}
	if c := res.AdditionalContext[2]; c.Spilled == "" || c.Bytes != 400 || !strings.Contains(c.Text, "Full hook output saved to: "+c.Spilled) {
		t.Errorf("limit 50 over 400 bytes: %+v", c)
	}
}

func TestSpill_PostToolUseFeedbackUsesTheDefaultLimit(t *testing.T) {
	reason := strings.Repeat("r", 12000)
	e := newHostEngine(t, `{"PostToolUse": [{"hooks": [
		{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"`+reason+`\"}'", "additionalContextLimit": 100000}]}]}`, nil, 0)
	res, err := e.Run(context.Background(), "PostToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"x"},"tool_response":"ok"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != DecisionBlock || !strings.Contains(res.Feedback, "tokens truncated") || !strings.Contains(res.Feedback, "Full hook output saved to: ") {
		t.Fatalf("feedback not spilled: decision %s, %d bytes", res.Decision, len(res.Feedback))
	}
	path := res.Feedback[strings.LastIndex(res.Feedback, ": ")+2:]
	if data, _ := os.ReadFile(path); string(data) != reason {
		t.Errorf("spilled feedback file holds %d bytes, want the whole reason", len(data))
	}
}

func TestSpill_EachStopContinuationFragmentIsLimitedAlone(t *testing.T) {
	long := strings.Repeat("keep going ", 1200)
	e := newHostEngine(t, `{"Stop": [{"hooks": [
		{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"`+long+`\"}'"},
		{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"run the tests\"}'"}]}]}`, nil, 0)
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	first, second, ok := strings.Cut(res.Continuation, "\n\n")
	if !ok {
		t.Fatalf("continuation %q", res.Continuation)
	}
	// The preview itself holds "\n\n"; the short fragment is the last part.
	if !strings.HasSuffix(res.Continuation, "\n\nrun the tests") || !strings.Contains(first+second, "tokens truncated") {
		t.Errorf("continuation: %q … %q", res.Continuation[:100], res.Continuation[len(res.Continuation)-100:])
	}
	if res.Reason != strings.TrimSpace(long)+"\n\nrun the tests" {
		t.Errorf("the block reason itself is not spilled, as in Codex")
	}
}

func TestSpill_StdoutPastTheCapIsStreamedToAFileAndNothingIsLost(t *testing.T) {
	// A 1 KiB cap and a hook printing 100 kB of numbered lines: the kept
	// head plus the streamed rest must be the whole output, byte for byte.
	e := newHostEngine(t, `{"SessionStart": [{"hooks": [
		{"type": "command", "command": "cat >/dev/null; seq 1 20000 >&2; seq 1 20000"}]}]}`, nil, 1024)
	res, err := e.Run(context.Background(), "SessionStart", []byte(`{"source":"startup"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for i := 1; i <= 20000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	h := res.Hooks[0]
	if h.StdoutSpilled == "" || h.StderrSpilled == "" || h.StdoutDropped != int64(want.Len()-1024) {
		t.Fatalf("hook run %+v", h)
	}
	for _, p := range []string{h.StdoutSpilled, h.StderrSpilled} {
		data, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(data, want.Bytes()) {
			t.Errorf("%s: %d bytes, %v; want the whole %d-byte stream", p, len(data), err, want.Len())
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", p, fi.Mode().Perm())
		}
	}
	// The plain-text context is previewed from the whole output, not from
	// the 1 KiB head: its tail is the end of the stream.
	c := res.AdditionalContext[0]
	if c.Spilled != h.StdoutSpilled || c.Bytes != want.Len() {
		t.Fatalf("context spilled %q bytes %d", c.Spilled, c.Bytes)
	}
	if !strings.Contains(c.Text, "19999\n20000\n\n\nFull hook output saved to: "+h.StdoutSpilled) ||
		!strings.Contains(c.Text, "Total output lines: 20000") {
		t.Errorf("preview is not of the whole output: …%q", c.Text[len(c.Text)-200:])
	}
}
