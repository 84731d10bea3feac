package cli

// The commands hookd test adds to the testscript language: hookd itself,
// event (write an event input) and the assertions over the last hookd run's
// result. Assertions read the last command's stdout and never write their
// own, so several can follow one hookd run.

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/suggest"
)

func scriptCmds(self string) map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"hookd": func(ts *testscript.TestScript, neg bool, args []string) {
			args = hostArgs(ts, args)
			err := ts.Exec(self, args...)
			switch {
			case err != nil && !neg:
				ts.Logf("[%v]", err)
				ts.Fatalf("unexpected hookd failure")
			case err != nil:
				ts.Logf("[%v]", err)
			case neg:
				ts.Fatalf("unexpected hookd success")
			}
		},
		"event":  cmdEvent,
		"status": cmdStatus,
		"result": cmdResult,
	}
	for name, s := range resultSubjects {
		cmds[name] = func(ts *testscript.TestScript, neg bool, args []string) { s.check(ts, name, neg, args) }
	}
	return cmds
}

// ---------------------------------------------------------------- event

// eventArgs names the positional arguments of each event, in order, and
// the defaults a host would always send.
var eventArgs = map[string]struct {
	args     []string
	defaults map[string]string
}{
	"PreToolUse":        {args: []string{"tool_name", "tool_input"}, defaults: map[string]string{"tool_use_id": `"call_1"`}},
	"PermissionRequest": {args: []string{"tool_name", "tool_input"}},
	"PostToolUse":       {args: []string{"tool_name", "tool_input", "tool_response"}, defaults: map[string]string{"tool_use_id": `"call_1"`}},
	"UserPromptSubmit":  {args: []string{"prompt"}},
	"SessionStart":      {args: []string{"source"}, defaults: map[string]string{"source": `"startup"`}},
	"SessionEnd":        {args: []string{"reason"}, defaults: map[string]string{"reason": `"other"`}},
	"PreCompact":        {args: []string{"trigger"}, defaults: map[string]string{"trigger": `"manual"`}},
	"PostCompact":       {args: []string{"trigger"}, defaults: map[string]string{"trigger": `"manual"`}},
	"SubagentStart":     {args: []string{"agent_type"}},
	"SubagentStop":      {args: []string{"agent_type", "last_assistant_message"}},
	"Stop":              {args: []string{"last_assistant_message"}},
}

const eventUsage = "usage: event [-o FILE] [-agent TYPE[:ID]] [-set PATH=VALUE]... EVENT [ARGS...]"

// cmdEvent writes the event's own input fields as JSON, ready for
// hookd run EVENT --input FILE. Positional arguments fill the event's main
// fields (tool name and input, prompt, source...); -set sets any field by
// gjson path, its value read as JSON when it parses and as a string otherwise.
func cmdEvent(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("event does not take !")
	}
	fs := flag.NewFlagSet("event", flag.ContinueOnError)
	var usage bytes.Buffer
	fs.SetOutput(&usage)
	out := fs.String("o", "event.json", "file to write")
	agent := fs.String("agent", "", "run the event inside a subagent: `TYPE[:ID]` sets agent_type and agent_id (ID defaults to TYPE-1)")
	var sets []string
	fs.Func("set", "PATH=VALUE", func(s string) error { sets = append(sets, s); return nil })
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		ts.Fatalf("%s\n%s", eventUsage, strings.TrimSpace(usage.String()))
	}
	if len(pos) == 0 {
		ts.Fatalf("%s", eventUsage)
	}
	if *agent != "" {
		sets = append(agentSets(*agent), sets...)
	}
	data, err := eventInput(pos[0], pos[1:], sets)
	if err != nil {
		ts.Fatalf("event: %v", err)
	}
	data = hostInput(ts, pos[0], data)
	ts.Logf("%s: %s", *out, data)
	ts.Check(os.WriteFile(ts.MkAbs(*out), append(data, '\n'), 0o644))
}

