package hooks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// projectRootUses are the places outside the gate (ProjectFolder,
// UntrustedProjectFolder, resolveProjectTrust) that name the project root,
// the project folder or the trust answer, each with why it reads no
// project content. A new use is a test failure until it is either a call of
// ProjectFolder or listed here with its reason.
var projectRootUses = map[string]string{
	"hooks/claude/claude.go claudeDiscover ProjectRoot":  "matches installed_plugins.json entries (a user file) by projectPath",
	"hooks/gemini/gemini.go extensions ProjectRoot":      "the ${workspacePath} value, pasted through plugins.Paste",
	"hooks/mirri/config.go discoverMirri ProjectRoot":    "names the root in a warning: mirri has no project layer",
	"hooks/mirri/config.go discoverMirri ProjectTrusted": "decides the same warning",
	"hooks/soong/config.go discoverSoong ProjectRoot":    "Lstat of .soong-agent/hooks.json to warn it is never read",
	"hooks/plugin_sources.go projectDir ProjectRoot":     "the hooks' working folder and CLAUDE_PROJECT_DIR, not a read",
	"hooks/copilot/copilot.go discover ProjectRoot":      "the repository root for a handler's cwd, not a read",
	"hooks/watch.go WatchFolders ProjectDir":             "the trusted project's folder (Sources) to watch, not a read",
}

// gateFuncs decide, in project_trust.go; they may read every field.
var gateFuncs = map[string]bool{"ProjectFolder": true, "UntrustedProjectFolder": true, "resolveProjectTrust": true,
	"PrintModeTrust": true, "PrintModeReads": true, "ProjectRefused": true, "ProjectDeclined": true}

// TestProjectContentGoesThroughTheGate fails when code under hooks/ or
// rpc/ reaches the project root, the profile's project folder or the
// project's trust answer other than through ProjectFolder: a new reader of
// project content must take its folder from the gate. It also counts the
// readers that do.
func TestProjectContentGoesThroughTheGate(t *testing.T) {
	fset := token.NewFileSet()
	var found []string
	gateCalls := map[string]int{}
	for _, top := range []string{".", "../rpc"} {
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			rel := filepath.ToSlash(filepath.Clean(filepath.Join("hooks", path)))
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				// Engine.ProjectDir() is the session's folder (the hooks'
				// working folder, CLAUDE_PROJECT_DIR), not a read.
				called := map[ast.Node]bool{}
				ast.Inspect(fd, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.CallExpr:
						called[x.Fun] = true
						name := ""
						switch fn := x.Fun.(type) {
						case *ast.Ident:
							name = fn.Name
						case *ast.SelectorExpr:
							name = fn.Sel.Name
						}
						if name == "ProjectFolder" {
							gateCalls[rel+" "+fd.Name.Name]++
						}
					case *ast.SelectorExpr:
						if called[x] {
							return true
						}
						switch x.Sel.Name {
						case "ProjectRoot", "ProjectDir", "ProjectTrusted", "ProjectTrustKnown":
							if rel == "hooks/project_trust.go" && gateFuncs[fd.Name.Name] {
								return true
							}
							found = append(found, rel+" "+fd.Name.Name+" "+x.Sel.Name)
						}
					}
					return true
				})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, k := range found {
		seen[k] = true
		if _, ok := projectRootUses[k]; !ok {
			t.Errorf("%s: reaches the project outside the gate; read project content through ProjectFolder (project_trust.go), or list the use in projectRootUses with why it reads none", k)
		}
	}
	for k := range projectRootUses {
		if !seen[k] {
			t.Errorf("projectRootUses lists %q, which is gone: remove it", k)
		}
	}
	var readers []string
	for k, n := range gateCalls {
		for range n {
			readers = append(readers, k)
		}
	}
	sort.Strings(readers)
	// Every profile that reads a project reads it through the gate.
	for _, want := range []string{
		"hooks/discovery.go DiscoverAll", "hooks/trust.go Finish", "hooks/claude/claude.go claudeDiscover",
		"hooks/claude/scoped.go scoped", "hooks/copilot/copilot.go discover", "hooks/gemini/gemini.go discover",
		"hooks/mind/discovery.go discoverMind", "hooks/qwen/qwen.go discover",
	} {
		if gateCalls[want] == 0 {
			t.Errorf("%s no longer reads the project through ProjectFolder", want)
		}
	}
	t.Logf("%d readers of project content go through ProjectFolder:\n  %s", len(readers), strings.Join(readers, "\n  "))
}
