package cli

// The tests run every host profile, as the hookd binary does (hosts.go at
// the repository's root); the command line itself links none.
import (
	_ "github.com/hookd/hookd/hooks/claude"
	_ "github.com/hookd/hookd/hooks/cline"
	_ "github.com/hookd/hookd/hooks/codex"
	_ "github.com/hookd/hookd/hooks/copilot"
	_ "github.com/hookd/hookd/hooks/droid"
	_ "github.com/hookd/hookd/hooks/gemini"
	_ "github.com/hookd/hookd/hooks/letta"
	_ "github.com/hookd/hookd/hooks/mind"
	_ "github.com/hookd/hookd/hooks/mirri"
	_ "github.com/hookd/hookd/hooks/qwen"
	_ "github.com/hookd/hookd/hooks/soong"
)
