//go:build realhost

package realhost

import (
	"os"
	"path/filepath"
	"time"
)

// hostTimeout bounds one run of a real host; a run that hits it fails the case.
const hostTimeout = 3 * time.Minute

// baseEnv is the environment every host run starts from: PATH and the
// locale, nothing of the developer's own configuration.
func baseEnv(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"SHELL=/bin/bash",
		"LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(home, "tmp"),
	}
}
