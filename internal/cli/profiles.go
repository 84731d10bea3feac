package cli

// Host profiles by name, for --profile and for the messages that list them
// (the hosts register themselves: hosts.go at the repository's root).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/suggest"
)

func lookupProfile(name string) (*hooks.Profile, error) {
	prof, ok := hooks.LookupProfile(name)
	if !ok {
		return nil, fmt.Errorf("unknown profile %q%s (known: %s)", name, suggest.DidYouMean(name, sortedProfiles()), strings.Join(sortedProfiles(), ", "))
	}
	return prof, nil
}

func sortedProfiles() []string {
	names := hooks.ProfileNames()
	sort.Strings(names)
	return names
}

func joinProfiles() string { return joinComma(sortedProfiles()) }

// completeProfiles completes --profile with the linked profiles.
func completeProfiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return sortedProfiles(), cobra.ShellCompDirectiveNoFileComp
}
