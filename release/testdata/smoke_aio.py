"""A Python host (asyncio client): start hookd from the wheel, get a deny."""
import asyncio
import json
import os

from hookd import find_hookd
from hookd.aio import AsyncHookdClient


async def main() -> None:
    async with await AsyncHookdClient.start() as hookd:
        init = await hookd.initialize({
            "session": {"cwd": os.getcwd()},
            "config": {"bypassTrust": True, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"no recursive deletes\"}'"}]}]}},
        })
        res = await hookd.run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})
    print(json.dumps({"decision": res["decision"], "reason": res.get("reason"),
                      "version": init["serverInfo"]["version"], "binary": find_hookd()}))

asyncio.run(main())
