package copilot

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/statefile"
)

// Copilot CLI records the folders the user trusts in its config.json in
// the user folder (JSON after a few whole-line // comments), as
//
//	{"trustedFolders": ["/home/u/src"]}
//
// ("trusted_folders" in older files, which the CLI renames). A folder is
// trusted when it or a folder above it is listed: repository hooks then load,
// in prompt mode too (measured on 1.0.102).
type projectTrust struct{}

// configName is the file that holds the record, in the user folder.
const configName = "config.json"

// splitComments returns the leading whole-line // comments of a config.json
// and the JSON after them.
func splitComments(doc []byte) (head, body []byte) {
	rest := doc
	for {
		line, after, _ := strings.Cut(string(rest), "\n")
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			break
		}
		rest = []byte(after)
	}
	return doc[:len(doc)-len(rest)], rest
}

// Lookup implements hooks.ProjectTrustStore.
func (projectTrust) Lookup(home, cwd, root string) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{}
	if home == "" {
		return rec, nil
	}
	rec.File = filepath.Join(home, configName)
	data, err := hooks.ReadConfigFile(rec.File)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, err
	}
	_, body := splitComments(data)
	if len(strings.TrimSpace(string(body))) == 0 {
		return rec, nil
	}
	if !gjson.ValidBytes(body) {
		return rec, errors.New("not valid JSON")
	}
	for _, key := range []string{"trustedFolders", "trusted_folders"} {
		for _, e := range gjson.GetBytes(body, key).Array() {
			dir := e.Str
			if dir == "" || !filepath.IsAbs(dir) {
				continue
			}
			dir = filepath.Clean(dir)
			if within(cwd, dir) {
				rec.Found, rec.Trusted, rec.Dir = true, true, dir
				return rec, nil
			}
		}
	}
	return rec, nil
}

func within(dir, root string) bool {
	return dir == root || strings.HasPrefix(dir, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// Set implements hooks.ProjectTrustStore: dir joins (or leaves)
// trustedFolders; the comments and every other key stay.
func (projectTrust) Set(home, dir string, trusted bool) (hooks.ProjectTrustRecord, error) {
	rec := hooks.ProjectTrustRecord{Found: true, Trusted: trusted, Dir: dir, File: filepath.Join(home, configName)}
	err := statefile.EditFile(rec.File, func(doc []byte) ([]byte, error) {
		head, body := splitComments(doc)
		if len(strings.TrimSpace(string(body))) == 0 {
			body = []byte("{}")
		}
		if !gjson.ValidBytes(body) || !gjson.ParseBytes(body).IsObject() {
			return nil, errors.New("not a JSON object; fix it before recording trust")
		}
		var list []string
		listed := false
		for _, e := range gjson.GetBytes(body, "trustedFolders").Array() {
			if filepath.Clean(e.Str) == dir {
				listed = true
				if !trusted {
					continue
				}
			}
			list = append(list, e.Str)
		}
		if listed == trusted {
			return doc, nil
		}
		if trusted {
			list = append(list, dir)
		}
		if list == nil {
			list = []string{}
		}
		out, err := sjson.SetBytes(body, "trustedFolders", list)
		if err != nil {
			return nil, err
		}
		return append(append([]byte{}, head...), out...), nil
	})
	return rec, err
}
