package hooks

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hookd/hookd/hooks/proc"
)

// The login-environment cache (Options.LoginEnvCache; initialize
// config.loginEnvCache, hookd serve --login-env-cache). A profile that runs
// hooks in a login shell ($SHELL -lc) pays for the user's profile scripts on
// every hook: 100-500 ms with nvm, pyenv or conda. With the cache, hookd runs
// the login shell once per session (and again at each reload), captures the
// environment it exports, the way editors resolve a shell environment, and
// runs each hook as $SHELL -c with that environment. What the profile
// defines but does not export (functions, aliases, shell options, unexported
// variables) is not there; docs/performance.md lists every difference.

// LoginEnvTimeout bounds one resolution of the login environment. A profile
// that takes longer is given up on: hooks then run in the login shell.
var LoginEnvTimeout = 10 * time.Second

// loginEnvKeep are variables the resolving shell sets for itself; a hook
// gets them as the login shell would have given them: from hookd's own
// environment, not from the resolution.
var loginEnvKeep = []string{"SHLVL", "PWD", "OLDPWD", "_"}

// loginEnv is the cache: the resolution of the current hook set, which may
// still be running.
type loginEnv struct {
	mu     sync.Mutex
	cur    *loginResolution
	ctx    context.Context // ended by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// loginResolution is one run of the login shell.
type loginResolution struct {
	done chan struct{}
	env  []string // nil when the resolution failed
}

// nonLoginShell returns the shell argv with its login flag removed
// ("-lc" → "-c"; "-l" and "--login" dropped), and whether there was one.
func nonLoginShell(shell []string) ([]string, bool) {
	if len(shell) < 2 {
		return nil, false
	}
	out := []string{shell[0]}
	login := false
	for _, a := range shell[1:] {
		switch a {
		case "-lc", "-cl":
			out, login = append(out, "-c"), true
		case "-l", "--login":
			login = true
		default:
			out = append(out, a)
		}
	}
	return out, login
}

// loginShell is the argv hooks run under without the cache.
func (e *Engine) loginShell() []string {
	if len(e.profile.Shell) > 0 {
		return e.profile.Shell
	}
	return proc.DefaultShell()
}

// resolveLoginEnv starts a new resolution, replacing the current one, when
// the cache is on and the profile's shell is a login shell.
func (e *Engine) resolveLoginEnv() {
	if !e.opts.LoginEnvCache {
		return
	}
	shell := e.loginShell()
	if _, ok := nonLoginShell(shell); !ok {
		return
	}
	le := &e.loginEnv
	r := &loginResolution{done: make(chan struct{})}
	le.mu.Lock()
	if le.ctx == nil {
		le.ctx, le.cancel = context.WithCancel(context.Background())
	}
	ctx := le.ctx
	le.cur = r
	le.wg.Add(1)
	le.mu.Unlock()
	go func() {
		defer le.wg.Done()
		defer close(r.done)
		start := time.Now()
		env, err := e.captureLoginEnv(ctx, shell)
		if err != nil {
			e.log.Warn("login environment not resolved: hooks run in the login shell", "shell", strings.Join(shell, " "), "err", err)
			return
		}
		r.env = env
		e.log.Info("login environment resolved", "shell", strings.Join(shell, " "), "vars", len(env), "ms", time.Since(start).Milliseconds())
	}()
}

// endLoginEnv stops a resolution still running and waits for it.
func (e *Engine) endLoginEnv() {
	le := &e.loginEnv
	le.mu.Lock()
	cancel := le.cancel
	le.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	le.wg.Wait()
}

// hookShell returns the shell argv and base environment a hook runs with:
// the non-login shell and the captured environment when the cache has one,
// else the login shell and hookd's environment. A command hook has waited
// for its resolution before it took a running slot (awaitLoginEnv, whose
// result ctx carries): it runs with that one, even when a reload has begun
// a newer one since, and never waits here. Other callers wait for a
// resolution still running, unless ctx ends first.
func (e *Engine) hookShell(ctx context.Context) (shell, base []string) {
	shell, base = e.profile.Shell, e.env
	if !e.opts.LoginEnvCache {
		return shell, base
	}
	var r *loginResolution
	if w, ok := ctx.Value(loginWaitKey{}).(loginWait); ok {
		r = w.res
		if r == nil || !isDone(r.done) {
			// None, or the hook's ctx ended during its wait: the run
			// reports that.
			return shell, base
		}
	} else {
		le := &e.loginEnv
		le.mu.Lock()
		r = le.cur
		le.mu.Unlock()
		if r == nil {
			return shell, base
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return shell, base
		}
	}
	if r.env == nil {
		return shell, base
	}
	plain, _ := nonLoginShell(e.loginShell())
	return plain, r.env
}

func isDone(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// loginWaitKey is the context key of a command hook's wait for the login
// environment (a loginWait, awaitLoginEnv).
type loginWaitKey struct{}

// loginWait is what a command hook's wait for the login environment found:
// how long it waited (its timeout is what is left after that) and the
// resolution it waited for, which it runs with (nil: none).
type loginWait struct {
	waited time.Duration
	res    *loginResolution
}

// awaitLoginEnv waits, for a command hook, for a resolution of the login
// environment still running, at most the hook's timeout: the wait is the
// hook's time, as the login shell's start would have been, and it holds no
// running slot (a hook waits here before it takes one: runOne, and
// startAsync for the async slots). It returns ctx with what it found
// (loginWait, for hookShell and the hook's timeout), how long it waited, and
// false when the hook's timeout passed first. A cancelled ctx ends the wait
// too; the run then reports the cancel.
func (e *Engine) awaitLoginEnv(ctx context.Context, h *Hook) (context.Context, time.Duration, bool) {
	if !e.opts.LoginEnvCache || h.Handler.Type != TypeCommand {
		return ctx, 0, true
	}
	le := &e.loginEnv
	le.mu.Lock()
	r := le.cur
	le.mu.Unlock()
	if r == nil || isDone(r.done) {
		return context.WithValue(ctx, loginWaitKey{}, loginWait{res: r}), 0, true
	}
	start := time.Now()
	var timeout <-chan time.Time
	if limit := h.Handler.Limit(); limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-r.done:
	case <-ctx.Done():
	case <-timeout:
		return ctx, time.Since(start), false
	}
	waited := time.Since(start)
	return context.WithValue(ctx, loginWaitKey{}, loginWait{waited: waited, res: r}), waited, true
}

// withLoginWait gives ctx the login-environment wait that from carries, if
// any.
func withLoginWait(ctx, from context.Context) context.Context {
	if w, ok := from.Value(loginWaitKey{}).(loginWait); ok {
		return context.WithValue(ctx, loginWaitKey{}, w)
	}
	return ctx
}

// remaining is what is left of a timeout after waited; 0 (no bound) stays 0.
func remaining(timeout, waited time.Duration) time.Duration {
	if timeout <= 0 {
		return timeout
	}
	return max(timeout-waited, time.Millisecond)
}

// captureLoginEnv runs the login shell once with hookd's hook environment,
// in the session's folder, and returns the environment it exports. The
// output is read between two random markers, so whatever the profile
// prints is ignored.
func (e *Engine) captureLoginEnv(ctx context.Context, shell []string) ([]string, error) {
	var m [16]byte
	_, _ = rand.Read(m[:])
	marker := "hookd-login-env-" + hex.EncodeToString(m[:])
	script := fmt.Sprintf("printf '%%s' '%s'; env -0; printf '%%s' '%s'", marker, marker)
	r := proc.Run(ctx, proc.Command{Shell: shell, Script: script, Dir: e.opts.Session.Cwd, Env: e.env,
		Timeout: LoginEnvTimeout, KillGrace: time.Second, MaxOutput: 16 << 20})
	switch {
	case r.Err != nil:
		return nil, r.Err
	case r.TimedOut:
		return nil, fmt.Errorf("the login shell took longer than %s", LoginEnvTimeout)
	case r.Cancelled:
		return nil, context.Canceled
	case r.ExitCode != 0:
		return nil, fmt.Errorf("the login shell exited with code %d: %s", r.ExitCode, strings.TrimSpace(string(r.Stderr)))
	}
	_, rest, ok := bytes.Cut(r.Stdout, []byte(marker))
	i := bytes.LastIndex(rest, []byte(marker))
	if !ok || i < 0 {
		return nil, fmt.Errorf("the login shell did not print its environment (does its env support -0?)")
	}
	return mergeLoginEnv(rest[:i], e.env), nil
}

// mergeLoginEnv turns env -0 output into a list, with the variables of
// loginEnvKeep taken from hookd's environment instead.
func mergeLoginEnv(out []byte, own []string) []string {
	var env []string
	for _, kv := range bytes.Split(out, []byte{0}) {
		name, _, ok := bytes.Cut(kv, []byte("="))
		if !ok || len(name) == 0 || keepOwn(string(name)) {
			continue
		}
		env = append(env, string(kv))
	}
	for _, kv := range own {
		if name, _, _ := strings.Cut(kv, "="); keepOwn(name) {
			env = append(env, kv)
		}
	}
	return env
}

func keepOwn(name string) bool {
	for _, k := range loginEnvKeep {
		if name == k {
			return true
		}
	}
	return false
}
