package droid

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/lazyre"
)

// Droid runs a command handler with sh -c in its working folder, with its
// own environment over the process's: FACTORY_PROJECT_DIR,
// DROID_PROJECT_DIR and CLAUDE_PROJECT_DIR (the working folder too: in a
// subfolder of a repository they name the subfolder, though the project's
// .factory is read from the repository's root),
// DROID_PLUGIN_ROOT and CLAUDE_PLUGIN_ROOT set to a marker path (a plugin's
// commands have ${DROID_PLUGIN_ROOT} replaced before they run), then every
// top-level input field whose name is an identifier and whose value is a
// string, a boolean or a number, under its own name: session_id,
// hook_event_name, tool_name, cwd, ... and SessionStart's CLAUDE_ENV_FILE
// (measured: the variables a hook sees under droid exec).

var handlerKinds = map[string]func(e *hooks.Engine) hooks.HandlerKind{hooks.TypeCommand: commandKind}

// pluginRootMarker is what Droid sets the plugin root variables to outside
// a plugin, so that a stray use fails loudly.
const pluginRootMarker = "/PLUGIN_ROOT_NOT_EXPANDED_ERROR"

// maxEnvString is Linux's MAX_ARG_STRLEN: the longest NAME=value string,
// its NUL included, a program may be started with.
const maxEnvString = 128 << 10

var identifier = lazyre.New(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

func commandKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		run := *h
		dir := e.Session().Cwd
		if dir == "" {
			dir = e.ProjectDir()
		}
		run.Env = inputEnv(dir, h.Env, stdin)
		return e.RunCommand(ctx, &run, stdin)
	})
}

// inputEnv is a handler's own variables: the project and plugin variables,
// the hook's own (none from Droid's settings; a session hook may carry
// some), then the input's scalar fields, which win as in Droid.
func inputEnv(project string, own map[string]string, stdin []byte) map[string]string {
	env := map[string]string{
		"FACTORY_PROJECT_DIR": project, "DROID_PROJECT_DIR": project, "CLAUDE_PROJECT_DIR": project,
		"DROID_PLUGIN_ROOT": pluginRootMarker, "CLAUDE_PLUGIN_ROOT": pluginRootMarker,
	}
	for k, v := range own {
		if !strings.HasPrefix(k, "\x00") {
			env[k] = v
		}
	}
	gjson.ParseBytes(stdin).ForEach(func(k, v gjson.Result) bool {
		if !identifier.MatchString(k.Str) {
			return true
		}
		var s string
		switch v.Type {
		case gjson.String:
			s = v.Str
		case gjson.True, gjson.False:
			s = v.Raw
		case gjson.Number:
			s = jsNumber(v)
		default:
			return true
		}
		// A NUL cannot be in an environment value, and Linux refuses to
		// start a program with one variable of 128 KiB or more; such a
		// field is left out (the hook still has it on stdin) rather than
		// failing the hook. Droid cuts long tool output well below that.
		if !strings.ContainsRune(s, 0) && len(k.Str)+len(s)+2 <= maxEnvString {
			env[k.Str] = s
		}
		return true
	})
	return env
}

// jsNumber is JavaScript's String(n): plain decimals from 1e-6 up to
// 1e21, exponent form (1e+21, 1e-7) outside.
func jsNumber(v gjson.Result) string {
	a := math.Abs(v.Num)
	if a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.FormatFloat(v.Num, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v.Num, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + digits
}
