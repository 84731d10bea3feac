package qwen

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

// Qwen Code's folder trust is off unless the user's settings turn it on
// (security.folderTrust.enabled: true). Then a workspace's settings load
// only when its trust record, trustedFolders.json in the user folder
// ($QWEN_CODE_TRUSTED_FOLDERS_PATH when set), trusts it:
//
//	{"/home/u/src/app": "TRUST_FOLDER", "/home/u/src/lib/x": "TRUST_PARENT", "/tmp": "DO_NOT_TRUST"}
//
// TRUST_FOLDER trusts the folder and all below it, TRUST_PARENT the folder
// above the one named, DO_NOT_TRUST refuses. Of the rules whose folder holds
// the session's (as given and resolved), the deepest decides, a refusal
// over a trust at the same depth; no rule: not trusted (measured on 0.24.4).
type projectTrust struct{}

const trustedFoldersName = "trustedFolders.json"

func trustedFoldersPath(home string) string {
	if p := os.Getenv("QWEN_CODE_TRUSTED_FOLDERS_PATH"); p != "" {
		return hooks.AbsClean(p)
	}
	return filepath.Join(home, trustedFoldersName)
}

// folderTrustOn reads security.folderTrust.enabled from the user's settings.
func folderTrustOn(home string) bool {
	data, err := hooks.ReadConfigFile(filepath.Join(home, settingsName))
	if err != nil {
		return false
	}
	return gjson.GetBytes(stripComments(data), "security.folderTrust.enabled").Type == gjson.True
}

// stripComments blanks whole-line // comments (settings files may have
// them).
func stripComments(data []byte) []byte {
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "//") {
			lines[i] = ""
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// variants are a folder as given and resolved.
func variants(dir string) []string {
	out := []string{filepath.Clean(dir)}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != out[0] {
		out = append(out, real)
	}
	return out
}

func within(dir, root string) bool {
	return dir == root || root == "/" || strings.HasPrefix(dir, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

func depth(dir string) int {
	return len(strings.FieldsFunc(dir, func(r rune) bool { return r == filepath.Separator }))
}

// Lookup implements hooks.ProjectTrustStore.
func (projectTrust) Lookup(home, cwd, root string) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{}
	if home == "" {
		return rec, nil
	}
	rec.File = trustedFoldersPath(home)
	if !folderTrustOn(home) {
		// Folder trust off: nothing to record, every folder's settings load.
		return rec, nil
	}
	// Folder trust on: only a rule trusts.
	rec.Found = true
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
	best, bestTrusted := -1, false
	where := variants(cwd)
	gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
		dir, trusted := k.Str, false
		switch v.Str {
		case "TRUST_FOLDER":
			trusted = true
		case "TRUST_PARENT":
			trusted, dir = true, filepath.Dir(dir)
		case "DO_NOT_TRUST":
		default:
			return true
		}
		if !filepath.IsAbs(dir) {
			return true
		}
		d := -1
		for _, rv := range variants(dir) {
			for _, w := range where {
				if within(w, rv) && depth(rv) > d {
					d = depth(rv)
				}
			}
		}
		if d < 0 {
			return true
		}
		if d > best || d == best && !trusted && bestTrusted {
			best, bestTrusted, rec.Dir = d, trusted, k.Str
		}
		return true
	})
	rec.Trusted = best >= 0 && bestTrusted
	return rec, nil
}

// Set implements hooks.ProjectTrustStore: dir gets TRUST_FOLDER or
// DO_NOT_TRUST; every other entry stays. It does not turn folder trust on.
func (projectTrust) Set(home, dir string, trusted bool) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{Found: true, Trusted: trusted, Dir: dir, File: trustedFoldersPath(home)}
	level := "DO_NOT_TRUST"
	if trusted {
		level = "TRUST_FOLDER"
	}
	return rec, statefile.SetJSONEntry(rec.File, dir, level)
}
