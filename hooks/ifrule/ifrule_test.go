package ifrule

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCommands_SplitsCompoundsAndRemovesQuotes(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`echo "hello"`, []string{"echo hello"}},
		{`echo 'a b' c\ d`, []string{"echo a b c d"}},
		{`FOO=1 BAR=2 rm -rf x`, []string{"rm -rf x"}},
		{`git add . && git commit -m "x y"; ls | wc -l`, []string{"git add .", "git commit -m x y", "ls", "wc -l"}},
		{`echo $(rm -rf /tmp/x) ` + "`id`", []string{"echo $(rm -rf /tmp/x) `id`", "rm -rf /tmp/x", "id"}},
		{`(cd d && make) || true`, []string{"cd d", "make", "true"}},
		{`echo "$HOME/x" ${Y}`, []string{"echo $HOME/x ${Y}"}},
		{`echo "a\"b" \$x`, []string{`echo a"b $x`}},
		{`A=1`, nil},
	} {
		got, err := Commands(tc.line)
		if err != nil {
			t.Fatalf("Commands(%q): %v", tc.line, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Commands(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestCommands_ParseErrorIsReported(t *testing.T) {
	if _, err := Commands(`echo "unterminated`); err == nil {
		t.Fatal("want a parse error")
	}
}

func TestMatch_BashRulesAsClaudeCode(t *testing.T) {
	for _, tc := range []struct {
		rule, cmd string
		want      bool
	}{
		{"Bash(echo hello)", `echo "hello"`, true},          // quotes removed
		{`Bash(echo "hello")`, `echo "hello"`, false},       // a quoted rule matches nothing
		{"Bash(rm *)", `echo "hello"`, false},               // was: any quoted command matched
		{"Bash(rm *)", `ls && rm -rf x`, true},              // any part of a compound
		{"Bash(rm *)", `ls; echo ok | cat`, false},          // no part matches
		{"Bash(rm *)", `FOO=bar rm x`, true},                // assignment stripped
		{"Bash(rm *)", `echo $(rm x)`, true},                // command substitution checked
		{"Bash(git commit:*)", `git commit -m "a b"`, true}, // legacy prefix form
		{"Bash(git commit:*)", `git commitx`, false},
		{"Bash(git commit:*)", `git commit`, true},
		{"Bash(npm test)", `npm test`, true},
		{"Bash(npm test)", `npm test --watch`, false},
		{"Bash(rm *)", `echo "unterminated`, true}, // unparsable: fails open
		{"Bash", `anything`, true},
		{"Bash(*)", `anything`, true},
	} {
		r, err := Parse(tc.rule)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.rule, err)
		}
		in := []byte(`{"command":` + quoteJSON(tc.cmd) + `}`)
		if got := r.Match("Bash", in); got != tc.want {
			t.Errorf("%s on %q = %v, want %v", tc.rule, tc.cmd, got, tc.want)
		}
	}
}

func TestMatch_ToolNamesAndFiles(t *testing.T) {
	for _, tc := range []struct {
		rule, tool, input string
		want              bool
	}{
		{"Edit(*.ts)", "Edit", `{"file_path":"/a/b/c.ts"}`, true},
		{"Edit(*.ts)", "Edit", `{"file_path":"/a/b/c.go"}`, false},
		{"Edit(*.ts)", "Write", `{"file_path":"/a/b/c.ts"}`, false}, // Edit does not cover Write
		{"Edit", "Write", `{}`, false},
		{"Edit(*.ts)", "MultiEdit", `{"file_path":"/a/c.ts"}`, true},
		{"Write(src/**)", "Write", `{"file_path":"/r/src/a/b.go"}`, true},
		{"Write(src/*)", "Write", `{"file_path":"/r/src/a/b.go"}`, false},
		{"Read(*.env)", "Grep", `{"path":"/r/.env"}`, true},
		{"WebFetch(domain:example.com)", "WebFetch", `{"url":"https://api.example.com/x"}`, true},
		{"WebFetch(domain:example.com)", "WebFetch", `{"url":"https://example.org/"}`, false},
		{"mcp__memory", "mcp__memory__store", `{}`, true},
		{"mcp__memory", "mcp__other__store", `{}`, false},
		{"mcp__*__store", "mcp__x__store", `{}`, true},
		{"Bash(rm *)", "Edit", `{"file_path":"rm x"}`, false},
	} {
		r, err := Parse(tc.rule)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.rule, err)
		}
		if got := r.Match(tc.tool, []byte(tc.input)); got != tc.want {
			t.Errorf("%s on %s %s = %v, want %v", tc.rule, tc.tool, tc.input, got, tc.want)
		}
	}
}

func TestParse_RejectsMalformedRules(t *testing.T) {
	for _, s := range []string{"", "Bash(rm *", "(x)", "Bash x(y)"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q): want an error", s)
		}
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
