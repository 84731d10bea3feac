//go:build realhost

package newhosts

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// specialCommand is a shell command whose JSON holds <, > and &, which Node's
// JSON.stringify writes as they are.
const specialCommand = `echo "a<b>&c" realhost-ran`

// stdinSame says whether hookd gave its hook the host's stdin byte for
// byte, given that stdin as its input.
func stdinSame(host, mine string) string {
	if host == mine {
		return "same as the host's"
	}
	return fmt.Sprintf("differs: host %q, hookd %q", host, mine)
}

// TestQwen_ShellContextEnv: the shell context Qwen Code gives hooks. hookd
// runs twice: as the host starts it (with the QWEN_CODE_PROJECT_DIR and
// QWEN_CODE_MODEL_IDENTITY the host exports in its own environment, and
// the session's model), and alone (nothing from the host's environment).
func TestQwen_ShellContextEnv(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newQwen(t, map[string]any{"PreToolUse": []any{qhook("", rec.Cmd("pt", "", 0))}},
		callTool("run_shell_command", fmt.Sprintf(`{"command":%q,"description":"echo","is_background":false}`, specialCommand)), say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("hook did not run\n%s", r.stderr)
	}
	host := calls[0].Env
	inherited := []string{"QWEN_CODE_PROJECT_DIR=" + host["QWEN_CODE_PROJECT_DIR"], "QWEN_CODE_MODEL_IDENTITY=" + host["QWEN_CODE_MODEL_IDENTITY"]}
	hookdRunEnv(t, inherited, r.home, r.work, "qwen", "PreToolUse", calls[0].Stdin, "--home", filepath.Join(r.home, ".qwen"), "--project", r.work, "--model", "realhost-model")
	hc := rec.Calls("pt")
	mine := hc[len(hc)-1]
	slug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(r.work, "-")
	val := func(env map[string]string, k string) string {
		return strings.ReplaceAll(homeRel(r.home, present(env, k)+" "+env[k]), slug, "<folder slug>")
	}
	for _, k := range []string{"QWEN_CODE_AGENT_ID", "QWEN_CODE_PROJECT_DIR", "QWEN_CODE_MODEL_IDENTITY", "QWEN_CODE_MODEL"} {
		record(t, "qwen", "env "+k+" (hookd started by the host)", val(host, k), val(mine.Env, k))
	}
	record(t, "qwen", "stdin bytes (<>& in tool_input; hookd given the host's stdin)", "same as the host's", stdinSame(calls[0].Stdin, mine.Stdin))
	r.hookd(t, "PreToolUse", calls[0].Stdin)
	hc = rec.Calls("pt")
	record(t, "qwen", "env QWEN_CODE_PROJECT_DIR (hookd alone: from its home and the folder)", val(host, "QWEN_CODE_PROJECT_DIR"), val(hc[len(hc)-1].Env, "QWEN_CODE_PROJECT_DIR"))
}

// TestCopilot_EnvAndStdinBytes: the variables Copilot CLI adds to every
// hook's environment, and the stdin bytes of a call whose arguments hold
// <, > and &.
func TestCopilot_EnvAndStdinBytes(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCopilot(t, map[string]any{"preToolUse": []any{chook("", rec.Cmd("pt", "", 0))}},
		callTool("bash", fmt.Sprintf(`{"command":%q,"description":"echo"}`, specialCommand)), say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("hook did not run\n%s", r.stderr)
	}
	r.hookd(t, "preToolUse", calls[0].Stdin)
	hc := rec.Calls("pt")
	host, mine := calls[0], hc[len(hc)-1]
	for _, k := range []string{"COPILOT_CLI_BINARY_VERSION", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"} {
		record(t, "copilot", "env "+k, present(host.Env, k)+" "+host.Env[k], present(mine.Env, k)+" "+mine.Env[k])
	}
	if !strings.Contains(host.Stdin, "a<b>&c") {
		t.Logf("the host's stdin escapes <>&: %s", host.Stdin)
	}
	record(t, "copilot", "stdin bytes (<>& in toolArgs; hookd given the host's stdin)", "same as the host's", stdinSame(host.Stdin, mine.Stdin))
}

// TestQwen_SubagentAgentID: a shell call inside a subagent (the agent
// tool, general-purpose, in the foreground): QWEN_CODE_AGENT_ID is the
// subagent's id, the input's agent_id.
func TestQwen_SubagentAgentID(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newQwen(t, map[string]any{"PreToolUse": []any{qhook("run_shell_command", rec.Cmd("pt", "", 0))}},
		callTool("agent", `{"description":"echo check","prompt":"run echo realhost-ran","subagent_type":"general-purpose","run_in_background":false}`),
		qwenShell, say("sub done"), say("ok"))
	r.run(t, "run it in a subagent")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("hook did not run\n%s\n%s", r.stdout, r.stderr)
	}
	host := calls[0]
	r.hookd(t, "PreToolUse", host.Stdin)
	hc := rec.Calls("pt")
	mine := hc[len(hc)-1]
	desc := func(c rh.Call) string {
		id := c.Env["QWEN_CODE_AGENT_ID"]
		if id == "" {
			return present(c.Env, "QWEN_CODE_AGENT_ID") + ", empty"
		}
		return fmt.Sprintf("%q (stdin agent_id %q)", id, gjson.Get(c.Stdin, "agent_id").Str)
	}
	record(t, "qwen", "env QWEN_CODE_AGENT_ID in a subagent's shell call", desc(host), desc(mine))
}
