package codex

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// trustedRepo is a user folder whose config.toml trusts repo.
func trustedRepo(t *testing.T) (home, repo string) {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	home, repo = filepath.Join(dir, "home"), filepath.Join(dir, "trusted")
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(home, "config.toml"), "[projects.\""+repo+"\"]\ntrust_level = \"trusted\"\n")
	return home, repo
}

// A folder delivered with a .git file naming a worktree of a trusted
// repository that the repository never recorded is not that repository's
// worktree: it gets no trust from the repository's record.
func TestSecurity_FakeWorktreeDotGitFileDoesNotInheritATrustedRepositorysTrust(t *testing.T) {
	home, repo := trustedRepo(t)
	fake := filepath.Join(filepath.Dir(repo), "cloned")
	writeFile(t, filepath.Join(fake, ".git"), "gitdir: ../trusted/.git/worktrees/anything\n")
	// Even with the named folder present, it must point back to fake.
	for _, step := range []string{"missing", "not pointing back"} {
		if step == "not pointing back" {
			writeFile(t, filepath.Join(repo, ".git", "worktrees", "anything", "gitdir"), filepath.Join(repo, "elsewhere", ".git")+"\n")
		}
		rec, err := Profile.ProjectTrust.Lookup(home, fake, fake)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Found {
			t.Fatalf("%s worktree: the fake worktree got the repository's record %+v", step, rec)
		}
	}
	// A worktree the repository recorded (its gitdir file points back) does.
	writeFile(t, filepath.Join(repo, ".git", "worktrees", "anything", "gitdir"), filepath.Join(fake, ".git")+"\n")
	if rec, _ := Profile.ProjectTrust.Lookup(home, fake, fake); !rec.Found || !rec.Trusted || rec.Dir != repo {
		t.Fatalf("a recorded worktree: %+v", rec)
	}
	// Relative gitdir files (worktree.useRelativePaths) point back too.
	writeFile(t, filepath.Join(repo, ".git", "worktrees", "anything", "gitdir"), "../../../../cloned/.git\n")
	if rec, _ := Profile.ProjectTrust.Lookup(home, fake, fake); !rec.Found || !rec.Trusted {
		t.Fatalf("a recorded worktree with a relative gitdir: %+v", rec)
	}
}

// A worktree made by git itself inherits the main checkout's trust.
func TestSecurity_RealGitWorktreeInheritsTheMainCheckoutsTrust(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	home, repo, wt := filepath.Join(dir, "home"), filepath.Join(dir, "main"), filepath.Join(dir, "wt")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", repo)
	git("-C", repo, "commit", "-q", "--allow-empty", "-m", "x")
	git("-C", repo, "worktree", "add", "-q", wt)
	writeFile(t, filepath.Join(home, "config.toml"), "[projects.\""+repo+"\"]\ntrust_level = \"trusted\"\n")
	rec, err := Profile.ProjectTrust.Lookup(home, wt, hooks.FindProjectRoot(wt))
	if err != nil || !rec.Found || !rec.Trusted || rec.Dir != repo {
		t.Fatalf("git worktree: %+v %v", rec, err)
	}
}
