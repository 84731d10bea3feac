package hooks

import (
	"fmt"
	"sort"
	"strings"
)

// Where a tool runs, as a host declares it (initialize config.toolLocations,
// hookd --tool-location). A tool the host does not name runs on the client.
// Profiles with coverage labels (Profile.Coverage) read these to say how much
// of a tool's calls a hook sees: a tool the server runs never reaches the
// client's PostToolUse, for example.
const (
	// LocationClient: the client runs the tool; every tool event fires.
	LocationClient = "client"
	// LocationServerApproval: the server runs the tool after the client
	// approves it; only the approval-stage events fire on the client.
	LocationServerApproval = "server-approval"
	// LocationServer: the server runs the tool without asking; no tool
	// event fires on the client.
	LocationServer = "server"
)

// CheckToolLocations reports the first entry whose tool name is blank or
// whose location is not one of the three above, naming both.
func CheckToolLocations(where map[string]string) error {
	names := make([]string, 0, len(where))
	for name := range where {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if strings.TrimSpace(name) == "" {
			return fmt.Errorf("tool name must not be empty")
		}
		switch where[name] {
		case LocationClient, LocationServerApproval, LocationServer:
		default:
			return fmt.Errorf("tool %q: location %q must be %s, %s or %s",
				name, where[name], LocationClient, LocationServerApproval, LocationServer)
		}
	}
	return nil
}
