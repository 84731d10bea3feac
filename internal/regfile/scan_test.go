package regfile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// opens are the calls of package os that open a file by its path.
var opens = map[string]bool{"Open": true, "OpenFile": true, "ReadFile": true, "Create": true,
	"WriteFile": true, "OpenInRoot": true}

// openAllowed lists, by function and call (wherever the function's file
// sits in the module, so that moving files keeps it true), the only places
// outside this package where code that ships opens a path with package os,
// and why that path is not one a hook, a project, a plugin or another
// process made.
var openAllowed = map[string]string{
	// What the person running hookd names on its command line: hookd run
	// --input FILE, hookd replay FILE and hookd serve --log-file FILE may be
	// pipes on purpose (a process substitution, a log reader).
	"readInput os.ReadFile": "a file named on the command line",
	"replay os.Open":        "a file named on the command line",
	"serve os.OpenFile":     "--log-file, named on the command line",
	"cmdEvent os.WriteFile": "testscript's own work folder",
	// hookd port writes into the new folder named on its command line
	// (copies are created with O_EXCL, never over what is there).
	"portPlugin os.WriteFile": "the port's output folder",
	"writeJSON os.WriteFile":  "the port's output folder",
	"copyFile os.OpenFile":    "the port's output folder, O_EXCL",
	// The kernel's own file about a process.
	"processAlive os.ReadFile": "/proc/<pid>/stat",
	// The folder a state file was just renamed into, opened to sync it:
	// nothing is read, and a rename into it proves it is a folder.
	"writeAtomic os.Open": "the state file's folder, for fsync",
}

// skipped are folders of the module that hookd does not ship: build and
// release tooling, the real-host harness, other languages.
var skipped = map[string]bool{"realhost": true, "release": true, "scripts": true, "node": true,
	"python": true, "testdata": true, "fixtures": true, "testscripts": true, "action": true}

// Every file hookd opens at a path someone else may have made goes through
// this package; a plain os.Open, os.ReadFile or os.OpenFile anywhere else in
// the code hookd ships fails here, unless openAllowed says why it may.
func TestScan_NoOtherCodeOpensPathsWithPackageOS(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	used := map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skipped[d.Name()] || strings.HasPrefix(d.Name(), ".") && rel != "." || rel == "internal/regfile" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		osName := ""
		for _, imp := range f.Imports {
			if imp.Path.Value == `"os"` {
				osName = "os"
				if imp.Name != nil {
					osName = imp.Name.Name
				}
			}
		}
		if osName == "" {
			return nil
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			name := "(top level)"
			if ok {
				name = fn.Name.Name
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || !opens[sel.Sel.Name] {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); !ok || id.Name != osName {
					return true
				}
				key := name + " os." + sel.Sel.Name
				if _, ok := openAllowed[key]; ok {
					used[key] = true
					return true
				}
				t.Errorf("%s: os.%s in %s: open paths a hook, a project or another process can create with regfile (Open, OpenAppend, ReadFile), or add the place to openAllowed with the reason", fset.Position(sel.Pos()), sel.Sel.Name, name)
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range openAllowed {
		if !used[key] {
			t.Errorf("openAllowed lists %s, which opens nothing with package os any more: remove it", key)
		}
	}
}
