package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A project's hooks run only when the project is trusted. The host may say so
// (initialize config.project.trusted, --trust-project); when it does not,
// hookd reads the host's own record of the user's answer, so a project the
// user trusted in Codex or Claude Code is trusted under hookd too, and a
// project trusted through `hookd trust --project` is trusted in the host.
//
// Order, first that answers wins:
//  1. the host's explicit answer (true or false);
//  2. the profile's trust record (ProjectTrustStore), read from the user's
//     own files only: a project can never vouch for itself;
//  3. untrusted.

// ProjectTrustStore reads and writes a host's record of which project folders
// the user trusts (Codex: [projects."<dir>"] trust_level in the user
// config.toml; Claude Code: projects["<dir>"].hasTrustDialogAccepted in
// ~/.claude.json).
type ProjectTrustStore interface {
	// Lookup returns the record that decides for a session in cwd whose
	// project root is root. home is the profile's resolved user folder.
	// A record that says nothing is a zero ProjectTrustRecord with File set.
	Lookup(home, cwd, root string) (ProjectTrustRecord, error)
	// Set records dir as trusted or not the way the host writes it, keeping
	// every other byte of the file that it can.
	Set(home, dir string, trusted bool) (ProjectTrustRecord, error)
}

// ProjectTrustRecord is one answer read from (or written to) a host's record.
type ProjectTrustRecord struct {
	// Found is true when the record names the folder (trusted or not).
	Found   bool
	Trusted bool
	// Dir is the folder the entry is for; File the record's path.
	Dir  string
	File string
}

// Project trust deciders, as ProjectStatus.DecidedBy reports them.
const (
	TrustByHost    = "host"    // initialize config.project.trusted, --trust-project
	TrustByRecord  = "record"  // the host's own record (ProjectStatus.Record)
	TrustByDefault = "default" // nothing said: untrusted
)

// ProjectStatus says whether the project's hooks load, and who decided.
type ProjectStatus struct {
	Root      string `json:"root"`
	Trusted   bool   `json:"trusted"`
	DecidedBy string `json:"decidedBy"`
	// Record is the file whose entry decided, or that would hold one.
	Record string `json:"record,omitempty"`
	// RecordDir is the folder named by the entry that decided.
	RecordDir string `json:"recordDir,omitempty"`
}

// LeftOut is a hooks source that exists but whose hooks do not run, with the
// reason and the one thing that changes it. Hosts show these so a project's
// hooks are never skipped in silence.
type LeftOut struct {
	Path string `json:"path"`
	// Reason is a code: untrustedProject, managedOnly, hooksDisabled,
	// disableAllHooks (or another policy a profile sets).
	Reason string `json:"reason"`
	// Message says it in a sentence; Fix is the command or edit that
	// changes it.
	Message string `json:"message"`
	Fix     string `json:"fix"`
	// Plugin is the id of the plugin or extension left out, when the
	// source is one (Path is then its folder).
	Plugin string `json:"plugin,omitempty"`
	// UserChoice is true when the user's own switch left the source out
	// (a plugin the user disabled): reported, but nothing the user asked
	// to run is lost.
	UserChoice bool `json:"userChoice,omitempty"`
}

// Left-out reasons beyond the hook policies.
const (
	ReasonUntrustedProject = "untrustedProject"
	// ReasonPluginDisabled: an installed plugin or extension is switched
	// off in the host's own settings, so none of its hooks load.
	ReasonPluginDisabled = "pluginDisabled"
)

