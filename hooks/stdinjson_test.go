package hooks

import (
	"strings"
	"testing"
)

// AppendJSONString writes the bytes MarshalStdin writes, for strings it
// appends as they are and for those it escapes.
func TestAppendJSONString_SameBytesAsMarshalStdin(t *testing.T) {
	for _, s := range []string{"", "Stop", "/tmp/a b/c", "<a href>&amp;", `say "hi"`, `C:\dir`, "tab\there",
		"line\nbreak", "\x00\x01\x1f\x7f", "héllo", "emoji 🎉", "\u2028\u2029", "bad \xff utf8", strings.Repeat("x", 300)} {
		want, err := MarshalStdin(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString([]byte("pre"), s); string(got) != "pre"+string(want) {
			t.Errorf("AppendJSONString(%q) = %s, want pre%s", s, got, want)
		}
	}
}
