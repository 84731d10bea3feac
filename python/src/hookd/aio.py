"""The asyncio hookd client: the same protocol as hookd.HookdClient, for
asyncio programs::

    from hookd.aio import AsyncHookdClient

    async with await AsyncHookdClient.start(call_tool=my_mcp.call_tool) as hookd:
        await hookd.initialize({"processId": os.getpid(), "session": {"cwd": repo}})
        res = await hookd.run("PreToolUse", {"tool_name": "Bash",
                                             "tool_input": {"command": "rm -rf /"}})
        if res["decision"] == "deny":
            refuse(res["reason"])

Cancelling a task that awaits a request sends $/cancelRequest for it, so
hookd stops that request's hooks.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
from typing import IO, Any, Awaitable, Callable, Dict, List, Optional, Union, cast

from ._binary import find_hookd
from ._wire import encode_message, read_message_async
from .client import INTERNAL_ERROR, METHOD_NOT_FOUND, ConnectionClosed, HookdError, answer_result
from .types import (ActivateSkillResult, CallToolParams, JSONObject, CallToolResult, HooksSummary, InitializeParams, InitializeResult, ListResult,
                    RunResult, SetEnabledResult, TakePendingResult, TrustResult)

# Answers mcp/callTool; may be a plain function or a coroutine function.
AsyncCallTool = Callable[[CallToolParams], Union[CallToolResult, Awaitable[CallToolResult]]]


class AsyncHookdClient:
    """One running hookd process and its JSON-RPC connection, on an event loop.

    notifications is an asyncio.Queue of (method, params) for every
    notification hookd sends, in arrival order; on_notification, when given,
    is called instead.
    """

    def __init__(
        self,
        proc: asyncio.subprocess.Process,
        call_tool: Optional[AsyncCallTool] = None,
        on_notification: Optional[Callable[[str, Any], None]] = None,
    ):
        if proc.stdin is None or proc.stdout is None:
            raise ValueError("hookd must be started with stdin=PIPE and stdout=PIPE")
        self.proc = proc
        self.call_tool = call_tool
        self.on_notification = on_notification
        self.notifications: "asyncio.Queue[tuple[str, Any]]" = asyncio.Queue()
        self._pending: dict[int, "asyncio.Future[JSONObject]"] = {}
        self._ids = itertools.count(1)
        self._closed = False
        self._tasks: set["asyncio.Task[None]"] = set()
        self._reader = asyncio.create_task(self._read_loop(proc.stdout))

    @classmethod
    async def start(
        cls,
        bin: Optional[str] = None,
        *args: str,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
        stderr: Optional[Union[IO[bytes], int]] = None,
        call_tool: Optional[AsyncCallTool] = None,
        on_notification: Optional[Callable[[str, Any], None]] = None,
    ) -> "AsyncHookdClient":
        """Spawns hookd (bin, default: find_hookd()) with args (default:
        serve). hookd's logs go to stderr (default: this process's stderr)."""
        argv = [bin or find_hookd(env), *(args or ("serve",))]
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr, env=env, cwd=cwd)
        return cls(proc, call_tool=call_tool, on_notification=on_notification)

    # ------------------------------------------------------------ requests

    async def request(self, method: str, params: Optional[JSONObject] = None) -> Any:
        """Sends a request and waits for its result (raises HookdError).
        Cancelling the awaiting task sends $/cancelRequest."""
        if self._closed:
            raise ConnectionClosed()
        request_id = next(self._ids)
        answer: "asyncio.Future[JSONObject]" = asyncio.get_running_loop().create_future()
        self._pending[request_id] = answer
        try:
            await self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})
            msg = await answer
        except asyncio.CancelledError:
            if not self._closed:
                try:
                    await self._write({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": request_id}})
                except (OSError, ConnectionError):
                    pass
            raise
        except (OSError, ConnectionError) as err:
            raise ConnectionClosed(f"write to hookd: {err}") from err
        finally:
            self._pending.pop(request_id, None)
        return answer_result(msg)

    async def notify(self, method: str, params: Optional[JSONObject] = None) -> None:
        msg: JSONObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        await self._write(msg)

    async def initialize(self, params: Optional[InitializeParams] = None) -> InitializeResult:
        """Starts the session and returns what hookd found."""
        result = await self.request("initialize", dict(params or {}))
        await self.notify("initialized", {})
        return cast(InitializeResult, result)

    async def run(self, event: str, input: Optional[JSONObject] = None, turn_id: Optional[str] = None) -> RunResult:
        """Runs one event's hooks and returns the combined RunResult."""
        params: JSONObject = {"event": event, "input": input or {}}
        if turn_id:
            params["turnId"] = turn_id
        return cast(RunResult, await self.request("hooks/run", params))

    async def list(self, event: Optional[str] = None) -> ListResult:
        return cast(ListResult, await self.request("hooks/list", {"event": event} if event else {}))

    async def reload(self) -> HooksSummary:
        return cast(HooksSummary, await self.request("hooks/reload"))

    async def trust(self, keys: List[str]) -> TrustResult:
        return cast(TrustResult, await self.request("hooks/trust", {"keys": list(keys)}))

    async def set_enabled(self, key: str, enabled: bool) -> SetEnabledResult:
        return cast(SetEnabledResult, await self.request("hooks/setEnabled", {"key": key, "enabled": enabled}))

    async def activate_skill(self, name: str, agent_id: str = "") -> ActivateSkillResult:
        """Tells hookd an agent invoked a skill (claude profile): its
        frontmatter hooks run in that agent's events (agent_id, the
        subagent's; empty: the main agent) for the rest of the session."""
        params: dict[str, str] = {"name": name}
        if agent_id:
            params["agentId"] = agent_id
        return cast(ActivateSkillResult, await self.request("hooks/activateSkill", params))

    async def take_pending(self) -> TakePendingResult:
        return cast(TakePendingResult, await self.request("hooks/takePending"))

    # ------------------------------------------------------------ lifecycle

    async def close(self, timeout: float = 5.0) -> int:
        """Shuts hookd down (shutdown, then exit) and returns its exit code.
        If hookd does not answer or exit within timeout seconds it is killed."""
        if self.proc.returncode is not None:
            await self._reader
            return self.proc.returncode
        try:
            await asyncio.wait_for(self.request("shutdown"), timeout)
            await self.notify("exit")
            code = await asyncio.wait_for(self.proc.wait(), timeout)
        except (HookdError, OSError, ConnectionError, asyncio.TimeoutError):
            await self.kill()
            raise
        await self._reader
        return code

    async def kill(self) -> None:
        """Ends hookd at once; prefer close()."""
        if self.proc.returncode is None:
            self.proc.kill()
        await self.proc.wait()
        await self._reader
        if self.proc.stdin is not None:
            self.proc.stdin.close()

    async def __aenter__(self) -> "AsyncHookdClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self.proc.returncode is None:
            try:
                await self.close()
            except (HookdError, OSError, ConnectionError, asyncio.TimeoutError):
                pass
        await self.kill()

    # ------------------------------------------------------------ the wire

    async def _write(self, msg: JSONObject) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(encode_message(msg))
        await stdin.drain()

    async def _read_loop(self, stdout: asyncio.StreamReader) -> None:
        try:
            while True:
                msg = await read_message_async(stdout)
                if msg is None:
                    break
                self._dispatch(msg)
        except (OSError, ValueError):
            pass
        finally:
            self._closed = True
            pending, self._pending = self._pending, {}
            for answer in pending.values():
                if not answer.done():
                    answer.set_result({"error": ConnectionClosed()})

    def _dispatch(self, msg: JSONObject) -> None:
        method = msg.get("method")
        if method is None:
            answer = self._pending.get(msg.get("id"))  # type: ignore[arg-type]
            if answer is not None and not answer.done():
                answer.set_result(msg)
            return
        if "id" not in msg:
            if self.on_notification is not None:
                self.on_notification(method, msg.get("params"))
            else:
                self.notifications.put_nowait((method, msg.get("params")))
            return
        # A request from hookd: answer it in its own task, the reader keeps reading.
        task = asyncio.create_task(self._answer_request(msg))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer_request(self, msg: JSONObject) -> None:
        reply: JSONObject = {"jsonrpc": "2.0", "id": msg["id"]}
        if msg["method"] == "mcp/callTool" and self.call_tool is not None:
            try:
                result = self.call_tool(cast(CallToolParams, msg.get("params") or {}))
                if inspect.isawaitable(result):
                    result = await result
                reply["result"] = result
            except HookdError as err:
                reply["error"] = {"code": err.code, "message": err.message}
            except Exception as err:  # the host's tool call failed: tell hookd why
                reply["error"] = {"code": INTERNAL_ERROR, "message": f"{type(err).__name__}: {err}"}
        else:
            reply["error"] = {"code": METHOD_NOT_FOUND, "message": f"this host does not handle {msg['method']}"}
        try:
            await self._write(reply)
        except (OSError, ConnectionError):
            pass