// ProjectFolder is the one gate on a project's content: the folder of the
// project layer (<root>/<ProjectDir>) when the project is trusted, else "".
// Every reader of what a repository holds (settings, hooks files, agents,
// skills, commands, extensions, for every profile) takes its folder from
// here and reads nothing when it is "": an untrusted project's files are
// never opened, only their names may be listed to say they were left out
// (leftOutProject, LeftOutNames). The trust it reads is the one settled by
// resolveProjectTrust: the host's explicit answer, else the profile's
// record, else the profile's default. A project folder that is the user
// folder (a session inside the home folder) is the user layer, already read:
// "" too. TestProjectContentGoesThroughTheGate fails when a reader takes
// the project root another way.
func ProjectFolder(p *Profile, opts DiscoverOptions, home string) string {
	if !opts.ProjectTrusted || opts.ProjectRoot == "" || p.ProjectDir == "" {
		return ""
	}
	dir := filepath.Join(AbsClean(opts.ProjectRoot), p.ProjectDir)
	if home != "" && SameDir(dir, home) {
		return ""
	}
	return dir
}

// PrintModeTrust is opts as the gate reads them for a host in print mode
// (DiscoverOptions.PrintMode, Claude Code's -p), which treats the folder as
// trusted for the project's settings files and skills: trusted unless the
// host said it is not, for a profile whose host does that
// (Profile.PrintModeReadsProject). The caller passes the result to
// ProjectFolder for those files only; every other reader keeps opts.
func PrintModeTrust(p *Profile, opts DiscoverOptions) DiscoverOptions {
	if PrintModeReads(p, opts) {
		opts.ProjectTrusted = true
	}
	return opts
}

// PrintModeReads reports whether the print-mode rule opens the project's
// settings files and skills (PrintModeTrust): a profile whose host reads
// them in print mode, in print mode, with no answer from the host.
func PrintModeReads(p *Profile, opts DiscoverOptions) bool {
	return p.PrintModeReadsProject && opts.PrintMode && !opts.ProjectTrustKnown
}

// ProjectRefused reports whether the host said the project is not trusted
// (an explicit no, not a missing answer).
func ProjectRefused(opts DiscoverOptions) bool {
	return opts.ProjectTrustKnown && !opts.ProjectTrusted
}

// ProjectDeclined reports whether the project is not trusted by an answer:
// the host's (ProjectRefused) or the host's own record's, not a missing
// one.
func ProjectDeclined(opts DiscoverOptions) bool {
	return ProjectRefused(opts) || opts.ProjectDecidedBy == TrustByRecord && !opts.ProjectTrusted
}

// UntrustedProjectFolder is the project layer's folder when the project is
// not trusted and its files are left out, else "". Only names may be looked
// at in it, to say what was left out and why; nothing in it is opened.
func UntrustedProjectFolder(p *Profile, opts DiscoverOptions, home string) string {
	if opts.ProjectTrusted || opts.ProjectRoot == "" || p.ProjectDir == "" {
		return ""
	}
	dir := filepath.Join(AbsClean(opts.ProjectRoot), p.ProjectDir)
	if home != "" && SameDir(dir, home) {
		return ""
	}
	return dir
}

// resolveProjectTrust decides opts.ProjectTrusted when the host left it open.
func resolveProjectTrust(p *Profile, opts *DiscoverOptions) (*ProjectStatus, []Warning) {
	if opts.ProjectRoot == "" || p.ProjectDir == "" {
		return nil, nil
	}
	st := &ProjectStatus{Root: AbsClean(opts.ProjectRoot), Trusted: opts.ProjectTrusted}
	if opts.ProjectTrusted || opts.ProjectTrustKnown {
		st.DecidedBy = TrustByHost
		return st, nil
	}
	st.DecidedBy = TrustByDefault
	if p.ProjectTrust == nil {
		st.Trusted = p.ProjectTrustedByDefault
		opts.ProjectTrusted = p.ProjectTrustedByDefault
		return st, nil
	}
	cwd := opts.Cwd
	if cwd == "" {
		cwd = st.Root
	}
	rec, err := p.ProjectTrust.Lookup(ResolveHome(p, opts.Home), AbsClean(cwd), st.Root)
	st.Record = rec.File
	if err != nil {
		return st, []Warning{{Source: rec.File, Message: fmt.Sprintf(
			"cannot read the project trust record: %v; the project is treated as untrusted", err)}}
	}
	if rec.Found {
		st.DecidedBy, st.RecordDir, st.Trusted = TrustByRecord, rec.Dir, rec.Trusted
		opts.ProjectTrusted = rec.Trusted
		return st, nil
	}
	st.Trusted = p.ProjectTrustedByDefault
	opts.ProjectTrusted = p.ProjectTrustedByDefault
	return st, nil
}

