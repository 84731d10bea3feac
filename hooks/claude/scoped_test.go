package claude

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// agentMD is an agent definition whose frontmatter holds hooks (YAML).
func agentMD(name, hooksYAML string) string {
	return "---\nname: " + name + "\ndescription: Use this agent when: the code needs a review\ntools: Bash, Read\nhooks:\n" + hooksYAML + "---\n\nYou review code.\n"
}

func skillMD(hooksYAML string) string {
	return "---\ndescription: Guards the shell\nhooks:\n" + hooksYAML + "---\n\nSkill text.\n"
}

// bashHook is a hooks block with one PreToolUse Bash handler running cmd.
func bashHook(cmd string) string {
	return "  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: " + cmd + "\n"
}

const bashInput = `{"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"}`

func inAgent(input, agentType, agentID string) string {
	return strings.TrimSuffix(input, "}") + `, "agent_type": "` + agentType + `", "agent_id": "` + agentID + `"}`
}

func ran(res *hooks.Result) []string {
	var keys []string
	for _, h := range res.Hooks {
		keys = append(keys, h.Key)
	}
	return keys
}

func scopedInfo(t *testing.T, e *hooks.Engine) []hooks.HookInfo {
	t.Helper()
	list, _ := e.List("")
	var out []hooks.HookInfo
	for _, h := range list {
		if h.Scope != nil {
			out = append(out, h)
		}
	}
	return out
}

func TestScoped_AgentHooksRunOnlyInsideTheirSubagent(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/agents/reviewer.md": agentMD("reviewer", bashHook("echo '{\"decision\":\"block\",\"reason\":\"reviewer may not run shell\"}'")),
		"home/agents/notes.md":    "# no frontmatter\n",
	})
	e, _ := claudeEngine(t, root, nil)
	list := scopedInfo(t, e)
	if len(list) != 1 || list[0].Scope.Kind != hooks.ScopeAgent || list[0].Scope.Name != "reviewer" || list[0].Scope.Active {
		t.Fatalf("scoped hooks %+v", list)
	}
	if res := claudeRun(t, e, "PreToolUse", bashInput); len(res.Hooks) != 0 {
		t.Fatalf("main agent ran the reviewer's hook: %v", ran(res))
	}
	if res := claudeRun(t, e, "PreToolUse", inAgent(bashInput, "explorer", "a1")); len(res.Hooks) != 0 {
		t.Fatalf("another subagent ran the reviewer's hook: %v", ran(res))
	}
	res := claudeRun(t, e, "PreToolUse", inAgent(bashInput, "reviewer", "a2"))
	if len(res.Hooks) != 1 || res.Decision != hooks.DecisionDeny || res.Hooks[0].Scope == nil || res.Hooks[0].Scope.Name != "reviewer" {
		t.Fatalf("inside the reviewer: decision %s hooks %+v", res.Decision, res.Hooks)
	}
	// The subagent is running now: an event that names only its id is
	// still inside it, and hooks/list says the agent's hooks are active.
	if res := claudeRun(t, e, "PreToolUse", strings.TrimSuffix(bashInput, "}")+`, "agent_id": "a2"}`); len(res.Hooks) != 1 {
		t.Fatalf("an event with only agent_id a2 ran %v", ran(res))
	}
	if l := scopedInfo(t, e); !l[0].Scope.Active {
		t.Fatalf("reviewer running but not active: %+v", l[0].Scope)
	}
	claudeRun(t, e, "SubagentStop", `{"agent_type": "reviewer", "agent_id": "a2"}`)
	if l := scopedInfo(t, e); l[0].Scope.Active {
		t.Fatalf("reviewer finished but still active")
	}
}

