"""The asyncio client (hookd.aio) against the real hookd binary (HOOKD_BIN),
and its mcp/callTool side against fake_hookd.py."""

import asyncio
import os
import sys
import tempfile
import unittest

from hookd import METHOD_NOT_FOUND, ConnectionClosed
from hookd.aio import AsyncHookdClient

from .test_client import DENY_RM, HERE, WAIT, command_group, hookd_bin


class AsyncHostTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="hookd-aio-")
        self.addCleanup(self.tmp.cleanup)

    async def session(self, hooks):
        env = dict(os.environ, SHELL="/bin/sh")
        client = await AsyncHookdClient.start(hookd_bin(), "serve", "--log-level", "warn", env=env)
        self.addAsyncCleanup(client.kill)
        init = await client.initialize({"processId": os.getpid(), "session": {"cwd": self.tmp.name},
                                        "config": {"hooks": hooks, "bypassTrust": True}})
        return client, init

    async def test_deny_then_clean_shutdown(self):
        client, init = await self.session({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": DENY_RM}]}]})
        self.assertEqual(init["hooks"]["runnable"], 1)
        res = await asyncio.wait_for(client.run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}), WAIT)
        self.assertEqual((res["decision"], res["reason"]), ("deny", "no recursive deletes"))
        self.assertEqual(res["hooks"][0]["async"], False)
        res, listed = await asyncio.gather(client.run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}}),
                                           client.list("PreToolUse"))
        self.assertEqual(res["decision"], "none")
        self.assertEqual(len(listed["hooks"]), 1)
        self.assertEqual(await client.close(), 0)
        with self.assertRaises(ConnectionClosed):
            await client.run("Stop")

    async def test_cancelling_the_task_cancels_the_request(self):
        fifo = os.path.join(self.tmp.name, "signal")
        os.mkfifo(fifo)
        client, _ = await self.session({"Stop": command_group(f"echo started > {fifo}; exec sleep 1000")})
        run = asyncio.create_task(client.run("Stop"))
        def wait_started():
            with open(fifo) as f:  # blocks until the hook opens it to write
                return f.read()
        started = await asyncio.wait_for(asyncio.to_thread(wait_started), WAIT)
        self.assertEqual(started.strip(), "started")
        run.cancel()
        with self.assertRaises(asyncio.CancelledError):
            await run
        # hookd stopped that run (its answer, -32800, is dropped) and goes on serving.
        res = await asyncio.wait_for(client.run("SessionStart", {"source": "startup"}), WAIT)
        self.assertEqual(res["decision"], "none")
        self.assertEqual(await client.close(), 0)


class AsyncCallToolTest(unittest.IsolatedAsyncioTestCase):
    async def start(self, **kwargs):
        client = await AsyncHookdClient.start(sys.executable, os.path.join(HERE, "fake_hookd.py"), cwd=HERE, **kwargs)
        self.addAsyncCleanup(client.kill)
        await client.initialize()
        return client

    async def test_a_coroutine_answers_call_tool(self):
        async def call_tool(params):
            await asyncio.sleep(0)
            return {"content": [{"type": "text", "text": params["tool"]}]}
        client = await self.start(call_tool=call_tool)
        res = await asyncio.wait_for(client.run("PreToolUse", {"tool_name": "Bash"}), WAIT)
        self.assertEqual(res["callTool"]["result"]["content"][0]["text"], "check")
        method, params = await asyncio.wait_for(client.notifications.get(), WAIT)
        self.assertEqual((method, params["state"]), ("hooks/status", "started"))
        self.assertEqual(await client.close(), 0)

    async def test_no_call_tool_answers_method_not_found(self):
        client = await self.start()
        res = await asyncio.wait_for(client.run("PreToolUse", {}), WAIT)
        self.assertEqual(res["callTool"]["error"]["code"], METHOD_NOT_FOUND)


if __name__ == "__main__":
    unittest.main()
