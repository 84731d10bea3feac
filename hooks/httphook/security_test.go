package httphook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

type seen struct {
	n   atomic.Int32
	key atomic.Value
}

func recording(t *testing.T, s *seen, answer http.HandlerFunc, tls bool) *httptest.Server {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.n.Add(1)
		s.key.Store(r.Header.Get("X-Key") + "|" + r.Header.Get("X-Plain"))
		answer(w, r)
	})
	srv := httptest.NewUnstartedServer(h)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

func redirect(to string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusTemporaryRedirect) }
}

func answerOK(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{}`) }

// A redirect to another origin inside the allowed patterns gets the
// request, but not the headers whose values expanded a variable.
func TestSecurity_CrossOriginRedirectDoesNotCarryExpandedHeaders(t *testing.T) {
	var a, b seen
	bs := recording(t, &b, answerOK, false)
	as := recording(t, &a, redirect(strings.Replace(bs.URL, "127.0.0.1", "localhost", 1)+"/b"), false)
	h := Handler{URL: as.URL + "/a", Headers: map[string]string{"X-Key": "$T_KEY", "X-Plain": "p"}, AllowedEnvVars: []string{"T_KEY"}}
	res := Run(context.Background(), nil, h, Policy{AllowedURLs: []string{"http://127.0.0.1:*", "http://localhost:*"}},
		env(map[string]string{"T_KEY": "sk-secret"}), []byte(`{}`))
	if res.Err != nil {
		t.Fatalf("result %+v", res)
	}
	if got := a.key.Load(); got != "sk-secret|p" {
		t.Fatalf("the first origin got %q", got)
	}
	if got := b.key.Load(); b.n.Load() != 1 || got != "|p" {
		t.Fatalf("the other origin got %d request(s) with headers %q", b.n.Load(), got)
	}
	// A redirect within the first origin keeps them.
	var c seen
	var cs *httptest.Server
	cs = recording(t, &c, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			redirect(cs.URL+"/b")(w, r)
			return
		}
		answerOK(w, r)
	}, false)
	h.URL = cs.URL + "/a"
	if res := Run(context.Background(), nil, h, Policy{}, env(map[string]string{"T_KEY": "sk-secret"}), []byte(`{}`)); res.Err != nil || c.key.Load() != "sk-secret|p" {
		t.Fatalf("same-origin redirect: %+v, headers %q", res, c.key.Load())
	}
}

// A redirect the allowlist does not match is not followed.
func TestSecurity_RedirectOutsideAllowedURLsIsNotFollowed(t *testing.T) {
	var a, b seen
	bs := recording(t, &b, answerOK, false)
	as := recording(t, &a, redirect(bs.URL+"/steal"), false)
	res := Run(context.Background(), nil, Handler{URL: as.URL + "/hook"}, Policy{AllowedURLs: []string{as.URL + "/*"}}, nil, []byte(`{}`))
	if !res.Blocked || b.n.Load() != 0 {
		t.Fatalf("result %+v, the other server got %d request(s)", res, b.n.Load())
	}
}

// A profile's Check holds on every hop: an https hook redirected to http
// (Copilot CLI's rule) is refused before anything is sent in plain text.
func TestSecurity_HTTPSHookRedirectedToPlainHTTPIsRefused(t *testing.T) {
	var a, b seen
	bs := recording(t, &b, answerOK, false)
	as := recording(t, &a, redirect(bs.URL+"/plain"), true)
	httpsOnly := func(u *url.URL) error {
		if u.Scheme != "https" {
			return fmt.Errorf("an https URL is required: %s", u)
		}
		return nil
	}
	h := Handler{URL: as.URL + "/hook", Headers: map[string]string{"X-Key": "$T_KEY"}, AllowedEnvVars: []string{"T_KEY"}}
	res := Run(context.Background(), as.Client(), h, Policy{Check: httpsOnly}, env(map[string]string{"T_KEY": "k"}), []byte(`{}`))
	if !res.Blocked || b.n.Load() != 0 || a.n.Load() != 1 || !strings.Contains(res.Err.Error(), "https URL is required") {
		t.Fatalf("result %+v, https server %d, http server %d request(s)", res, a.n.Load(), b.n.Load())
	}
}

// Policy.Dial sees the address the socket connects to, after the name is
// resolved: a name that passes every check by its text is refused when it
// resolves to a forbidden address (here "localhost", forbidden loopback).
func TestSecurity_DialCheckSeesTheResolvedAddressNotTheName(t *testing.T) {
	var a seen
	as := recording(t, &a, answerOK, false)
	noLoopback := func(ip netip.Addr) error {
		if ip.IsLoopback() {
			return errors.New("HTTP hook blocked: loopback")
		}
		return nil
	}
	u := strings.Replace(as.URL, "127.0.0.1", "localhost", 1)
	res := Run(context.Background(), nil, Handler{URL: u}, Policy{Dial: noLoopback}, nil, []byte(`{}`))
	if !res.Blocked || a.n.Load() != 0 || !strings.Contains(res.Err.Error(), "loopback") {
		t.Fatalf("result %+v, server got %d request(s)", res, a.n.Load())
	}
	// The same check on a redirect's target.
	var b seen
	bs := recording(t, &b, redirect(u+"/x"), false)
	allowFirst := func(ip netip.Addr) error {
		if ip.IsLoopback() && a.n.Load() == 0 && b.n.Load() == 0 {
			return nil
		}
		return noLoopback(ip)
	}
	res = Run(context.Background(), nil, Handler{URL: bs.URL}, Policy{Dial: allowFirst}, nil, []byte(`{}`))
	if !res.Blocked || b.n.Load() != 1 || a.n.Load() != 0 {
		t.Fatalf("redirect: result %+v, first %d, target %d request(s)", res, b.n.Load(), a.n.Load())
	}
}

// Without a lookup no variable expands: hookd's own environment is never
// read for headers.
func TestSecurity_HeadersNeverExpandFromHookdsOwnEnvironment(t *testing.T) {
	t.Setenv("T_HOOKD_SECRET", "sk-raw")
	var a seen
	as := recording(t, &a, answerOK, false)
	h := Handler{URL: as.URL, Headers: map[string]string{"X-Key": "$T_HOOKD_SECRET"}, AllowedEnvVars: []string{"T_HOOKD_SECRET"}}
	if res := Run(context.Background(), nil, h, Policy{}, nil, []byte(`{}`)); res.Err != nil || a.key.Load() != "|" {
		t.Fatalf("result %+v, headers %q", res, a.key.Load())
	}
}

// Requests of one DialClass reuse kept-alive connections, each of which
// passed the check when it was dialled; without a class, none is kept.
func TestDialClass_ConnectionsAreReusedWithinAClassOnly(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(answerOK))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	var checks atomic.Int32
	check := func(netip.Addr) error { checks.Add(1); return nil }
	for _, tc := range []struct {
		class       string
		conns, dial int32
	}{{"test-class-" + t.Name(), 1, 1}, {"", 2, 2}} {
		conns.Store(0)
		checks.Store(0)
		for range 2 {
			if res := Run(context.Background(), nil, Handler{URL: srv.URL}, Policy{Dial: check, DialClass: tc.class}, nil, []byte(`{}`)); res.Err != nil {
				t.Fatal(res.Err)
			}
		}
		if conns.Load() != tc.conns || checks.Load() != tc.dial {
			t.Errorf("class %q: %d connections, %d checks; want %d, %d", tc.class, conns.Load(), checks.Load(), tc.conns, tc.dial)
		}
	}
}