// leftOutProject lists the project's hook files that exist but were not read
// because the project is not trusted. Only their names are looked at.
func leftOutProject(p *Profile, opts DiscoverOptions, st *ProjectStatus) []LeftOut {
	if st == nil || st.Trusted || PrintModeReads(p, opts) {
		// In print mode the files are read (PrintModeTrust).
		return nil
	}
	dir := UntrustedProjectFolder(p, opts, ResolveHome(p, opts.Home))
	if dir == "" {
		return nil
	}
	names := p.ProjectFiles
	if names == nil {
		names = []string{HooksJSONName, ConfigTOMLName}
	}
	why := "the project is not trusted"
	if st.DecidedBy == TrustByRecord {
		why = fmt.Sprintf("the project is marked untrusted in %s", st.Record)
	} else if st.DecidedBy == TrustByHost {
		why = "the host said the project is not trusted"
	}
	var out []LeftOut
	var paths []string
	for _, n := range names {
		if strings.ContainsAny(n, "*?[") {
			// A pattern (Copilot CLI's *.json): only names are listed.
			m, _ := filepath.Glob(filepath.Join(dir, n))
			sort.Strings(m)
			paths = append(paths, m...)
			continue
		}
		paths = append(paths, filepath.Join(dir, n))
	}
	for _, path := range paths {
		if fi, err := os.Lstat(path); err != nil || fi.IsDir() {
			continue
		}
		out = append(out, LeftOut{
			Path: path, Reason: ReasonUntrustedProject,
			Message: fmt.Sprintf("%s was not read: %s", path, why),
			Fix:     trustProjectCommand(p, opts, st.Root),
		})
	}
	return out
}

// trustProjectCommand is the command that trusts root for this profile and
// user folder.
func trustProjectCommand(p *Profile, opts DiscoverOptions, root string) string {
	cmd := "hookd trust --project"
	if p.Name != DefaultProfile {
		cmd += " --profile " + p.Name
	}
	if opts.Home != "" {
		cmd += " --home " + shellWord(AbsClean(opts.Home))
	}
	return cmd + " " + shellWord(root)
}

