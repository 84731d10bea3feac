// Package plugins finds agent plugins on disk and says where their hooks are.
//
// A plugin is a folder (its root) with a manifest: .codex-plugin/plugin.json,
// .claude-plugin/plugin.json or .cursor-plugin/plugin.json, looked up in that
// order. Load takes the plugins a host names and the folders it asks to scan,
// reads each manifest's "hooks" entry by the Codex or Claude Code rule, checks
// every path it names and the manifest itself (each must stay inside the
// root, symlinks included; the opened file is what is checked), and
// returns one Plugin per plugin with its hook Sources: the bytes of each hooks
// file or inline hooks object, and the key prefix its hooks are named by.
//
// The package knows nothing of events or handlers: package hooks parses the
// sources with the same reader as every other hooks file. What a plugin's
// command hooks need at run time (PLUGIN_ROOT, PLUGIN_DATA and their
// CLAUDE_ twins, exported and substituted into the command) is Env and
// Expand.
//
// Every problem is a Warning and costs only what it is about: a bad path
// drops that path, a malformed hooks file drops that file, a malformed
// manifest drops that plugin. Nothing here runs code; the only file written
// is the load cache (cache.go), when Options.CacheDir asks for it.
package plugins
