package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/internal/nodedeps"
)

// The smoke tests install what the release built, the way a host author
// does, into a scratch folder with no hookd on PATH, and run a host there
// (testdata/) that initializes hookd and gets a deny.

type smokeResult struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Version  string `json:"version"`
	Binary   string `json:"binary"`
}

func checkDeny(t *testing.T, host, out, binaryUnder string) {
	t.Helper()
	var res smokeResult
	decode(t, out, &res)
	if res.Decision != "deny" || res.Reason != "no recursive deletes" {
		t.Errorf("%s: decision %q reason %q, want deny / no recursive deletes", host, res.Decision, res.Reason)
	}
	if res.Version != testVersion && res.Version != "v"+testVersion {
		t.Errorf("%s: serverInfo.version = %q, want %s", host, res.Version, testVersion)
	}
	if binaryUnder != "" && !strings.HasPrefix(res.Binary, binaryUnder) {
		t.Errorf("%s: ran %s, want the binary installed under %s", host, res.Binary, binaryUnder)
	}
}

func copyTestdata(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{n: string(data)})
	}
}

// TestNodePackage_DeniesWithoutHookdOnPath: npm install of the packed
// @hookd/hookd and this platform's binary package into an empty project;
// a CommonJS and an ES module host get a deny, the shipped types compile
// for both, and `npx hookd version` runs the binary.
func TestNodePackage_DeniesWithoutHookdOnPath(t *testing.T) {
	tg := hostTarget(t)
	if !have("npm") {
		missing(t, "npm not found on PATH: the npm packages were not built")
	}
	out := dist(t)
	path := pathWithout(t, "node", "npm")
	dir := t.TempDir()
	env := append(os.Environ(), "PATH="+path, "npm_config_update_notifier=false")
	writeFiles(t, dir, map[string]string{"package.json": `{"name": "scratch-host", "private": true}` + "\n"})
	// The binary packages are not in any registry: the host's platform
	// package comes from its tarball and npm skips the other optional ones.
	// vscode-jsonrpc comes from npm's cache or registry.
	run(t, dir, env, "npm", "install", "--no-audit", "--no-fund", "--prefer-offline",
		filepath.Join(out, "npm", "hookd-hookd-"+testVersion+".tgz"),
		filepath.Join(out, "npm", "hookd-"+tg.Node()+"-"+testVersion+".tgz"))
	copyTestdata(t, dir, "smoke.cjs", "smoke.mjs", "smoke.mts", "smoke.cts")
	installed := filepath.Join(dir, "node_modules", "@hookd", tg.Node(), "bin")
	for _, host := range []string{"smoke.cjs", "smoke.mjs"} {
		checkDeny(t, host, run(t, dir, env, "node", host), installed)
	}
	if got := run(t, dir, env, "npx", "--no-install", "hookd", "version"); got != "hookd "+testVersion+"\n" {
		t.Errorf("npx hookd version = %q", got)
	}
	checkExports(t, filepath.Join(dir, "node_modules", "@hookd", "hookd"))
	// The framework adapters load in a host without the frameworks (their
	// optional peer dependencies): a CommonJS host requires a framework only
	// when it uses the adapter.
	if got := run(t, dir, env, "node", "-e", `for (const s of ['ai-sdk', 'openai-agents', 'langchain']) { const m = require('@hookd/hookd/' + s); process.stdout.write(s + ':' + Object.keys(m).sort().join(',') + '\n'); }`); got != "ai-sdk:AISDKHooks,DEFAULT_TOOLS,HookdBlockedError,bind,createHooks\n"+
		"openai-agents:DEFAULT_TOOLS,HookdBlockedError,OpenAIAgentsHooks,bind,createHooks\n"+
		"langchain:DEFAULT_TOOLS,HookdBlockedError,bind,hookdMiddleware\n" {
		t.Errorf("the adapters' exports:\n%s", got)
	}

	// The types: tsc from node/'s dev dependencies (npm ci in node/).
	nodeDir, err := filepath.Abs(filepath.Join("..", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if err := nodedeps.Ensure(t.Context(), nodeDir); err != nil {
		missing(t, "%v: the shipped types were not checked", err)
	}
	tsc := filepath.Join(nodeDir, "node_modules", "typescript", "bin", "tsc")
	typeRoots := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(tsc))), "@types")
	writeFiles(t, dir, map[string]string{"tsconfig.json": fmt.Sprintf(`{"compilerOptions": {
  "target": "es2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true, "noEmit": true,
  "skipLibCheck": false, "types": ["node"], "typeRoots": [%q]}, "files": ["smoke.mts", "smoke.cts"]}`, typeRoots)})
	run(t, dir, env, "node", tsc, "-p", dir)
}

