package hooks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// A hook's hash names what the hook is, as its key names where it is: trust is
// stored per key together with the hash that was reviewed. The hash is Codex's
// (reference/codex-hooks.md 2.3), byte for byte, so that a hook trusted in Codex
// is trusted here and the other way round:
//
//	sha256 of the compact JSON, keys sorted, of
//	{"event_name": <snake label>, "matcher": <effective matcher, when set>,
//	 "hooks": [<the one normalized handler>]}
//
// A plugin hook from outside the host's install cache (--plugin, a scanned
// folder) adds "plugin_root": <its resolved folder>, so trust names the folder
// whose scripts run as well as the command (docs/trust-security.md).
//
// Codex writes that JSON with serde_json, which differs from Go's encoders in
// two ways that matter here: it leaves U+2028 and U+2029 raw, and it prints
// floating-point numbers as ryu does (1.0, 1e20). Everything else (escaping
// only '"', '\\' and control characters, \b and \f short forms, lower-case
// \u00xx) is what goccy/go-json writes with HTML escaping off.

// defaultContextLimit is the additionalContextLimit that applies when none is
// set; setting it explicitly does not change a hook's hash.
const defaultContextLimit = 2500

// lazyHash is a hook's hash, computed when first asked for: a load of
// hundreds of plugin hooks needs the hash only of those the state file has
// a trusted hash for, and of those listed, trusted or explained. It keeps a
// copy of what the hash is of, as the hook was read, so that what a profile
// changes in the hook afterwards (qwen's extension root in a command) does
// not change its hash, exactly as when every hook was hashed as it was read.
type lazyHash struct {
	once  sync.Once
	label string
	read  hashed
	value string
}

// hashed is the part of a hook its hash is of (identity).
type hashed struct {
	handler    Handler
	matcher    string
	hasMatcher bool
	pluginRoot string
}

func hashedOf(h *Hook) hashed {
	return hashed{handler: h.Handler, matcher: h.Matcher, hasMatcher: h.HasMatcher, pluginRoot: h.Source.pluginRoot}
}

// setHash makes h's hash that of h as it is now, under the event label.
func (h *Hook) setHash(label string) {
	h.hash = &lazyHash{label: label, read: hashedOf(h)}
}

// Hash is "sha256:<hex>" of the normalized hook as it was read (trust), or
// "" for a hook that was never hashed (a profile without trust, such as
// copilot, builds its own).
func (h *Hook) Hash() string {
	lh := h.hash
	if lh == nil {
		return ""
	}
	lh.once.Do(func() { lh.value = identityHash(lh.label, &lh.read) })
	return lh.value
}

// identityHash returns "sha256:<hex>" of the canonical identity of r for
// this platform.
func identityHash(label string, r *hashed) string {
	sum := sha256.Sum256(identity(label, r, runtime.GOOS == "windows"))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// identity is the canonical JSON that is hashed, of the hashed part of a
// hook. windows selects the command Codex would run there (commandWindows
// when set).
func identity(label string, h *hashed, windows bool) []byte {
	hd := h.handler
	handler := map[string]any{"type": hd.Type, "timeout": hd.Timeout}
	if hd.StatusMessage != nil {
		handler["statusMessage"] = *hd.StatusMessage
	}
	switch hd.Type {
	case TypeCommand:
		// The command as configured: plugin ${PLUGIN_ROOT} substitution
		// happens when the hook runs, so trust survives a plugin moving.
		cmd := hd.Command
		if windows && hd.CommandWindows != "" {
			cmd = hd.CommandWindows
		}
		handler["command"] = cmd
		// The configured value, even where the event forces it off.
		handler["async"] = hd.AsyncConfigured
		if l := hd.AdditionalContextLimit; l != nil && *l != defaultContextLimit {
			handler["additionalContextLimit"] = *l
		}
	case TypeMCPTool:
		handler["server"] = hd.Server
		handler["tool"] = hd.Tool
		handler["input"] = canonicalInput(hd.Input)
	default:
		// A kind a profile adds: the handler as written names it.
		if len(hd.Config) > 0 {
			handler["config"] = canonicalInput(hd.Config)
		}
	}
	id := map[string]any{"event_name": label, "hooks": []any{handler}}
	if h.hasMatcher {
		id["matcher"] = h.matcher
	}
	if h.pluginRoot != "" {
		// hookd's own field: Codex loads plugins only from its install
		// cache, whose hooks never carry it, so hashes stay Codex's there.
		id["plugin_root"] = h.pluginRoot
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Maps are written with sorted keys; nothing here can fail to encode.
	_ = enc.Encode(id)
	return unescapeLineSeparators(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// canonicalInput decodes an mcp_tool input template with its numbers kept as
// written, then rewrites each number the way Codex's round trip through TOML
// prints it: integers as integers, anything with a fraction or an exponent as
// a float in ryu's form. "1.0" in JSON and 1.0 in TOML both become 1.0; 1 and
// 1 become 1.
func canonicalInput(raw json.RawMessage) any {
	if len(raw) == 0 {
		return map[string]any{}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		// The walker only stores inputs it has validated; keep the text.
		return raw
	}
	return canonicalNumbers(v)
}

func canonicalNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = canonicalNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = canonicalNumbers(e)
		}
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return json.Number(strconv.FormatInt(n, 10))
			}
		}
		// Beyond int64 serde_json reads a number as a float too.
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return json.Number(ryuFloat(f))
		}
	}
	return v
}

// ryuFloat formats a finite float as serde_json does (through the ryu crate):
// the shortest digits that round-trip, in plain notation while the decimal
// exponent is within (-5, 16], in scientific notation with a bare exponent
// (1e20, 1.5e-7) beyond, and always with a fraction or an exponent.
func ryuFloat(f float64) string {
	// 'e' with precision -1 gives the shortest round-trip digits: d.ddde±x.
	s := strconv.FormatFloat(f, 'e', -1, 64)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	n := len(digits)
	kk := exp + 1 // the value is 0.<digits> * 10^kk
	switch {
	case kk-n >= 0 && kk <= 16:
		return sign + digits + strings.Repeat("0", kk-n) + ".0"
	case kk > 0 && kk <= 16:
		return sign + digits[:kk] + "." + digits[kk:]
	case kk > -5 && kk <= 0:
		return sign + "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		return sign + digits + "e" + strconv.Itoa(kk-1)
	default:
		return sign + digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
}

// unescapeLineSeparators turns the \u2028 and \u2029 escapes Go's encoders
// always write back into the raw characters serde_json writes. An escaped
// backslash followed by the text "u2028" is left alone.
func unescapeLineSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+5 < len(b) && (string(b[i+2:i+6]) == "2028" || string(b[i+2:i+6]) == "2029") {
			r := '\u2028'
			if b[i+5] == '9' {
				r = '\u2029'
			}
			out = utf8.AppendRune(out, r)
			i += 5
			continue
		}
		// Any other escape is two bytes long; copy it whole so its second
		// byte is never read as the start of an escape.
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}
