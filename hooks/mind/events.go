package mind

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/codex"
)

// Mind's events are Codex's (spec 000 gives Codex's precise rules: the same
// inputs, output fields, "fails the handler" cases, exit codes and
// combining), with two differences:
//
//   - PostToolUse runs only after the tool succeeded. A host that calls it
//     for a failed, errored or cancelled tool says so with "tool_status" in
//     the input; no hook runs and each matched one is skipped with
//     SkipToolNotSucceeded. The field never reaches the hooks.
//   - additionalContextLimit is accepted on Stop and SubagentStop, where it
//     limits the handler's continuation prompt fragment before spilling.
//   - PostToolUse continue:false marks the turn stopped as well as replacing
//     the tool result (spec 000); Codex 0.169 lets the turn go on.

// SkipToolNotSucceeded is the skip reason of PostToolUse hooks when the
// tool did not succeed (Mind).
const SkipToolNotSucceeded = "toolNotSucceeded"

// mindToolStatusField is the PostToolUse input field that says how the tool
// ended: "succeeded" (also when absent), "failed", "error" or "cancelled".
const mindToolStatusField = "tool_status"

func mindEvents() []*hooks.EventRules {
	evs := make([]*hooks.EventRules, len(codex.Profile.Events))
	for i, ev := range codex.Profile.Events {
		c := *ev
		switch c.Name {
		case "PostToolUse":
			c.Precondition = mindToolSucceeded
			c.Parse, c.Combine = codex.StoppingPostToolUse()
		case "Stop", "SubagentStop":
			c.ContextLimit = true
		}
		evs[i] = &c
	}
	return evs
}

// mindToolSucceeded is the PostToolUse Precondition.
func mindToolSucceeded(input []byte) (string, error) {
	v := gjson.GetBytes(input, mindToolStatusField)
	if !v.Exists() || v.Type == gjson.Null {
		return "", nil
	}
	if v.Type == gjson.String {
		switch v.Str {
		case "succeeded":
			return "", nil
		case "failed", "error", "cancelled":
			return SkipToolNotSucceeded, nil
		}
	}
	return "", fmt.Errorf("%s must be \"succeeded\", \"failed\", \"error\" or \"cancelled\", not %s", mindToolStatusField, v.Raw)
}

// mindPrepareInput fills the transcript paths the host left out and drops
// the host-only tool_status.
func mindPrepareInput(ev *hooks.EventRules, input []byte, s hooks.Session) []byte {
	if v := gjson.GetBytes(input, "transcript_path"); v.Type == gjson.Null {
		if path := TranscriptPath(s.Home, s.ID); path != "" {
			input = mindPatch(input, func(b []byte) ([]byte, error) { return sjson.SetBytes(b, "transcript_path", path) })
		}
	}
	if ev.Name == "SubagentStop" {
		if v := gjson.GetBytes(input, "agent_transcript_path"); !v.Exists() || v.Type == gjson.Null {
			if path := TranscriptPath(s.Home, gjson.GetBytes(input, "agent_id").Str); path != "" {
				input = mindPatch(input, func(b []byte) ([]byte, error) { return sjson.SetBytes(b, "agent_transcript_path", path) })
			}
		}
	}
	if ev.Name == "PostToolUse" && gjson.GetBytes(input, mindToolStatusField).Exists() {
		input = mindPatch(input, func(b []byte) ([]byte, error) { return sjson.DeleteBytes(b, mindToolStatusField) })
	}
	return input
}

// mindPatch applies one sjson edit, keeping the input as it was if the edit
// fails: a hook must never get a broken or empty stdin.
func mindPatch(input []byte, edit func([]byte) ([]byte, error)) []byte {
	out, err := edit(input)
	if err != nil {
		return input
	}
	return out
}

// TranscriptPath is where Mind writes the transcript of the session (or
// subagent) id: <home>/sessions/YYYY/MM/DD/session-<id>.jsonl, the date
// being the creation time the id carries, in UTC. It returns "" when home
// is unknown, the id carries no time (see MindIDTime) or is not a plain file
// name: hookd then cannot know the path and hooks get null.
func TranscriptPath(home, id string) string {
	if home == "" || id == "" || id == "." || id == ".." || strings.ContainsAny(id, "/\\\x00") {
		return ""
	}
	t, ok := IDTime(id)
	if !ok {
		return ""
	}
	return filepath.Join(home, "sessions", t.Format("2006"), t.Format("01"), t.Format("02"), "session-"+id+".jsonl")
}

// IDTime reads the creation time an id carries: a version 7 UUID or a
// ULID, optionally after a prefix of ASCII letters and "_" ("sid_").
func IDTime(id string) (time.Time, bool) {
	if i := strings.IndexByte(id, '_'); i > 0 && isASCIILetters(id[:i]) {
		id = id[i+1:]
	}
	if ms, ok := uuidV7Millis(id); ok {
		return time.UnixMilli(ms).UTC(), true
	}
	if ms, ok := ulidMillis(id); ok {
		return time.UnixMilli(ms).UTC(), true
	}
	return time.Time{}, false
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// uuidV7Millis returns the Unix milliseconds in the first 48 bits of a
// version 7 UUID written in the 8-4-4-4-12 form.
func uuidV7Millis(s string) (int64, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' || s[14] != '7' {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return 0, false
		}
	}
	ms, err := strconv.ParseInt(s[0:8]+s[9:13], 16, 64)
	return ms, err == nil
}

// crockford is the ULID alphabet (Crockford's base32).
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ulidMillis returns the Unix milliseconds of a ULID: its first 10
// characters, base32, case-insensitive.
func ulidMillis(s string) (int64, bool) {
	if len(s) != 26 {
		return 0, false
	}
	var ms int64
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(crockford, upperASCII(s[i]))
		if d < 0 || (i == 0 && d > 7) {
			return 0, false
		}
		if i < 10 {
			ms = ms<<5 | int64(d)
		}
	}
	return ms, true
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
