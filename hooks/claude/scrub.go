package claude

import (
	"strings"

	"github.com/hookd/hookd/internal/lazyre"
)

// Claude Code's subprocess credential scrub, as the claude profile applies it
// to hook environments when CLAUDE_CODE_SUBPROCESS_ENV_SCRUB is on in hookd's
// environment. The names and patterns were read from the CLI that SEMANTICS.md
// section 6 measured (@anthropic-ai/claude-code 2.1.328, its linux-x64
// binary); docs/trust-security.md says how, and what is not reproduced.

// scrubOn is the switch's reading in Claude Code: "1", "true", "yes" or "on",
// in any case, around spaces.
func scrubOn(env []string) bool {
	for _, kv := range env {
		if name, v, _ := strings.Cut(kv, "="); name == "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB" {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "1", "true", "yes", "on":
				return true
			}
			return false
		}
	}
	return false
}

// scrubNames are removed by name, with or without an INPUT_ prefix (GitHub
// Actions' form), in any case and with '-' read as '_': provider and registry
// credentials, then the files and folders where credentials are kept.
var scrubNames = func() map[string]bool {
	credentials := []string{
		"ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_SESSIONS_OAUTH_TOKEN",
		"CLAUDE_CODE_RUNNER_MODEL_SOCKET", "CLAUDE_CODE_ARTIFACTS_API_TOKEN", "CLAUDE_CODE_MEMORY_API_TOKEN",
		"CLAUDE_CODE_SLACK_TAG_TOKEN", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_FOUNDRY_API_KEY",
		"ANTHROPIC_FOUNDRY_AUTH_TOKEN", "ANTHROPIC_AWS_API_KEY", "ANTHROPIC_CUSTOM_HEADERS",
		"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK",
		"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_GHA_CREDS_PATH", "AZURE_CLIENT_SECRET",
		"IDENTITY_HEADER", "MSI_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH", "AZURE_CLIENT_CERTIFICATE_PASSWORD",
		"AZURE_PASSWORD", "AZURE_FEDERATED_TOKEN_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
		"AWS_CONTAINER_AUTHORIZATION_TOKEN", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
		"CLOUDSDK_AUTH_ACCESS_TOKEN", "GOOGLE_OAUTH_ACCESS_TOKEN", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
		"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACEHUB_API_TOKEN", "NODE_AUTH_TOKEN",
		"NUGET_AUTH_TOKEN", "CARGO_REGISTRY_TOKEN", "TWINE_PASSWORD", "TWINE_USERNAME", "PYPI_TOKEN",
		"PYPI_API_TOKEN", "UV_PUBLISH_TOKEN", "UV_PUBLISH_PASSWORD", "UV_PUBLISH_USERNAME",
		"FLIT_PASSWORD", "FLIT_USERNAME", "HATCH_INDEX_AUTH", "HATCH_INDEX_USER", "GEM_HOST_API_KEY",
		"MATURIN_PYPI_TOKEN", "MATURIN_PASSWORD", "MATURIN_USERNAME", "CONAN_LOGIN_USERNAME",
		"CONAN_PASSWORD", "ANACONDA_API_TOKEN", "BINSTAR_API_TOKEN", "VAULT_TOKEN", "VAULT_AUTH_TOKEN",
		"VAULT_ROLE_ID", "VAULT_SECRET_ID", "CONSUL_HTTP_TOKEN", "CONSUL_HTTP_AUTH", "NOMAD_TOKEN",
		"NOMAD_HTTP_AUTH", "CI_REGISTRY_USER", "CI_DEPLOY_USER", "JF_USER", "FASTLANE_SESSION",
		"MATCH_GIT_BASIC_AUTHORIZATION", "SONAR_TOKEN", "SONARQUBE_SCANNER_PARAMS",
		"SONAR_SCANNER_JSON_PARAMS", "SLACK_WEBHOOK_URL", "SLACK_WEBHOOK", "DISCORD_WEBHOOK",
		"DISCORD_WEBHOOK_URL", "TEAMS_WEBHOOK_URL", "MS_TEAMS_WEBHOOK_URI", "ANTHROPIC_IDENTITY_TOKEN",
		"ANTHROPIC_IDENTITY_TOKEN_FILE", "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE",
		"CLOUDSDK_AUTH_AUTHORIZATION_TOKEN_FILE", "AZURE_AUTH_LOCATION", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
		"ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_RUNTIME_URL", "ALL_INPUTS",
		"VSS_NUGET_EXTERNAL_FEED_ENDPOINTS", "ARTIFACTS_CREDENTIALPROVIDER_EXTERNAL_FEED_ENDPOINTS",
		"VSS_NUGET_ACCESSTOKEN", "ARTIFACTS_CREDENTIALPROVIDER_ACCESSTOKEN", "COMPOSER_AUTH",
		"OVERRIDE_GITHUB_TOKEN", "DEFAULT_WORKFLOW_TOKEN", "SSH_SIGNING_KEY",
	}
	locations := []string{
		"AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "CLOUDSDK_CONFIG", "AZURE_CONFIG_DIR",
		"KUBECONFIG", "NETRC", "PGPASSFILE", "PGSERVICEFILE", "DOCKER_CONFIG", "GH_CONFIG_DIR",
		"GNUPGHOME", "NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG", "SSH_AUTH_SOCK",
		"GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "SSH_AGENT_PID",
		"TF_CLI_CONFIG_FILE", "WGETRC", "PIP_CONFIG_FILE", "UV_CONFIG_FILE", "RCLONE_CONFIG",
		"BOTO_CONFIG", "BOTO_PATH", "S3CMD_CONFIG", "SOPS_AGE_KEY_FILE", "ANSIBLE_VAULT_PASSWORD_FILE",
		"ANSIBLE_VAULT_IDENTITY_LIST", "ANSIBLE_CONFIG", "GOAUTH", "SBT_CREDENTIALS",
		"COURSIER_CREDENTIALS", "CONSUL_HTTP_TOKEN_FILE", "SYSTEM_WGETRC", "CLOUDSDK_ROOT_DIR",
		"M2_HOME", "MAVEN_HOME", "LEIN_HOME", "SSLKEYLOGFILE", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
		"XDG_RUNTIME_DIR", "HELM_REGISTRY_CONFIG", "HELM_REPOSITORY_CONFIG", "HELM_CONFIG_HOME",
		"REGISTRY_AUTH_FILE", "DOCKER_CERT_PATH", "SSL_CLIENT_CERT", "GIT_SSL_CERT", "GIT_SSL_KEY",
		"PIP_CLIENT_CERT", "PGSSLKEY", "VAULT_CLIENT_KEY", "VAULT_CLIENT_CERT", "CONSUL_CLIENT_KEY",
		"CONSUL_CLIENT_CERT", "NOMAD_CLIENT_KEY", "NOMAD_CLIENT_CERT", "PGSSLCERT", "PGSYSCONFDIR",
		"CURL_HOME", "CARGO_HOME", "COMPOSER_HOME", "GRADLE_USER_HOME", "BUNDLE_CONFIG",
		"BUNDLE_USER_CONFIG", "BUNDLE_USER_HOME", "BUNDLE_APP_CONFIG", "POETRY_CONFIG_DIR",
		"COURSIER_CONFIG_DIR", "HEX_HOME", "HF_HOME", "HF_TOKEN_PATH", "HF_STORED_TOKENS_PATH",
		"CONDARC", "BUN_CONFIG_FILE", "GOENV", "NPM_CONFIG_PREFIX", "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE",
		"CLAUDE_CONFIG_DIR", "ANTHROPIC_CONFIG_DIR", "ANTHROPIC_PROFILE", "CLAUDE_CODE_FEDERATION_CACHE_DIR",
		"CLAUDE_SECURESTORAGE_CONFIG_DIR",
	}
	m := map[string]bool{}
	for _, n := range append(credentials, locations...) {
		m[n], m["INPUT_"+n] = true, true
	}
	return m
}()

