package qwen

import (
	"fmt"
	"path/filepath"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

// Qwen Code (0.24) keeps whether each installed extension is active in its
// extension store, <home>/extension-store/state.json:
//
//	{"version": 2, "extensions": {"<id>": {"name": "x", "defaultActivation": "enabled",
//	  "workspaceOverrides": {"/real/path": "disabled"}, "legacyPathRules": ["!/home/u/*"]}}}
//
// For a session in a folder: the folder's own override (by its resolved
// path) decides when it says enabled or disabled; otherwise the last of the
// path rules that matches, else the default. Before the store exists, the
// rules of extensions/extension-enablement.json (Gemini CLI's form) are the
// path rules, over an enabled default; Qwen Code imports them so.

type storeState struct {
	Extensions map[string]storePolicy `json:"extensions"`
}

type storePolicy struct {
	Name               string                `json:"name"`
	DefaultActivation  string                `json:"defaultActivation"`
	WorkspaceOverrides map[string]string     `json:"workspaceOverrides"`
	LegacyPathRules    []hooks.ExtensionRule `json:"legacyPathRules"`
}

// activation reads the store once per discovery.
type activation struct {
	sw    *hooks.ExtensionSwitch
	state string
	store *storeState
}

func newActivation(home string, opts hooks.DiscoverOptions) *activation {
	a := &activation{sw: hooks.NewExtensionSwitch(home, opts, "qwen")}
	if home == "" {
		return a
	}
	a.state = filepath.Join(home, "extension-store", "state.json")
	if data, err := hooks.ReadConfigFile(a.state); err == nil {
		var st storeState
		if json.Unmarshal(data, &st) == nil {
			a.store = &st
		}
	}
	return a
}

// disabled is the source left out when extension name is not active for
// the session.
func (a *activation) disabled(name, root string) (hooks.LeftOut, bool) {
	if a.store == nil {
		return a.sw.Disabled(name, root, a.sw.Rules[name])
	}
	if len(a.sw.Dirs) == 0 {
		return hooks.LeftOut{}, false
	}
	for _, pol := range a.store.Extensions {
		if pol.Name != name {
			continue
		}
		real := a.sw.Dirs[len(a.sw.Dirs)-1]
		switch w := pol.WorkspaceOverrides[real]; w {
		case "enabled":
			return hooks.LeftOut{}, false
		case "disabled":
			return a.sw.Off(name, root, a.state, fmt.Sprintf("disabled for the workspace %s", real)), true
		case "inherit":
			if pol.DefaultActivation == "disabled" {
				return a.sw.Off(name, root, a.state, "disabled by default"), true
			}
			return hooks.LeftOut{}, false
		}
		on, rule := hooks.ExtensionEnabled(pol.LegacyPathRules, a.sw.Dirs...)
		if rule == "" {
			if pol.DefaultActivation == "disabled" {
				return a.sw.Off(name, root, a.state, "disabled by default"), true
			}
			return hooks.LeftOut{}, false
		}
		if !on {
			return a.sw.Off(name, root, a.state, fmt.Sprintf("rule %q applies to %s", string(rule), a.sw.Dirs[0])), true
		}
		return hooks.LeftOut{}, false
	}
	return hooks.LeftOut{}, false
}
