// Package evaluate holds what hookd does around Claude Code's "prompt" and
// "agent" hook handlers, which need a model hookd does not have: the host
// answers them (PROTOCOL.md model/evaluate). The package builds the request,
// reads the host's answer and words the outcome as Claude Code 2.1.328 does
// (measured; SEMANTICS section 6):
//
//   - the prompt has $ARGUMENTS replaced by the compact input JSON; a prompt
//     without $ARGUMENTS gets "\n\nARGUMENTS: <input>" appended;
//   - a prompt hook's block reads "[<prompt as written>]: <reason>", an agent
//     hook's "Agent hook condition was not met: <reason>".
//
// It knows nothing about profiles; the claude profile turns an Answer into
// an event outcome.
package evaluate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Kinds of handler the host evaluates.
const (
	KindPrompt = "prompt"
	KindAgent  = "agent"
)

// Request is the params of one model/evaluate call.
type Request struct {
	RunID     string          `json:"runId"`
	Hook      string          `json:"hook"`
	Kind      string          `json:"kind"`
	Prompt    string          `json:"prompt"`
	Model     *string         `json:"model"`
	Input     json.RawMessage `json:"input"`
	TimeoutMs int64           `json:"timeoutMs"`
}

// Answer is the host's reply.
type Answer struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
}

// ErrNoEvaluator is the failure of a prompt or agent hook when the host has
// not said it can evaluate them.
var ErrNoEvaluator = errors.New(`the host cannot evaluate prompt or agent hooks (initialize capabilities.evaluate is not true); the hook did not run`)

// Prompt returns the text sent to the model: $ARGUMENTS replaced by the
// compact input JSON, or "\n\nARGUMENTS: <input>" appended when the prompt
// does not name $ARGUMENTS (as Claude Code sends it).
func Prompt(prompt string, input []byte) (string, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, input); err != nil {
		return "", fmt.Errorf("hook input is not JSON: %w", err)
	}
	args := b.String()
	if !strings.Contains(prompt, "$ARGUMENTS") {
		return prompt + "\n\nARGUMENTS: " + args, nil
	}
	return strings.ReplaceAll(prompt, "$ARGUMENTS", args), nil
}

// ParseAnswer reads the host's reply: an object with a boolean ok and an
// optional string reason.
func ParseAnswer(data []byte) (Answer, error) {
	var raw struct {
		OK     *bool   `json:"ok"`
		Reason *string `json:"reason"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return Answer{}, fmt.Errorf("evaluate answer is not a JSON object with ok: %w", err)
	}
	if raw.OK == nil {
		return Answer{}, errors.New(`evaluate answer has no boolean "ok"`)
	}
	a := Answer{OK: *raw.OK}
	if raw.Reason != nil {
		a.Reason = strings.TrimSpace(*raw.Reason)
	}
	return a, nil
}

// BlockText is the reason of a block by a handler of kind, as Claude Code
// words it. prompt is the handler's prompt as written (before $ARGUMENTS).
func BlockText(kind, prompt, reason string) string {
	if kind == KindAgent {
		return "Agent hook condition was not met: " + reason
	}
	return "[" + prompt + "]: " + reason
}

// Evaluator answers model/evaluate requests: the host (hookd serve, when its
// initialize says capabilities.evaluate) or a fixed answer (hookd run
// --evaluate). It returns the answer's JSON, or an error that fails the
// hook.
type Evaluator interface {
	Evaluate(ctx context.Context, req Request) (json.RawMessage, error)
}

// Fixed is an Evaluator that gives every request the same answer, for
// testing prompt and agent hooks offline.
type Fixed json.RawMessage

// Evaluate returns f.
func (f Fixed) Evaluate(context.Context, Request) (json.RawMessage, error) {
	return json.RawMessage(f), nil
}
