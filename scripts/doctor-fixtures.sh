#!/bin/sh
# doctor-fixtures.sh: installs every plugin under fixtures/ into a scratch
# HOME (Codex's plugins in its install cache and enabled in config.toml,
# Claude Code's in installed_plugins.json and enabledPlugins, Copilot's user
# hooks), runs hookd doctor there and prints what it finds: each hook that
# will not run and each source not read, by reason.
# Usage: scripts/doctor-fixtures.sh [HOOKD]  (default: a hookd built from this checkout)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
hookd=${1:-}
if [ -z "$hookd" ]; then
	(cd "$repo" && go build -o "$scratch/hookd" .)
	hookd=$scratch/hookd
fi
export HOME="$scratch/home"
unset CODEX_HOME CLAUDE_CONFIG_DIR COPILOT_HOME GEMINI_CLI_HOME QWEN_HOME 2>/dev/null || true
mkdir -p "$HOME/.codex/plugins/cache/local" "$HOME/.claude/plugins" "$HOME/.copilot" "$scratch/app"
python3 - "$repo" "$HOME" <<'PY'
import json, os, sys
repo, home = sys.argv[1], sys.argv[2]
codex, claude = [], {}
for base in ("fixtures/plugins", "fixtures/profiles/claude/plugins"):
    for name in sorted(os.listdir(os.path.join(repo, base))):
        root = os.path.join(repo, base, name)
        for kind in (".codex-plugin", ".claude-plugin"):
            m = os.path.join(root, kind, "plugin.json")
            if not os.path.isfile(m):
                continue
            pid = json.load(open(m)).get("name", name)
            if kind == ".codex-plugin":
                d = os.path.join(home, ".codex/plugins/cache/local", pid)
                os.makedirs(d, exist_ok=True)
                os.symlink(root, os.path.join(d, "1.0.0"))
                codex.append(pid)
            else:
                claude[pid + "@local"] = root
with open(os.path.join(home, ".codex/config.toml"), "w") as f:
    for pid in codex:
        f.write('[plugins."%s@local"]\nenabled = true\n\n' % pid)
json.dump({"version": 2, "plugins": {k: [{"scope": "user", "installPath": v, "version": "1.0.0"}] for k, v in claude.items()}},
          open(os.path.join(home, ".claude/plugins/installed_plugins.json"), "w"))
json.dump({"enabledPlugins": {k: True for k in claude}}, open(os.path.join(home, ".claude/settings.json"), "w"))
PY
cp -r "$repo/fixtures/profiles/copilot/home/." "$HOME/.copilot/"
"$hookd" doctor --cwd "$scratch/app" --json >"$scratch/report.json" || true
python3 - "$scratch/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for h in r["hosts"]:
    print(h["summary"])
    for s in h["sources"]:
        where = s["path"].split("/fixtures/")[-1] if "/fixtures/" in s["path"] else s["path"].split("/home/")[-1]
        if not s["read"]:
            print("  not read    %s: %s: %s" % (where, s["reason"], s["message"]))
        for p in s.get("problems") or []:
            print("  problem     %s:%s: %s [%s]" % (where, p.get("line", 0), p["message"], p["rule"]))
        for k in s.get("hooks") or []:
            if not k["runs"]:
                print("  will not run %s %s: %s: %s" % (where, k["event"], k["reason"], k["detail"]))
            for n in k.get("notes") or []:
                print("  note        %s %s: %s [%s]" % (where, k["event"], n["message"], n["rule"]))
PY
