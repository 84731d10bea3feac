package statefile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const (
	hashA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	hashB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func boolPtr(b bool) *bool { return &b }

// richConfig is a user config.toml with comments, odd spacing, tables before
// and after the hook state, and state for other hooks.
const richConfig = `# my codex config
model = "gpt-5"   # trailing comment
approval_policy="on-request"

[profiles.work]
model = "o3"

[[hooks.Stop]]
# stop hook
[[hooks.Stop.hooks]]
type = "command"
command = "./stop.sh"

[hooks.state."/home/u/.codex/hooks.json:stop:0:0"]
# reviewed on monday
trusted_hash = "` + hashA + `"   # keep me
enabled = false

# a comment between tables

[hooks.state."/home/u/.codex/hooks.json:pre_tool_use:0:0"]
enabled = true

[mcp_servers.docs]
command = "docs-mcp"   # after the state
args = ["--port", "1"]
`

// withoutSection cuts the [hooks.state."<key>"] section (its header line up to
// the next header) out of doc, so the rest can be compared byte for byte.
func withoutSection(t *testing.T, doc, key string) string {
	t.Helper()
	head := fmt.Sprintf("[hooks.state.%q]", key)
	i := strings.Index(doc, head)
	if i < 0 {
		head = "[hooks.state.'" + key + "']"
		if i = strings.Index(doc, head); i < 0 {
			t.Fatalf("no section %s in\n%s", head, doc)
		}
	}
	j := strings.Index(doc[i+len(head):], "\n[")
	if j < 0 {
		return doc[:i]
	}
	return doc[:i] + doc[i+len(head)+j+1:]
}

func TestEdit_ReplacesOnlyTheEntryValue(t *testing.T) {
	key := "/home/u/.codex/hooks.json:stop:0:0"
	out, err := Edit([]byte(richConfig), []Change{{Key: key, TrustedHash: hashB}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(richConfig, `trusted_hash = "`+hashA+`"   # keep me`, `trusted_hash = '`+hashB+`'   # keep me`, 1)
	if string(out) != want {
		t.Errorf("edited\n%s\nwant\n%s", out, want)
	}
	// Re-trusting a modified hook keeps its enabled = false.
	if e, _ := StateEntry(out, key); e["enabled"] != false || e["trusted_hash"] != hashB {
		t.Errorf("entry %v", e)
	}
}

func TestEdit_AddsAFieldInsideTheEntryTableKeepingEverythingElse(t *testing.T) {
	key := "/home/u/.codex/hooks.json:pre_tool_use:0:0"
	out, err := Edit([]byte(richConfig), []Change{{Key: key, TrustedHash: hashB}, {Key: key, Enabled: boolPtr(false)}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := withoutSection(t, string(out), key), withoutSection(t, richConfig, key); got != want {
		t.Errorf("bytes outside the entry changed:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(string(out), "[hooks.state.\""+key+"\"]\nenabled = false\ntrusted_hash = '"+hashB+"'\n\n[mcp_servers.docs]") {
		t.Errorf("entry not edited in place:\n%s", out)
	}
}

func TestEdit_AppendsANewEntryTable(t *testing.T) {
	key := `C:\Users\u\.codex\hooks.json:stop:0:1`
	out, err := Edit([]byte(richConfig), []Change{{Key: key, TrustedHash: hashB, Enabled: boolPtr(false)}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), richConfig) {
		t.Fatalf("the old content is not kept as the prefix:\n%s", out)
	}
	added := strings.TrimPrefix(string(out), richConfig)
	want := "\n[hooks.state.'" + key + "']\nenabled = false\ntrusted_hash = '" + hashB + "'\n"
	if added != want {
		t.Errorf("appended %q, want %q", added, want)
	}
	if e, _ := StateEntry(out, key); e["trusted_hash"] != hashB {
		t.Errorf("entry %v", e)
	}
}

func TestEdit_OtherEntryForms(t *testing.T) {
	key := "/h/hooks.json:stop:0:0"
	cases := []struct{ name, doc, want string }{
		{"empty file", "", "[hooks.state.'" + key + "']\ntrusted_hash = '" + hashA + "'\n"},
		{"no final newline", "model = \"x\"", "model = \"x\"\n\n[hooks.state.'" + key + "']\ntrusted_hash = '" + hashA + "'\n"},
		{"CRLF file", "model = \"x\"\r\n[hooks.state.\"" + key + "\"]\r\nenabled = false\r\n",
			"model = \"x\"\r\n[hooks.state.\"" + key + "\"]\r\nenabled = false\r\ntrusted_hash = '" + hashA + "'\r\n"},
		{"inline entry", "[hooks.state]\n# inline\n\"" + key + "\" = { enabled = false }\n",
			"[hooks.state]\n# inline\n\"" + key + "\" = {enabled = false, trusted_hash = '" + hashA + "'}\n"},
		{"dotted keys", "[hooks]\nstate.\"" + key + "\".enabled = false # off\nx = 1\n",
			"[hooks]\nstate.\"" + key + "\".enabled = false # off\nstate.'" + key + "'.trusted_hash = '" + hashA + "'\nx = 1\n"},
		{"already recorded", "[hooks.state.\"" + key + "\"]\ntrusted_hash = \"" + hashA + "\"\n",
			"[hooks.state.\"" + key + "\"]\ntrusted_hash = \"" + hashA + "\"\n"},
		{"sub-table first", "[hooks.state.\"" + key + "\".note]\ntext = \"x\"\n",
			"[hooks.state.\"" + key + "\".note]\ntext = \"x\"\n\n[hooks.state.'" + key + "']\ntrusted_hash = '" + hashA + "'\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Edit([]byte(tc.doc), []Change{{Key: key, TrustedHash: hashA}})
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out, tc.want)
			}
		})
	}
}

func TestEdit_RefusesWhatItCannotRecordSafely(t *testing.T) {
	key := "/h/hooks.json:stop:0:0"
	cases := []struct{ name, doc, msg string }{
		{"invalid TOML", "model = \"x\"\n[broken\n", "line 2"},
		{"duplicate table", "[a]\nx=1\n[a]\ny=2\n", "not valid TOML"},
		{"hooks as an inline table", "hooks = { Stop = [] }\n", "inline table"},
		{"malformed enabled", "[hooks.state.\"" + key + "\"]\nenabled = \"no\"\n", `"enabled" must be true or false`},
		{"entry not a table", "[hooks.state]\n\"" + key + "\" = 3\n", "not a table"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Edit([]byte(tc.doc), []Change{{Key: key, TrustedHash: hashA}})
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %v, want one containing %q", err, tc.msg)
			}
		})
	}
}

func TestUpdate_KeepsModeAndSymlinkAndLeavesNoTempFiles(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "config.toml")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(richConfig), 0o640); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(home, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	key := "/h/hooks.json:stop:0:0"
	if err := Update(context.Background(), link, []Change{{Key: key, TrustedHash: hashA}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("config.toml is no longer a symlink: %v %v", fi.Mode(), err)
	}
	fi, err := os.Stat(real)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (%v), want 0640", fi.Mode().Perm(), err)
	}
	data, _ := os.ReadFile(real)
	if e, _ := StateEntry(data, key); e["trusted_hash"] != hashA {
		t.Errorf("entry not recorded: %s", data)
	}
	entries, _ := os.ReadDir(filepath.Dir(real))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

func TestUpdate_CreatesAMissingFilePrivately(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new-home", "config.toml")
	if err := Update(context.Background(), path, []Change{{Key: "k", Enabled: boolPtr(false)}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file mode %v, %v; want 0600", fi.Mode(), err)
	}
}

func TestUpdate_InvalidFileIsLeftUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	bad := "model = \n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	err := Update(context.Background(), path, []Change{{Key: "k", TrustedHash: hashA}})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want an error naming the file", err)
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Errorf("file changed to %q", data)
	}
}

