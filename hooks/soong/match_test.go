package soong

import (
	"path/filepath"
	"testing"
)

func TestSoongMatcher_ExactToolTagAndPathPrefix(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	abs := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	tool := func(v string) *soongMatcher { return &soongMatcher{tool: v, hasTool: true, root: root} }
	tag := func(v string) *soongMatcher { return &soongMatcher{tag: v, hasTag: true, root: root} }
	path := func(v string) *soongMatcher { return &soongMatcher{pathPrefix: v, hasPath: true, root: root} }
	for _, tc := range []struct {
		name  string
		m     *soongMatcher
		input string
		want  bool
	}{
		{"empty matcher matches all", &soongMatcher{root: root}, `{}`, true},
		{"tool exact", tool("Bash"), `{"tool_name":"Bash"}`, true},
		{"tool is case-sensitive", tool("Bash"), `{"tool_name":"bash"}`, false},
		{"tool is not a prefix", tool("Bash"), `{"tool_name":"BashOutput"}`, false},
		{"tool is not a regex", tool("Edit|Write"), `{"tool_name":"Edit"}`, false},
		{"tool is not a glob", tool("*"), `{"tool_name":"Edit"}`, false},
		{"no tool in the input", tool("Bash"), `{}`, false},
		{"tool_name of another type", tool("1"), `{"tool_name":1}`, false},
		{"tag in the list", tag("write"), `{"tags":["readonly","write"]}`, true},
		{"tag as one string", tag("write"), `{"tags":"write"}`, true},
		{"tag is exact", tag("write"), `{"tags":["writes","Write"]}`, false},
		{"no tags", tag("write"), `{"tool_name":"Write"}`, false},
		{"path under a relative prefix", path("src/"), `{"paths":["src/a.go"]}`, true},
		{"prefix without the slash", path("src"), `{"paths":["src/a.go"]}`, true},
		{"the prefix itself", path("src"), `{"paths":["src"]}`, true},
		{"whole components only", path("src"), `{"paths":["srcs/a.go"]}`, false},
		{"an absolute path inside the project", path("src/"), `{"paths":["` + jsonEsc(abs("src/x/y.go")) + `"]}`, true},
		{"an absolute prefix", path(abs("src")), `{"paths":["src/y.go"]}`, true},
		{"cleaned before comparing", path("lib"), `{"paths":["src/../lib/z"]}`, true},
		{"escaping the prefix", path("src"), `{"paths":["src/../../proj2/src/a"]}`, false},
		{"any of several paths", path("docs"), `{"paths":["src/a.go","docs/b.md"]}`, true},
		{"falls back to tool_input.file_path", path("src"), `{"tool_input":{"file_path":"src/a.go"}}`, true},
		{"falls back to tool_input.path", path("src"), `{"tool_input":{"path":"src"}}`, true},
		{"paths wins over tool_input", path("src"), `{"paths":["docs/a"],"tool_input":{"file_path":"src/a.go"}}`, false},
		{"no paths at all", path("src"), `{"tool_input":{"command":"cat src/a.go"}}`, false},
		{"all fields must match", &soongMatcher{tool: "Write", hasTool: true, tag: "write", hasTag: true, pathPrefix: "secrets", hasPath: true, root: root},
			`{"tool_name":"Write","tags":["write"],"paths":["secrets/k"]}`, true},
		{"one field failing fails the matcher", &soongMatcher{tool: "Write", hasTool: true, tag: "write", hasTag: true, root: root},
			`{"tool_name":"Write","tags":["readonly"]}`, false},
	} {
		if got := tc.m.MatchInput([]byte(tc.input)); got != tc.want {
			t.Errorf("%s: %s on %s = %v, want %v", tc.name, tc.m.text(), tc.input, got, tc.want)
		}
	}
}

func TestSoongMatcher_RelativePathsUseTheInputCwdWithoutARoot(t *testing.T) {
	m := &soongMatcher{pathPrefix: "src", hasPath: true}
	cwd := t.TempDir()
	in := `{"cwd":"` + jsonEsc(cwd) + `","paths":["` + jsonEsc(filepath.Join(cwd, "src", "a")) + `"]}`
	if !m.MatchInput([]byte(in)) {
		t.Fatal("relative prefix not taken from the input cwd")
	}
}

func TestSoongMatcher_Text(t *testing.T) {
	m := &soongMatcher{tool: "Bash", hasTool: true, pathPrefix: `a"b`, hasPath: true}
	if got := m.text(); got != `{"tool":"Bash","pathPrefix":"a\"b"}` {
		t.Fatalf("text %s", got)
	}
}

// jsonEsc escapes backslashes so Windows paths can sit in JSON literals.
func jsonEsc(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(out)
}
