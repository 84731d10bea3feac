//go:build realhost

// Package newhosts checks hookd's gemini, qwen, copilot, droid, letta and
// cline profiles against the real CLIs: Gemini CLI, Qwen Code, GitHub
// Copilot CLI, Factory Droid, Letta Code and the Cline CLI, installed from
// the npm registry into a cache folder outside the repository
// ($REALHOST_CACHE), driven offline against a local server that scripts the
// model's turns (Gemini's generateContent API, or OpenAI chat completions).
// Each case runs hooks under the real CLI, records what each hook received
// and what reached the model, then runs `hookd run` on the input the hook
// received and compares. The port cases (port_test.go) write real Claude
// Code plugins from fixtures/plugins for Gemini CLI and Qwen Code with
// `hookd port`, install the result as the host's extension and check each
// test's outcome under the real CLI against the port's report. The test
// prints one table per profile and writes them to $REALHOST_TABLE when set.
//
// It is opt-in (the first three CLIs and Node 22 take about 600 MB; Droid,
// Letta Code and Cline 840 MB more) and follows the
// shape of the codex/claude suite in realhost/:
//
//	REALHOST_CACHE=/path/to/cache go test -tags realhost ./realhost/newhosts/ -v
//
// docs/profile-gemini.md, docs/profile-qwen.md, docs/profile-copilot.md,
// docs/profile-droid.md, docs/profile-letta.md and docs/profile-cline.md say
// what it found.
package newhosts
