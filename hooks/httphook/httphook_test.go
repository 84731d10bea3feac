package httphook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestExpand_OnlyAllowedVariables(t *testing.T) {
	t.Setenv("TOKEN", "tok")
	t.Setenv("SECRET", "s3")
	if got := Expand("Bearer $TOKEN/${TOKEN}/$SECRET/${SECRET}", []string{"TOKEN"}); got != "Bearer tok/tok//" {
		t.Errorf("got %q", got)
	}
}

func TestPost_CancelledIsReportedAsCancelled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var res = make(chan bool, 1)
	go func() {
		defer close(done)
		r := Post(ctx, Request{URL: srv.URL, Timeout: time.Minute})
		res <- r.Cancelled && r.Err == nil && r.ExitCode == nil
	}()
	cancel()
	<-done
	if !<-res {
		t.Error("a cancelled request is not reported as cancelled")
	}
}
