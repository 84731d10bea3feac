package hooks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

type managedFixture struct {
	dir, requirements string
	// key is the key of the first managed Stop hook.
	key string
}

// newManagedFixture writes a requirements.toml with the given [hooks] body
// (event arrays) and a managed hook folder that exists.
func newManagedFixture(t *testing.T, hooksBody string) *managedFixture {
	t.Helper()
	root := t.TempDir()
	m := &managedFixture{dir: filepath.Join(root, "managed-hooks"), requirements: filepath.Join(root, "requirements.toml")}
	discWriteFile(t, filepath.Join(m.dir, "guard.sh"), "exit 0\n")
	m.write(t, fmt.Sprintf("[hooks]\nmanaged_dir = %q\n%s", m.dir, hooksBody))
	m.key = m.dir + ":stop:0:0"
	return m
}

func (m *managedFixture) write(t *testing.T, content string) {
	t.Helper()
	discWriteFile(t, m.requirements, content)
}

const managedStop = "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo managed\"\n"

func TestManaged_ComeFirstTrustedAndCannotBeDisabledByTheUser(t *testing.T) {
	f := newTrustFixture(t)
	m := newManagedFixture(t, managedStop)
	f.writeUserConfig(t, stateTOML(m.key, "enabled = false"))
	opts := f.opts()
	opts.Managed = m.requirements
	r := DiscoverAll(codexProfile(), opts)
	if len(r.Fatal) != 0 {
		t.Fatal(r.Fatal)
	}
	cfgWantWarnings(t, r.Warnings)
	if got := cfgKeys(r.Hooks); len(got) != 3 || got[0] != m.key {
		t.Fatalf("keys %q, want the managed hook (keyed by its folder) first", got)
	}
	h := r.Hooks[0]
	if h.Trust != TrustManaged || !h.Enabled || h.Source != (Source{Layer: LayerManaged, Path: m.requirements}) || h.Order != 0 {
		t.Errorf("managed hook %+v", h)
	}
}

func TestManaged_RequiredHookErrorsAreFatal(t *testing.T) {
	group := func(matcher, handler string) string {
		return "[[hooks.PreToolUse]]\nmatcher = " + matcher + "\n[[hooks.PreToolUse.hooks]]\n" + handler
	}
	cases := []struct{ name, body, msg string }{
		{"bad matcher", group(`"(Bash"`, "type = \"command\"\ncommand = \"x\"\n"), "invalid matcher"},
		{"empty command", group(`"Bash"`, "type = \"command\"\ncommand = \"  \"\n"), "skipping empty hook command"},
		{"unsupported type", group(`"Bash"`, "type = \"prompt\"\n"), "prompt hooks are not supported"},
		{"empty MCP target", group(`"Bash"`, "type = \"mcp_tool\"\nserver = \"\"\ntool = \"t\"\n"), `field "server"`},
		{"SessionEnd MCP", "[[hooks.SessionEnd]]\n[[hooks.SessionEnd.hooks]]\ntype = \"mcp_tool\"\nserver = \"s\"\ntool = \"t\"\n", "SessionEnd MCP hooks are not supported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newManagedFixture(t, tc.body)
			r := DiscoverAll(codexProfile(), DiscoverOptions{Home: t.TempDir(), Managed: m.requirements})
			if len(r.Fatal) != 1 || !strings.Contains(r.Fatal[0].Error(), "failed to load required managed hooks") ||
				!strings.Contains(r.Fatal[0].Error(), tc.msg) {
				t.Errorf("fatal %v, want one naming %q", r.Fatal, tc.msg)
			}
		})
	}
}

func TestManaged_IgnoredFieldsStayWarnings(t *testing.T) {
	m := newManagedFixture(t, managedStop+"timeoutSec = 5\n")
	r := DiscoverAll(codexProfile(), DiscoverOptions{Home: t.TempDir(), Managed: m.requirements})
	if len(r.Fatal) != 0 || len(r.Hooks) != 1 {
		t.Fatalf("fatal %v hooks %d", r.Fatal, len(r.Hooks))
	}
	wantWarning(t, r.Warnings, `ignoring unknown field "timeoutSec"`)
}

func TestManaged_MissingFolderSkipsManagedHooksWithAWarning(t *testing.T) {
	m := newManagedFixture(t, "")
	missing := filepath.Join(m.dir, "gone")
	m.write(t, fmt.Sprintf("[hooks]\nmanaged_dir = %q\n%s", missing, managedStop))
	r := DiscoverAll(codexProfile(), DiscoverOptions{Home: t.TempDir(), Managed: m.requirements})
	if len(r.Fatal) != 0 || len(r.Hooks) != 0 {
		t.Fatalf("fatal %v hooks %q", r.Fatal, cfgKeys(r.Hooks))
	}
	wantWarning(t, r.Warnings, "managed hook directory "+missing+" does not exist")
}