// eventInput builds the input JSON of one event.
func eventInput(event string, args, sets []string) ([]byte, error) {
	if !knownEvent(event) {
		return nil, fmt.Errorf("unknown event %q%s (known: %s)", event, suggest.DidYouMean(event, allEvents()), strings.Join(allEvents(), ", "))
	}
	shape := eventArgs[event]
	if len(args) > len(shape.args) {
		return nil, fmt.Errorf("%s takes at most %d arguments (%s); set other fields with -set PATH=VALUE", event, len(shape.args), strings.Join(shape.args, ", "))
	}
	doc := []byte("{}")
	set := func(path string, raw []byte) (err error) {
		doc, err = sjson.SetRawBytes(doc, path, raw)
		return err
	}
	for i, arg := range args {
		field := shape.args[i]
		raw := jsonOrString(arg)
		if field == "tool_input" && !gjson.ParseBytes(raw).IsObject() {
			// A shell command or a patch: what Bash and apply_patch take.
			raw, _ = json.Marshal(map[string]string{"command": arg})
		}
		if field == "tool_name" || field == "prompt" || field == "last_assistant_message" {
			raw, _ = json.Marshal(arg) // always text, even when it looks like JSON
		}
		if err := set(field, raw); err != nil {
			return nil, err
		}
	}
	defaults := maps.Clone(shape.defaults)
	if defaults == nil {
		defaults = map[string]string{}
	}
	if slices.Contains(shape.args, "tool_input") {
		defaults["tool_input"] = "{}"
	}
	for _, k := range slices.Sorted(maps.Keys(defaults)) {
		if !gjson.GetBytes(doc, k).Exists() {
			if err := set(k, []byte(defaults[k])); err != nil {
				return nil, err
			}
		}
	}
	for _, s := range sets {
		path, value, ok := strings.Cut(s, "=")
		if !ok || path == "" {
			return nil, fmt.Errorf("-set %q: want PATH=VALUE", s)
		}
		if err := set(path, jsonOrString(value)); err != nil {
			return nil, fmt.Errorf("-set %q: %w", s, err)
		}
	}
	return doc, nil
}

func knownEvent(name string) bool { return slices.Contains(allEvents(), name) }

// allEvents lists the events of every profile.
func allEvents() []string {
	var names []string
	for _, p := range hooks.ProfileNames() {
		prof, _ := hooks.LookupProfile(p)
		for _, ev := range prof.EventNames() {
			if !slices.Contains(names, ev) {
				names = append(names, ev)
			}
		}
	}
	sort.Strings(names)
	return names
}

// ----------------------------------------------------------- assertions

// lastResult is the last command's stdout read as a hookd run result.
func lastResult(ts *testscript.TestScript, cmd string) gjson.Result {
	out := ts.ReadFile("stdout")
	res := gjson.Parse(out)
	if !gjson.Valid(out) || !res.IsObject() || !res.Get("decision").Exists() || !res.Get("hooks").IsArray() {
		ts.Fatalf("%s: the last command's stdout is not a hookd run result; run `hookd run EVENT ...` (or `! hookd run` when it denies) just before", cmd)
	}
	return res
}

// summary lists what each hook did, to show beside a failed assertion.
func summary(res gjson.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "result: decision %s", res.Get("decision").Str)
	for _, h := range res.Get("hooks").Array() {
		fmt.Fprintf(&b, "\n  hook %s: %s", h.Get("key").Str, h.Get("status").Str)
		if e := h.Get("error"); e.Type == gjson.String {
			fmt.Fprintf(&b, " (%s)", e.Str)
		}
	}
	for _, s := range res.Get("skipped").Array() {
		fmt.Fprintf(&b, "\n  skipped %s: %s", s.Get("key").Str, s.Get("reason").Str)
	}
	return b.String()
}

// A resultSubject is a field of the result an assertion command checks.
type resultSubject struct {
	path string
	// many: the path yields a list; the assertion holds when any item does.
	many bool
	// json: compare as JSON values ("is" ignores key order and spacing).
	json bool
}

var resultSubjects = map[string]resultSubject{
	"decision":       {path: "decision"},
	"reason":         {path: "reason"},
	"feedback":       {path: "feedback"},
	"continuation":   {path: "continuation"},
	"stop-reason":    {path: "stopReason"},
	"permission":     {path: "permission.behavior"},
	"context":        {path: "additionalContext.#.text", many: true},
	"system-message": {path: "systemMessages.#.text", many: true},
	"updated-input":  {path: "updatedInput", json: true},
	// `scope [is|contains|matches] NAME` checks the agent and skill names
	// of the scoped hooks that ran (docs/scoped-hooks.md).
	"scope": {path: "hooks.#.scope.name", many: true},
}

// operator reads "[is|contains|matches] VALUE".
func operator(ts *testscript.TestScript, cmd string, args []string) (op, want string) {
	switch {
	case len(args) == 1:
		return "is", args[0]
	case len(args) == 2 && (args[0] == "is" || args[0] == "contains" || args[0] == "matches"):
		return args[0], args[1]
	}
	ts.Fatalf("usage: %s [is|contains|matches] VALUE (quote a VALUE with spaces)", cmd)
	return "", ""
}

