package cline

import "github.com/hookd/hookd/hooks"

// The port table of the cline profile: the profile reads no plugin's hooks, so
// a plugin's tests are not expressible here and hookd port does not write
// for it.
func init() {
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile:   "cline",
		Doc:       "profile-cline.md",
		NoPlugins: "the cline profile reads no plugin's hooks, only its settings layers",
	})
}
