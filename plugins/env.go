package plugins

import (
	"fmt"
	"runtime"
	"strings"
	"unicode"
)

// Names of the variables a plugin's command hooks get. Codex sets all four;
// Claude Code plugins read the CLAUDE_ ones, so both are always there.
const (
	EnvRoot       = "PLUGIN_ROOT"
	EnvClaudeRoot = "CLAUDE_PLUGIN_ROOT"
	EnvData       = "PLUGIN_DATA"
	EnvClaudeData = "CLAUDE_PLUGIN_DATA"
)

// Env returns the environment of a plugin's command hooks: the root and the
// data folder, each under its plain and its CLAUDE_ name.
func Env(root, dataDir string) map[string]string {
	return map[string]string{EnvRoot: root, EnvClaudeRoot: root, EnvData: dataDir, EnvClaudeData: dataDir}
}

// Expand replaces the brace forms ${PLUGIN_ROOT}, ${CLAUDE_PLUGIN_ROOT},
// ${PLUGIN_DATA} and ${CLAUDE_PLUGIN_DATA} in a command with their values in
// env, literally and without quoting, as Codex and Claude Code do. $PLUGIN_ROOT
// without braces is left for the shell, which finds it in the environment. A
// variable env does not hold is left as written.
func Expand(command string, env map[string]string) string {
	if !strings.Contains(command, "${") {
		return command
	}
	var pairs []string
	for _, name := range []string{EnvRoot, EnvClaudeRoot, EnvData, EnvClaudeData} {
		if v, ok := env[name]; ok {
			pairs = append(pairs, "${"+name+"}", v)
		}
	}
	if len(pairs) == 0 {
		return command
	}
	return strings.NewReplacer(pairs...).Replace(command)
}

// CheckExpand reports, as an error, a value that Expand would paste into
// command holding a character a shell treats specially. Expand pastes raw
// text, as the real hosts do, so a plugin folder named x$(touch PWNED)y would
// run code, even where the author wrote "${CLAUDE_PLUGIN_ROOT}" in quotes,
// and the hash a user trusted was taken before the folder was pasted in. The
// error names the variable, its value and the character, for the caller to
// say which plugin and hook it is about.
func CheckExpand(command string, env map[string]string) error {
	if !strings.Contains(command, "${") {
		return nil
	}
	for _, name := range []string{EnvRoot, EnvClaudeRoot, EnvData, EnvClaudeData} {
		v, ok := env[name]
		if !ok || !strings.Contains(command, "${"+name+"}") {
			continue
		}
		if i := strings.IndexFunc(v, shellSpecial); i >= 0 {
			r := []rune(v[i:])[0]
			return fmt.Errorf("its command pastes ${%s} = %q, which holds %q, a character the shell treats specially; rename or move the folder, or write \"$%s\", which the shell reads from the environment", name, v, r, name)
		}
	}
	return nil
}

// shellSpecial is true for a character that is not safe to paste unquoted into
// a command for sh, bash, zsh, cmd.exe or PowerShell. Letters and digits of
// any script, '/', '.', '_', '-', '+', ',', ':', '@' and space are safe: a
// space splits words where the author did not quote, which is the author's
// bug in the real hosts too, but runs nothing (and macOS's data folder,
// ~/Library/Application Support, holds one). '\\' and '~' are path
// characters on Windows only; in a POSIX shell they escape and expand.
func shellSpecial(r rune) bool {
	switch {
	case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r):
		return false
	case strings.ContainsRune("/._-+,:@ ", r):
		return false
	case runtime.GOOS == "windows" && (r == '\\' || r == '~'):
		return false
	}
	return true
}
