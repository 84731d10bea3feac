package envfile

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse_ExportsAndAssignmentsInOrder(t *testing.T) {
	script := `# written by a SessionStart hook
export NODE_ENV=production
export PATH="$PATH:/opt/tool/bin"
GREETING='hello world'
export A=1 B="${A}2"
declare -x C=3
export NODE_ENV=test
export HOME
`
	vars, warns, err := Parse([]byte(script), []string{"PATH=/usr/bin", "HOME=/home/u"})
	if err != nil || len(warns) != 0 {
		t.Fatalf("err %v warns %q", err, warns)
	}
	want := []Var{{"NODE_ENV", "test"}, {"PATH", "/usr/bin:/opt/tool/bin"}, {"GREETING", "hello world"}, {"A", "1"}, {"B", "12"}, {"C", "3"}}
	if !reflect.DeepEqual(vars, want) {
		t.Fatalf("vars %q, want %q", vars, want)
	}
}

func TestParse_SkipsWhatWouldRunAProgram(t *testing.T) {
	script := "export OK=1\nexport NOW=$(date)\nsource ~/.nvm/nvm.sh\necho hi > /tmp/x\ndeclare Y=2\nexport ARR=(a b)\n"
	vars, warns, err := Parse([]byte(script), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(vars, []Var{{"OK", "1"}}) {
		t.Fatalf("vars %q", vars)
	}
	if len(warns) != 5 {
		t.Fatalf("want 5 warnings, got %q", warns)
	}
	for i, line := range []string{"line 2", "line 3", "line 4", "line 5", "line 6"} {
		if !strings.HasPrefix(warns[i], line) {
			t.Errorf("warning %d = %q, want it to start with %q", i, warns[i], line)
		}
	}
}

func TestParse_SyntaxErrorIsAnError(t *testing.T) {
	if _, _, err := Parse([]byte(`export A="unterminated`), nil); err == nil || !strings.Contains(err.Error(), "parse env file") {
		t.Fatalf("err %v", err)
	}
}

func TestParse_EmptyFileSetsNothing(t *testing.T) {
	vars, warns, err := Parse(nil, nil)
	if err != nil || vars != nil || warns != nil {
		t.Fatalf("vars %q warns %q err %v", vars, warns, err)
	}
}
