package hooks

import (
	"fmt"
	"runtime"
	"strings"
)

// AllowEnv keeps the variables of env ("NAME=value" entries) whose name is in
// names, in env's order. Names compare exactly, except on Windows, where
// variable names are case-insensitive.
func AllowEnv(env, names []string) []string {
	out := make([]string, 0, len(names))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for _, n := range names {
			if name == n || runtime.GOOS == "windows" && strings.EqualFold(name, n) {
				out = append(out, kv)
				break
			}
		}
	}
	return out
}

// CheckEnvNames reports the first name that cannot be an environment
// variable name (empty, or holding "=" or NUL), for hosts' allowlists.
func CheckEnvNames(names []string) error {
	for i, n := range names {
		if n == "" || strings.ContainsAny(n, "=\x00") {
			return &ParamError{Field: "envAllowlist", Msg: fmt.Sprintf("entry %d (%q) is not a variable name", i, n)}
		}
	}
	return nil
}