func (s resultSubject) check(ts *testscript.TestScript, cmd string, neg bool, args []string) {
	op, want := operator(ts, cmd, args)
	res := lastResult(ts, cmd)
	var got []string
	v := res.Get(s.path)
	switch {
	case s.many:
		for _, item := range v.Array() {
			got = append(got, item.String())
		}
	case s.json && v.Exists():
		got = []string{compactJSON(v.Raw)}
	default:
		got = []string{v.String()}
	}
	holds(ts, cmd, op, want, got, s.many, neg, s.json, res)
}

// cmdResult checks any field by gjson path: `result hooks.0.exitCode 2`,
// `result continue is false`; without a value, that the field exists.
func cmdResult(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: result PATH [[is|contains|matches] VALUE]")
	}
	res := lastResult(ts, "result")
	v := res.Get(args[0])
	if len(args) == 1 {
		switch {
		case v.Exists() && neg:
			ts.Fatalf("result: %s is present (%s), want it absent\n%s", args[0], v.Raw, summary(res))
		case !v.Exists() && !neg:
			ts.Fatalf("result: %s is absent\n%s", args[0], summary(res))
		}
		return
	}
	op, want := operator(ts, "result "+args[0], args[1:])
	got := v.String()
	isJSON := v.IsObject() || v.IsArray()
	if isJSON {
		got = compactJSON(v.Raw)
	}
	holds(ts, "result "+args[0], op, want, []string{got}, false, neg, isJSON, res)
}

// cmdStatus checks each hook's status, in configuration order; with no
// argument, that no hook ran.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	res := lastResult(ts, "status")
	var got []string
	for _, h := range res.Get("hooks.#.status").Array() {
		got = append(got, h.Str)
	}
	same := slices.Equal(got, args)
	switch {
	case neg && same:
		ts.Fatalf("status: got %s, want anything else\n%s", strings.Join(got, " "), summary(res))
	case !neg && !same:
		ts.Fatalf("status: hooks ran with other statuses\n%s%s", lineDiff(strings.Join(args, "\n"), strings.Join(got, "\n")), summary(res))
	}
}

// holds checks op over got (with many, any item may satisfy it) and fails
// the script with a diff when the outcome is not the expected one.
func holds(ts *testscript.TestScript, cmd, op, want string, got []string, many, neg, isJSON bool, res gjson.Result) {
	var re *regexp.Regexp
	if op == "matches" {
		var err error
		if re, err = regexp.Compile(want); err != nil {
			ts.Fatalf("%s matches: %v", cmd, err)
		}
	}
	hit := -1
	for i, g := range got {
		var ok bool
		switch op {
		case "is":
			ok = g == want || isJSON && sameJSON(g, want)
		case "contains":
			ok = strings.Contains(g, want)
		case "matches":
			ok = re.MatchString(g)
		}
		if ok {
			hit = i
			break
		}
	}
	wanted := map[string]string{"is": "%q", "contains": "something containing %q", "matches": "something matching %q"}
	wantText := fmt.Sprintf(wanted[op], want)
	switch {
	case neg && hit >= 0:
		ts.Fatalf("%s: got %q, want anything but %s\n%s", cmd, got[hit], wantText, summary(res))
	case !neg && hit < 0 && many && len(got) == 0:
		ts.Fatalf("%s: the result has no entry; want one that is %s\n%s", cmd, wantText, summary(res))
	case !neg && hit < 0 && many:
		ts.Fatalf("%s: no entry of %d is %s\n%s%s", cmd, len(got), wantText, lineDiff(want, strings.Join(got, "\n")), summary(res))
	case !neg && hit < 0:
		ts.Fatalf("%s: got %q, want %s\n%s%s", cmd, strings.Join(got, ""), wantText, lineDiff(want, strings.Join(got, "\n")), summary(res))
	}
}

// lineDiff is a unified diff of want and got, each ending in a newline.
func lineDiff(want, got string) string {
	return string(diff.Diff("want", []byte(want+"\n"), "got", []byte(got+"\n")))
}

// compactJSON drops the insignificant spaces of a JSON text.
func compactJSON(raw string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) != nil {
		return raw
	}
	return b.String()
}

// sameJSON reports whether a and b are equal JSON values.
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// parseInterspersed parses flags that may come before or after positional
// arguments ("event -o in.json PreToolUse" and "event PreToolUse -o in.json").
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
