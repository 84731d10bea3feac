package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hookd/hookd/hooks"
)

// toolLocationFlag is --tool-location TOOL=WHERE, repeatable: where the host
// runs a tool (client, server, server-approval), as initialize's
// config.toolLocations. Profiles with coverage labels use it in list.
type toolLocationFlag map[string]string

func (f *toolLocationFlag) String() string {
	if f == nil || len(*f) == 0 {
		return ""
	}
	pairs := make([]string, 0, len(*f))
	for tool, where := range *f {
		pairs = append(pairs, tool+"="+where)
	}
	sort.Strings(pairs)
	return strings.Join(pairs, ",")
}

// Set takes one TOOL=WHERE; a bad location is an error now, naming the three
// that exist.
func (f *toolLocationFlag) Set(v string) error {
	tool, where, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want TOOL=%s|%s|%s, got %q", hooks.LocationClient, hooks.LocationServer, hooks.LocationServerApproval, v)
	}
	m := map[string]string{tool: where}
	if err := hooks.CheckToolLocations(m); err != nil {
		return err
	}
	if *f == nil {
		*f = toolLocationFlag{}
	}
	(*f)[tool] = where
	return nil
}
