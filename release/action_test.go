package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// action.yml is the GitHub Action plugin authors use in their CI; its step is
// action/hookd-test.sh, run here as the runner would, on fixture plugins.

func actionScript(t *testing.T) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "action", "hookd-test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !have("bash") {
		missing(t, "bash not found: the action's step is a bash script")
	}
	return script
}

// TestAction_GoInstallsHookdAndPassesThePluginTests: with Go on the runner,
// the step go-installs the requested version, puts it on the job's PATH and
// runs the plugin's testscripts/ with it.
func TestAction_GoInstallsHookdAndPassesThePluginTests(t *testing.T) {
	script := actionScript(t)
	env, _ := goModuleEnv(t)
	runner := t.TempDir()
	githubPath := filepath.Join(runner, "github_path")
	plugin, _ := filepath.Abs(filepath.Join("..", "fixtures", "plugins", "example-guard"))
	env = append(env, "RUNNER_TEMP="+runner, "GITHUB_PATH="+githubPath,
		"HOOKD_VERSION="+testVersion, "HOOKD_PLUGIN="+plugin, "HOOKD_SCRIPTS=", "HOOKD_ARGS=")
	out := run(t, t.TempDir(), env, "bash", script)
	if !strings.HasPrefix(out, "hookd v"+testVersion+"\n") || !strings.Contains(out, "PASS: 3 scripts") {
		t.Errorf("the step printed:\n%s\nwant the installed version, then the plugin's 3 scripts passing", out)
	}
	added, err := os.ReadFile(githubPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(added)); got != filepath.Join(runner, "hookd-bin") {
		t.Errorf("GITHUB_PATH got %q, want the folder hookd was installed to", got)
	}
}

// TestAction_AFailingScriptFailsTheStep: a plugin whose test is wrong fails
// the job, and the step names the script.
func TestAction_AFailingScriptFailsTheStep(t *testing.T) {
	script := actionScript(t)
	hookd := hostBinary(t)
	plugin := t.TempDir()
	if out, err := exec.Command("cp", "-R", filepath.Join("..", "fixtures", "plugins", "example-guard")+"/.", plugin).CombinedOutput(); err != nil {
		t.Fatalf("copy the fixture plugin: %v\n%s", err, out)
	}
	writeFiles(t, plugin, map[string]string{"testscripts/wrong.txtar": "# This plugin denies recursive deletes; the script says it allows them.\n" +
		"event PreToolUse Bash 'rm -rf /'\nhookd run PreToolUse --input event.json --bypass-trust --plugin $PLUGIN\ndecision none\n"})
	cmd := exec.CommandContext(t.Context(), "bash", script)
	cmd.Env = append(os.Environ(), "HOOKD_BIN="+hookd, "HOOKD_PLUGIN="+plugin, "RUNNER_TEMP="+t.TempDir(), "GITHUB_PATH=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the step passed with a failing script:\n%s", out)
	}
	if !strings.Contains(string(out), "FAIL: wrong") && !strings.Contains(string(out), "--- FAIL: wrong") {
		t.Errorf("the output does not name the failing script:\n%s", out)
	}
}

// TestAction_ProfilesPrintsTheMatrix: with profiles the step runs the
// plugin's scripts, then the matrix; fail-on-different fails the job on a
// different cell.
func TestAction_ProfilesPrintsTheMatrix(t *testing.T) {
	script := actionScript(t)
	hookd := hostBinary(t)
	plugin, _ := filepath.Abs(filepath.Join("..", "fixtures", "plugins", "example-guard"))
	base := append(os.Environ(), "HOOKD_BIN="+hookd, "HOOKD_PLUGIN="+plugin, "RUNNER_TEMP="+t.TempDir(), "GITHUB_PATH=", "HOOKD_PROFILES=codex,copilot")
	out := run(t, t.TempDir(), append(base, "HOOKD_FAIL_ON_DIFFERENT=false"), "bash", script)
	if !strings.Contains(out, "PASS: 3 scripts") || !regexp.MustCompile(`(?m)^  copilot +0 / 2 / 1$`).MatchString(out) {
		t.Errorf("the step printed:\n%s\nwant the scripts passing, then the matrix's counts", out)
	}
	cmd := exec.CommandContext(t.Context(), "bash", script)
	cmd.Env = append(base, "HOOKD_FAIL_ON_DIFFERENT=true")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("fail-on-different passed with different cells:\n%s", out)
	}
}

// hostBinary is this machine's binary from the release build.
func hostBinary(t *testing.T) string {
	t.Helper()
	tg := hostTarget(t)
	return filepath.Join(dist(t), "build", tg.GOOS+"_"+tg.GOARCH, tg.Exe())
}

// TestAction_EveryInputReachesTheScript: action.yml runs the script and hands
// it each input it declares, under the name the script reads.
func TestAction_EveryInputReachesTheScript(t *testing.T) {
	yml, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("..", "action", "hookd-test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(yml), `"$GITHUB_ACTION_PATH/action/hookd-test.sh"`) {
		t.Error("action.yml does not run action/hookd-test.sh")
	}
	inputs := regexp.MustCompile(`(?m)^  ([a-z-]+):\n    description:`).FindAllStringSubmatch(string(yml), -1)
	if len(inputs) != 6 {
		t.Fatalf("found %d inputs in action.yml, want version, path, scripts, args, profiles, fail-on-different", len(inputs))
	}
	for _, in := range inputs {
		m := regexp.MustCompile(`(?m)^        (HOOKD_[A-Z_]+): \$\{\{ inputs\.` + in[1] + ` \}\}$`).FindStringSubmatch(string(yml))
		if m == nil {
			t.Errorf("input %s is not passed to the step's environment", in[1])
			continue
		}
		if !strings.Contains(string(script), m[1]) {
			t.Errorf("input %s arrives as %s, which hookd-test.sh never reads", in[1], m[1])
		}
	}
}
