package plugins

import (
	"strings"
)

// Install caches keep one folder per version (<marketplace>/<plugin>/<version>/)
// and only the newest is the plugin. Folder names are whatever the installer
// chose: semantic versions ("1.2.0", "v2.0.0-rc.1"), shorter dotted numbers
// ("3", "1.10"), git commit hashes, or "unknown" when the plugin declares no
// version. compareVersions orders them so that the newest wins:
//
//   - A name that reads as a version (an optional "v", dot-separated decimal
//     numbers, an optional "-prerelease" and "+build") ranks above one that
//     does not.
//   - Versions compare by semver precedence: numbers numerically, missing
//     trailing numbers count as 0 ("1.2" == "1.2.0"), a pre-release ranks
//     below its release, pre-release fields compare numerically when both are
//     numbers and as text otherwise, and build metadata is ignored.
//   - Anything still equal (two hashes, "1.0" and "v1.0.0") is decided by the
//     caller: the most recently modified folder, then the greater name.

// version is a parsed version folder name.
type version struct {
	core []string // decimal numbers without leading zeros ("0" stays "0")
	pre  []string // pre-release identifiers; nil for a release
}

// parseVersion reads name as a version; ok is false when it is not one.
func parseVersion(name string) (v version, ok bool) {
	s := strings.TrimPrefix(strings.TrimPrefix(name, "v"), "V")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	core, pre, hasPre := strings.Cut(s, "-")
	if core == "" {
		return version{}, false
	}
	for _, part := range strings.Split(core, ".") {
		if !isDigits(part) {
			return version{}, false
		}
		v.core = append(v.core, trimZeros(part))
	}
	if hasPre {
		if pre == "" {
			return version{}, false
		}
		v.pre = strings.Split(pre, ".")
		for _, id := range v.pre {
			if id == "" {
				return version{}, false
			}
		}
	}
	return v, true
}

// compareVersions returns -1, 0 or 1 as a is older than, as new as, or newer
// than b. Names that are not versions are older than every version and equal
// to each other.
func compareVersions(a, b string) int {
	va, oka := parseVersion(a)
	vb, okb := parseVersion(b)
	switch {
	case !oka && !okb:
		return 0
	case !oka:
		return -1
	case !okb:
		return 1
	}
	for i := 0; i < max(len(va.core), len(vb.core)); i++ {
		if c := compareNumbers(part(va.core, i), part(vb.core, i)); c != 0 {
			return c
		}
	}
	switch {
	case va.pre == nil && vb.pre == nil:
		return 0
	case va.pre == nil:
		return 1
	case vb.pre == nil:
		return -1
	}
	for i := 0; i < min(len(va.pre), len(vb.pre)); i++ {
		x, y := va.pre[i], vb.pre[i]
		xn, yn := isDigits(x), isDigits(y)
		var c int
		switch {
		case xn && yn:
			c = compareNumbers(trimZeros(x), trimZeros(y))
		case xn:
			c = -1
		case yn:
			c = 1
		default:
			c = strings.Compare(x, y)
		}
		if c != 0 {
			return c
		}
	}
	return compareInts(len(va.pre), len(vb.pre))
}

func part(core []string, i int) string {
	if i < len(core) {
		return core[i]
	}
	return "0"
}

// compareNumbers compares decimal strings without leading zeros, of any
// length (a date-stamped "20260822" must not overflow anything).
func compareNumbers(a, b string) int {
	if c := compareInts(len(a), len(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func compareInts(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func trimZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" {
		return "0"
	}
	return t
}
