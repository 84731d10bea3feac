//go:build realhost

package realhost

import (
	"path/filepath"

	"github.com/hookd/hookd/realhost/rh"
)

// The host versions the profiles were measured against: the one place per
// host that names the version the suite installs (docs/real-hosts.md lists
// the version each row was verified on). Override with
// REALHOST_CODEX_VERSION / REALHOST_CLAUDE_VERSION to re-verify another.
var (
	codexVersion  = rh.EnvOr("REALHOST_CODEX_VERSION", "0.171.0")
	claudeVersion = rh.EnvOr("REALHOST_CLAUDE_VERSION", "2.1.332")
)

// hostBinary returns the path of an npm package's bin, installing
// pkg@version under the cache folder (one folder per version) when missing.
func hostBinary(pkg, version, bin string) (string, error) {
	return rh.NPMPath(pkg, version, filepath.Join(".bin", bin))
}