// secretName matches a name that says it holds a secret: a word such as
// TOKEN, KEY or AUTH between underscores (or at an end), _PWD, _PASS or _JWT,
// or TOKEN, SECRET, PASSWORD, PASSWD or PASSPHRASE ending any word.
var secretName = lazyre.New(`(?i)(?:(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|KEY|AUTH|COOKIE|PAT|DSN|WEBHOOK|CREDENTIAL|CREDENTIALS|CREDS|APIKEY|ACCESSKEY|SECRETKEY|ACCOUNTKEY|PRIVATEKEY|AUTHKEY|SSHKEY|SIGNINGKEY|MASTERKEY|DEPLOYKEY|ENCRYPTIONKEY|PGPASSWORD|SSHPASS|(?:KEY|SECRET|PASSWORD|CREDENTIAL)S)|_(?:PWD|PASS|JWT)|(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE))(?:$|[_0-9])`)

// connString matches a database connection string's name (DB_CONN_STR,
// DATABASE_CONNECTION_STRING).
var connString = lazyre.New(`(?i)CONN(?:ECT(?:ION)?)?_?STR(?:ING)?S?(?:$|[_0-9])`)

// Names that match secretName but hold no secret, or that hooks need.
var (
	// Git's config-by-environment and proxy settings.
	gitConfigVar = lazyre.New(`^GIT_CONFIG_(?:COUNT|PARAMETERS|(?:KEY|VALUE)_[0-9]+)$`)
	gitConfigKey = lazyre.New(`^GIT_CONFIG_KEY_[0-9][A-Za-z0-9_]*$`)
	proxyVar     = lazyre.New(`(?i)^(?:(?:https?|ftp|all|no)_proxy|npm_config_(?:https?_)?proxy|npm_config_noproxy|yarn_proxy|(?:yarn|global_agent|docker|claude_code)_(?:https?|no)_proxy|cloudsdk_proxy_[a-z]+|electron_get_use_proxy)$`)
	// GitHub tokens stay: Claude Code keeps them for gh.
	keptTokens = map[string]bool{"GITHUB_TOKEN": true, "GH_TOKEN": true, "GH_ENTERPRISE_TOKEN": true, "GITHUB_ENTERPRISE_TOKEN": true}
	// Claude Code's own settings whose names only look like secrets.
	keptSettings = map[string]bool{"CLAUDE_CODE_CLIENT_KEY": true, "CLAUDE_CODE_API_KEY_HELPER_TTL_MS": true,
		"CLAUDE_CODE_PROXY_AUTH_HELPER_TTL_MS": true, "CLAUDE_CODE_ENABLE_PROXY_AUTH_HELPER": true,
		"CLAUDE_CODE_AUTH_FAIL_EXIT_MS": true, "CLAUDE_CODE_ENABLE_TOKEN_USAGE_ATTACHMENT": true,
		"CLAUDE_CODE_IDLE_TOKEN_THRESHOLD": true, "CLAUDE_CODE_RESUME_TOKEN_THRESHOLD": true,
		"CLAUDE_CODE_ARG_KEY_SHAPE": true}
	keptSkipAuth = lazyre.New(`^CLAUDE_CODE_SKIP_[A-Z0-9_]+_AUTH$`)
)

