package mirri

import "github.com/hookd/hookd/hooks"

// The port table of the mirri profile: it loads no plugin's hooks, so a
// plugin's tests are not expressible here and hookd port does not write
// for it.
func init() {
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile:   "mirri",
		Doc:       "profile-mirri.md",
		NoPlugins: "the mirri profile has no plugin hooks: every hook is a [[hooks]] rule of config.toml",
	})
}
