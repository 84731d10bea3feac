package letta

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/proc"
)

// Letta runs a command handler with $SHELL -c (not a login shell; /bin/bash
// and the other usual shells when SHELL is unset) in the working folder,
// the command trimmed, its stdin the input. The environment is the
// process's without the agent's own variables (LETTA_AGENT_ID, AGENT_ID,
// LETTA_CONVERSATION_ID, CONVERSATION_ID, LETTA_MEMORY_DIR, MEMORY_DIR,
// USER_CWD, LETTA_WORKING_DIR), then LETTA_HOOK_EVENT (the event),
// LETTA_WORKING_DIR and USER_CWD (the working folder) and, when the input
// has an agent_id, LETTA_AGENT_ID and AGENT_ID. A handler's "timeout" is in
// milliseconds (60000 when unset).

func shell() []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	return []string{proc.EnvShell, "-c"}
}

// dropped are the parent's variables Letta removes before it adds its own.
var dropped = map[string]bool{"LETTA_AGENT_ID": true, "AGENT_ID": true, "LETTA_CONVERSATION_ID": true, "CONVERSATION_ID": true,
	"LETTA_MEMORY_DIR": true, "MEMORY_DIR": true, "USER_CWD": true, "LETTA_WORKING_DIR": true}

func envFilter(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !dropped[name] {
			out = append(out, kv)
		}
	}
	return out
}

var handlerKinds = map[string]func(e *hooks.Engine) hooks.HandlerKind{hooks.TypeCommand: commandKind}

func commandKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		run := *h
		run.Handler.Command = strings.TrimSpace(h.Handler.Command)
		in := gjson.ParseBytes(stdin)
		dir := in.Get("working_directory").Str
		if dir == "" {
			dir = e.Session().Cwd
		}
		run.Env = map[string]string{}
		for k, v := range h.Env {
			if !strings.HasPrefix(k, "\x00") {
				run.Env[k] = v
			}
		}
		run.Env["LETTA_HOOK_EVENT"] = in.Get("event_type").Str
		run.Env["LETTA_WORKING_DIR"] = dir
		run.Env["USER_CWD"] = dir
		if a := in.Get("agent_id"); a.Type == gjson.String && a.Str != "" && !strings.ContainsRune(a.Str, 0) {
			run.Env["LETTA_AGENT_ID"] = a.Str
			run.Env["AGENT_ID"] = a.Str
		}
		for k, v := range run.Env {
			if strings.ContainsRune(v, 0) {
				delete(run.Env, k)
			}
		}
		return e.RunCommand(ctx, &run, stdin)
	})
}

// readHandler reads a handler's timeout as milliseconds.
func readHandler(_ *hooks.EventRules, raw gjson.Result, h *hooks.Hook) (string, bool) {
	h.Handler.SetTimeoutMs(defaultTimeout * 1000)
	t := raw.Get("timeout")
	switch {
	case !t.Exists() || t.Type == gjson.Null:
	case t.Type == gjson.Number && t.Num > 0:
		h.Handler.SetTimeoutMs(int(t.Num))
	default:
		return fmt.Sprintf(`ignoring "timeout" %s: expected a number of milliseconds`, t.Raw), false
	}
	return "", false
}

// prepareInput puts event_type and working_directory first, as Letta
// writes them, filling them in when the host left them out.
func prepareInput(ev *hooks.EventRules, input []byte, s hooks.Session) []byte {
	in := gjson.ParseBytes(input)
	out := []byte{'{'}
	add := func(k, raw string) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(gjson.AppendJSONString(out, k), ':')
		out = append(out, raw...)
	}
	if v := in.Get("event_type"); v.Exists() {
		add("event_type", v.Raw)
	} else {
		add("event_type", string(gjson.AppendJSONString(nil, ev.Name)))
	}
	if v := in.Get("working_directory"); v.Exists() {
		add("working_directory", v.Raw)
	} else {
		add("working_directory", string(gjson.AppendJSONString(nil, s.Cwd)))
	}
	in.ForEach(func(k, v gjson.Result) bool {
		if k.Str != "event_type" && k.Str != "working_directory" {
			add(k.Str, v.Raw)
		}
		return true
	})
	return append(out, '}')
}
