package cli

import "github.com/hookd/hookd/internal/version"

// hookdVersion is what `hookd version` and initialize's serverInfo report
// (internal/version says where it comes from).
func hookdVersion() string { return version.String() }
