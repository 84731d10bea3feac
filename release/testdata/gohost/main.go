// A Go host: start the hookd that `go install` put on PATH, get a deny.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/hookd/hookd/client"
)

func main() {
	ctx := context.Background()
	hookd, err := client.Start(ctx, "hookd", os.Stderr, "serve")
	if err != nil {
		log.Fatal(err)
	}
	bypass := true
	init, err := hookd.InitializeSession(ctx, client.InitializeParams{
		Session: &client.SessionParams{Cwd: "."},
		Config: &client.ConfigParams{BypassTrust: &bypass, Hooks: json.RawMessage(`{"PreToolUse": [{"matcher": "Bash", "hooks": [
			{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"no recursive deletes\"}'"}]}]}`)},
	})
	if err != nil {
		log.Fatal(err)
	}
	res, err := hookd.RunEvent(ctx, client.RunParams{Event: "PreToolUse",
		Input: json.RawMessage(`{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}`)})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := hookd.Close(ctx); err != nil {
		log.Fatal(err)
	}
	out, _ := json.Marshal(map[string]any{"decision": res.Decision, "reason": res.Reason, "version": init.ServerInfo.Version})
	fmt.Println(string(out))
}