// checkExports: every file the installed package.json's exports name is in
// the package (a subpath added to exports but not to files fails here), and
// the frameworks stay optional peer dependencies.
func checkExports(t *testing.T, pkg string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	var walk func(gjson.Result)
	walk = func(v gjson.Result) {
		if v.Type == gjson.String {
			targets = append(targets, v.String())
			return
		}
		v.ForEach(func(_, c gjson.Result) bool {
			walk(c)
			return true
		})
	}
	walk(gjson.GetBytes(data, "exports"))
	if len(targets) < 10 {
		t.Fatalf("exports names %d files: %v", len(targets), targets)
	}
	for _, f := range targets {
		if _, err := os.Stat(filepath.Join(pkg, filepath.FromSlash(f))); err != nil {
			t.Errorf("exports names %s, which the package lacks: %v", f, err)
		}
	}
	for _, peer := range []string{"ai", "@openai/agents", "langchain"} {
		key := strings.NewReplacer(".", `\.`, "@", `\@`).Replace(peer)
		if !gjson.GetBytes(data, "peerDependencies."+key).Exists() || !gjson.GetBytes(data, "peerDependenciesMeta."+key+".optional").Bool() {
			t.Errorf("%s is not an optional peer dependency of the package", peer)
		}
	}
}

// TestPythonWheel_DeniesWithoutHookdOnPath: pip install of this platform's
// wheel into a fresh venv, offline; the sync and asyncio hosts get a deny
// and the hookd script the wheel installs runs the binary.
func TestPythonWheel_DeniesWithoutHookdOnPath(t *testing.T) {
	tg := hostTarget(t)
	if !have("python3") {
		missing(t, "python3 not found on PATH: the wheels were not built")
	}
	out := dist(t)
	wheels, _ := filepath.Glob(filepath.Join(out, "python", "hookd-*.whl"))
	var wheel string
	for _, w := range wheels {
		if strings.Contains(w, wheelTag(tg)) {
			wheel = w
		}
	}
	if wheel == "" {
		t.Fatalf("no wheel for %s among %v", tg.Node(), wheels)
	}
	checkWheel(t, wheel, tg)

	dir := t.TempDir()
	venv := filepath.Join(dir, "venv")
	python3, _ := exec.LookPath("python3")
	if out, err := exec.CommandContext(t.Context(), python3, "-m", "venv", venv).CombinedOutput(); err != nil {
		missing(t, "python3 -m venv failed (Debian: apt-get install python3-venv): %v\n%s", err, out)
	}
	bin := filepath.Join(venv, "bin")
	env := append(os.Environ(), "PATH="+pathWithout(t, "sh"), "PIP_DISABLE_PIP_VERSION_CHECK=1", "PYTHONDONTWRITEBYTECODE=1")
	run(t, dir, env, filepath.Join(bin, "python"), "-m", "pip", "install", "--no-index", "--quiet", wheel)
	copyTestdata(t, dir, "smoke.py", "smoke_aio.py")
	installed := filepath.Join(venv, "lib")
	for _, host := range []string{"smoke.py", "smoke_aio.py"} {
		checkDeny(t, host, run(t, dir, env, filepath.Join(bin, "python"), host), installed)
	}
	if got := run(t, dir, env, filepath.Join(bin, "hookd"), "version"); got != "hookd "+testVersion+"\n" {
		t.Errorf("the venv's hookd script: version = %q", got)
	}
}

