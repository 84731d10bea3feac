package hooks

import "testing"

// BenchmarkParseHooksJSON_PluginDoc is the parse of one plugin's hooks.json
// in the start-up benchmark's layout (two events, one hook each): a load of
// 200 plugins does it 200 times.
func BenchmarkParseHooksJSON_PluginDoc(b *testing.B) {
	doc := []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/check.sh"}]}], "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
	p := codexProfile()
	src := Source{Layer: LayerPlugin, Path: "/p/hooks/hooks.json", Plugin: "p"}
	b.ReportAllocs()
	for b.Loop() {
		if hooks, warns := ParseHooksJSON(p, doc, src, "p@local:hooks/hooks.json"); len(hooks) != 2 || len(warns) != 0 {
			b.Fatal(hooks, warns)
		}
	}
}
