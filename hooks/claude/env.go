package claude

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/envfile"
	"github.com/hookd/hookd/internal/regfile"
	"github.com/hookd/hookd/plugins"
)

// The environment of a hook, as Claude Code 2.1.328 sets it (measured;
// SEMANTICS section 6):
//
//   - every hook gets CLAUDE_PROJECT_DIR and CLAUDE_CODE_SESSION_ID;
//   - plugin hooks get CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA, not the
//     PLUGIN_ROOT and PLUGIN_DATA that Codex adds;
//   - SessionStart hooks get CLAUDE_ENV_FILE, a file of their own under
//     <home>/session-env/<session>/ where they write export lines. Claude
//     Code applies those to its later Bash tool calls; hookd runs no tools,
//     so the SessionStart result carries the variables every such file of
//     the session sets, in output.env, for the host to apply.

// EnvFileEvent is the event whose hooks get CLAUDE_ENV_FILE.
const EnvFileEvent = "SessionStart"

// claudeHookEnv is the profile's HookEnv.
func claudeHookEnv(e *hooks.Engine, h *hooks.Hook, env []string) []string {
	out := slices.DeleteFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, plugins.EnvRoot+"=") || strings.HasPrefix(kv, plugins.EnvData+"=")
	})
	s := e.Session()
	out = append(out, "CLAUDE_PROJECT_DIR="+e.ProjectDir(), "CLAUDE_CODE_SESSION_ID="+s.ID)
	if h.Event == EnvFileEvent {
		if dir := sessionEnvDir(s); dir != "" {
			if err := os.MkdirAll(dir, 0o700); err == nil {
				out = append(out, "CLAUDE_ENV_FILE="+filepath.Join(dir, "sessionstart-hook-"+strconv.Itoa(h.Order)+".sh"))
			}
		}
	}
	return out
}

// sessionEnvDir is where a session's env files go, or "" without a home.
func sessionEnvDir(s hooks.Session) string {
	if s.Home == "" || s.ID == "" || strings.ContainsAny(s.ID, `/\`) || s.ID == "." || s.ID == ".." {
		return ""
	}
	return filepath.Join(s.Home, "session-env", s.ID)
}

// maxEnvFileBytes bounds what is read of all of a session's env files
// together: real ones are a few export lines, and a hook can make its
// CLAUDE_ENV_FILE anything (a FIFO, a link to /dev/zero, a file of any size).
const maxEnvFileBytes = 1 << 20

// envFileOutput puts the variables the session's env files set into
// res.Output["env"] (an object, in the order the files and lines set them)
// and a warning per line or file skipped into the system messages. It is the
// SessionStart rules' ReadFiles: it runs on the run's own goroutine, never
// on the one that reads requests and never under the engine's locks, since
// reading what a hook left at a path is file I/O. Each file is opened without
// waiting (regfile): a FIFO, a device or a folder is skipped with a warning,
// and so is what passes maxEnvFileBytes.
func envFileOutput(s hooks.Session, res *hooks.Result) {
	dir := sessionEnvDir(s)
	if dir == "" {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "sessionstart-hook-*.sh"))
	slices.SortFunc(files, func(a, b string) int { return envFileNumber(a) - envFileNumber(b) })
	var vars []envfile.Var
	left := int64(maxEnvFileBytes)
	for _, f := range files {
		data, err := regfile.ReadFile(f, left)
		if errors.Is(err, regfile.ErrTooLarge) && left < maxEnvFileBytes {
			err = fmt.Errorf("the session's env files together are larger than %d MiB", maxEnvFileBytes>>20)
		}
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				res.SystemMessages = append(res.SystemMessages, hooks.Message{Hook: f, Text: "CLAUDE_ENV_FILE skipped: " + err.Error()})
			}
			continue
		}
		left -= int64(len(data))
		vs, warns, err := envfile.Parse(data, os.Environ())
		if err != nil {
			warns = []string{err.Error()}
		}
		for _, w := range warns {
			res.SystemMessages = append(res.SystemMessages, hooks.Message{Hook: f, Text: "CLAUDE_ENV_FILE " + w})
		}
		vars = append(vars, vs...)
	}
	if len(vars) == 0 {
		return
	}
	// Shell names are letters, digits and "_": safe as sjson paths. A
	// later value replaces an earlier one in place.
	obj := []byte("{}")
	for _, v := range vars {
		obj, _ = sjson.SetBytes(obj, v.Name, v.Value)
	}
	if res.Output == nil {
		res.Output = map[string]json.RawMessage{}
	}
	res.Output["env"] = json.RawMessage(obj)
}

func envFileNumber(path string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "sessionstart-hook-"), ".sh"))
	return n
}
