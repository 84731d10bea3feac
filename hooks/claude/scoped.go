package claude

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/plugins"
)

// Hooks in subagent definitions and skills (SEMANTICS.md section 6, "hooks
// in agent and skill frontmatter"; docs/scoped-hooks.md):
//
//   - agents: <user folder>/agents/*.md and, in a trusted project,
//     <project>/.claude/agents/*.md (a project agent replaces a user agent
//     of the same name). Their hooks are scoped to the agent's name (its
//     frontmatter "name", the input's agent_type); a Stop hook there is a
//     SubagentStop hook. A plugin's agents/*.md may not carry hooks: they
//     are ignored with Claude Code's warning.
//   - skills: <user folder>/skills/<name>/SKILL.md, in a trusted project
//     <project>/.claude/skills/<name>/SKILL.md (a skill's hooks run only
//     once the host says it was invoked, but an untrusted project's skill
//     may share a user skill's name, so it needs trust like the rest of
//     the project) and a plugin's
//     skills/<name>/SKILL.md (named "<plugin>:<name>"). Their hooks are
//     scoped to the skill's name; "once: true" runs a handler once.
//   - commands run as written; a skill's hooks get CLAUDE_PLUGIN_ROOT (the
//     skill's folder, a plugin skill's plugin root) in their environment
//     and, in exec form, in their arguments. A placeholder the scope does
//     not provide fails the hook, without blocking, with Claude Code's words.

// Folder and file names of definitions.
const (
	agentsDirName = "agents"
	skillsDirName = "skills"
	skillFileName = "SKILL.md"
)

// scoped adds the hooks of the agent and skill definitions. home is the
// resolved user folder ("" when there is none); found are the plugins
// discovery loaded.
// In print mode (Claude Code's -p) the project's skills load as its
// settings files do (hooks.PrintModeTrust); its agents keep the plain rule.
func (d *discovery) scoped(p *hooks.Profile, opts hooks.DiscoverOptions, home string, found []*plugins.Plugin) {
	project := hooks.ProjectFolder(p, opts, home)
	skillsProject := hooks.ProjectFolder(p, hooks.PrintModeTrust(p, opts), home)
	names := map[string]bool{}
	if project != "" {
		d.agents(p, filepath.Join(project, agentsDirName), hooks.LayerProject, names)
	} else {
		d.untrustedScoped(p, opts, home, skillsProject == "")
	}
	if home != "" {
		d.agents(p, filepath.Join(home, agentsDirName), hooks.LayerUser, names)
		d.skills(p, filepath.Join(home, skillsDirName), hooks.Source{Layer: hooks.LayerUser}, nil)
	}
	if skillsProject != "" {
		d.skills(p, filepath.Join(skillsProject, skillsDirName), hooks.Source{Layer: hooks.LayerProject}, nil)
	}
	for _, pl := range found {
		d.pluginAgents(pl)
		d.skills(p, filepath.Join(pl.Root, skillsDirName), hooks.Source{Layer: hooks.LayerPlugin, Plugin: pl.Name}, pl)
	}
}

// mdFiles lists the .md files of dir, sorted; a missing folder has none.
func (d *discovery) mdFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			d.Warns = append(d.Warns, hooks.Warning{Source: dir, Message: fmt.Sprintf("cannot list %s: %v", dir, err)})
		}
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") && !e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// readDefinition reads a definition file's frontmatter; nil when it has
// none or it cannot be read (with a warning).
func (d *discovery) readDefinition(path string) *frontmatter {
	data, ok := d.Read(path)
	if !ok {
		return nil
	}
	fm, warn := readFrontmatter(path, data)
	if warn != "" {
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: warn})
	}
	return fm
}

// agents adds the hooks of the agents in dir. names holds the agent names
// already defined by a more specific folder, which win.
func (d *discovery) agents(p *hooks.Profile, dir, layer string, names map[string]bool) {
	for _, path := range d.mdFiles(dir) {
		fm := d.readDefinition(path)
		if fm == nil {
			continue
		}
		name := strings.TrimSpace(fm.doc.Get("name").String())
		if name == "" || names[name] {
			continue
		}
		names[name] = true
		found, warns := fm.hooks(p, hooks.Source{Layer: layer, Path: path}, path)
		d.Add(nil, warns)
		for _, h := range found {
			raw := handlerRaw(fm.doc, h.Event, h.Key)
			h.Scope = &hooks.Scope{Kind: hooks.ScopeAgent, Name: name, Path: path,
				Fail: placeholderProblem(h, raw, false)}
			if h.Event == "Stop" {
				// Claude Code runs an agent's Stop hooks when the
				// subagent finishes, as SubagentStop.
				h.Event = "SubagentStop"
			}
			d.Hooks = append(d.Hooks, h)
		}
	}
}

