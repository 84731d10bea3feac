package hooks

import (
	"context"
	"os"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/spill"
)

func TestRun_StderrInTheReplyIsAPreviewAndTheSpillFileHasItWhole(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	// 16 hooks, each printing 1 MB (below the capture cap) or 6 MB (past it)
	// on stderr.
	group := `{"hooks": [{"type": "command", "command": "head -c 1000000 /dev/zero | tr '\\0' e >&2"}]},` +
		`{"hooks": [{"type": "command", "command": "head -c 6000000 /dev/zero | tr '\\0' f >&2"}]}`
	e := newTestEngine(t, `{"Stop": [`+strings.TrimSuffix(strings.Repeat(group+",", 8), ",")+`]}`, true)
	res, err := e.Run(context.Background(), "Stop", []byte(`{}`), "")
	if err != nil {
		t.Fatal(err)
	}
	reply, _ := json.Marshal(res)
	// Each hook's stderr preview is at most DefaultLimit tokens; the rest of
	// a hook's entry is small.
	if bound := 16 * (4*spill.DefaultLimit + 1024); len(reply) > bound {
		t.Errorf("reply is %d bytes, want at most %d", len(reply), bound)
	}
	for _, h := range res.Hooks {
		if h.StderrSpilled == "" {
			t.Fatalf("hook %s: no stderr spill file", h.Key)
		}
		fi, err := os.Stat(h.StderrSpilled)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() != 1000000 && fi.Size() != 6000000 {
			t.Errorf("hook %s: spill file has %d bytes, want the whole stderr", h.Key, fi.Size())
		}
		if !strings.Contains(h.Stderr, h.StderrSpilled) {
			t.Errorf("hook %s: preview does not name its file", h.Key)
		}
	}
}
