//go:build realhost

package realhost

import (
	"context"
	"fmt"
	"testing"

	"github.com/hookd/hookd/realhost/rh"
)

// TestCodex_PluginTrustInterop: a plugin in Codex's install cache, reviewed
// with `hookd trust --all`, runs in the real Codex without
// --dangerously-bypass-hook-trust; not reviewed, it does not. Both sides
// compute the same key and hash for an installed plugin's hook (issue 20:
// trust bound to the plugin folder applies only outside the install cache).
func TestCodex_PluginTrustInterop(t *testing.T) {
	for _, reviewed := range []bool{false, true} {
		rec := rh.NewRecorder(t)
		r := newCodex(t, hooksOf(), callTool("exec_command", `{"cmd":"echo hi"}`), say("finished"))
		installCodexPlugin(t, r, rec)
		if reviewed {
			ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
			out, errOut, err := rh.Run(ctx, r.work, append(baseEnv(r.home), "CODEX_HOME="+r.home), "", rh.Hookd(t), "trust", "--all", "--home", r.home)
			cancel()
			if err != nil {
				t.Fatalf("hookd trust --all: %v\n%s%s", err, out, errOut)
			}
		}
		// codex exec without --dangerously-bypass-hook-trust: only reviewed
		// hooks run.
		bin, err := hostBinary("@openai/codex", codexVersion, "codex")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
		env := append(baseEnv(r.home), "CODEX_HOME="+r.home, "OPENAI_API_KEY=sk-realhost", "RUST_LOG=error")
		r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", bin, "exec", "--skip-git-repo-check", "-C", r.work, "run it")
		cancel()
		if err != nil {
			t.Logf("codex exec: %v\n%s\n%s", err, r.stdout, r.stderr)
		}
		host := yesNo(len(rec.Calls("plug")) > 0)
		list := hookdList(t, r.home, "--home", r.home, "--cwd", r.work)
		hd := yesNo(list.Get(`hooks.#(trust=="trusted")`).Exists())
		what := "an installed plugin's hook, never reviewed, runs"
		if reviewed {
			what = "an installed plugin's hook reviewed by hookd trust runs"
		}
		record(t, "codex", "trust", what, host, hd)
	}
}

// Item 6: a plugin installed in Codex's cache runs once per call; hookd
// given the same folder with --plugin, which it also finds in the cache,
// runs it once too (the named one).
func TestCodex_PluginNamedAndInstalledRunsOnce(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCodex(t, hooksOf(), callTool("exec_command", `{"cmd":"echo hi"}`), say("finished"))
	root := installCodexPlugin(t, r, rec)
	r.exec(t, "run it")
	runs := func() string {
		cs := rec.Calls("plug")
		if len(cs) == 0 {
			return "did not run"
		}
		return fmt.Sprintf("ran %d time(s)", len(cs))
	}
	host := runs()
	in := `{"tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_use_id":"c1"}`
	if cs := rec.Calls("plug"); len(cs) > 0 {
		in = cs[0].Stdin
	}
	rec.Reset()
	r.hookd(t, "PreToolUse", in, "--plugin", root)
	record(t, "codex", "6", "an installed plugin's hook for one call (hookd: its folder also given with --plugin)", host, runs())
}