func TestScoped_AnAgentsStopHookIsSubagentStop(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/agents/writer.md": agentMD("writer", "  Stop:\n    - hooks:\n        - type: command\n          command: cat > stop-input.json\n"),
	})
	e, _ := claudeEngine(t, root, nil)
	list := scopedInfo(t, e)
	if len(list) != 1 || list[0].Event != "SubagentStop" {
		t.Fatalf("agent Stop hook listed as %+v", list)
	}
	if res := claudeRun(t, e, "Stop", `{}`); len(res.Hooks) != 0 {
		t.Fatalf("the main agent's Stop ran the writer's hook")
	}
	res := claudeRun(t, e, "SubagentStop", `{"agent_type": "writer", "agent_id": "w1", "agent_transcript_path": "/t/w1.jsonl"}`)
	if len(res.Hooks) != 1 || res.Hooks[0].Status != hooks.StatusSucceeded {
		t.Fatalf("SubagentStop in writer: %+v", res.Hooks)
	}
	in := readFile(t, filepath.Join(root, "project", "stop-input.json"))
	for _, want := range []string{`"hook_event_name":"SubagentStop"`, `"agent_id":"w1"`, `"agent_type":"writer"`, `"agent_transcript_path":"/t/w1.jsonl"`} {
		if !strings.Contains(compact(in), want) {
			t.Fatalf("stdin %s lacks %s", in, want)
		}
	}
}

func TestScoped_ProjectAgentsNeedATrustedProject(t *testing.T) {
	files := map[string]string{
		"project/.claude/agents/fixer.md": agentMD("fixer", bashHook("exit 0")),
		// A user agent of the same name is replaced by the project's.
		"home/agents/fixer.md": agentMD("fixer", bashHook("echo user")),
	}
	root := claudeFiles(t, files)
	e, _ := claudeEngine(t, root, func(o *hooks.Options) {
		o.Discover.ProjectTrusted, o.Discover.ProjectTrustKnown = false, true
	})
	list := scopedInfo(t, e)
	if len(list) != 1 || list[0].Source.Layer != hooks.LayerUser {
		t.Fatalf("untrusted project: scoped hooks %+v", list)
	}
	_, warns := e.List("")
	if !slices.ContainsFunc(warns, func(w hooks.Warning) bool {
		return strings.Contains(w.Message, "project agent(s)") && strings.Contains(w.Message, "not trusted")
	}) {
		t.Fatalf("no warning about the untrusted project's agents: %+v", warns)
	}
	e, _ = claudeEngine(t, root, nil)
	list = scopedInfo(t, e)
	if len(list) != 1 || list[0].Source.Layer != hooks.LayerProject || list[0].Handler.Command != "exit 0" {
		t.Fatalf("trusted project: scoped hooks %+v", list)
	}
}

func TestScoped_SkillHooksJoinTheSessionWhenActivated(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"project/.claude/skills/guard/SKILL.md": "---\nname: shell-guard\n" + strings.TrimPrefix(skillMD(bashHook("echo '{\"decision\":\"block\",\"reason\":\"guarded\"}'")), "---\n"),
	})
	e, _ := claudeEngine(t, root, nil)
	list := scopedInfo(t, e)
	if len(list) != 1 || list[0].Scope.Kind != hooks.ScopeSkill || list[0].Scope.Name != "guard" || list[0].Scope.Active {
		t.Fatalf("scoped hooks %+v", list)
	}
	if res := claudeRun(t, e, "PreToolUse", bashInput); len(res.Hooks) != 0 {
		t.Fatalf("skill hook ran before the skill was invoked")
	}
	// The frontmatter name selects the skill too.
	if keys := e.ActivateSkill("shell-guard"); len(keys) != 1 || keys[0] != list[0].Key {
		t.Fatalf("ActivateSkill returned %v", keys)
	}
	for i := range 2 {
		res := claudeRun(t, e, "PreToolUse", bashInput)
		if res.Decision != hooks.DecisionDeny || res.Hooks[0].Scope == nil || res.Hooks[0].Scope.Kind != hooks.ScopeSkill {
			t.Fatalf("run %d after activation: %s %+v", i, res.Decision, res.Hooks)
		}
	}
	// Not inside a subagent: the skill was invoked by the main agent
	// (Claude Code 2.1.332 measured); invoked in the subagent, it runs
	// there.
	if res := claudeRun(t, e, "PreToolUse", inAgent(bashInput, "explorer", "x")); res.Decision != hooks.DecisionNone {
		t.Fatalf("in a subagent, the main agent's skill: %s", res.Decision)
	}
	e.ActivateSkillIn("shell-guard", "x")
	if res := claudeRun(t, e, "PreToolUse", inAgent(bashInput, "explorer", "x")); res.Decision != hooks.DecisionDeny {
		t.Fatalf("in the subagent that invoked the skill: %s", res.Decision)
	}
	if l := scopedInfo(t, e); !l[0].Scope.Active {
		t.Fatalf("activated skill not active in the list")
	}
	if got := e.ActiveSkills(); !slices.Equal(got, []string{"shell-guard"}) {
		t.Fatalf("ActiveSkills %v", got)
	}
	// A reload keeps the activation.
	e.Load()
	if res := claudeRun(t, e, "PreToolUse", bashInput); res.Decision != hooks.DecisionDeny {
		t.Fatalf("after reload: %s", res.Decision)
	}
}

