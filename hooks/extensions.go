package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/internal/lazyre"
)

// ExtensionRoots lists the extension (plugin) folders of hosts whose
// extensions are plain folders (Gemini CLI, Qwen Code): first those the host
// names (config.plugins, --plugin) and has not disabled, then each child of
// <home>/extensions and of opts.PluginDirs for which found returns a folder
// ("" skips the child). found lets a host follow its own install records, a
// linked extension say.
func ExtensionRoots(opts DiscoverOptions, home string, found func(child string) string) []string {
	var roots []string
	for _, pl := range opts.Plugins {
		if pl.Enabled == nil || *pl.Enabled {
			roots = append(roots, pl.Root)
		}
	}
	dirs := opts.PluginDirs
	if home != "" {
		dirs = append([]string{filepath.Join(home, "extensions")}, dirs...)
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if root := found(filepath.Join(dir, e.Name())); root != "" {
				roots = append(roots, root)
			}
		}
	}
	return roots
}

// ExtensionRule is one of Gemini CLI's and Qwen Code's extension enablement
// rules (<user folder>/extensions/extension-enablement.json: {"<name>":
// {"overrides": ["!/home/u/*", "/home/u/app/*"]}}): a folder, "!" in front
// to disable, "*" at the end for every folder below it too.
type ExtensionRule string

// Matches reports whether the rule is about a session in dir (absolute).
// The folder takes a trailing "/", and the rule reads as the hosts read it:
// "*" stands for anything, "/*" for the folder itself or anything below.
func (r ExtensionRule) Matches(dir string) bool {
	base := strings.TrimPrefix(string(r), "!")
	re, ok := ruleCache.Load(base)
	if !ok {
		var b strings.Builder
		for _, c := range base {
			if strings.ContainsRune(`.+?^${}()|[]\`, c) {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
		}
		compiled, err := regexp.Compile("^" + ruleStar.ReplaceAllString(b.String(), "(${1}.*)?") + "$")
		if err != nil {
			return false
		}
		re, _ = ruleCache.LoadOrStore(base, compiled)
	}
	d := filepath.ToSlash(dir)
	if !strings.HasPrefix(d, "/") {
		d = "/" + d
	}
	if !strings.HasSuffix(d, "/") {
		d += "/"
	}
	return re.(*regexp.Regexp).MatchString(d)
}

// Disables reports whether the rule turns the extension off.
func (r ExtensionRule) Disables() bool { return strings.HasPrefix(string(r), "!") }

var (
	ruleStar  = lazyre.New(`(/?)\*`)
	ruleCache sync.Map
)

// ExtensionEnabled applies rules in order to a session in any of dirs: the
// last rule that matches one of them decides; none: enabled. rule is the
// one that decided ("" when none did).
func ExtensionEnabled(rules []ExtensionRule, dirs ...string) (enabled bool, rule ExtensionRule) {
	enabled = true
	for _, r := range rules {
		for _, d := range dirs {
			if r.Matches(d) {
				enabled, rule = !r.Disables(), r
				break
			}
		}
	}
	return enabled, rule
}

// ExtensionRules reads an extension-enablement.json: each extension's
// rules, by name. A missing or unreadable file has none (the hosts then
// enable every extension).
func ExtensionRules(path string) map[string][]ExtensionRule {
	data, err := ReadConfigFile(path)
	if err != nil {
		return nil
	}
	var f map[string]struct {
		Overrides []ExtensionRule `json:"overrides"`
	}
	if json.Unmarshal(data, &f) != nil {
		return nil
	}
	out := make(map[string][]ExtensionRule, len(f))
	for name, e := range f {
		out[name] = e.Overrides
	}
	return out
}

// ExtensionSwitch is what decides whether an installed extension of Gemini
// CLI or Qwen Code loads in a session: the enablement rules of the user
// folder, matched against the session's folder (as given and resolved).
type ExtensionSwitch struct {
	// File is the enablement file; Rules its rules by extension name.
	File  string
	Rules map[string][]ExtensionRule
	// Dirs are the session folder as given and with symlinks resolved.
	Dirs []string
	host string
}

// NewExtensionSwitch reads home's extensions/extension-enablement.json for
// a session in opts.Cwd (no folder: no rule applies); host is the command
// that enables an extension again ("gemini", "qwen").
func NewExtensionSwitch(home string, opts DiscoverOptions, host string) *ExtensionSwitch {
	s := &ExtensionSwitch{host: host}
	if home == "" {
		return s
	}
	s.File = filepath.Join(home, "extensions", "extension-enablement.json")
	s.Rules = ExtensionRules(s.File)
	if cwd := opts.Cwd; cwd != "" {
		cwd = AbsClean(cwd)
		s.Dirs = []string{cwd}
		if real, err := filepath.EvalSymlinks(cwd); err == nil && real != cwd {
			s.Dirs = append(s.Dirs, real)
		}
	}
	return s
}

// Disabled says, for the extension name at root, whether rules switch it
// off for the session, as the source left out (the user's own choice), with
// the host's command that enables it in this folder.
func (s *ExtensionSwitch) Disabled(name, root string, rules []ExtensionRule) (LeftOut, bool) {
	if len(rules) == 0 || len(s.Dirs) == 0 {
		return LeftOut{}, false
	}
	on, rule := ExtensionEnabled(rules, s.Dirs...)
	if on {
		return LeftOut{}, false
	}
	return s.Off(name, root, s.File, fmt.Sprintf("rule %q applies to %s", string(rule), s.Dirs[0])), true
}

// Off is the source left out for extension name at root, disabled in file
// for the reason why.
func (s *ExtensionSwitch) Off(name, root, file, why string) LeftOut {
	return LeftOut{Path: root, Plugin: name, Reason: ReasonPluginDisabled, UserChoice: true,
		Message: fmt.Sprintf("extension %s is disabled in %s (%s): none of its hooks load", name, file, why),
		Fix:     fmt.Sprintf("cd %s && %s extensions enable --scope workspace %s", shellWord(s.Dirs[0]), s.host, shellWord(name))}
}
