package hooks

import "sync"

// State is per-session memory for rules that span runs, such as how many Stop
// blocks came in a row. The engine owns one for its lifetime; profiles read
// and write it from Profile.AfterCombine. It is safe for concurrent use.
type State struct {
	mu      sync.Mutex
	ints    map[string]int
	strs    map[string]string
	session Session
}

// Session is the session the state belongs to (its id, folders, model).
func (s *State) Session() Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session
}

// Int returns the counter named key (0 when unset).
func (s *State) Int(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ints[key]
}

// SetInt sets the counter named key.
func (s *State) SetInt(key string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ints == nil {
		s.ints = map[string]int{}
	}
	s.ints[key] = v
}

// String returns the text named key ("" when unset).
func (s *State) String(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.strs[key]
}

// SetString sets the text named key.
func (s *State) SetString(key, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.strs == nil {
		s.strs = map[string]string{}
	}
	s.strs[key] = v
}

// InputMatcher is a Matcher that needs the whole event input rather than one
// target name (Soong's tag and path-prefix matchers). The engine calls
// MatchInput instead of Match when a hook's matcher implements it.
type InputMatcher interface {
	Matcher
	MatchInput(input []byte) bool
}

// SetEnv sets one of the hook's own variables (Env), making the map for a
// hook that has none. A profile that keeps handler fields there uses keys
// no environment variable can have (a leading NUL).
func (h *Hook) SetEnv(key, value string) {
	if h.Env == nil {
		h.Env = map[string]string{}
	}
	h.Env[key] = value
}

// SetMatcher sets the compiled matcher of a hook built outside the hooks.json
// walker (a profile's own discovery).
func (h *Hook) SetMatcher(m Matcher) { h.matcher = m }

// CompiledMatcher returns the hook's compiled matcher; nil when it has none.
func (h *Hook) CompiledMatcher() Matcher { return h.matcher }
