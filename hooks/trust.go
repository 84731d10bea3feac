package hooks

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks/statefile"
)

// Trust and enablement (SEMANTICS.md 2.2, reference/codex-hooks.md 2.3).
//
// A non-managed hook runs only when it is enabled and its content was reviewed:
// the user config.toml records, per hook key, the hash that was trusted:
//
//	[hooks.state."/home/u/.codex/hooks.json:pre_tool_use:0:0"]
//	enabled = false
//	trusted_hash = "sha256:..."
//
// State is read only from the user config.toml and from the overrides of the
// current process (the session's config.hooks.state, the command line's
// --hook-state), later ones winning field by field. A project's config.toml,
// or a profile table in any config, may not supply state: a layer cannot
// authorize itself, so such state is ignored with a warning.

// Reasons a policy keeps a hook from running, as reported in Skip.Reason.
const (
	PolicyManagedOnly   = "managedOnly"
	PolicyHooksDisabled = "hooksDisabled"
)

// HookState is one [hooks.state."<key>"] entry; nil fields are unset.
type HookState struct {
	Enabled     *bool
	TrustedHash *string
}

// StatePath returns the file that holds hook state for the profile and user
// folder home ("" = the default folder): <home>/config.toml, or "" when there
// is no user folder.
func StatePath(p *Profile, home string) string {
	h := ResolveHome(p, home)
	if h == "" {
		return ""
	}
	return filepath.Join(h, ConfigTOMLName)
}

// SplitSessionState takes the "state" member out of the session hooks object,
// where a host may give state overrides in the shape of [hooks.state], and
// returns the hooks without it.
func (d *DiscoveryRun) SplitSessionState(session []byte) []byte {
	st := gjson.GetBytes(session, "state")
	if !st.Exists() {
		return session
	}
	d.SessionState = []byte(st.Raw)
	if rest, err := sjson.DeleteBytes(session, "state"); err == nil {
		return rest
	}
	return session
}

// Finish applies policy, trust and enablement to the hooks found.
func (d *DiscoveryRun) Finish(p *Profile, opts DiscoverOptions) *Discovery {
	home := ResolveHome(p, opts.Home)
	state := map[string]HookState{}
	hooksOn := true
	var offBy string

	if home != "" {
		path := filepath.Join(home, ConfigTOMLName)
		if doc := ReadConfigQuiet(path); doc != nil {
			if st, ok := TOMLStateTable(doc); ok {
				d.MergeState(state, st, path)
			}
			d.warnProfileState(doc, path)
			if on, set, err := featureFlag(doc); err != nil {
				d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf("ignoring %v in %s", err, path)})
			} else if set {
				hooksOn, offBy = on, path
			}
		}
	}
	if dir := ProjectFolder(p, opts, home); dir != "" {
		path := filepath.Join(dir, ConfigTOMLName)
		if doc := ReadConfigQuiet(path); doc != nil {
			if _, ok := TOMLStateTable(doc); ok {
				d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf(
					"ignoring hooks.state in %s: trust and enablement are read only from the user config.toml (a project cannot authorize its own hooks)", path)})
			}
			d.warnProfileState(doc, path)
			on, set, err := featureFlag(doc)
			switch {
			case err != nil:
				d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf("ignoring %v in %s", err, path)})
			case set && on && !hooksOn:
				// The user's off switch is the user's: a project may turn
				// hooks off, never back on (Codex lets it; see
				// docs/trust-security.md).
				d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf(
					"ignoring [features] hooks = true in %s: the user config %s turns hooks off, and a project cannot turn them back on", path, offBy)})
			case set:
				hooksOn, offBy = on, path
			}
		}
	}
	d.MergeJSONState(state, d.SessionState, "session")
	d.MergeJSONState(state, opts.StateOverrides, "--hook-state")
	if f := d.req.hooksFeature; f != nil {
		hooksOn, offBy = *f, d.req.path
	}

	if !hooksOn && len(d.Hooks) > 0 {
		d.Warns = append(d.Warns, Warning{Source: offBy, Message: fmt.Sprintf(
			"hooks are turned off by [features] hooks = false in %s: no hook runs", offBy)})
	}
	warned := map[string]bool{}
	for _, h := range d.Hooks {
		switch {
		case !hooksOn:
			h.Policy = PolicyHooksDisabled
		case d.req.managedOnly && h.Source.Layer != LayerManaged:
			h.Policy = PolicyManagedOnly
			if !warned[h.Source.Path] {
				warned[h.Source.Path] = true
				d.Warns = append(d.Warns, Warning{Source: h.Source.Path, Message: fmt.Sprintf(
					"hooks in %s do not run: allow_managed_hooks_only = true in %s", h.Source.Path, d.req.path)})
			}
		}
		if h.Source.Layer == LayerManaged {
			// Managed hooks are always trusted and cannot be disabled.
			h.Trust, h.Enabled = TrustManaged, true
			continue
		}
		st := state[h.Key]
		h.Enabled = st.Enabled == nil || *st.Enabled
		switch {
		case st.TrustedHash == nil:
			h.Trust = TrustUntrusted
		case *st.TrustedHash == h.Hash():
			h.Trust, h.TrustedHash = TrustTrusted, *st.TrustedHash
		default:
			h.Trust, h.TrustedHash = TrustModified, *st.TrustedHash
		}
	}
	return &Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal, LeftOut: d.LeftOut}
}

