package rpc

import (
	"errors"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/sourcegraph/jsonrpc2"
)

func TestFeatureOptions_ScalarsBecomeText(t *testing.T) {
	got, err := featureOptions(map[string]json.RawMessage{
		"hookCommandRewrite": json.RawMessage(`true`), "hookEngine": json.RawMessage(`"v2"`),
		"level": json.RawMessage(` 3 `), "unset": json.RawMessage(`null`),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"hookCommandRewrite": "true", "hookEngine": "v2", "level": "3"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestFeatureOptions_ObjectsAndArraysAreRefusedByName(t *testing.T) {
	for _, raw := range []string{`[1]`, `{"a":1}`} {
		_, err := featureOptions(map[string]json.RawMessage{"hookEngine": json.RawMessage(raw)})
		var je *jsonrpc2.Error
		if !errors.As(err, &je) || je.Code != jsonrpc2.CodeInvalidParams || !strings.Contains(je.Message, "config.features.hookEngine") {
			t.Errorf("%s: %v", raw, err)
		}
	}
}