// untrustedScoped warns that a project's agents (and, with skills, its
// skills) are not read because the project is not trusted. Only the names
// are looked at.
func (d *discovery) untrustedScoped(p *hooks.Profile, opts hooks.DiscoverOptions, home string, skills bool) {
	dir := hooks.UntrustedProjectFolder(p, opts, home)
	if dir == "" {
		return
	}
	fix := "(trust it in Claude Code, with `hookd trust --project`, or with initialize's config.project.trusted)"
	agents := filepath.Join(dir, agentsDirName)
	if files := d.mdFiles(agents); len(files) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: agents, Message: fmt.Sprintf(
			"not reading the hooks of the %d project agent(s) in %s: the project is not trusted %s", len(files), agents, fix)})
	}
	if !skills {
		return
	}
	skillsDir := filepath.Join(dir, skillsDirName)
	n := 0
	if entries, err := os.ReadDir(skillsDir); err == nil {
		for _, e := range entries {
			if _, err := os.Lstat(filepath.Join(skillsDir, e.Name(), skillFileName)); err == nil {
				n++
			}
		}
	}
	if n > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: skillsDir, Message: fmt.Sprintf(
			"not reading the hooks of the %d project skill(s) in %s: the project is not trusted %s", n, skillsDir, fix)})
	}
}

// pluginAgents warns about plugin agents that declare hooks, which Claude
// Code ignores.
func (d *discovery) pluginAgents(pl *plugins.Plugin) {
	for _, path := range d.mdFiles(filepath.Join(pl.Root, agentsDirName)) {
		fm := d.readDefinition(path)
		if fm == nil || !fm.doc.Get("hooks").Exists() {
			continue
		}
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
			"Plugin agent file %s sets hooks, which is ignored for plugin agents. Use .claude/agents/ for this level of control. (plugin %s)%s", path, pl.ID(), fm.at("$.hooks"))})
	}
}

// skills adds the hooks of the skills in dir (<dir>/<name>/SKILL.md). pl is
// the plugin whose skills they are, or nil.
func (d *discovery) skills(p *hooks.Profile, dir string, src hooks.Source, pl *plugins.Plugin) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			d.Warns = append(d.Warns, hooks.Warning{Source: dir, Message: fmt.Sprintf("cannot list %s: %v", dir, err)})
		}
		return
	}
	for _, e := range entries {
		folder := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
			continue
		}
		path := filepath.Join(folder, skillFileName)
		fm := d.readDefinition(path)
		if fm == nil {
			continue
		}
		name, root, keySource := e.Name(), folder, path
		if pl != nil {
			name, root, keySource = pl.Name+":"+e.Name(), pl.Root, pl.ID()+":"+filepath.Join(skillsDirName, e.Name(), skillFileName)
		}
		var aliases []string
		if n := strings.TrimSpace(fm.doc.Get("name").String()); n != "" && n != name && pl == nil {
			aliases = append(aliases, n)
		}
		s := src
		s.Path = path
		found, warns := fm.hooks(p, s, keySource)
		d.Add(nil, warns)
		for _, h := range found {
			raw := handlerRaw(fm.doc, h.Event, h.Key)
			h.Scope = &hooks.Scope{Kind: hooks.ScopeSkill, Name: name, Aliases: aliases, Path: path,
				Once: raw.Get("once").Type == gjson.True,
				Env:  map[string]string{plugins.EnvClaudeRoot: root},
				Fail: placeholderProblem(h, raw, true)}
			if h.Scope.Fail == "" && raw.Get("args").IsArray() {
				// Exec form: Claude Code replaces the placeholder in the
				// program and each argument, which hookd quoted for sh.
				h.Handler.Command = strings.ReplaceAll(h.Handler.Command, "${"+plugins.EnvClaudeRoot+"}",
					strings.ReplaceAll(root, "'", `'\''`))
			}
			d.Hooks = append(d.Hooks, h)
		}
	}
}

// placeholderProblem is Claude Code's error for a command hook naming a
// plugin placeholder its scope does not give (a skill has only
// CLAUDE_PLUGIN_ROOT, an agent neither), or "".
func placeholderProblem(h *hooks.Hook, raw gjson.Result, skill bool) string {
	if h.Handler.Type != hooks.TypeCommand {
		return ""
	}
	written := []string{raw.Get("command").String()}
	for _, a := range raw.Get("args").Array() {
		written = append(written, a.String())
	}
	text := strings.Join(written, " ")
	for _, v := range []string{plugins.EnvClaudeRoot, plugins.EnvClaudeData} {
		if skill && v == plugins.EnvClaudeRoot {
			continue
		}
		if !strings.Contains(text, "${"+v+"}") {
			continue
		}
		if skill {
			return fmt.Sprintf("Hook command references ${%s} but only ${CLAUDE_PLUGIN_ROOT} is available for skill hooks (${CLAUDE_PLUGIN_DATA} is plugin-only). Command: %s", v, text)
		}
		return fmt.Sprintf("Hook command references ${%s} but the hook is not associated with a plugin. This variable is only available in hooks defined in a plugin's hooks/hooks.json file, not in settings.json. Command: %s", v, text)
	}
	return ""
}
