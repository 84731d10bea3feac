package hooks

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/tidwall/gjson"
)

// SettingsOptions say how ReadSettings treats one settings file.
type SettingsOptions struct {
	// Fatal: a file that cannot be read or parsed fails the load
	// (DiscoveryRun.Fail) instead of being skipped with a warning (Claude
	// Code's managed settings).
	Fatal bool
	// Prepare turns the file's text into JSON without moving any byte
	// (Gemini CLI blanks its // comments); nil reads it as it is.
	Prepare func([]byte) []byte
}

// ReadSettings reads one JSON settings file in the shape Claude Code,
// Gemini CLI and Qwen Code share: an object whose "hooks" key holds hook
// events. It returns the document and the walker that read those hooks;
// the caller reads its own keys from root, warns through w, and adds
// w.Hooks and w.Warns. ok is false when there is nothing to read: the file
// is missing (silently), or unreadable or malformed (a warning, or with
// Fatal a failure of the load).
func (d *DiscoveryRun) ReadSettings(p *Profile, path, layer string, o SettingsOptions) (root gjson.Result, w *Walker, ok bool) {
	data, err := ReadConfigFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return root, nil, false
	case err != nil && o.Fatal:
		d.Fail("failed to read managed settings %s: %v", path, err)
		return root, nil, false
	case err != nil:
		d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf("failed to read settings %s: %v", path, err)})
		return root, nil, false
	}
	w = NewWalker(p, Source{Layer: layer, Path: path}, path, data)
	text := data
	if o.Prepare != nil {
		text = o.Prepare(data)
	}
	clean, ok := w.CheckJSON(text)
	root = gjson.ParseBytes(clean)
	if ok && !root.IsObject() {
		w.Fail(root.Index, "expected a JSON object")
		ok = false
	}
	if !ok {
		if o.Fatal {
			d.Fail("%s", w.Warns[0].Message)
		} else {
			d.Add(nil, w.Warns)
		}
		return root, nil, false
	}
	if h := root.Get("hooks"); h.IsObject() {
		w.WalkHooks(h, "hooks")
	} else if h.Exists() && h.Type != gjson.Null {
		w.Warn(Site{Group: -1, Handler: -1}, h.Index, "hooks", "ignoring field %q in %s: expected an object of hook events", "hooks", path)
	}
	return root, w, true
}