func TestScoped_OnceHandlersRunOnce(t *testing.T) {
	hy := "  UserPromptSubmit:\n    - hooks:\n        - type: command\n          command: echo first-only\n          once: true\n        - type: command\n          command: echo every-time\n"
	root := claudeFiles(t, map[string]string{"home/skills/intro/SKILL.md": skillMD(hy)})
	e, _ := claudeEngine(t, root, nil)
	e.ActivateSkill("intro")
	first := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "a"}`)
	second := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "b"}`)
	if len(first.Hooks) != 2 || !first.Hooks[0].Scope.Once {
		t.Fatalf("first run %+v", first.Hooks)
	}
	if len(second.Hooks) != 1 || len(second.Skipped) != 1 || second.Skipped[0].Reason != hooks.SkipOnce {
		t.Fatalf("second run ran %v skipped %+v", ran(second), second.Skipped)
	}
	l := scopedInfo(t, e)
	if !l[0].Scope.Once || !l[0].Scope.Spent || l[0].Scope.Active || l[1].Scope.Spent || !l[1].Scope.Active {
		t.Fatalf("list after the once handler ran: %+v %+v", l[0].Scope, l[1].Scope)
	}
}

func TestScoped_OnceInSettingsAndAgentsDoesNotStopLaterRuns(t *testing.T) {
	hy := "  PreToolUse:\n    - hooks:\n        - type: command\n          command: exit 0\n          once: true\n"
	root := claudeFiles(t, map[string]string{"home/agents/a.md": agentMD("a", hy)})
	e, _ := claudeEngine(t, root, nil)
	for i := range 2 {
		if res := claudeRun(t, e, "PreToolUse", inAgent(bashInput, "a", "1")); len(res.Hooks) != 1 {
			t.Fatalf("run %d: %v", i, ran(res))
		}
	}
}

