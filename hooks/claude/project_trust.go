package claude

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/statefile"
)

// Claude Code records the answer to its trust dialog in its global config,
// .claude.json in $CLAUDE_CONFIG_DIR or the user's home, as
// projects["<dir>"].hasTrustDialogAccepted = true. A folder is trusted when
// the project's own entry says so, or when a folder above the working
// directory (up to the repository root, or the file system root outside a
// repository) does. The home folder's answer is never recorded.
type projectTrust struct{}

// claudeJSONName is Claude Code's global config file.
const claudeJSONName = ".claude.json"

// recordFile is the .claude.json that goes with the settings folder home:
// inside it when it is $CLAUDE_CONFIG_DIR (as Claude Code keeps it), beside
// it when the folder is named .claude (~/.claude → ~/.claude.json), else
// inside it.
func recordFile(home string) string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" && hooks.SameDir(home, d) {
		return filepath.Join(home, claudeJSONName)
	}
	if filepath.Base(home) == ".claude" {
		return filepath.Join(filepath.Dir(home), claudeJSONName)
	}
	return filepath.Join(home, claudeJSONName)
}

// Lookup implements hooks.ProjectTrustStore.
func (projectTrust) Lookup(home, cwd, root string) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{}
	if home == "" {
		return rec, nil
	}
	rec.File = recordFile(home)
	data, err := hooks.ReadConfigFile(rec.File)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, err
	}
	if !gjson.ValidBytes(data) {
		return rec, errors.New("not valid JSON")
	}
	projects := gjson.GetBytes(data, "projects")
	accepted := func(dir string) bool {
		return projects.Get(gjson.Escape(dir) + ".hasTrustDialogAccepted").Bool()
	}
	if accepted(root) {
		rec.Found, rec.Trusted, rec.Dir = true, true, root
		return rec, nil
	}
	// Walk up from cwd, within the repository when there is one.
	_, err = os.Stat(filepath.Join(root, ".git"))
	inRepo := err == nil
	for dir := cwd; ; {
		if inRepo && !within(dir, root) {
			break
		}
		if accepted(dir) {
			rec.Found, rec.Trusted, rec.Dir = true, true, dir
			return rec, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return rec, nil
}

func within(dir, root string) bool {
	return dir == root || strings.HasPrefix(dir, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// Set implements hooks.ProjectTrustStore: projects["<dir>"] gets
// hasTrustDialogAccepted, every other key and byte of the file stays.
func (projectTrust) Set(home, dir string, trusted bool) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{Found: true, Trusted: trusted, Dir: dir, File: recordFile(home)}
	if uh, err := os.UserHomeDir(); err == nil && hooks.SameDir(dir, uh) {
		return rec, fmt.Errorf("Claude Code never records trust for the home folder %s (its answer holds for one session only); trust a project folder instead", dir)
	}
	err := statefile.EditFile(rec.File, func(doc []byte) ([]byte, error) {
		if len(strings.TrimSpace(string(doc))) == 0 {
			doc = []byte("{}")
		}
		if !gjson.ValidBytes(doc) {
			return nil, errors.New("not valid JSON; fix it before recording trust")
		}
		if p := gjson.GetBytes(doc, "projects"); p.Exists() && !p.IsObject() {
			return nil, errors.New(`"projects" is not an object; fix it before recording trust`)
		}
		path := "projects." + statefile.JSONKey(dir) + ".hasTrustDialogAccepted"
		if r := gjson.GetBytes(doc, "projects."+gjson.Escape(dir)); r.Exists() && !r.IsObject() {
			return nil, fmt.Errorf("projects[%q] is not an object; fix it before recording trust", dir)
		}
		if gjson.GetBytes(doc, "projects."+gjson.Escape(dir)+".hasTrustDialogAccepted").Type == boolType(trusted) {
			return doc, nil
		}
		return sjson.SetBytes(doc, path, trusted)
	})
	return rec, err
}

func boolType(b bool) gjson.Type {
	if b {
		return gjson.True
	}
	return gjson.False
}
