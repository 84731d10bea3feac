package letta

import "github.com/hookd/hookd/hooks"

// The port table of the letta profile: the profile reads no plugin's hooks, so
// a plugin's tests are not expressible here and hookd port does not write
// for it.
func init() {
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile:   "letta",
		Doc:       "profile-letta.md",
		NoPlugins: "the letta profile reads no plugin's hooks, only its settings layers",
	})
}
