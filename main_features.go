package main

import (
	"fmt"
	"sort"
	"strings"
)

// featureFlag is --feature NAME=VALUE, repeatable: the host feature settings
// that initialize takes as config.features (the mirri profile reads
// hookCommandRewrite=true|false and hookEngine=v1|v2).
type featureFlag map[string]string

func (f featureFlag) String() string {
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = n + "=" + f[n]
	}
	return strings.Join(names, ",")
}

// Set takes one NAME=VALUE; a later value for a name replaces an earlier one.
func (f *featureFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if name = strings.TrimSpace(name); !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE (for example hookEngine=v2), got %q", s)
	}
	if *f == nil {
		*f = featureFlag{}
	}
	(*f)[name] = value
	return nil
}