// ReadConfigQuiet decodes a config.toml. Problems reading or parsing it are
// already reported by hook discovery, which reads the same file.
func ReadConfigQuiet(path string) map[string]any {
	data, err := ReadConfigFile(path)
	if err != nil {
		return nil
	}
	var doc map[string]any
	if toml.Unmarshal(data, &doc) != nil {
		return nil
	}
	return doc
}

// TOMLStateTable returns doc's hooks.state value, if it has one.
func TOMLStateTable(doc map[string]any) (any, bool) {
	hooks, ok := doc["hooks"].(map[string]any)
	if !ok {
		return nil, false
	}
	st, ok := hooks["state"]
	return st, ok
}

// MergeJSONState merges state overrides given as JSON ({"<key>": {...}}).
func (d *DiscoveryRun) MergeJSONState(state map[string]HookState, raw []byte, source string) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		d.Warns = append(d.Warns, Warning{Source: source, Message: fmt.Sprintf("ignoring hook state from %s: %v", source, err)})
		return
	}
	d.MergeState(state, v, source)
}

// warnProfileState reports state written inside [profiles.<name>], which
// would let a profile authorize hooks.
func (d *DiscoveryRun) warnProfileState(doc map[string]any, path string) {
	profiles, _ := doc["profiles"].(map[string]any)
	names := make([]string, 0, len(profiles))
	for name := range profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		prof, _ := profiles[name].(map[string]any)
		if _, ok := TOMLStateTable(prof); ok {
			d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf(
				"ignoring hooks.state in profile %q of %s: trust and enablement are read only from [hooks.state] of the user config.toml", name, path)})
		}
	}
}

