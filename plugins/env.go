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

// Placeholder is one text a host replaces in a command with a value: the
// brace form of a plugin variable, Gemini CLI's ${workspacePath} or its
// bare $GEMINI_PROJECT_DIR. Instead is what the author can write in its
// place for the shell to read the value from the hook's environment ("" when
// there is nothing), for the refusal's hint.
type Placeholder struct {
	Text, Value, Instead string
}

// Paste is the one path by which a value is put into a command's text, for
// every profile and placeholder: each placeholder is replaced by its value
// raw, as the real hosts do, when every value it would paste is plain; a
// value holding a character a shell treats specially is refused with an
// error (CheckPaste) and the command is returned as it was. Raw pasting of
// such a value would run code: a folder named x$(touch PWNED)y, even where
// the author wrote "${CLAUDE_PLUGIN_ROOT}" in quotes. Quoting it instead
// would run what the author did not write (inside double quotes the quotes
// would be part of the path).
func Paste(command string, ph []Placeholder) (string, error) {
	if err := CheckPaste(command, ph); err != nil {
		return command, err
	}
	var pairs []string
	for _, p := range ph {
		if strings.Contains(command, p.Text) {
			pairs = append(pairs, p.Text, p.Value)
		}
	}
	if len(pairs) == 0 {
		return command, nil
	}
	return strings.NewReplacer(pairs...).Replace(command), nil
}

// CheckPaste reports, as an error, a value that Paste would put into
// command holding a character a shell treats specially. The error names
// the placeholder, its value and the character, for the caller to say which
// hook it is about.
func CheckPaste(command string, ph []Placeholder) error {
	for _, p := range ph {
		if !strings.Contains(command, p.Text) {
			continue
		}
		if i := strings.IndexFunc(p.Value, shellSpecial); i >= 0 {
			r := []rune(p.Value[i:])[0]
			hint := "rename or move the folder"
			if p.Instead != "" {
				hint += fmt.Sprintf(", or write \"%s\", which the shell reads from the environment", p.Instead)
			}
			return fmt.Errorf("its command pastes %s = %q, which holds %q, a character the shell treats specially; %s", p.Text, p.Value, r, hint)
		}
	}
	return nil
}

// Placeholders are the brace forms of the plugin variables env holds, with
// their values: what Expand and CheckExpand paste.
func Placeholders(env map[string]string) []Placeholder {
	var ph []Placeholder
	for _, f := range placeholderForms {
		if v, ok := env[f.name]; ok {
			if ph == nil {
				ph = make([]Placeholder, 0, len(placeholderForms))
			}
			ph = append(ph, Placeholder{Text: f.text, Value: v, Instead: f.instead})
		}
	}
	return ph
}

// placeholderForm is a plugin variable with its brace and bare forms.
type placeholderForm struct{ name, text, instead string }

func formOf(name string) placeholderForm {
	return placeholderForm{name: name, text: "${" + name + "}", instead: "$" + name}
}

// placeholderForms are the variables Placeholders knows, made once: every
// plugin of a load has them.
var placeholderForms = []placeholderForm{formOf(EnvRoot), formOf(EnvClaudeRoot), formOf(EnvData), formOf(EnvClaudeData)}

// Expand replaces the brace forms ${PLUGIN_ROOT}, ${CLAUDE_PLUGIN_ROOT},
// ${PLUGIN_DATA} and ${CLAUDE_PLUGIN_DATA} in a command with their values in
// env through Paste, literally and without quoting, as Codex and Claude Code
// do. $PLUGIN_ROOT without braces is left for the shell, which finds it in
// the environment. A variable env does not hold is left as written. A value
// Paste refuses is an error.
func Expand(command string, env map[string]string) (string, error) {
	if !strings.Contains(command, "${") {
		return command, nil
	}
	return Paste(command, Placeholders(env))
}

// CheckExpand is CheckPaste for the plugin variables: the hash a user
// trusted was taken before the folder was pasted in, so a value Paste would
// refuse keeps the hook from loading at all.
func CheckExpand(command string, env map[string]string) error {
	return CheckExpandWith(command, Placeholders(env))
}

// CheckExpandWith is CheckExpand with the placeholders already made
// (Placeholders), for the many hooks of one plugin.
func CheckExpandWith(command string, ph []Placeholder) error {
	if !strings.Contains(command, "${") {
		return nil
	}
	return CheckPaste(command, ph)
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
