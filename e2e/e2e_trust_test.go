package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
	"github.com/hookd/hookd/hooks/statefile"
)

// userConfig is a config.toml a user wrote by hand: comments everywhere,
// tables before and after the hook state, and state for other hooks.
const userConfig = `# ~/.codex/config.toml, edited by hand
model = "gpt-5"            # the default model
approval_policy = "on-request"

[profiles.work]            # a profile
model = "o3"

# hooks I reviewed earlier
[hooks.state."/elsewhere/hooks.json:stop:0:0"]
trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

[hooks.state."%[1]s"]
# turned off while I look into it
enabled = false

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "4000"] # trailing
`

func hookdCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(hookdPath(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("hookd %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

func TestCLI_TrustKeepsEveryOtherByteAndTheFileMode(t *testing.T) {
	home := testHome(t, `{"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}`)
	key := filepath.Join(home, "hooks.json") + ":stop:0:0"
	path := filepath.Join(home, "config.toml")
	before := fmt.Sprintf(userConfig, key)
	if err := os.WriteFile(path, []byte(before), 0o640); err != nil {
		t.Fatal(err)
	}
	out, err := hookdCLI(t, "trust", "--home", home, key)
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.Fields(out)[2]
	after, _ := os.ReadFile(path)
	// The only change is one line added to the hook's own table; the
	// disabled flag and its comment stay.
	want := strings.Replace(before, "enabled = false\n", "enabled = false\ntrusted_hash = '"+hash+"'\n", 1)
	if string(after) != want {
		t.Errorf("config.toml after trust:\n%s\nwant:\n%s", after, want)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v; want 0640 kept", fi.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
	// hookd list agrees: trusted, still disabled.
	out, err = hookdCLI(t, "list", "--home", home)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`:stop:0:0 +Stop +\* +user +trusted +false`).MatchString(out) {
		t.Errorf("list:\n%s", out)
	}
}

func TestCLI_ConcurrentTrustProcessesLoseNothing(t *testing.T) {
	// Eight hooks, eight hookd processes started together, each trusting one.
	// A long config.toml widens the read-modify-write window that the lock
	// has to close.
	const n = 8
	var hs []string
	for i := range n {
		hs = append(hs, fmt.Sprintf(`{"type": "command", "command": "echo %d"}`, i))
	}
	home := testHome(t, `{"Stop": [{"hooks": [`+strings.Join(hs, ",")+`]}]}`)
	path := filepath.Join(home, "config.toml")
	padding := strings.Repeat("# a long comment line that the editor must carry along unchanged\n", 20000)
	before := "model = \"gpt-5\"\n" + padding
	if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for i := range n {
		cmd := exec.Command(hookdPath(t), "trust", "--home", home, fmt.Sprintf("%s:stop:0:%d", filepath.Join(home, "hooks.json"), i))
		cmd.Stderr = testWriter{t}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("hookd trust: %v", err)
		}
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), before) {
		t.Error("the original content is not kept")
	}
	for i := range n {
		key := fmt.Sprintf("%s:stop:0:%d", filepath.Join(home, "hooks.json"), i)
		if e, _ := statefile.StateEntry(data, key); !strings.HasPrefix(fmt.Sprint(e["trusted_hash"]), "sha256:") {
			t.Errorf("trust of hook %d was lost", i)
		}
	}
}

// waitLog waits for a window/logMessage containing substr.
func waitLog(t *testing.T, c *client.Client, substr string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case n := <-c.Notifications:
			if msg := gjson.GetBytes(n.Params, "message").Str; n.Method == "window/logMessage" && strings.Contains(msg, substr) {
				return msg
			}
		case <-timeout:
			t.Fatalf("no window/logMessage containing %q", substr)
			return ""
		}
	}
}

