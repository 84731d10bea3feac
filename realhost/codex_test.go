//go:build realhost

package realhost

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

func group(matcher, command string) map[string]any {
	g := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}
	if matcher != "-" {
		g["matcher"] = matcher
	}
	return g
}

func hooksOf(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// firstCall returns the first recorded call of name, failing the test when
// the hook never ran.
func firstCall(t *testing.T, rec *rh.Recorder, name, where string) rh.Call {
	t.Helper()
	cs := rec.Calls(name)
	if len(cs) == 0 {
		t.Fatalf("%s: hook %s never ran", where, name)
	}
	return cs[0]
}

// hookdHas reports whether `hookd run --help` lists a flag.
func hookdHas(t *testing.T, flag string) bool {
	out, _ := exec.Command(rh.Hookd(t), "run", "--help").CombinedOutput()
	return strings.Contains(string(out), "-"+flag+" ")
}

// addedEnv lists the variables a hook saw that its parent was not given,
// minus those every shell sets.
func addedEnv(c rh.Call, given []string) string {
	base := map[string]bool{"PWD": true, "SHLVL": true, "_": true, "OLDPWD": true}
	for _, kv := range given {
		k, _, _ := strings.Cut(kv, "=")
		base[k] = true
	}
	var keys []string
	for k := range c.Env {
		if !base[k] && !strings.HasPrefix(k, "CODEX_") && k != "RUST_LOG" && k != "OPENAI_API_KEY" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// Items 1, 4 and 5: the shell, the environment and the stdin of one shell call.
func TestCodex_ShellEnvironmentStdin(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCodex(t, hooksOf("PreToolUse", []any{group("*", rec.Cmd("pre", "", 0))}),
		callTool("exec_command", `{"cmd":"echo \"<a>&\""}`), say("finished"))
	r.exec(t, "run it")
	host := firstCall(t, rec, "pre", "codex")
	rec.Reset()
	var v any
	json.Unmarshal([]byte(host.Stdin), &v)
	var pb strings.Builder
	enc := json.NewEncoder(&pb)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	pretty := pb.String()
	hookd := r.hookd(t, "PreToolUse", string(pretty))
	hd := firstCall(t, rec, "pre", "hookd: "+hookd)

	record(t, "codex", "1", "shell of a hook command (SHELL=/bin/bash)", host.Shell, hd.Shell)
	given := append(baseEnv(r.home), "CODEX_HOME="+r.home)
	record(t, "codex", "4", "variables added to a hook's environment", addedEnv(host, given), addedEnv(hd, given))
	oneLine := func(s string) string {
		return fmt.Sprintf("one line: %s; <>& unescaped: %s", yesNo(!strings.Contains(strings.TrimSuffix(s, "\n"), "\n")), yesNo(strings.Contains(s, `<a>&`)))
	}
	record(t, "codex", "5", "stdin when the host sends pretty-printed input", oneLine(host.Stdin), oneLine(hd.Stdin))
	record(t, "codex", "5", "stdin bytes equal the compact input (key order kept)", "yes", yesNo(strings.TrimSpace(hd.Stdin) == strings.TrimSpace(host.Stdin)))
}

// Item 3: which matchers fire for a shell call.
func TestCodex_MatchersForAShellCall(t *testing.T) {
	rec := rh.NewRecorder(t)
	matchers := []string{"Bash", "^Bash", "*", "-", "exec_command", "shell_command", "shell", "bash", "Edit|Write"}
	var groups []any
	for i, m := range matchers {
		groups = append(groups, group(m, rec.Cmd(fmt.Sprintf("m%d", i), "", 0)))
	}
	r := newCodex(t, hooksOf("PreToolUse", groups), callTool("exec_command", `{"cmd":"echo hi"}`), say("finished"))
	r.exec(t, "run it")
	fired := func() string {
		var out []string
		for i, m := range matchers {
			if len(rec.Calls(fmt.Sprintf("m%d", i))) > 0 {
				if m == "-" {
					m = "(none)"
				}
				out = append(out, m)
			}
		}
		return strings.Join(out, " ")
	}
	host := fired()
	in := firstCall(t, rec, "m0", "codex").Stdin
	rec.Reset()
	r.hookd(t, "PreToolUse", in)
	record(t, "codex", "3", "matchers that fire for a shell call (reported as Bash)", host, fired())
}

// Item 2: PostToolUse continue:false replaces the tool output and the turn goes on.
func TestCodex_PostToolUseContinueFalse(t *testing.T) {
	for _, tc := range []struct{ name, out string }{
		{"continue:false", `{"continue":false,"stopReason":"stopped by hook"}`},
		{"decision:block + continue:false", `{"decision":"block","reason":"blocked by hook","continue":false,"stopReason":"stopped by hook"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newCodex(t, hooksOf("PostToolUse", []any{group("Bash", rec.Cmd("post", tc.out, 0))}),
				callTool("exec_command", `{"cmd":"echo toolout"}`), say("after the hook"))
			r.exec(t, "run it")
			reqs := r.model.Requests()
			var output string
			if len(reqs) > 1 {
				output = gjson.Get(reqs[1], `input.#(type=="function_call_output").output`).Str
			}
			host := fmt.Sprintf("model asked again: %s; tool output: %q", yesNo(len(reqs) > 1), output)
			in := firstCall(t, rec, "post", "codex").Stdin
			res := r.hookd(t, "PostToolUse", in)
			goesOn := gjson.Get(res, "continue").Type != gjson.False
			hd := fmt.Sprintf("model asked again: %s; tool output: %q", yesNo(goesOn), gjson.Get(res, "feedback").Str)
			record(t, "codex", "2", "PostToolUse "+tc.name, host, hd)
		})
	}
}

// installCodexPlugin installs plugin guard@mkt in Codex's cache, enabled in
// config.toml, with a PreToolUse Bash hook that records "plug"; it returns
// the plugin's folder.
func installCodexPlugin(t *testing.T, r *codexRun, rec *rh.Recorder) string {
	root := filepath.Join(r.home, "plugins", "cache", "mkt", "guard", "1.0.0")
	rh.WriteFile(t, filepath.Join(root, ".codex-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0"}`)
	b, _ := json.Marshal(map[string]any{"hooks": hooksOf("PreToolUse", []any{group("Bash", rec.Cmd("plug", "", 0))})})
	rh.WriteFile(t, filepath.Join(root, "hooks", "hooks.json"), string(b))
	cfg, _ := os.ReadFile(filepath.Join(r.home, "config.toml"))
	rh.WriteFile(t, filepath.Join(r.home, "config.toml"), string(cfg)+"\n[plugins.\"guard@mkt\"]\nenabled = true\n")
	return root
}

// Items 4 and 6: a plugin installed in Codex's cache and enabled in config.toml.
func TestCodex_InstalledPlugin(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCodex(t, hooksOf(), callTool("exec_command", `{"cmd":"echo hi"}`), say("finished"))
	installCodexPlugin(t, r, rec)
	r.exec(t, "run it")
	describe := func() (string, string) {
		cs := rec.Calls("plug")
		if len(cs) == 0 {
			return "hook did not run", "-"
		}
		c := cs[0]
		env := []string{}
		for _, k := range []string{"PLUGIN_ROOT", "PLUGIN_DATA", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"} {
			if v, ok := c.Env[k]; ok {
				env = append(env, k+"="+strings.ReplaceAll(v, r.home, "$CODEX_HOME"))
			}
		}
		return "hook ran", strings.Join(env, " ")
	}
	hostRan, hostEnv := describe()
	var in string
	if cs := rec.Calls("plug"); len(cs) > 0 {
		in = cs[0].Stdin
	} else {
		in = `{"tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_use_id":"c1"}`
	}
	rec.Reset()
	r.hookd(t, "PreToolUse", in)
	hdRan, hdEnv := describe()
	record(t, "codex", "6", "hookd run --home finds an installed, enabled plugin", hostRan, hdRan)
	record(t, "codex", "4", "plugin variables (data folder)", hostEnv, hdEnv)
}

// Item 7: the session fields a host passes.
func TestCodex_SessionFields(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCodex(t, hooksOf("PreToolUse", []any{group("*", rec.Cmd("pre", "", 0))}),
		callTool("exec_command", `{"cmd":"echo hi"}`), say("finished"))
	r.exec(t, "run it", "--dangerously-bypass-approvals-and-sandbox")
	host := firstCall(t, rec, "pre", "codex").Stdin
	fields := func(s string) string {
		return fmt.Sprintf("model=%s transcript_path=%s permission_mode=%s",
			gjson.Get(s, "model").Raw, yesNo(gjson.Get(s, "transcript_path").Str != ""), gjson.Get(s, "permission_mode").Raw)
	}
	rec.Reset()
	// The host gives hookd only the event's own fields; the session ones come
	// from flags when hookd run has them.
	var extra []string
	if hookdHas(t, "model") {
		extra = []string{"--model", gjson.Get(host, "model").Str, "--transcript-path", gjson.Get(host, "transcript_path").Str,
			"--permission-mode", gjson.Get(host, "permission_mode").Str}
	}
	r.hookd(t, "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_use_id":"c1"}`, extra...)
	hd := firstCall(t, rec, "pre", "hookd").Stdin
	record(t, "codex", "7", "session fields (model, transcript_path, permission_mode) from hookd run flags", fields(host), fields(hd))
}

// Item 8: a Stop block's continuation, wrapped with the hook run id.
func TestCodex_StopContinuationRunID(t *testing.T) {
	rec := rh.NewRecorder(t)
	script := filepath.Join(rec.Dir, "stop.sh")
	rh.WriteFile(t, script, `in=$(cat); if printf %s "$in" | grep -q '"stop_hook_active":true'; then echo '{}'; else echo '{"decision":"block","reason":"keep going"}'; fi`)
	r := newCodex(t, hooksOf("Stop", []any{group("-", "bash "+script)}), say("first"), say("second"))
	r.exec(t, "run it")
	hooksFile := filepath.Join(r.home, "hooks.json")
	re := regexp.MustCompile(`<hook_prompt hook_run_id="([^"]*)">`)
	host := "no continuation"
	reqs := r.model.Requests()

	if len(reqs) > 1 {
		if m := re.FindStringSubmatch(gjson.Get(reqs[1], "input.@reverse.0.content.0.text").Str); m != nil {
			host = "hook run id " + strings.ReplaceAll(m[1], hooksFile, "<hooks.json>")
		}
	}
	res := r.hookd(t, "Stop", `{"stop_hook_active":false,"last_assistant_message":"first"}`)
	hd := "no hook run id in the result"
	want := "stop:0:" + hooksFile
	if strings.Contains(res, `"`+want+`"`) {
		hd = "hook run id " + strings.ReplaceAll(want, hooksFile, "<hooks.json>")
	}
	record(t, "codex", "8", "Stop continuation: the hook run id Codex wraps it with", host, hd)
}
