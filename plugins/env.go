package plugins

import "strings"

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
