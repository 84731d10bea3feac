package rpc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/spill"
)

func init() {
	// initialize loads the hooks, which reads files: it runs off the reader
	// (serial), and the requests read while it runs wait for it and are
	// then routed against the session it leaves (Handle).
	methods["initialize"] = method{handle: initialize, serial: true}
}

// ProtocolVersion is the wire protocol version hookd speaks.
const ProtocolVersion = 1

type initializeParams struct {
	ProcessID  *int `json:"processId"`
	ClientInfo *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
	Profile string `json:"profile"`
	// Capabilities are the host's: evaluate says it answers model/evaluate.
	Capabilities struct {
		Evaluate bool `json:"evaluate"`
	} `json:"capabilities"`
	// OnStdinClose is what a closed stdin does to running requests:
	// "finish" (the default) lets them finish and answers them, "cancel"
	// kills their handlers at once (docs/robustness.md).
	OnStdinClose string `json:"onStdinClose"`
	Session      struct {
		ID             string `json:"id"`
		Cwd            string `json:"cwd"`
		TranscriptPath string `json:"transcriptPath"`
		Model          string `json:"model"`
		PermissionMode string `json:"permissionMode"`
		// PrintMode: the host runs non-interactively (Claude Code's -p).
		PrintMode bool `json:"printMode"`
	} `json:"session"`
	Config struct {
		Home    string `json:"home"`
		Project struct {
			Root string `json:"root"`
			// Trusted absent: the profile's own trust record decides.
			Trusted *bool `json:"trusted"`
		} `json:"project"`
		Hooks       json.RawMessage `json:"hooks"`
		BypassTrust *bool           `json:"bypassTrust"`
		// LoginEnvCache: resolve a login shell's environment once and run
		// hooks as $SHELL -c with it (hooks/loginenv.go).
		LoginEnvCache *bool         `json:"loginEnvCache"`
		Plugins       []pluginParam `json:"plugins"`
		PluginDirs    []string      `json:"pluginDirs"`
		// Settings are extra settings files (claude: Claude Code's
		// --settings FILE), a layer after the project's.
		Settings []string `json:"settings"`
		Managed  struct {
			Requirements string `json:"requirements"`
		} `json:"managed"`
		// ConfigProfile and ToolLocations are read by profiles that use
		// them (mind: a [profiles.<name>.hooks] layer, coverage labels).
		ConfigProfile string                     `json:"configProfile"`
		ToolLocations map[string]string          `json:"toolLocations"`
		EnvAllowlist  []string                   `json:"envAllowlist"`
		Features      map[string]json.RawMessage `json:"features"`
		// Record: append every hooks/run input and result to this file.
		Record *string `json:"record"`
		// Watch: reload when the hook sources change, and send hooks/changed.
		Watch bool `json:"watch"`
	} `json:"config"`
}

