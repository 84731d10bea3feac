package hooks

import (
	"context"
	"strings"
	"testing"
)

func TestAllowEnv_KeepsOnlyNamedVariablesInOrder(t *testing.T) {
	env := []string{"B=2", "A=1", "AB=3", "C=x=y", "A_LONGER=4"}
	got := AllowEnv(env, []string{"A", "C", "MISSING"})
	if strings.Join(got, " ") != "A=1 C=x=y" {
		t.Fatalf("got %v", got)
	}
	if got := AllowEnv(env, []string{}); len(got) != 0 {
		t.Fatalf("empty allowlist kept %v", got)
	}
}

func TestCheckEnvNames_RejectsWhatCannotBeAName(t *testing.T) {
	if err := CheckEnvNames([]string{"PATH", "X_1"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "A=B", "A\x00"} {
		err := CheckEnvNames([]string{"PATH", bad})
		if err == nil || !strings.Contains(err.Error(), "envAllowlist: entry 1") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestOptions_EnvAllowlistAppliesToAnyProfile(t *testing.T) {
	t.Setenv("HOOKD_ALLOW_TEST", "visible")
	t.Setenv("HOOKD_DENY_TEST", "hidden")
	e := New(Options{Profile: codexProfile(), Session: Session{ID: "s", Cwd: t.TempDir()},
		Discover:     DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(`{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo \"${HOOKD_ALLOW_TEST:-none} ${HOOKD_DENY_TEST:-none}\""}]}]}`)},
		BypassTrust:  true,
		EnvAllowlist: []string{"PATH", "HOOKD_ALLOW_TEST"}})
	t.Cleanup(e.Close)
	e.Load()
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"x"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != "visible none" {
		t.Fatalf("context %+v hooks %+v", res.AdditionalContext, res.Hooks)
	}
}
