package mind

import "github.com/hookd/hookd/hooks"

// The port table of the mind profile: it loads no plugin's hooks, so a
// plugin's tests are not expressible here and hookd port does not write
// for it.
func init() {
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile:   "mind",
		Doc:       "profile-mind.md",
		NoPlugins: "plugin hooks are a reserved source in the mind profile and are not discovered",
	})
}
