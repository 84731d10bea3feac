package cline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/regfile"
)

// Profile is the Cline CLI's profile.
var Profile = &hooks.Profile{
	Name:    "cline",
	HomeEnv: "CLINE_DIR",
	HomeDir: ".cline",
	// The workspace's .clinerules/hooks and .cline/hooks, read with no
	// trust step: a project nobody answered for is read; the host's
	// explicit "not trusted" keeps it unread.
	ProjectDir:              ".cline",
	ProjectTrustedByDefault: true,
	ProjectFiles:            []string{},
	Events:                  eventRules(),
	// Cline's tools, its shell first (hookd event's default tool).
	Tools: []string{"run_commands", "read_files", "editor", "apply_patch", "search_codebase", "fetch_web_content",
		"ask_question", "skills", "submit_and_exit"},
	Trust:        false,
	NoEnablement: true,
	// The files of an event run one after another, in path order.
	Serial: true,
	// A timed-out hook gets SIGKILL at once.
	KillGrace:    0,
	Discover:     discover,
	PrepareInput: prepareInput,
	AfterCombine: afterCombine,
	HandlerTypes: []string{hooks.TypeCommand},
	Shell:        []string{"sh", "-c"},
}

func init() { hooks.Register(Profile) }

// extensions are the file name endings Cline takes as hook files.
var extensions = map[string]bool{"": true, ".sh": true, ".bash": true, ".zsh": true, ".js": true, ".mjs": true, ".cjs": true,
	".ts": true, ".mts": true, ".cts": true, ".py": true, ".ps1": true}

// folders are Cline's hook folders, in its order (resolveHooksConfigSearchPaths):
// ~/Documents/Cline/Hooks, the Cline folder's hooks (home: --home, else
// $CLINE_DIR, else ~/.cline), then the workspace's .clinerules/hooks and
// .cline/hooks.
func folders(p *hooks.Profile, opts hooks.DiscoverOptions) []struct{ dir, layer string } {
	var out []struct{ dir, layer string }
	seen := map[string]bool{}
	add := func(dir, layer string) {
		if dir != "" && !seen[dir] {
			seen[dir] = true
			out = append(out, struct{ dir, layer string }{dir, layer})
		}
	}
	if uh, err := os.UserHomeDir(); err == nil && uh != "" {
		add(filepath.Join(hooks.AbsClean(uh), "Documents", "Cline", "Hooks"), hooks.LayerUser)
	}
	if home := hooks.ResolveHome(p, opts.Home); home != "" {
		add(filepath.Join(home, "hooks"), hooks.LayerUser)
	}
	// The gate gives <root>/.cline; .clinerules is its sibling.
	if dir := hooks.ProjectFolder(p, opts, hooks.ResolveHome(p, opts.Home)); dir != "" {
		add(filepath.Join(filepath.Dir(dir), ".clinerules", "hooks"), hooks.LayerProject)
		add(filepath.Join(dir, "hooks"), hooks.LayerProject)
	}
	return out
}

type hookFile struct {
	path, layer string
	ev          *event
}

