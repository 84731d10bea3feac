package claude

import (
	"slices"
	"testing"
)

func TestScrub_RemovesWhatClaudeCodeRemovesByName(t *testing.T) {
	removed := []string{
		// Provider credentials by name, any case, INPUT_ forms included.
		"ANTHROPIC_API_KEY", "anthropic_api_key", "INPUT_ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN",
		"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CLIENT_SECRET",
		"HF_TOKEN", "VAULT_TOKEN", "SLACK_WEBHOOK_URL",
		// Where credentials are kept.
		"SSH_AUTH_SOCK", "KUBECONFIG", "DOCKER_CONFIG", "XDG_CONFIG_HOME", "GIT_ASKPASS", "CLAUDE_CONFIG_DIR",
		// Names that say they hold a secret.
		"OPENAI_API_KEY", "MY_SERVICE_TOKEN", "DB_PASSWORD", "GITHUBTOKEN", "STRIPE_SECRET_2", "APP_JWT",
		"stripeApiKey", "SENTRY_DSN", "DATABASE_CONNECTION_STRING", "AUTH0_CLIENT_SECRET", "NPM-TOKEN",
		// Per-registry logins.
		"POETRY_HTTP_BASIC_PYPI_PASSWORD", "POETRY_HTTP_BASIC_PYPI_X", "ORG_GRADLE_PROJECT_mavenUser",
		"CARGO_REGISTRIES_CORP_TOKEN",
	}
	kept := []string{
		"PATH", "HOME", "PWD", "OLDPWD", "GOPATH", "XAUTHORITY", "TERM", "SHELL", "LANG",
		"CLAUDE_CODE_SUBPROCESS_ENV_SCRUB", "CLAUDE_PROJECT_DIR",
		"GITHUB_TOKEN", "GH_TOKEN", "HTTPS_PROXY", "no_proxy", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
		"GIT_CONFIG_VALUE_0", "CLAUDE_CODE_API_KEY_HELPER_TTL_MS", "CLAUDE_CODE_SKIP_BEDROCK_AUTH",
		"CARGO_REGISTRIES_CORP_INDEX", "KEYBOARD_LAYOUT",
	}
	for _, n := range removed {
		if !scrubbed(n) {
			t.Errorf("%s is kept; Claude Code's scrub removes it", n)
		}
	}
	for _, n := range kept {
		if scrubbed(n) {
			t.Errorf("%s is removed; Claude Code's scrub keeps it", n)
		}
	}
}

func TestScrub_OnlyWhenTheSwitchIsOn(t *testing.T) {
	base := []string{"PATH=/bin", "ANTHROPIC_API_KEY=sk-ant-x", "AWS_SESSION_TOKEN=t"}
	for v, on := range map[string]bool{"1": true, " TRUE ": true, "yes": true, "On": true, "0": false, "": false, "false": false, "2": false} {
		env := claudeEnv(append(slices.Clone(base), "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB="+v))
		if has := slices.Contains(env, "ANTHROPIC_API_KEY=sk-ant-x"); has == on {
			t.Errorf("CLAUDE_CODE_SUBPROCESS_ENV_SCRUB=%q: ANTHROPIC_API_KEY kept = %v", v, has)
		}
		if !slices.Contains(env, "PATH=/bin") || !slices.Contains(env, "CLAUDECODE=1") {
			t.Errorf("CLAUDE_CODE_SUBPROCESS_ENV_SCRUB=%q: env %q", v, env)
		}
	}
	if env := claudeEnv(base); !slices.Contains(env, "ANTHROPIC_API_KEY=sk-ant-x") {
		t.Errorf("without the switch: %q", env)
	}
}
