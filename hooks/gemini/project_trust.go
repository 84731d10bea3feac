package gemini

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/statefile"
)

// Gemini CLI records the answer to its folder-trust dialog in
// ~/.gemini/trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH
// elsewhere), one entry per folder: "<dir>": "TRUST_FOLDER",
// "TRUST_PARENT" (the folder above it and everything under it) or
// "DO_NOT_TRUST". The entry with the longest path that covers the working
// directory decides. Before the file: GEMINI_RESTRICTED_MODE=true or
// GEMINI_CLI_TRUST_WORKSPACE=false makes the folder untrusted, and
// GEMINI_CLI_TRUST_WORKSPACE=true trusted (what --skip-trust sets in the
// CLI, whose environment hookd inherits), and folder trust turned off in
// the user's settings (security.folderTrust.enabled: false) trusts every
// folder.
type projectTrust struct{}

const (
	trustedFoldersName = "trustedFolders.json"
	trustedFoldersEnv  = "GEMINI_CLI_TRUSTED_FOLDERS_PATH"
	levelFolder        = "TRUST_FOLDER"
	levelParent        = "TRUST_PARENT"
	levelNever         = "DO_NOT_TRUST"
)

// trustedFoldersFile is the record's path for the user folder home.
func trustedFoldersFile(home string) string {
	if p := os.Getenv(trustedFoldersEnv); p != "" {
		return hooks.AbsClean(p)
	}
	return filepath.Join(home, trustedFoldersName)
}

// Lookup implements hooks.ProjectTrustStore.
func (projectTrust) Lookup(home, cwd, root string) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{}
	if home == "" {
		return rec, nil
	}
	rec.File = trustedFoldersFile(home)
	switch {
	case os.Getenv("GEMINI_RESTRICTED_MODE") == "true", os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "false":
		rec.Found, rec.Dir, rec.File = true, cwd, "the environment (GEMINI_RESTRICTED_MODE or GEMINI_CLI_TRUST_WORKSPACE)"
		return rec, nil
	case os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true":
		rec.Found, rec.Trusted, rec.Dir, rec.File = true, true, cwd, "the environment (GEMINI_CLI_TRUST_WORKSPACE)"
		return rec, nil
	}
	if data, err := hooks.ReadConfigFile(filepath.Join(home, settingsName)); err == nil {
		if e := gjson.GetBytes(stripComments(data), "security.folderTrust.enabled"); e.Type == gjson.False {
			rec.Found, rec.Trusted, rec.Dir, rec.File = true, true, cwd, filepath.Join(home, settingsName)
			return rec, nil
		}
	}
	data, err := hooks.ReadConfigFile(rec.File)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, err
	}
	data = stripComments(data)
	if !gjson.ValidBytes(data) {
		return rec, errors.New("not valid JSON")
	}
	where := realPath(cwd)
	best := -1
	gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
		level := v.Str
		if level != levelFolder && level != levelParent && level != levelNever {
			return true
		}
		covers := k.Str
		if level == levelParent {
			covers = filepath.Dir(covers)
		}
		if within(where, realPath(covers)) && len(k.Str) > best {
			best = len(k.Str)
			rec.Found, rec.Dir, rec.Trusted = true, k.Str, level != levelNever
		}
		return true
	})
	return rec, nil
}

// realPath is path with its symlinks resolved, when it can be.
func realPath(path string) string {
	path = hooks.AbsClean(path)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// within reports whether path is dir or lies under it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// Set implements hooks.ProjectTrustStore: the folder's entry becomes
// TRUST_FOLDER or DO_NOT_TRUST, every other entry and byte stays.
func (projectTrust) Set(home, dir string, trusted bool) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{Found: true, Trusted: trusted, Dir: dir, File: trustedFoldersFile(home)}
	level := levelNever
	if trusted {
		level = levelFolder
	}
	return rec, statefile.SetJSONEntry(rec.File, dir, level)
}