func TestManaged_WithoutAFolderTheRequirementsFileIsTheKeySource(t *testing.T) {
	m := newManagedFixture(t, "")
	m.write(t, managedStop)
	r := DiscoverAll(codexProfile(), DiscoverOptions{Home: t.TempDir(), Managed: m.requirements})
	if len(r.Fatal) != 0 || len(r.Hooks) != 1 || r.Hooks[0].Key != m.requirements+":stop:0:0" {
		t.Fatalf("fatal %v keys %q", r.Fatal, cfgKeys(r.Hooks))
	}
}

func TestManaged_RequirementsFileProblems(t *testing.T) {
	m := newManagedFixture(t, "")
	r := DiscoverAll(codexProfile(), DiscoverOptions{Home: t.TempDir(), Managed: filepath.Join(m.dir, "none.toml")})
	if len(r.Fatal) != 0 {
		t.Errorf("a missing requirements file is no requirements: %v", r.Fatal)
	}
	for content, msg := range map[string]string{
		"[hooks\n":                           "parse managed requirements",
		"allow_managed_hooks_only = \"y\"\n": "allow_managed_hooks_only",
		"[features]\nhooks = 1\n":            "features.hooks",
		"hooks = 3\n":                        "must be a table",
	} {
		m.write(t, content)
		r := DiscoverAll(codexProfile(), DiscoverOptions{Home: t.TempDir(), Managed: m.requirements})
		if len(r.Fatal) == 0 || !strings.Contains(r.Fatal[0].Error(), msg) {
			t.Errorf("%q: fatal %v, want one naming %q", content, r.Fatal, msg)
		}
	}
}

func TestManaged_ManagedOnlyHoldsEveryOtherSource(t *testing.T) {
	f := newTrustFixture(t)
	m := newManagedFixture(t, managedStop)
	m.write(t, fmt.Sprintf("allow_managed_hooks_only = true\n[hooks]\nmanaged_dir = %q\n%s", m.dir, managedStop))
	opts := f.opts()
	opts.Managed = m.requirements
	opts.SessionHooks = []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "echo session"}]}]}`)
	e := newEngine(t, opts, true)
	r := skipReasons(t, e, "Stop", `{}`)
	for _, k := range []string{f.userKey, f.projectKey, "session:stop:0:0"} {
		if r[k] != PolicyManagedOnly {
			t.Errorf("%s: skip %q, want managedOnly (even with bypass)", k, r[k])
		}
	}
	if _, skipped := r[m.key]; skipped || len(r) != 3 {
		t.Errorf("skipped %v", r)
	}
	_, warns := e.List("")
	wantWarning(t, warns, "do not run: allow_managed_hooks_only = true in "+m.requirements)
}

func TestManaged_ManagedOnlyInUserConfigHasNoEffect(t *testing.T) {
	f := newTrustFixture(t)
	f.writeUserConfig(t, "allow_managed_hooks_only = true\n")
	r := DiscoverAll(codexProfile(), f.opts())
	for _, h := range r.Hooks {
		if h.Policy != "" {
			t.Errorf("%s held by %q", h.Key, h.Policy)
		}
	}
}

func TestFeatures_HooksFlag(t *testing.T) {
	cases := []struct {
		name, user, project, requirements string
		off                               bool
	}{
		{name: "a project cannot turn the user's off switch back on", user: "[features]\nhooks = false\n", project: "[features]\nhooks = true\n", off: true},
		{name: "a project may turn hooks off", user: "[features]\nhooks = true\n", project: "[features]\ncodex_hooks = false\n", off: true},
		{name: "a project saying on changes nothing when the user said nothing", project: "[features]\nhooks = true\n"},
		{name: "default on"},
		{name: "user turns hooks off", user: "[features]\nhooks = false\n", off: true},
		{name: "legacy alias", user: "[features]\ncodex_hooks = false\n", off: true},
		{name: "the current name wins over the alias", user: "[features]\nhooks = true\ncodex_hooks = false\n"},
		{name: "requirements force hooks on", user: "[features]\nhooks = false\n", project: "[features]\nhooks = false\n", requirements: "[features]\nhooks = true\n"},
		{name: "requirements force hooks off", requirements: "[features]\ncodex_hooks = false\n", off: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newTrustFixture(t)
			m := newManagedFixture(t, managedStop)
			m.write(t, fmt.Sprintf("%s[hooks]\nmanaged_dir = %q\n%s", tc.requirements, m.dir, managedStop))
			f.writeUserConfig(t, tc.user)
			discWriteFile(t, filepath.Join(f.project, ".codex", "config.toml"), tc.project)
			opts := f.opts()
			opts.Managed = m.requirements
			e := newEngine(t, opts, true)
			r := skipReasons(t, e, "Stop", `{}`)
			for _, k := range []string{m.key, f.userKey, f.projectKey} {
				if off := r[k] == PolicyHooksDisabled; off != tc.off {
					t.Errorf("%s: skip %q, want hooks off = %v", k, r[k], tc.off)
				}
			}
		})
	}
}
