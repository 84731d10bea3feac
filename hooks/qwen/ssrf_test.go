package qwen

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestURLBlocked_QwenCodeSSRFRules(t *testing.T) {
	for _, c := range []struct {
		url          string
		allowPrivate bool
		want         bool
	}{
		{"http://127.0.0.1:8080/x", false, false},
		{"http://[::1]/x", false, false},
		{"https://example.com/x", false, false},
		{"http://10.1.2.3/x", false, true},
		{"http://10.1.2.3/x", true, false},
		{"http://172.16.0.1/x", false, true},
		{"http://172.32.0.1/x", false, false},
		{"http://192.168.1.1/x", false, true},
		{"http://100.64.0.1/x", false, true},
		{"http://0.0.0.0/x", false, true},
		{"http://169.254.1.1/x", false, true},
		{"http://[fd00::1]/x", false, true},
		{"http://[fe80::1]/x", false, true},
		{"http://[::ffff:192.168.0.1]/x", false, true},
		{"http://[::]/x", false, true},
		// Metadata endpoints stay blocked whatever allowPrivate says.
		{"http://169.254.169.254/latest", true, true},
		{"http://100.100.100.200/x", true, true},
		{"http://[::ffff:a9fe:a9fe]/x", true, true},
		{"http://metadata.google.internal/x", true, true},
		{"http://METADATA.azure.internal/x", true, true},
		{"http://localhost.localdomain/x", false, true},
		{"not a url", false, true},
	} {
		if got := urlBlocked(c.url, c.allowPrivate); got != c.want {
			t.Errorf("urlBlocked(%q, allowPrivate %v) = %v, want %v", c.url, c.allowPrivate, got, c.want)
		}
	}
}

func TestCheckResolved_LiteralsNeedNoLookup(t *testing.T) {
	ctx := context.Background()
	if err := checkResolved(ctx, "169.254.169.254", true); err == nil || err.Error() != "HTTP hook blocked: 169.254.169.254 is a cloud metadata endpoint" {
		t.Errorf("metadata: %v", err)
	}
	if err := checkResolved(ctx, "10.0.0.1", false); err == nil || err.Error() != "HTTP hook blocked: 10.0.0.1 is in a private/link-local range" {
		t.Errorf("private: %v", err)
	}
	if err := checkResolved(ctx, "127.0.0.1", false); err != nil {
		t.Errorf("loopback refused: %v", err)
	}
	// localhost resolves to loopback, which is allowed.
	if err := checkResolved(ctx, "localhost", false); err != nil {
		t.Errorf("localhost refused: %v", err)
	}
}

func TestInterpolateURL_OnlyAllowedNames(t *testing.T) {
	t.Setenv("QWEN_T_PART", "okay")
	t.Setenv("QWEN_T_SECRET", "s3cret")
	got := interpolateURL("http://h/$QWEN_T_PART/${QWEN_T_SECRET}/x\r\n", []string{"QWEN_T_PART"}, os.LookupEnv)
	if got != "http://h/okay//x" {
		t.Errorf("interpolateURL = %q", got)
	}
	if strings.Contains(got, "s3cret") {
		t.Error("a name allowedEnvVars does not list leaked into the url")
	}
}

func TestEnvFilter_DropsQwenCodesInternalSecrets(t *testing.T) {
	got := envFilter([]string{"PATH=/bin", "QWEN_SERVER_TOKEN=a", "qwen_daemon_token=b", "QWEN_CODE_PRIVATE_ACP_CAPABILITY=c", "QWEN_HOME=/q"})
	if strings.Join(got, " ") != "PATH=/bin QWEN_HOME=/q" {
		t.Errorf("envFilter = %q", got)
	}
	t.Setenv("QWEN_SERVER_TOKEN", "tok")
	if got := interpolateURL("http://h/$QWEN_SERVER_TOKEN", []string{"QWEN_SERVER_TOKEN"}, os.LookupEnv); got != "http://h/" {
		t.Errorf("an internal secret reached the url: %q", got)
	}
}
