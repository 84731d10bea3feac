package plugins

// ManifestPath returns the manifest file hookd reads for the plugin folder
// root (.codex-plugin/plugin.json, .claude-plugin/plugin.json, or an agent
// plugins plugin.json at the root), or "" when it has none.
func ManifestPath(root string) string {
	p, _ := findManifest(root)
	return p
}