// leftOutByPolicy lists each source whose hooks a policy holds back, once.
func leftOutByPolicy(hooks []*Hook, warnings []Warning) []LeftOut {
	seen := map[string]bool{}
	var out []LeftOut
	for _, h := range hooks {
		if h.Policy == "" || seen[h.Source.Path+"\x00"+h.Policy] {
			continue
		}
		seen[h.Source.Path+"\x00"+h.Policy] = true
		lo := LeftOut{Path: h.Source.Path, Reason: h.Policy, Fix: policyFix(h.Policy)}
		lo.Message = policyMessage(h, warnings)
		out = append(out, lo)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// policyMessage reuses the discovery warning that named the policy for this
// source, which says which file set it.
func policyMessage(h *Hook, warnings []Warning) string {
	for _, w := range warnings {
		if strings.Contains(w.Message, "do not run") && strings.Contains(w.Message, h.Source.Path) {
			return w.Message
		}
	}
	for _, w := range warnings {
		if strings.Contains(w.Message, "turned off") {
			return fmt.Sprintf("hooks in %s do not run: %s", h.Source.Path, w.Message)
		}
	}
	return fmt.Sprintf("hooks in %s do not run (%s)", h.Source.Path, h.Policy)
}

func policyFix(policy string) string {
	switch policy {
	case PolicyManagedOnly:
		return "only managed hooks may run: move these hooks into the managed policy, or ask its administrator to lift the managed-only rule"
	case PolicyHooksDisabled:
		return "turn hooks on: set [features] hooks = true in the file named in the message (or remove hooks = false)"
	case "disableAllHooks":
		return "remove \"disableAllHooks\": true from the settings file named in the message"
	}
	return "see the message"
}

// shellWord quotes s for a POSIX shell when it needs quoting.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '@' || r == '+' || r == ',' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return ShellQuote(s)
}

// ShellQuote quotes s as one word for a POSIX shell: in single quotes, each
// single quote inside written as '\”.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// SetProjectTrust records dir as trusted or not in the profile's host record.
func SetProjectTrust(p *Profile, home, dir string, trusted bool) (ProjectTrustRecord, error) {
	if p.ProjectTrust == nil {
		return ProjectTrustRecord{}, fmt.Errorf("the %s profile keeps no record of trusted projects: its host says whether a project is trusted (initialize config.project.trusted, --trust-project)", p.Name)
	}
	h := ResolveHome(p, home)
	if h == "" {
		return ProjectTrustRecord{}, fmt.Errorf("cannot find the %s user folder (set $%s or $HOME, or pass --home)", p.Name, p.HomeEnv)
	}
	return p.ProjectTrust.Set(h, AbsClean(dir), trusted)
}

// ProjectTrustCandidates lists the folders whose record decides for a
// session in cwd with project root root, most specific first: cwd, root, and
// for a linked git worktree the main checkout's root (Codex trusts a
// repository once for all its worktrees).
func ProjectTrustCandidates(cwd, root string) []string {
	var out []string
	add := func(d string) {
		if d == "" {
			return
		}
		for _, o := range out {
			if o == d {
				return
			}
		}
		out = append(out, d)
	}
	add(cwd)
	add(root)
	add(mainWorktreeRoot(root))
	return out
}

// mainWorktreeRoot returns the main checkout of a linked worktree whose root
// is root (its .git is a file naming <main>/.git/worktrees/<name>), else "".
func mainWorktreeRoot(root string) string {
	// A .git that is a FIFO must not block initialize.
	data, err := ReadConfigFile(filepath.Join(root, ".git"))
	if err != nil {
		return ""
	}
	line := strings.TrimSpace(string(data))
	gitdir, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return ""
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	gitdir = filepath.Clean(gitdir)
	if !worktreePointsBack(root, gitdir) {
		return ""
	}
	// <main>/.git/worktrees/<name>
	wt := filepath.Dir(gitdir)
	if filepath.Base(wt) != "worktrees" {
		return ""
	}
	dotgit := filepath.Dir(wt)
	if filepath.Base(dotgit) != ".git" {
		return ""
	}
	return filepath.Dir(dotgit)
}

// worktreePointsBack reports whether gitdir is the administrative folder of
// the linked worktree at root, as git accepts one: gitdir is a folder and
// its "gitdir" file names root's .git (absolute, or relative to gitdir). A
// .git file alone is text anyone can write: a folder delivered with
// "gitdir: ../<trusted repo>/.git/worktrees/x" is no worktree of that
// repository unless the repository itself recorded it.
func worktreePointsBack(root, gitdir string) bool {
	if fi, err := os.Stat(gitdir); err != nil || !fi.IsDir() {
		return false
	}
	data, err := ReadConfigFile(filepath.Join(gitdir, "gitdir"))
	if err != nil {
		return false
	}
	back := strings.TrimSpace(string(data))
	if back == "" {
		return false
	}
	if !filepath.IsAbs(back) {
		back = filepath.Join(gitdir, back)
	}
	want, err := os.Stat(filepath.Join(root, ".git"))
	if err != nil {
		return false
	}
	got, err := os.Stat(back)
	return err == nil && os.SameFile(want, got)
}

// sourceReport is what the last discovery said about sources it did not load.
type sourceReport struct {
	Project *ProjectStatus
	LeftOut []LeftOut
}

// Sources returns the project's trust status and the sources left out by the
// last discovery.
func (e *Engine) Sources() (project *ProjectStatus, leftOut []LeftOut) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.sources.Project, e.sources.LeftOut
}