// MergeState reads a state table (as decoded from TOML or JSON) into state,
// field by field over what is there. A malformed entry is ignored whole, with
// a warning, as Codex ignores it.
func (d *DiscoveryRun) MergeState(state map[string]HookState, table any, source string) {
	warn := func(format string, args ...any) {
		d.Warns = append(d.Warns, Warning{Source: source, Message: fmt.Sprintf(format, args...)})
	}
	entries, isTable := table.(map[string]any)
	if !isTable {
		warn("ignoring hooks.state in %s: expected a table of hook keys", source)
		return
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, raw := range keys {
		key := strings.TrimSpace(raw)
		if key == "" {
			warn("ignoring hooks.state entry with an empty key in %s", source)
			continue
		}
		fields, isTable := entries[raw].(map[string]any)
		if !isTable {
			warn("ignoring malformed hooks.state entry %q in %s: expected a table", key, source)
			continue
		}
		var st HookState
		bad := ""
		for name, v := range fields {
			switch name {
			case "enabled":
				b, isBool := v.(bool)
				if !isBool {
					bad = `field "enabled" must be true or false`
				}
				st.Enabled = &b
			case "trusted_hash":
				s, isString := v.(string)
				if !isString {
					bad = `field "trusted_hash" must be a string`
				}
				st.TrustedHash = &s
			default:
				warn("ignoring unknown field %q in hooks.state entry %q in %s", name, key, source)
			}
		}
		if bad != "" {
			warn("ignoring malformed hooks.state entry %q in %s: %s", key, source, bad)
			continue
		}
		cur := state[key]
		if st.Enabled != nil {
			cur.Enabled = st.Enabled
		}
		if st.TrustedHash != nil {
			cur.TrustedHash = st.TrustedHash
		}
		state[key] = cur
	}
}

// TrustedHook is one hook recorded as trusted.
type TrustedHook struct {
	Key  string `json:"key"`
	Hash string `json:"hash"`
}

// StatePath returns the file this engine records hook state in.
func (e *Engine) StatePath() string { return StatePath(e.profile, e.opts.Discover.Home) }

// LoadChecked discovers hooks again and replaces the engine's hook set. When
// required managed hooks fail to load it returns the reason and keeps the
// current set, so a session is never left running without its policy.
//
// A load that began before the one whose hooks are in use (loads overlap)
// read older files: it installs nothing and returns the current summary.
func (e *Engine) LoadChecked() (Summary, error) {
	gen := e.loads.Add(1)
	r := e.discoverPaused()
	if len(r.Fatal) > 0 {
		return e.Summary(), errors.Join(r.Fatal...)
	}
	e.mu.Lock()
	if gen < e.installed {
		e.mu.Unlock()
		return e.Summary(), nil
	}
	e.installed = gen
	e.hooks, e.byEvent, e.warnings = r.Hooks, indexHooks(r.Hooks), r.Warnings
	e.sources = sourceReport{Project: r.Project, LeftOut: r.LeftOut}
	// The profile's settings with the hooks they came with: under mu, so
	// that an older load cannot write its settings after a newer one.
	for k, v := range r.Settings {
		e.state.SetString(k, v)
	}
	e.mu.Unlock()
	e.resolveLoginEnv()
	return e.summary(r.Hooks, r.Warnings), nil
}

// discoverPaused runs the profile's discovery with the collector paused;
// the pause ends by defer, also when discovery panics.
func (e *Engine) discoverPaused() *Discovery {
	defer PauseGC()()
	return e.profile.discover(e.opts.Discover)
}

// AwaitingReview counts the hooks that would run but for a review: enabled,
// not held by a policy, and untrusted or modified since they were trusted.
func (e *Engine) AwaitingReview() int {
	hooks, _ := e.snapshot()
	n := 0
	for _, h := range hooks {
		if why := e.skipReason(h); why == TrustUntrusted || why == TrustModified {
			n++
		}
	}
	return n
}

// lookup finds the hooks named by keys in the current set. An unknown key is
// a ParamError naming field; nothing is looked up by halves.
func (e *Engine) lookup(field string, keys []string) ([]*Hook, error) {
	hooks, _ := e.snapshot()
	byKey := make(map[string]*Hook, len(hooks))
	for _, h := range hooks {
		byKey[h.Key] = h
	}
	out := make([]*Hook, 0, len(keys))
	for _, k := range keys {
		h, ok := byKey[strings.TrimSpace(k)]
		if !ok {
			return nil, &ParamError{Field: field, Msg: fmt.Sprintf("unknown hook key %q", k)}
		}
		out = append(out, h)
	}
	return out, nil
}

// Trust records the current hash of each hook named by keys as trusted, in
// the user config.toml, and returns what it recorded. Managed hooks are
// trusted already and are returned without writing. Enablement is left as it
// is: re-trusting a modified hook keeps it disabled if it was. The engine's
// hook set is not reloaded; call Load. The write waits for another writer's
// lock at most statefile.LockWait, and no longer than ctx lasts.
func (e *Engine) Trust(ctx context.Context, keys []string) ([]TrustedHook, error) {
	if !e.profile.Trust {
		return nil, &ParamError{Field: "keys", Msg: fmt.Sprintf("the %s profile does not review hooks", e.profile.Name)}
	}
	hooks, err := e.lookup("keys", keys)
	if err != nil {
		return nil, err
	}
	out := []TrustedHook{}
	var changes []statefile.Change
	seen := map[string]bool{}
	for _, h := range hooks {
		if seen[h.Key] {
			continue
		}
		seen[h.Key] = true
		out = append(out, TrustedHook{Key: h.Key, Hash: h.Hash()})
		if h.Source.Layer != LayerManaged {
			changes = append(changes, statefile.Change{Key: h.Key, TrustedHash: h.Hash()})
		}
	}
	if err := e.writeState(ctx, changes); err != nil {
		return nil, err
	}
	return out, nil
}

// SetEnabled records whether the hook named by key may run. Managed hooks
// cannot be disabled. The engine's hook set is not reloaded; call Load. The
// write waits for the lock as Trust's does.
func (e *Engine) SetEnabled(ctx context.Context, key string, enabled bool) error {
	hooks, err := e.lookup("key", []string{key})
	if err != nil {
		return err
	}
	h := hooks[0]
	if e.profile.NoEnablement {
		return &ParamError{Field: "key", Msg: fmt.Sprintf("the %s profile has no per-hook enable switch: edit or remove the hook in %s instead", e.profile.Name, h.Source.Path)}
	}
	if h.Source.Layer == LayerManaged {
		if enabled {
			return nil
		}
		return &ParamError{Field: "key", Msg: fmt.Sprintf("managed hooks cannot be disabled (%s comes from %s)", h.Key, h.Source.Path)}
	}
	return e.writeState(ctx, []statefile.Change{{Key: h.Key, Enabled: &enabled}})
}

func (e *Engine) writeState(ctx context.Context, changes []statefile.Change) error {
	if len(changes) == 0 {
		return nil
	}
	path := e.StatePath()
	if path == "" {
		return errors.New("cannot record hook state: no user folder (set $" + e.profile.HomeEnv + " or $HOME)")
	}
	if err := statefile.Update(ctx, path, changes); err != nil {
		return fmt.Errorf("record hook state: %w", err)
	}
	return nil
}
