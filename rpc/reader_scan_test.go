package rpc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The reader goroutine reads $/cancelRequest, exit and the host's answers to
// hookd's calls: it must never wait on a file, a hook or the host. What runs
// on it is Handle with what it calls, the inline methods and the quick
// answers; this scan follows their calls through the package (not into a
// go statement, which runs elsewhere) and fails on one that reads or writes
// files, loads hooks, ends the session's work or waits for it. A method that
// needs one of them is serial (it runs on its own goroutine, in wire order).
var readerForbidden = struct {
	// calls of these packages (any function), or of these functions.
	packages map[string]bool
	funcs    map[string]bool
	// methods by name, of any receiver: the engine's loads and writes, the
	// end of its background work, and waits.
	methods map[string]bool
}{
	packages: map[string]bool{"os": true, "regfile": true, "spill": true, "exec": true, "flock": true, "statefile": true},
	funcs: map[string]bool{"hooks.New": true, "hooks.FindProjectRoot": true, "filepath.Walk": true, "filepath.WalkDir": true,
		"filepath.Glob": true, "filepath.EvalSymlinks": true, "filepath.Abs": true},
	methods: map[string]bool{"LoadChecked": true, "EndSession": true, "Trust": true, "SetEnabled": true,
		"Close": true, "Wait": true},
}

// readerRoots are the functions that run on the reader besides the inline
// methods and quick answers of the dispatch table.
var readerRoots = []string{"Handle", "handleNotification", "quickCall"}

func TestReader_InlineMethodsAndQuickAnswersDoNoFileIOAndNoWait(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	// By name: package functions (called as f()), and methods of every
	// receiver together (called as x.f()).
	funcs, methods := map[string][]*ast.FuncDecl{}, map[string][]*ast.FuncDecl{}
	var parsed []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fd.Recv == nil {
					funcs[fd.Name.Name] = append(funcs[fd.Name.Name], fd)
				} else {
					methods[fd.Name.Name] = append(methods[fd.Name.Name], fd)
				}
			}
		}
	}
	roots := slices.Clone(readerRoots)
	inline := 0
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if ix, ok := as.Lhs[0].(*ast.IndexExpr); !ok || !isIdent(ix.X, "methods") {
				return true
			}
			lit, ok := as.Rhs[0].(*ast.CompositeLit)
			if !ok {
				return true
			}
			fields := map[string]ast.Expr{}
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok {
						fields[k.Name] = kv.Value
					}
				}
			}
			if isIdent(fields["inline"], "true") {
				if h, ok := fields["handle"].(*ast.Ident); ok {
					roots = append(roots, h.Name)
					inline++
				}
			}
			if q, ok := fields["quick"].(*ast.Ident); ok {
				roots = append(roots, q.Name)
			}
			return true
		})
	}
	if inline == 0 || len(roots) == len(readerRoots)+inline {
		t.Fatalf("found %d inline methods and roots %q: the dispatch table was not read", inline, roots)
	}
	// Breadth first from the roots; via says how each function was reached.
	// A method is named ".name".
	via := map[string]string{}
	queue := []string{}
	decls := func(key string) []*ast.FuncDecl {
		if name, ok := strings.CutPrefix(key, "."); ok {
			return methods[name]
		}
		return funcs[key]
	}
	for _, r := range roots {
		if funcs[r] == nil && methods[r] != nil {
			r = "." + r
		}
		if decls(r) == nil {
			t.Fatalf("reader root %s is not a function of the package", r)
		}
		via[r] = ""
		queue = append(queue, r)
	}
	chain := func(name string) string {
		parts := []string{name}
		for p := via[name]; p != ""; p = via[p] {
			parts = append([]string{p}, parts...)
		}
		return strings.Join(parts, " → ")
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, fd := range decls(name) {
			imports := importNames(fileOf(parsed, fset, fd))
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.GoStmt); ok {
					return false
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				callee := ""
				switch fn := call.Fun.(type) {
				case *ast.Ident:
					callee = fn.Name
				case *ast.SelectorExpr:
					if x, ok := fn.X.(*ast.Ident); ok && imports[x.Name] {
						q := x.Name + "." + fn.Sel.Name
						if readerForbidden.packages[x.Name] || readerForbidden.funcs[q] {
							t.Errorf("%s calls %s on the reader goroutine (%s)", chain(name), q, fset.Position(call.Pos()))
						}
						return true
					}
					if readerForbidden.methods[fn.Sel.Name] {
						t.Errorf("%s calls .%s on the reader goroutine (%s)", chain(name), fn.Sel.Name, fset.Position(call.Pos()))
						return true
					}
					callee = "." + fn.Sel.Name
				}
				if _, seen := via[callee]; !seen && decls(callee) != nil {
					via[callee] = name
					queue = append(queue, callee)
				}
				return true
			})
		}
	}
	for _, must := range []string{".route", ".reply", ".call", "hooksRunQuick", "shutdown", "hooksActivateSkill"} {
		if _, ok := via[must]; !ok {
			t.Errorf("the scan did not reach %s: it no longer follows what the reader runs", must)
		}
	}
	for _, never := range []string{"initialize", ".firstLoad", "hooksReload", "hooksTrust", "hooksSetEnabled", ".endSession", ".recordRun"} {
		if _, ok := via[never]; ok {
			t.Errorf("%s is reached from the reader goroutine: %s", never, chain(never))
		}
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func fileOf(files []*ast.File, fset *token.FileSet, n ast.Node) *ast.File {
	for _, f := range files {
		if fset.File(f.Pos()) == fset.File(n.Pos()) {
			return f
		}
	}
	return nil
}

// importNames are the names a file refers to its imports by.
func importNames(f *ast.File) map[string]bool {
	out := map[string]bool{}
	if f == nil {
		return out
	}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := filepath.Base(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		out[name] = true
	}
	return out
}