func TestServe_ReviewTrustAndEnableOverRPC(t *testing.T) {
	home := testHome(t, `{"UserPromptSubmit": [{"hooks": [
		{"type": "command", "command": "echo first"},
		{"type": "command", "command": "echo second"}]}]}`)
	path := filepath.Join(home, "config.toml")
	if err := os.WriteFile(path, []byte("# keep this comment\nmodel = \"gpt-5\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startServe(t, home, map[string]any{"bypassTrust": false})
	ctx := context.Background()
	waitLog(t, c, "2 hooks await review")

	k0 := filepath.Join(home, "hooks.json") + ":user_prompt_submit:0:0"
	k1 := filepath.Join(home, "hooks.json") + ":user_prompt_submit:0:1"
	res, err := c.Run(ctx, "UserPromptSubmit", map[string]any{"prompt": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(res, `skipped.#(reason=="untrusted")#.key`).String(); got != fmt.Sprintf("[%q,%q]", k0, k1) {
		t.Errorf("skipped %s", res)
	}

	var listed struct {
		Hooks []struct{ Key, Hash string } `json:"hooks"`
	}
	if err := c.Call(ctx, "hooks/list", nil, &listed); err != nil {
		t.Fatal(err)
	}
	var trusted json.RawMessage
	if err := c.Call(ctx, "hooks/trust", map[string]any{"keys": []string{k0}}, &trusted); err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(trusted, "trusted.0.hash").Str; got != listed.Hooks[0].Hash || gjson.GetBytes(trusted, "trusted.0.key").Str != k0 {
		t.Errorf("hooks/trust %s, hooks/list hash %s", trusted, listed.Hooks[0].Hash)
	}
	res, err = c.Run(ctx, "UserPromptSubmit", map[string]any{"prompt": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(res, "additionalContext.0.text").Str != "first" || gjson.GetBytes(res, "skipped.#").Int() != 1 {
		t.Errorf("after trust: %s", res)
	}
	if err := c.Call(ctx, "hooks/reload", nil, nil); err != nil {
		t.Fatal(err)
	}
	waitLog(t, c, "1 hook awaits review")

	var enabled json.RawMessage
	if err := c.Call(ctx, "hooks/setEnabled", map[string]any{"key": k0, "enabled": false}, &enabled); err != nil {
		t.Fatal(err)
	}
	if string(enabled) != fmt.Sprintf(`{"key":%q,"enabled":false}`, k0) {
		t.Errorf("hooks/setEnabled = %s", enabled)
	}
	res, _ = c.Run(ctx, "UserPromptSubmit", map[string]any{"prompt": "hi"})
	if gjson.GetBytes(res, `skipped.#(key==`+fmt.Sprintf("%q", k0)+`).reason`).Str != "disabled" {
		t.Errorf("after disable: %s", res)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "# keep this comment\nmodel = \"gpt-5\"\n") {
		t.Errorf("config.toml lost its content:\n%s", data)
	}

	// Errors: -32602 naming the field; nothing is written.
	for _, tc := range []struct {
		method string
		params any
		msg    string
	}{
		{"hooks/trust", map[string]any{}, `"keys" is required`},
		{"hooks/trust", map[string]any{"keys": []string{k1, "nope"}}, `unknown hook key "nope"`},
		{"hooks/trust", map[string]any{"keys": "x"}, `"keys"`},
		{"hooks/setEnabled", map[string]any{"key": k1}, `"enabled" is required`},
		{"hooks/setEnabled", map[string]any{"key": "nope", "enabled": true}, `unknown hook key "nope"`},
	} {
		err := c.Call(ctx, tc.method, tc.params, nil)
		if rpcCode(err) != -32602 || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s %v: %v, want -32602 with %q", tc.method, tc.params, err, tc.msg)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Errorf("a refused request changed config.toml:\n%s", after)
	}
}

func TestServe_ManagedHooksAtInitialize(t *testing.T) {
	dir := t.TempDir()
	req := filepath.Join(dir, "requirements.toml")
	write := func(s string) {
		if err := os.WriteFile(req, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[[hooks.PreToolUse]]\nmatcher = \"(Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\n")
	home := testHome(t, `{"Stop": [{"hooks": [{"type": "command", "command": "echo user"}]}]}`)
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	params := map[string]any{"session": map[string]any{"cwd": dir},
		"config": map[string]any{"home": home, "managed": map[string]any{"requirements": req}}}
	_, err = c.Initialize(ctx, params)
	if rpcCode(err) != -32602 || !strings.Contains(err.Error(), "failed to load required managed hooks") || !strings.Contains(err.Error(), `invalid matcher "(Bash"`) {
		t.Fatalf("initialize with a broken required managed hook: %v", err)
	}
	if err := c.Call(ctx, "hooks/list", nil, nil); rpcCode(err) != -32002 {
		t.Errorf("after a refused initialize: %v, want -32002", err)
	}

	// Fixed: the managed hook loads first, trusted; managed-only holds the user hook.
	write("allow_managed_hooks_only = true\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo '{\\\"decision\\\":\\\"block\\\",\\\"reason\\\":\\\"policy\\\"}'\"\n")
	if _, err := c.Initialize(ctx, params); err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(ctx, "Stop", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(res, "continuation").Str != "policy" || gjson.GetBytes(res, "skipped.0.reason").Str != "managedOnly" {
		t.Errorf("managed-only run: %s", res)
	}
	managedKey := req + ":stop:0:0"
	err = c.Call(ctx, "hooks/setEnabled", map[string]any{"key": managedKey, "enabled": false}, nil)
	if rpcCode(err) != -32602 || !strings.Contains(err.Error(), "managed hooks cannot be disabled") {
		t.Errorf("disable managed: %v", err)
	}

	// Broken again: reload refuses and the loaded hooks stay in use.
	write("[hooks\n")
	if err := c.Call(ctx, "hooks/reload", nil, nil); rpcCode(err) != -32603 || !strings.Contains(err.Error(), "stay in use") {
		t.Errorf("reload with broken requirements: %v", err)
	}
	res, _ = c.Run(ctx, "Stop", map[string]any{})
	if gjson.GetBytes(res, "continuation").Str != "policy" {
		t.Errorf("after a refused reload: %s", res)
	}
}

func TestServe_SessionHooksNeedTrustAndTakeSessionState(t *testing.T) {
	home := testHome(t, `{}`)
	session := map[string]any{"Stop": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"session hook\"}'"}}}}}
	c := startServe(t, home, map[string]any{"bypassTrust": false, "hooks": session})
	ctx := context.Background()
	waitLog(t, c, "1 hook awaits review")
	var list json.RawMessage
	if err := c.Call(ctx, "hooks/list", nil, &list); err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(list, "hooks.0.key").Str != "session:stop:0:0" || gjson.GetBytes(list, "hooks.0.trust").Str != "untrusted" {
		t.Fatalf("session hook: %s", list)
	}
	hash := gjson.GetBytes(list, "hooks.0.hash").Str

	// The host may pass state for its own session hooks with them.
	session["state"] = map[string]any{"session:stop:0:0": map[string]any{"trusted_hash": hash}}
	c2 := startServe(t, home, map[string]any{"bypassTrust": false, "hooks": session})
	res, err := c2.Run(ctx, "Stop", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(res, "continuation").Str != "session hook" {
		t.Errorf("trusted session hook did not run: %s", res)
	}
	if _, err := os.Stat(filepath.Join(home, "config.toml")); !os.IsNotExist(err) {
		t.Errorf("session state was written to disk: %v", err)
	}
}
