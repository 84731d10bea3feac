// Package copilot is the profile of GitHub Copilot CLI (@github/copilot
// 1.0.102): hooks from .github/hooks/*.json in the repository, the user's
// hooks folder and plugins, each file {"version": 1, "hooks": {...}}
// (config.go); its fifteen camelCase events, with Claude Code's PascalCase
// names accepted as aliases that switch a hook to the snake_case "VS Code
// compatible" input (events.go, input.go); anchored regex matchers; command
// handlers given as bash, powershell, command or exec, with timeoutSec, cwd
// and env, plus http and prompt handlers (handler.go); handlers of one event
// run one after another in file order; and its reading of output: fail-open
// except on preToolUse, where any non-zero exit denies, and on
// permissionRequest, where exit 2 denies (output.go). It follows
// reference/other-hosts.md section 2 and docs/profile-copilot.md. It builds
// on the engine only.
package copilot