func wheelTag(tg Target) string {
	return map[string]string{
		"linux-x64": "manylinux_2_17_x86_64", "linux-arm64": "manylinux_2_17_aarch64",
		"darwin-x64": "macosx_10_12_x86_64", "darwin-arm64": "macosx_11_0_arm64",
		"win32-x64": "win_amd64", "win32-arm64": "win_arm64",
	}[tg.Node()]
}

// checkWheel reads the wheel as pip does: a RECORD line for every file, the
// binary executable, the package typed.
func checkWheel(t *testing.T, wheel string, tg Target) {
	t.Helper()
	zr, err := zip.OpenReader(wheel)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	names := map[string]os.FileMode{}
	var record string
	for _, f := range zr.File {
		names[f.Name] = f.Mode()
		if strings.HasSuffix(f.Name, ".dist-info/RECORD") {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			record = string(data)
		}
	}
	for name := range names {
		if !strings.Contains(record, name+",") {
			t.Errorf("RECORD has no line for %s", name)
		}
	}
	bin := "hookd/bin/" + tg.Exe()
	if mode, ok := names[bin]; !ok || mode&0o111 == 0 {
		t.Errorf("%s: present %v, mode %v: want an executable", bin, ok, mode)
	}
	if _, ok := names["hookd/py.typed"]; !ok {
		t.Error("hookd/py.typed is missing: type checkers would ignore the annotations")
	}
}

// TestGoInstall_VersionFromBuildInfo publishes this checkout as module
// version v0.1.0 in a module proxy on disk, then does what a Go host author
// does: `go install github.com/hookd/hookd@v0.1.0` (hookd version must say
// v0.1.0, read from build info: no -X flag here) and `go run` of a host that
// imports github.com/hookd/hookd/client and gets a deny from that hookd.
func TestGoInstall_VersionFromBuildInfo(t *testing.T) {
	env, gobin := goModuleEnv(t)
	tmp := t.TempDir()
	run(t, tmp, env, "go", "install", "github.com/hookd/hookd@v"+testVersion)
	if got := run(t, tmp, env, filepath.Join(gobin, "hookd"), "version"); got != "hookd v"+testVersion+"\n" {
		t.Errorf("hookd version = %q, want the module version from build info", got)
	}
	if got := run(t, tmp, env, filepath.Join(gobin, "hookd"), "--version"); got != "hookd v"+testVersion+"\n" {
		t.Errorf("hookd --version = %q", got)
	}

	host := filepath.Join(tmp, "host")
	copyTestdata(t, host, filepath.Join("gohost", "main.go"))
	writeFiles(t, host, map[string]string{"go.mod": "module example.com/host\n\ngo 1.26.8\n\nrequire github.com/hookd/hookd v" + testVersion + "\n"})
	run(t, host, env, "go", "mod", "tidy")
	checkDeny(t, "gohost", run(t, filepath.Join(host, "gohost"), env, "go", "run", "."), "")
}

var (
	modOnce sync.Once
	modDir  string
	modErr  error
)

