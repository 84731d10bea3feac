package httphook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestRun_PostsTheInputAndReadsA2xxBodyAsStdout(t *testing.T) {
	var gotBody, gotType, gotMethod string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotBody, gotType, gotMethod = string(b), r.Header.Get("Content-Type"), r.Method
		io.WriteString(w, `{"decision":"block","reason":"no"}`)
	}))
	defer srv.Close()
	res := Run(context.Background(), nil, Handler{URL: srv.URL}, Policy{}, nil, []byte(`{"hook_event_name":"Stop"}`))
	if res.Err != nil || res.Status != 200 || string(res.Body) != `{"decision":"block","reason":"no"}` {
		t.Fatalf("result %+v", res)
	}
	if gotMethod != "POST" || gotType != "application/json" || gotBody != `{"hook_event_name":"Stop"}` {
		t.Fatalf("request %s %s %s", gotMethod, gotType, gotBody)
	}
}

func TestRun_Non2xxIsAFailureNamingStatusAndURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"decision":"block"}`, http.StatusInternalServerError)
	}))
	defer srv.Close()
	res := Run(context.Background(), nil, Handler{URL: srv.URL + "/h"}, Policy{}, nil, []byte(`{}`))
	if res.Err == nil || res.Err.Error() != "HTTP 500 from "+srv.URL+"/h" || res.Body != nil || res.Status != 500 {
		t.Fatalf("result %+v", res)
	}
}

func TestRun_TimeoutIsAFailure(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res := Run(ctx, nil, Handler{URL: srv.URL}, Policy{}, nil, []byte(`{}`))
	if !res.TimedOut || res.Err == nil || !strings.Contains(res.Err.Error(), "timed out") {
		t.Fatalf("result %+v", res)
	}
}

func TestRun_BlockedURLIsNeverRequested(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/x"
	p := Policy{AllowedURLs: []string{"http://127.0.0.1:*", "https://hooks.example.com/*"}}
	res := Run(context.Background(), nil, Handler{URL: url}, p, nil, []byte(`{}`))
	want := "HTTP hook blocked: " + url + " does not match any pattern in allowedHttpHookUrls"
	if !res.Blocked || res.Err == nil || res.Err.Error() != want || hits.Load() != 0 {
		t.Fatalf("result %+v, hits %d", res, hits.Load())
	}
	if res := Run(context.Background(), nil, Handler{URL: srv.URL + "/ok"}, p, nil, []byte(`{}`)); res.Err != nil || hits.Load() != 1 {
		t.Fatalf("allowed URL: %+v, hits %d", res, hits.Load())
	}
}

func TestRun_RedirectToABlockedURLIsNotFollowed(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	target := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	res := Run(context.Background(), nil, Handler{URL: srv.URL}, Policy{AllowedURLs: []string{"http://127.0.0.1:*"}}, nil, []byte(`{}`))
	if !res.Blocked || hits.Load() != 0 {
		t.Fatalf("result %+v, hits %d", res, hits.Load())
	}
}

func TestExpandHeader_OnlyAllowedVariables(t *testing.T) {
	lookup := env(map[string]string{"TOKEN": "t1", "OTHER": "o1", "BOTH": "b1"})
	h := Handler{AllowedEnvVars: []string{"TOKEN", "BOTH"}}
	for _, tc := range []struct {
		policy     Policy
		value, out string
	}{
		{Policy{}, "Bearer $TOKEN", "Bearer t1"},
		{Policy{}, "Bearer ${TOKEN}!", "Bearer t1!"},
		{Policy{}, "x $OTHER y", "x  y"},
		{Policy{AllowedEnvVars: []string{"BOTH"}}, "$TOKEN/$BOTH", "/b1"},
		{Policy{AllowedEnvVars: []string{}}, "$TOKEN", ""},
		{Policy{}, "$UNSET", ""},
	} {
		if got := tc.policy.ExpandHeader(h, tc.value, lookup); got != tc.out {
			t.Errorf("ExpandHeader(%q) with %+v = %q, want %q", tc.value, tc.policy, got, tc.out)
		}
	}
}

func TestRun_HeadersAreExpandedOnTheWire(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Clone() }))
	defer srv.Close()
	h := Handler{URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer $TOKEN", "X-Other": "${OTHER}"}, AllowedEnvVars: []string{"TOKEN"}}
	res := Run(context.Background(), nil, h, Policy{}, env(map[string]string{"TOKEN": "t1", "OTHER": "o1"}), []byte(`{}`))
	if res.Err != nil || got.Get("Authorization") != "Bearer t1" || got.Get("X-Other") != "" {
		t.Fatalf("result %+v headers %v", res, got)
	}
}

func TestRun_EmptyBodyIsSuccessAndALargeBodyIsCapped(t *testing.T) {
	big := strings.Repeat("a", MaxBody+5)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			io.WriteString(w, big)
		}
	}))
	defer srv.Close()
	if res := Run(context.Background(), nil, Handler{URL: srv.URL}, Policy{}, nil, nil); res.Err != nil || len(res.Body) != 0 || res.Status != 200 {
		t.Fatalf("empty: %+v", res)
	}
	res := Run(context.Background(), nil, Handler{URL: srv.URL + "/big"}, Policy{}, nil, nil)
	if res.Err != nil || !res.Truncated || len(res.Body) != MaxBody {
		t.Fatalf("big: err %v truncated %v len %d", res.Err, res.Truncated, len(res.Body))
	}
}

func TestRun_ConnectionErrorIsAFailure(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	res := Run(context.Background(), nil, Handler{URL: url}, Policy{}, nil, []byte(`{}`))
	if res.Err == nil || res.Blocked || res.TimedOut || !strings.Contains(res.Err.Error(), url) {
		t.Fatalf("result %+v", res)
	}
}

func TestRunRaw_BodyIsStdoutOnExit0AndTheTimeoutIsReported(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		io.WriteString(w, `{"decision":"block"}`)
	}))
	defer srv.Close()
	defer close(release)
	raw := RunRaw(context.Background(), nil, Handler{URL: srv.URL + "/ok"}, Policy{}, nil, []byte(`{}`), time.Minute)
	if raw.ExitCode == nil || *raw.ExitCode != 0 || raw.Stdout != `{"decision":"block"}` {
		t.Errorf("got %+v", raw)
	}
	raw = RunRaw(context.Background(), nil, Handler{URL: srv.URL + "/slow"}, Policy{}, nil, []byte(`{}`), 50*time.Millisecond)
	if !raw.TimedOut || raw.ExitCode != nil {
		t.Errorf("got %+v", raw)
	}
}

// The host's User-Agent and Accept go out (Claude Code's are its HTTP
// client's), unless the handler's own headers set them.
func TestRun_SendsTheHostsUserAgent(t *testing.T) {
	var ua, accept atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		accept.Store(r.Header.Get("Accept"))
	}))
	defer srv.Close()
	p := Policy{UserAgent: "axios/1.15.2", Accept: "application/json, text/plain, */*"}
	Run(context.Background(), nil, Handler{URL: srv.URL}, p, nil, []byte(`{}`))
	if ua.Load() != "axios/1.15.2" || accept.Load() != "application/json, text/plain, */*" {
		t.Fatalf("User-Agent %q Accept %q", ua.Load(), accept.Load())
	}
	Run(context.Background(), nil, Handler{URL: srv.URL, Headers: map[string]string{"User-Agent": "mine"}}, p, nil, []byte(`{}`))
	if ua.Load() != "mine" {
		t.Fatalf("the handler's User-Agent was not kept: %q", ua.Load())
	}
	Run(context.Background(), nil, Handler{URL: srv.URL}, Policy{}, nil, []byte(`{}`))
	if !strings.HasPrefix(ua.Load().(string), "Go-http-client/") {
		t.Fatalf("no host User-Agent: %q", ua.Load())
	}
}
