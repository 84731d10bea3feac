"""A Python host (sync client): start hookd from the wheel, get a deny."""
import json
import os

from hookd import HookdClient, find_hookd

with HookdClient.start() as hookd:
    init = hookd.initialize({
        "session": {"cwd": os.getcwd()},
        "config": {"bypassTrust": True, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"no recursive deletes\"}'"}]}]}},
    })
    res = hookd.run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})
print(json.dumps({"decision": res["decision"], "reason": res.get("reason"),
                  "version": init["serverInfo"]["version"], "binary": find_hookd()}))
