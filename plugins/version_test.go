package plugins

import "testing"

func TestCompareVersions_NewestWins(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1.0.0", "1.0.0", 0},
		{"1.0.1", "1.0.0", 1},
		{"1.10.0", "1.9.0", 1}, // numbers, not text
		{"2", "1.99.99", 1},
		{"1.2", "1.2.0", 0}, // missing trailing numbers are 0
		{"v1.2.0", "1.2.0", 0},
		{"1.2.0+build.5", "1.2.0", 0}, // build metadata is ignored
		{"1.0.0-rc.1", "1.0.0", -1},   // a pre-release is older than its release
		{"1.0.0-alpha", "1.0.0-alpha.1", -1},
		{"1.0.0-alpha.1", "1.0.0-alpha.beta", -1}, // numeric < alphanumeric
		{"1.0.0-beta.2", "1.0.0-beta.11", -1},
		{"1.0.0-beta", "1.0.0-alpha", 1},
		{"20260822", "20260821", 1}, // long numbers do not overflow
		{"99999999999999999999999", "99999999999999999999998", 1},
		{"001.2", "1.2", 0},
		{"0.1.0", "unknown", 1}, // a version beats a non-version
		{"unknown", "0.0.1", -1},
		{"3f9c2a1", "unknown", 0}, // two non-versions: the caller decides
		{"1.0.", "1.0", -1},       // "1.0." is not a version
		{"1.0.0-", "0.1", -1},     // empty pre-release: not a version
		{"1..0", "0.1", -1},
	}
	for _, tc := range cases {
		if got := compareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := compareVersions(tc.b, tc.a); got != -tc.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}
