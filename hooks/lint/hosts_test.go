package lint_test

// The lint tests check files as each real host reads them: link the hosts so
// their profiles are registered.
import (
	_ "github.com/hookd/hookd/hooks/claude"
	_ "github.com/hookd/hookd/hooks/codex"
	_ "github.com/hookd/hookd/hooks/copilot"
	_ "github.com/hookd/hookd/hooks/mind"
	_ "github.com/hookd/hookd/hooks/mirri"
	_ "github.com/hookd/hookd/hooks/soong"
)
