package hooks

// DedupeBy returns a Profile.Dedupe that keeps the first hook of each
// identity key, in configuration order. A hook whose key is "" is never
// merged with another.
func DedupeBy(key func(h *Hook) string) func([]*Hook) []*Hook {
	return func(list []*Hook) []*Hook {
		seen := map[string]bool{}
		out := make([]*Hook, 0, len(list))
		for _, h := range list {
			if id := key(h); id != "" {
				if seen[id] {
					continue
				}
				seen[id] = true
			}
			out = append(out, h)
		}
		return out
	}
}
