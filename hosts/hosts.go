// Package hosts links every host profile hookd ships. Each host package
// registers its Profile with the engine when linked (hooks.Register), as
// database/sql drivers and image formats register themselves; --profile and
// initialize.profile pick among them. The hookd binary links this package
// (hosts.go at the repository's root), and so do the tests that serve every
// host. A Go program embedding the engine links the hosts it wants the same
// way, or passes a Profile in hooks.Options without registering any.
package hosts

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
