//go:build realhost

package realhost

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// The host versions the profiles were measured against. Override with
// REALHOST_CODEX_VERSION / REALHOST_CLAUDE_VERSION to re-verify a newer host.
var (
	codexVersion  = envOr("REALHOST_CODEX_VERSION", "0.169.0")
	claudeVersion = envOr("REALHOST_CLAUDE_VERSION", "2.1.328")
)

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// cacheDir is where the CLIs are installed: $REALHOST_CACHE, else the user
// cache folder's hookd-realhost.
func cacheDir() (string, error) {
	if d := os.Getenv("REALHOST_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder (set REALHOST_CACHE): %w", err)
	}
	return filepath.Join(d, "hookd-realhost"), nil
}

var installMu sync.Mutex

// hostBinary returns the path of an npm package's bin, installing
// pkg@version under the cache folder (one folder per version) when missing.
func hostBinary(pkg, version, bin string) (string, error) {
	installMu.Lock()
	defer installMu.Unlock()
	root, err := cacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.Base(pkg)+"-"+version)
	path := filepath.Join(dir, "node_modules", ".bin", bin)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true}`), 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", pkg+"@"+version)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s@%s: %v\n%s", pkg, version, err, out)
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("npm install %s@%s left no %s: %w", pkg, version, path, err)
	}
	return path, nil
}
