package soong

import "github.com/hookd/hookd/hooks"

// The port table of the soong profile: it loads no plugin's hooks, so a
// plugin's tests are not expressible here and hookd port does not write
// for it.
func init() {
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile:   "soong",
		Doc:       "profile-soong.md",
		NoPlugins: "the soong profile reads hooks only from ~/.soong-agent/hooks.json",
	})
}
