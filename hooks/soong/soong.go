package soong

import (
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/spill"
)

// Profile is the Soong agent's hook rules (spec 002; SEMANTICS.md section 3):
// one user hooks.json under $SOONG_AGENT_HOME (default ~/.soong-agent), turned
// on by [hooks] enabled in the config.toml beside it, and never a project
// file; exact tool, tag and path-prefix matchers; command handlers only, run
// one after another in configuration order in the project folder with an
// environment allowlist; output {decision, reason, metadata, logs}, where only
// PreToolUse and Stop may deny and every other event observes. Large
// PostToolUse tool results reach hooks as a summary and an artifact_ref file.
//
// The discovery is in config.go, the matcher in match.go, the events in
// events.go.
var Profile = &hooks.Profile{
	Name:    "soong",
	HomeEnv: "SOONG_AGENT_HOME",
	HomeDir: ".soong-agent",
	// No ProjectDir: "不存在项目级 hooks".
	Events:       soongEvents,
	Trust:        false,
	Serial:       true,
	NoEnablement: true,
	StopAtDeny:   true,
	ProjectCwd:   true,
	KillGrace:    time.Second,
	HandlerTypes: []string{hooks.TypeCommand},
	Discover:     discoverSoong,
	PrepareInput: soongPrepareInput,
	EnvFilter:    func(env []string) []string { return hooks.AllowEnv(env, EnvAllowlist) },
}

func init() { hooks.Register(Profile) }

// EnvAllowlist is the environment hooks get under the soong profile when
// the host gives no allowlist of its own: what a shell and common tools need
// to start and find the user's programs and locale, plus SOONG_AGENT_HOME so a
// hook can find its own folder. The Windows names are needed to start a
// process there at all. Anything else (tokens, cloud credentials) stays out.
var EnvAllowlist = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
	"SOONG_AGENT_HOME",
	"SYSTEMROOT", "COMSPEC", "PATHEXT", "WINDIR", "TEMP", "TMP", "USERPROFILE",
}

// A PostToolUse tool_response above soongArtifactTokens (estimated as spill
// does, ceil(bytes/4)) is written to a file and replaced, in the hook input,
// by a preview of at most soongSummaryTokens and the file's path: the document
// says a large tool result is "artifact化" and the hook gets only summary +
// artifact_ref. The threshold is hookd's context limit, so the same amount of
// text counts as large everywhere.
const (
	soongArtifactTokens = spill.DefaultLimit
	soongSummaryTokens  = 500
)

// soongArtifact replaces a large tool_response in the hook input.
type soongArtifact struct {
	Summary     string `json:"summary"`
	ArtifactRef string `json:"artifact_ref"`
	Bytes       int    `json:"bytes"`
}

// soongPrepareInput is the soong PrepareInput: a PostToolUse tool_response
// above the limit is written whole to a spill file of the session (a string
// as its text, anything else as its JSON) and replaced by a soongArtifact. If
// the file cannot be written the response stays whole: the hook then reads
// more than it should, but nothing is lost.
func soongPrepareInput(ev *hooks.EventRules, input []byte, s hooks.Session) []byte {
	if ev.Name != "PostToolUse" {
		return input
	}
	r := gjson.GetBytes(input, "tool_response")
	if !r.Exists() {
		return input
	}
	text := r.Raw
	if r.Type == gjson.String {
		text = r.Str
	}
	size := int64(len(text))
	if !spill.Over(size, soongArtifactTokens) {
		return input
	}
	summary, err := spill.Preview(strings.NewReader(text), size, soongSummaryTokens, "")
	if err != nil {
		return input
	}
	path, err := spill.Save(s.ID, text)
	if err != nil {
		return input
	}
	art, err := json.Marshal(soongArtifact{Summary: summary, ArtifactRef: path, Bytes: len(text)})
	if err != nil {
		return input
	}
	out, err := sjson.SetRawBytes(input, "tool_response", art)
	if err != nil {
		return input
	}
	return out
}
