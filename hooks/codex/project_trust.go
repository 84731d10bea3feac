package codex

import (
	"path/filepath"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/statefile"
)

// Codex records the user's answer to "Trust this folder?" in the user
// config.toml as [projects."<dir>"] trust_level = "trusted" (or
// "untrusted"). It decides for the session's cwd, then for the repository
// root, then, in a linked worktree, for the main checkout. Only the user
// config.toml is read: a project's own .codex/config.toml cannot trust it.
type projectTrust struct{}

const (
	trustLevelTrusted   = "trusted"
	trustLevelUntrusted = "untrusted"
)

// Lookup implements hooks.ProjectTrustStore.
func (projectTrust) Lookup(home, cwd, root string) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{}
	if home == "" {
		return rec, nil
	}
	rec.File = filepath.Join(home, hooks.ConfigTOMLName)
	// A config.toml that cannot be read or parsed is reported by hook
	// discovery, which reads the same file; it records no trust.
	doc := hooks.ReadConfigQuiet(rec.File)
	projects, _ := doc["projects"].(map[string]any)
	for _, dir := range hooks.ProjectTrustCandidates(cwd, root) {
		for _, name := range sameFolderNames(dir) {
			entry, _ := projects[name].(map[string]any)
			level, _ := entry["trust_level"].(string)
			if level == "" {
				continue
			}
			rec.Found, rec.Dir = true, name
			rec.Trusted = level == trustLevelTrusted
			return rec, nil
		}
	}
	return rec, nil
}

// Set implements hooks.ProjectTrustStore with the same careful edit used
// for hook state: only the one entry changes, under the file's lock.
func (projectTrust) Set(home, dir string, trusted bool) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{Found: true, Trusted: trusted, Dir: dir, File: filepath.Join(home, hooks.ConfigTOMLName)}
	level := trustLevelUntrusted
	if trusted {
		level = trustLevelTrusted
	}
	return rec, statefile.SetProjectTrust(rec.File, dir, level)
}

// sameFolderNames is dir as written and, when it differs, with its symlinks
// resolved: an entry written for either names the same folder.
func sameFolderNames(dir string) []string {
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		return []string{dir, real}
	}
	return []string{dir}
}