// goModuleEnv returns the environment of a Go user for whom this checkout is
// github.com/hookd/hookd v0.1.0 on the module proxy, and the GOBIN it
// installs to (on its PATH). The module cache is a fresh one, shared by
// the tests of this package.
func goModuleEnv(t *testing.T) (env []string, gobin string) {
	t.Helper()
	hostTarget(t)
	if !have("git") {
		missing(t, "git not found: it lists the files of the module")
	}
	modOnce.Do(func() {
		if modDir, modErr = os.MkdirTemp("", "hookd-goproxy-"); modErr == nil {
			modErr = writeModuleVersion(filepath.Join(modDir, "proxy"), "v"+testVersion)
		}
	})
	if modErr != nil {
		t.Fatal(modErr)
	}
	goenv, err := exec.CommandContext(t.Context(), "go", "env", "GOMODCACHE", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	modcache, userProxy, _ := strings.Cut(strings.TrimSpace(string(goenv)), "\n")
	proxies := []string{
		// Our module from the proxy on disk, its dependencies from the
		// module cache (a proxy too) ...
		"file://" + filepath.ToSlash(filepath.Join(modDir, "proxy")),
		"file://" + filepath.ToSlash(filepath.Join(modcache, "cache", "download")),
	}
	// ... and what neither holds from the user's own proxy, as a Go user's
	// go mod tidy would: tidy also wants the test dependencies of modules
	// older than go 1.17 (sourcegraph/jsonrpc2's gorilla/websocket), which
	// building hookd never downloads, so a fresh module cache lacks them.
	if p := strings.TrimSpace(userProxy); p != "" && p != "off" {
		proxies = append(proxies, p)
	}
	gobin = filepath.Join(modDir, "bin")
	return append(os.Environ(),
		"GOPROXY="+strings.Join(proxies, ","),
		"GOSUMDB=off", "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local",
		"GOMODCACHE="+filepath.Join(modDir, "modcache"), "GOBIN="+gobin,
		"PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH")), gobin
}

// writeModuleVersion lays out a GOPROXY folder serving the files git
// tracks in this checkout as github.com/hookd/hookd at version.
func writeModuleVersion(proxy, version string) error {
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z").Output()
	if err != nil {
		return fmt.Errorf("git ls-files (not a git checkout?): %w", err)
	}
	dir := filepath.Join(proxy, "github.com", "hookd", "hookd", "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			continue // deleted in the work tree
		}
		w, err := zw.Create("github.com/hookd/hookd@" + version + "/" + name)
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		version + ".zip":  buf.Bytes(),
		version + ".mod":  gomod,
		version + ".info": []byte(fmt.Sprintf(`{"Version": %q, "Time": %q}`, version, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339))),
		"list":            []byte(version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestPythonSource_PipInstallBuildsTheBinary: `pip install ./python` from a
// checkout, offline, runs the in-tree build backend, which builds hookd with
// Go for this machine and puts it in the wheel.
func TestPythonSource_PipInstallBuildsTheBinary(t *testing.T) {
	hostTarget(t)
	python3, err := exec.LookPath("python3")
	if err != nil {
		missing(t, "python3 not found on PATH: %v", err)
	}
	dir := t.TempDir()
	venv := filepath.Join(dir, "venv")
	if out, err := exec.CommandContext(t.Context(), python3, "-m", "venv", venv).CombinedOutput(); err != nil {
		missing(t, "python3 -m venv failed (Debian: apt-get install python3-venv): %v\n%s", err, out)
	}
	src, err := filepath.Abs(filepath.Join("..", "python"))
	if err != nil {
		t.Fatal(err)
	}
	py := filepath.Join(venv, "bin", "python")
	env := append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1", "PYTHONDONTWRITEBYTECODE=1")
	// --no-build-isolation is not needed: the backend requires nothing.
	run(t, dir, env, py, "-m", "pip", "install", "--no-index", "--quiet", src)
	copyTestdata(t, dir, "smoke.py")
	out := run(t, dir, append(env, "PATH="+pathWithout(t, "sh")), py, "smoke.py")
	var res smokeResult
	decode(t, out, &res)
	if res.Decision != "deny" {
		t.Errorf("decision %q, want deny", res.Decision)
	}
	if !strings.HasPrefix(res.Binary, venv) {
		t.Errorf("ran %s, want the binary pip installed under %s", res.Binary, venv)
	}
}