func TestScoped_Environment(t *testing.T) {
	show := "  UserPromptSubmit:\n    - hooks:\n        - type: command\n          command: 'echo \"root=$CLAUDE_PLUGIN_ROOT project=$CLAUDE_PROJECT_DIR\"'\n"
	args := "  SessionStart:\n    - hooks:\n        - type: command\n          command: echo\n          args: [\"arg=${CLAUDE_PLUGIN_ROOT}\"]\n"
	root := claudeFiles(t, map[string]string{
		"home/skills/show/SKILL.md":                 skillMD(show + args),
		"plugin/.claude-plugin/plugin.json":         `{"name": "kit"}`,
		"plugin/skills/tool/SKILL.md":               skillMD(show),
		"home/agents/shower.md":                     agentMD("shower", show),
		"project/.claude/skills/.keep/unrelated.md": "x",
	})
	e, _ := claudeEngine(t, root, func(o *hooks.Options) {
		o.Discover.Plugins = []hooks.PluginConfig{{Root: filepath.Join(root, "plugin"), Marketplace: "m"}}
	})
	project := filepath.Join(root, "project")
	if res := claudeRun(t, e, "UserPromptSubmit", inAgent(`{"prompt": "p"}`, "shower", "s1")); contexts(res) != "root= project="+project {
		t.Fatalf("agent hook context %q", contexts(res))
	}
	e.ActivateSkill("show")
	want := "root=" + filepath.Join(root, "home", "skills", "show") + " project=" + project
	if res := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "p"}`); contexts(res) != want {
		t.Fatalf("skill hook context %q, want %q", contexts(res), want)
	}
	if res := claudeRun(t, e, "SessionStart", `{"source": "startup"}`); contexts(res) != "arg="+filepath.Join(root, "home", "skills", "show") {
		t.Fatalf("exec form context %q", contexts(res))
	}
	// A plugin skill is named <plugin>:<skill> and its root is the plugin's.
	e2, _ := claudeEngine(t, root, func(o *hooks.Options) {
		o.Discover.Plugins = []hooks.PluginConfig{{Root: filepath.Join(root, "plugin"), Marketplace: "m"}}
	})
	if keys := e2.ActivateSkill("kit:tool"); len(keys) != 1 {
		t.Fatalf("plugin skill keys %v", keys)
	}
	if res := claudeRun(t, e2, "UserPromptSubmit", `{"prompt": "p"}`); contexts(res) != "root="+filepath.Join(root, "plugin")+" project="+project {
		t.Fatalf("plugin skill context %q", contexts(res))
	}
}

func TestScoped_PlaceholderFailuresDoNotBlock(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/skills/data/SKILL.md": skillMD(bashHook(`'echo ${CLAUDE_PLUGIN_DATA}; exit 2'`)),
		"home/agents/rooted.md":     agentMD("rooted", bashHook(`'${CLAUDE_PLUGIN_ROOT}/guard.sh; exit 2'`)),
	})
	e, _ := claudeEngine(t, root, nil)
	e.ActivateSkill("data")
	res := claudeRun(t, e, "PreToolUse", bashInput)
	wantSkill := "Hook command references ${CLAUDE_PLUGIN_DATA} but only ${CLAUDE_PLUGIN_ROOT} is available for skill hooks (${CLAUDE_PLUGIN_DATA} is plugin-only). Command: echo ${CLAUDE_PLUGIN_DATA}; exit 2"
	if res.Decision == hooks.DecisionDeny || len(res.Hooks) != 1 || res.Hooks[0].Status != hooks.StatusFailed || res.Hooks[0].Error == nil || !strings.Contains(*res.Hooks[0].Error, wantSkill) {
		t.Fatalf("skill: decision %s hooks %+v", res.Decision, res.Hooks)
	}
	res = claudeRun(t, e, "PreToolUse", inAgent(bashInput, "rooted", "r"))
	wantAgent := "Hook command references ${CLAUDE_PLUGIN_ROOT} but the hook is not associated with a plugin. This variable is only available in hooks defined in a plugin's hooks/hooks.json file, not in settings.json. Command: ${CLAUDE_PLUGIN_ROOT}/guard.sh; exit 2"
	var agentRun *hooks.HookRun
	for i := range res.Hooks {
		if res.Hooks[i].Scope != nil && res.Hooks[i].Scope.Kind == hooks.ScopeAgent {
			agentRun = &res.Hooks[i]
		}
	}
	if res.Decision == hooks.DecisionDeny || agentRun == nil || agentRun.Error == nil || !strings.Contains(*agentRun.Error, wantAgent) {
		t.Fatalf("agent: decision %s hooks %+v", res.Decision, res.Hooks)
	}
}

func TestScoped_PluginAgentHooksAreIgnoredWithAWarning(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"plugin/.claude-plugin/plugin.json": `{"name": "kit"}`,
		"plugin/agents/helper.md":           agentMD("helper", bashHook("exit 2")),
	})
	e, _ := claudeEngine(t, root, func(o *hooks.Options) {
		o.Discover.Plugins = []hooks.PluginConfig{{Root: filepath.Join(root, "plugin"), Marketplace: "m"}}
	})
	if l := scopedInfo(t, e); len(l) != 0 {
		t.Fatalf("plugin agent hooks loaded: %+v", l)
	}
	_, warns := e.List("")
	want := "Plugin agent file " + filepath.Join(root, "plugin", "agents", "helper.md") + " sets hooks, which is ignored for plugin agents. Use .claude/agents/ for this level of control."
	if !slices.ContainsFunc(warns, func(w hooks.Warning) bool {
		return strings.HasPrefix(w.Message, want) && strings.Contains(w.Message, "(line 6, column 3)")
	}) {
		t.Fatalf("warnings %+v", warns)
	}
}

func TestScoped_WarningsNameTheLineInTheMarkdownFile(t *testing.T) {
	bad := "---\nname: bad\ndescription: x\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: exit 0\n          timeout: soon\n---\n"
	broken := "---\nname: [unclosed\nhooks:\n  Stop: []\n---\n"
	root := claudeFiles(t, map[string]string{"home/agents/bad.md": bad, "home/agents/broken.md": broken})
	e, _ := claudeEngine(t, root, nil)
	_, warns := e.List("")
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, filepath.Join(root, "home", "agents", "bad.md")) || !strings.Contains(all, "timeout") || !strings.Contains(all, "(line 10, column 20)") {
		t.Fatalf("no positioned warning for the bad timeout:\n%s", all)
	}
	if !strings.Contains(all, "ignoring the frontmatter of "+filepath.Join(root, "home", "agents", "broken.md")) || !strings.Contains(all, "(line 3, column 1)") {
		t.Fatalf("no positioned warning for the broken YAML:\n%s", all)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func compact(s string) string { return strings.NewReplacer(" ", "", "\n", "").Replace(s) }

func contexts(res *hooks.Result) string {
	var out []string
	for _, c := range res.AdditionalContext {
		out = append(out, strings.TrimSpace(c.Text))
	}
	return strings.Join(out, "|")
}

func TestScoped_ExplainSaysWhyAScopedHookDoesNotRun(t *testing.T) {
	once := "  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: exit 0\n          once: true\n"
	root := claudeFiles(t, map[string]string{
		"home/agents/reviewer.md":    agentMD("reviewer", bashHook("exit 0")),
		"home/skills/guard/SKILL.md": skillMD(once),
	})
	e, _ := claudeEngine(t, root, nil)
	why := func(input string) map[string]hooks.Explanation {
		t.Helper()
		xs, err := e.Explain("PreToolUse", []byte(input))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]hooks.Explanation{}
		for _, x := range xs {
			out[x.Scope.Kind] = x
		}
		return out
	}
	x := why(bashInput)
	if x["agent"].Runs || x["agent"].Reason != hooks.ExplainScope || !strings.Contains(x["agent"].Detail, "this event is in the main agent") {
		t.Fatalf("agent hook in the main agent: %+v", x["agent"])
	}
	if x["skill"].Runs || x["skill"].Reason != hooks.ExplainScope || !strings.Contains(x["skill"].Detail, "--activate-skill guard") {
		t.Fatalf("skill hook before activation: %+v", x["skill"])
	}
	// Explain records nothing: an agent_id-only event later is not placed.
	if x := why(inAgent(bashInput, "reviewer", "r9")); !x["agent"].Runs {
		t.Fatalf("agent hook inside the reviewer: %+v", x["agent"])
	}
	if x := why(strings.TrimSuffix(bashInput, "}") + `, "agent_id": "r9"}`); x["agent"].Runs {
		t.Fatalf("Explain recorded subagent r9")
	}
	e.ActivateSkill("guard")
	if x := why(bashInput); !x["skill"].Runs {
		t.Fatalf("skill hook after activation: %+v", x["skill"])
	}
	claudeRun(t, e, "PreToolUse", bashInput)
	if x := why(bashInput); x["skill"].Runs || x["skill"].Reason != hooks.SkipOnce {
		t.Fatalf("spent once-only hook: %+v", x["skill"])
	}
}