func TestUpdate_ConcurrentWritersLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(richConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	const n = 24
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Update(context.Background(), path, []Change{{Key: fmt.Sprintf("/h/hooks.json:stop:0:%d", i), TrustedHash: hashA}})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	for i := range n {
		if e, _ := StateEntry(data, fmt.Sprintf("/h/hooks.json:stop:0:%d", i)); e["trusted_hash"] != hashA {
			t.Errorf("update %d lost", i)
		}
	}
	if !strings.HasPrefix(string(data), richConfig) {
		t.Errorf("original content not kept")
	}
}

// BenchmarkEdit_TrustOneOf100 records one hash in a config.toml that already
// holds state for 100 hooks (about 12 KB), as hooks/trust does.
func BenchmarkEdit_TrustOneOf100(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(richConfig)
	for i := range 100 {
		fmt.Fprintf(&sb, "\n[hooks.state.\"/home/u/.codex/hooks.json:post_tool_use:%d:0\"]\ntrusted_hash = \"%s\"\n", i, hashA)
	}
	doc := []byte(sb.String())
	for b.Loop() {
		if _, err := Edit(doc, []Change{{Key: "/home/u/.codex/hooks.json:post_tool_use:50:0", TrustedHash: hashB}}); err != nil {
			b.Fatal(err)
		}
	}
}
