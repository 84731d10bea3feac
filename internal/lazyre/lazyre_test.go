package lazyre

import (
	"sync"
	"testing"
)

func TestCompiledOnceOnFirstUse(t *testing.T) {
	r := New(`^a(b+)$`)
	if r.re != nil {
		t.Fatal("compiled before its first use")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if m := r.FindStringSubmatch("abbb"); len(m) != 2 || m[1] != "bbb" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		})
	}
	wg.Wait()
	if first := r.Re(); first != r.Re() {
		t.Error("compiled twice")
	}
	if !r.MatchString("ab") || r.MatchString("ac") || r.String() != `^a(b+)$` {
		t.Error("does not match as its expression")
	}
}

func TestCompileAllReportsABadExpression(t *testing.T) {
	New(`fine`)
	New(`(unclosed`)
	_, expr, err := CompileAll()
	if expr != `(unclosed` || err == nil {
		t.Fatalf("CompileAll = %q, %v; want the unclosed group and its error", expr, err)
	}
}