// discover lists the hook files of every folder: regular files (not
// links) whose name, less one of the known endings, is an event name in
// any case. Each is one command hook; an event's files run in the order of
// their full paths, whatever folder they are in.
func discover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d hooks.DiscoveryRun
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	var files []hookFile
	seen := map[string]bool{}
	for _, f := range folders(p, opts) {
		entries, err := os.ReadDir(f.dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			ext := strings.ToLower(filepath.Ext(e.Name()))
			if !extensions[ext] {
				continue
			}
			base := strings.TrimSpace(strings.ToLower(e.Name()[:len(e.Name())-len(ext)]))
			var ev *event
			for i := range events {
				if strings.ToLower(events[i].name) == base {
					ev = &events[i]
				}
			}
			path := filepath.Join(f.dir, e.Name())
			if ev == nil || seen[path] {
				continue
			}
			seen[path] = true
			if ev.hookName == "" {
				d.Warns = append(d.Warns, hooks.Warning{Source: path, Event: ev.name, Message: fmt.Sprintf(
					"ignoring %s: Cline runs no %s hooks", path, ev.name)})
				continue
			}
			files = append(files, hookFile{path: path, layer: f.layer, ev: ev})
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].path < files[j].path })
	for _, f := range files {
		cmd, err := command(f.path)
		if err != nil {
			d.Warns = append(d.Warns, hooks.Warning{Source: f.path, Event: f.ev.name, Message: fmt.Sprintf("skipping %s: %v", f.path, err)})
			continue
		}
		doc, _ := json.Marshal(map[string]any{f.ev.name: []any{map[string]any{"hooks": []any{map[string]any{
			"type": "command", "command": cmd, "async": !f.ev.waits}}}}})
		hs, warns := hooks.ParseHooksValue(p, doc, hooks.Source{Layer: f.layer, Path: f.path}, f.path)
		d.Add(hs, warns)
	}
	if len(opts.SessionHooks) > 0 {
		hs, warns := hooks.ParseHooksValue(p, opts.SessionHooks, hooks.Source{Layer: hooks.LayerSession, Path: "session"}, "session")
		d.Add(hs, warns)
	}
	for i, h := range d.Hooks {
		h.Order = i
		h.Enabled = true
		h.Trust = hooks.TrustTrusted
	}
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal}
}

// maxShebang bounds what is read of a hook file for its #! line.
const maxShebang = 64 << 10

// command is the shell text that runs a hook file as Cline does: by its
// #! line (env, bash, sh, zsh, python and python3 resolved as Cline
// resolves them), else by its ending (bash for .sh, .bash, .zsh and none;
// node; bun run; python3; pwsh -File).
func command(path string) (string, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return "", err
	}
	head, err := io.ReadAll(io.LimitReader(f, maxShebang))
	f.Close()
	if err != nil {
		return "", err
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	argv := argvFor(path, strings.TrimSpace(strings.TrimSuffix(string(line), "\r")))
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = hooks.ShellQuote(a)
	}
	return "exec " + strings.Join(q, " "), nil
}

func argvFor(path, first string) []string {
	if rest, ok := strings.CutPrefix(first, "#!"); ok {
		if fields := strings.Fields(rest); len(fields) > 0 {
			return append(interpreter(fields), path)
		}
	}
	low := strings.ToLower(path)
	switch {
	case strings.HasSuffix(low, ".sh"), strings.HasSuffix(low, ".bash"), strings.HasSuffix(low, ".zsh"):
		return []string{"bash", path}
	case strings.HasSuffix(low, ".js"), strings.HasSuffix(low, ".mjs"), strings.HasSuffix(low, ".cjs"):
		return []string{"node", path}
	case strings.HasSuffix(low, ".ts"), strings.HasSuffix(low, ".mts"), strings.HasSuffix(low, ".cts"):
		return []string{"bun", "run", path}
	case strings.HasSuffix(low, ".py"):
		return []string{"python3", path}
	case strings.HasSuffix(low, ".ps1"):
		return []string{"pwsh", "-File", path}
	}
	return []string{"bash", path}
}

// interpreter is Bq: env is dropped for what follows it; bash, sh, zsh,
// python and python3 are called by their bare names; anything else as
// written.
func interpreter(argv []string) []string {
	if len(argv) == 0 {
		return argv
	}
	base := strings.ToLower(strings.ReplaceAll(argv[0], `\`, "/"))
	if i := strings.LastIndex(base, "/"); i >= 0 {
		base = base[i+1:]
	}
	switch base {
	case "env":
		if len(argv) == 1 {
			return argv
		}
		return interpreter(argv[1:])
	case "bash", "sh", "zsh", "python3", "python":
		return append([]string{base}, argv[1:]...)
	}
	return argv
}