type initializeResult struct {
	ServerInfo      serverInfo    `json:"serverInfo"`
	ProtocolVersion int           `json:"protocolVersion"`
	Profile         string        `json:"profile"`
	Session         sessionInfo   `json:"session"`
	Capabilities    capabilities  `json:"capabilities"`
	Hooks           hooks.Summary `json:"hooks"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type sessionInfo struct {
	ID       string `json:"id"`
	SpillDir string `json:"spillDir"`
}

type capabilities struct {
	Events       []string `json:"events"`
	HandlerTypes []string `json:"handlerTypes"`
}

func initialize(ctx context.Context, s *Server, params []byte) (any, error) {
	s.mu.Lock()
	ready := s.state != stateNew
	s.mu.Unlock()
	if ready {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "initialize was already called for this session"}
	}
	var p initializeParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	switch p.OnStdinClose {
	case "", "finish":
	case "cancel":
		s.cancelAtEOF.Store(true)
	default:
		return nil, invalidParams("invalid params: field \"onStdinClose\": %q: want \"finish\" or \"cancel\"", p.OnStdinClose)
	}
	opts, err := engineOptions(s.opts, &p)
	if err != nil {
		return nil, err
	}
	opts.Logger = s.log
	opts.Host = s
	s.canEvaluate.Store(p.Capabilities.Evaluate)
	rec, err := s.openRecorder(&p, opts.Profile.Name)
	if err != nil {
		return nil, err
	}
	// The collection and the cache write the load puts off run once the
	// reply is written, whatever becomes of the request.
	onEnd(ctx, hooks.PutOffLoadWork())
	e := hooks.New(opts)
	sum, err := s.firstLoad(ctx, e)
	if err != nil {
		return nil, err
	}

	s.mu.Lock()
	if s.exiting || ctx.Err() != nil {
		// Cancelled as the load ended: the session does not start.
		s.mu.Unlock()
		e.Close()
		return nil, context.Canceled
	}
	s.engine = e
	s.record = rec
	s.state = stateReady
	commit(ctx)
	s.mu.Unlock()
	if p.ProcessID != nil && *p.ProcessID > 0 {
		go s.watchParent(*p.ProcessID)
	}
	if p.Config.Watch {
		if err := s.watchSources(e); err != nil {
			s.log.Warn("cannot watch hook sources; hooks/reload still works", "error", err)
		}
	}
	warnings := e.Warnings()
	// Warnings go out right after the reply, before any request read after
	// initialize starts (they wait for it, Handle), so a host sees its
	// result first and no later notification can overtake them.
	return replyThen{after: func() { s.reportLoad(e, warnings) }, v: initializeResult{
		ServerInfo:      serverInfo{Name: "hookd", Version: s.opts.Version},
		ProtocolVersion: ProtocolVersion,
		Profile:         opts.Profile.Name,
		Session:         sessionInfo{ID: opts.Session.ID, SpillDir: spill.Dir(opts.Session.ID)},
		Capabilities:    capabilities{Events: opts.Profile.EventNames(), HandlerTypes: opts.Profile.Handlers()},
		Hooks:           sum,
	}}, nil
}

// firstLoad runs the session's first load of e, off the request's
// goroutine so that a $/cancelRequest of the initialize, exit or an end of
// input that cancels answers it at once: the load, which only reads files,
// each bounded, then finishes by itself and its engine is closed. An error
// or a panic of the load fails the initialize; e is closed then too.
func (s *Server) firstLoad(ctx context.Context, e *hooks.Engine) (hooks.Summary, error) {
	load := s.opts.load
	if load == nil {
		load = (*hooks.Engine).LoadChecked
	}
	type loaded struct {
		sum hooks.Summary
		err error
	}
	ch := make(chan loaded, 1)
	go func() {
		var l loaded
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic in handler", "method", "initialize", "panic", p, "stack", string(debug.Stack()))
				l.err = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("internal error in initialize: %v", p)}
			}
			ch <- l
		}()
		l.sum, l.err = load(e)
	}()
	select {
	case l := <-ch:
		var je *jsonrpc2.Error
		switch {
		case errors.As(l.err, &je):
			e.Close()
			return hooks.Summary{}, je
		case l.err != nil:
			e.Close()
			return hooks.Summary{}, invalidParams("hooks cannot be loaded, so the session does not start: %v", l.err)
		}
		return l.sum, nil
	case <-ctx.Done():
		go func() {
			<-ch
			e.Close()
		}()
		return hooks.Summary{}, ctx.Err()
	}
}

// engineOptions turns initialize params (over the server's command-line
// defaults) into engine options.
func engineOptions(defaults Options, p *initializeParams) (hooks.Options, error) {
	name := p.Profile
	if name == "" {
		name = defaults.Profile
	}
	if name == "" {
		name = "codex"
	}
	prof, ok := hooks.LookupProfile(name)
	if !ok {
		names := hooks.ProfileNames()
		sort.Strings(names)
		return hooks.Options{}, invalidParams("profile: unknown profile %q (known: %s)", name, strings.Join(names, ", "))
	}
	sess := hooks.Session{ID: p.Session.ID, Cwd: p.Session.Cwd, TranscriptPath: p.Session.TranscriptPath,
		Model: p.Session.Model, PermissionMode: p.Session.PermissionMode}
	if sess.ID == "" {
		sess.ID = prof.MakeSessionID()
	}
	if sess.Cwd == "" {
		sess.Cwd, _ = os.Getwd()
	}
	if fi, err := os.Stat(sess.Cwd); err != nil || !fi.IsDir() {
		return hooks.Options{}, invalidParams("session.cwd: %q is not a directory", sess.Cwd)
	}
	home := p.Config.Home
	if home == "" {
		home = defaults.Home
	}
	root := p.Config.Project.Root
	if root == "" {
		root = hooks.FindProjectRoot(sess.Cwd)
	}
	bypass := defaults.BypassTrust
	if p.Config.BypassTrust != nil {
		bypass = *p.Config.BypassTrust
	}
	loginEnv := defaults.LoginEnvCache
	if p.Config.LoginEnvCache != nil {
		loginEnv = *p.Config.LoginEnvCache
	}
	var sessionHooks []byte
	if h := p.Config.Hooks; len(h) > 0 && string(h) != "null" {
		if h[0] != '{' {
			return hooks.Options{}, invalidParams("config.hooks: must be an object of event name to matcher groups")
		}
		sessionHooks = h
	}
	plugins, pluginDirs, err := pluginOptions(p, sess.Cwd)
	if err != nil {
		return hooks.Options{}, err
	}
	if err := hooks.CheckToolLocations(p.Config.ToolLocations); err != nil {
		return hooks.Options{}, invalidParams("config.toolLocations: %v", err)
	}
	if err := hooks.CheckEnvNames(p.Config.EnvAllowlist); err != nil {
		return hooks.Options{}, invalidParams("config.%v", err)
	}
	features, err := featureOptions(p.Config.Features)
	if err != nil {
		return hooks.Options{}, err
	}
	var settingsFiles []string
	for i, f := range p.Config.Settings {
		if strings.TrimSpace(f) == "" {
			return hooks.Options{}, invalidParams("config.settings[%d]: must be a settings file path, not empty", i)
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(sess.Cwd, f)
		}
		settingsFiles = append(settingsFiles, filepath.Clean(f))
	}
	return hooks.Options{
		Profile: prof,
		Session: sess,
		Discover: hooks.DiscoverOptions{
			Home:              home,
			ProjectRoot:       root,
			ProjectTrusted:    p.Config.Project.Trusted != nil && *p.Config.Project.Trusted,
			ProjectTrustKnown: p.Config.Project.Trusted != nil,
			PrintMode:         p.Session.PrintMode,
			Cwd:               sess.Cwd,
			SessionHooks:      sessionHooks,
			Plugins:           plugins,
			PluginDirs:        pluginDirs,
			PluginCache:       hooks.DefaultPluginCache(),
			Managed:           p.Config.Managed.Requirements,
			Settings:          settingsFiles,
			ConfigProfile:     p.Config.ConfigProfile,
			Features:          features,
		},
		BypassTrust: bypass,
		// Where tools run, for the profile's coverage labels.
		ToolLocations: p.Config.ToolLocations,
		EnvAllowlist:  p.Config.EnvAllowlist,
		MaxRunning:    defaults.MaxRunningHooks,
		LoginEnvCache: loginEnv,
	}, nil
}

func (s *Server) reportWarnings(warnings []hooks.Warning) {
	for _, w := range warnings {
		s.logMessage(LogWarning, FormatWarning(w))
	}
}

// FormatWarning renders a discovery warning as one line.
func FormatWarning(w hooks.Warning) string {
	var where []string
	if w.Event != "" {
		where = append(where, w.Event)
	}
	if w.Group != nil {
		where = append(where, fmt.Sprintf("group %d", *w.Group))
	}
	if w.Handler != nil {
		where = append(where, fmt.Sprintf("handler %d", *w.Handler))
	}
	if len(where) == 0 {
		return fmt.Sprintf("%s: %s", w.Source, w.Message)
	}
	return fmt.Sprintf("%s [%s]: %s", w.Source, strings.Join(where, ", "), w.Message)
}

// featureOptions turns config.features into text values, as --feature gives
// them: true/false, strings, numbers as written. The profile judges them.
func featureOptions(raw map[string]json.RawMessage) (map[string]string, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(raw))
	for name, v := range raw {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return nil, invalidParams("config.features.%s: %v", name, err)
		}
		switch x := x.(type) {
		case nil:
		case bool:
			out[name] = strconv.FormatBool(x)
		case string:
			out[name] = x
		case float64:
			out[name] = strings.TrimSpace(string(v))
		default:
			return nil, invalidParams("config.features.%s: must be a boolean, a string or a number", name)
		}
	}
	return out, nil
}
