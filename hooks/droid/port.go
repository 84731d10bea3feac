package droid

import "github.com/hookd/hookd/hooks"

// The port table of the droid profile: the profile reads no plugin's hooks, so
// a plugin's tests are not expressible here and hookd port does not write
// for it.
func init() {
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile:   "droid",
		Doc:       "profile-droid.md",
		NoPlugins: "the droid profile reads no plugin's hooks, only its settings layers",
	})
}