// Registry credentials given per registry, by prefix: removed when the rest
// of the name is a user name or a secret (POETRY_HTTP_BASIC_* and
// CONAN_LOGIN_USERNAME_* always).
var (
	registryPrefix = lazyre.New(`(?i)^(?:INPUT_|ORG_GRADLE_PROJECT_|POETRY_PYPI_TOKEN_|POETRY_HTTP_BASIC_|CARGO_REGISTRIES_|CONAN_LOGIN_USERNAME_|CONAN_PASSWORD_)`)
	registryLogin  = lazyre.New(`(?i)^(?:INPUT_)?(?:POETRY_HTTP_BASIC_|CONAN_LOGIN_USERNAME_)`)
	userName       = lazyre.New(`(?i)USER(?:_?NAME)?_?[0-9]*$`)
)

// camelWords writes camelCase words apart (apiKey → api_Key,
// OAuthToken → Oauth_Token), as Claude Code does before matching.
var (
	camelLower = lazyre.New(`([a-z0-9])([A-Z])`)
	camelUpper = lazyre.New(`([A-Z])([A-Z][a-z])`)
)

func camelWords(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "OAuth", "Oauth"), "NextAuth", "Nextauth")
	return camelUpper.ReplaceAllString(camelLower.ReplaceAllString(s, "${1}_${2}"), "${1}_${2}")
}

// looksSecret is Claude Code's test of a name alone.
func looksSecret(name string) bool {
	n := strings.ReplaceAll(name, "-", "_")
	if len(n) >= 6 && strings.EqualFold(n[:6], "AUTH0_") {
		n = n[6:]
	}
	hit := secretName.MatchString(n) || secretName.MatchString(camelWords(n)) ||
		connString.MatchString(n) || connString.MatchString(camelWords(n))
	return hit && !gitConfigKey.MatchString(name)
}

// scrubbed reports whether Claude Code's scrub removes the variable name.
func scrubbed(name string) bool {
	canon := strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
	if scrubNames[canon] {
		return true
	}
	if n := strings.ReplaceAll(name, "-", "_"); registryPrefix.MatchString(n) &&
		(registryLogin.MatchString(n) || userName.MatchString(n) || looksSecret(n)) {
		return true
	}
	upper := strings.ToUpper(name)
	if gitConfigVar.MatchString(name) || proxyVar.MatchString(name) ||
		keptTokens[upper] || keptSettings[upper] || keptSkipAuth.MatchString(upper) {
		return false
	}
	return looksSecret(name)
}

// scrubCredentials drops from env ("NAME=value" entries) what Claude Code's
// scrub removes by name.
func scrubCredentials(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !scrubbed(name) {
			out = append(out, kv)
		}
	}
	return out
}
