"""The synchronous hookd client, standard library only.

Spawns hookd, speaks JSON-RPC 2.0 over its stdin and stdout with LSP framing
(Content-Length headers), reads replies on one thread, answers hookd's
mcp/callTool requests, queues its notifications, and shuts it down::

    from hookd import HookdClient

    with HookdClient.start(call_tool=my_mcp.call_tool) as hookd:
        hookd.initialize({"processId": os.getpid(), "session": {"cwd": repo}})
        res = hookd.run("PreToolUse", {"tool_name": "Bash",
                                       "tool_input": {"command": "rm -rf /"}})
        if res["decision"] == "deny":
            refuse(res["reason"])

Leaving the ``with`` block shuts hookd down (shutdown, then exit) and waits
for it; ``close()`` does the same.

Results are the dicts the protocol defines (docs/protocol.md); hookd.types
has them as TypedDicts. hookd.aio has the same client for asyncio.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import threading
from typing import IO, Any, Callable, Dict, List, Optional, cast

from ._binary import find_hookd
from ._wire import read_message, write_message
from .types import (ActivateSkillResult, CallToolParams, JSONObject, CallToolResult, HooksSummary, InitializeParams, InitializeResult, ListResult,
                    RunResult, SetEnabledResult, TakePendingResult, TrustResult)

# JSON-RPC error codes hookd answers with.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800

# Answers mcp/callTool: takes CallToolParams, returns an MCP CallToolResult.
# Raise HookdError to answer with a specific JSON-RPC error.
CallTool = Callable[[CallToolParams], CallToolResult]


class HookdError(Exception):
    """A JSON-RPC error answer from hookd (or the connection ending)."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{message} (code {code})")
        self.code = code
        self.message = message
        self.data = data


class ConnectionClosed(HookdError):
    """hookd exited or closed its stdout before answering."""

    def __init__(self, message: str = "hookd closed the connection"):
        super().__init__(-32099, message)


def answer_result(msg: JSONObject) -> Any:
    """The result of a response, or its error raised as HookdError (the
    reader puts a ConnectionClosed in "error" when the connection ends)."""
    if "error" not in msg:
        return msg.get("result")
    error = msg["error"] or {}
    if isinstance(error, ConnectionClosed):
        raise error
    raise HookdError(error.get("code", INTERNAL_ERROR), error.get("message", ""), error.get("data"))


class Pending:
    """A request in flight: wait for it with result(), or cancel() it."""

    def __init__(self, client: "HookdClient", request_id: int, method: str):
        self._client = client
        self.id = request_id
        self.method = method
        self._answer: "queue.Queue[JSONObject]" = queue.Queue(1)

    def cancel(self) -> None:
        """Sends $/cancelRequest. hookd still answers: result() then raises
        HookdError with code REQUEST_CANCELLED."""
        self._client.notify("$/cancelRequest", {"id": self.id})

    def result(self, timeout: Optional[float] = None) -> Any:
        """Waits for the answer and returns its result, or raises HookdError.
        Raises TimeoutError when timeout (seconds) passes first."""
        try:
            msg = self._answer.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"{self.method} (id {self.id}): no answer within {timeout} s") from None
        return answer_result(msg)


class HookdClient:
    """One running hookd process and its JSON-RPC connection.

    notifications is a queue.Queue of (method, params) for every notification
    hookd sends (window/logMessage, hooks/status, hooks/asyncCompleted,
    hooks/changed), in arrival order. on_notification, when given, is called
    on the reader thread instead; keep it quick.
    """

    def __init__(
        self,
        proc: "subprocess.Popen[bytes]",
        call_tool: Optional[CallTool] = None,
        on_notification: Optional[Callable[[str, Any], None]] = None,
    ):
        if proc.stdin is None or proc.stdout is None:
            raise ValueError("hookd must be started with stdin=PIPE and stdout=PIPE")
        self.proc = proc
        self.call_tool = call_tool
        self.on_notification = on_notification
        self.notifications: "queue.Queue[tuple[str, Any]]" = queue.Queue()
        self._write_lock = threading.Lock()
        self._pending: dict[int, Pending] = {}
        self._pending_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._closed = False
        self._reader = threading.Thread(target=self._read_loop, args=(proc.stdout,), name="hookd-reader", daemon=True)
        self._reader.start()

    @classmethod
    def start(
        cls,
        bin: Optional[str] = None,
        *args: str,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
        stderr: Optional[IO[bytes]] = None,
        call_tool: Optional[CallTool] = None,
        on_notification: Optional[Callable[[str, Any], None]] = None,
    ) -> "HookdClient":
        """Spawns hookd (bin, default: find_hookd(), the binary this package
        carries) with args (default: serve). hookd's logs go to stderr (default: this process's
        stderr); never to an unread pipe, which would block hookd."""
        argv = [bin or find_hookd(env), *(args or ("serve",))]
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, cwd=cwd)
        return cls(proc, call_tool=call_tool, on_notification=on_notification)

    # ------------------------------------------------------------ requests

    def send(self, method: str, params: Optional[JSONObject] = None) -> Pending:
        """Sends a request without waiting: requests may be pipelined."""
        pending = Pending(self, next(self._ids), method)
        with self._pending_lock:
            if self._closed:
                raise ConnectionClosed()
            self._pending[pending.id] = pending
        try:
            self._write({"jsonrpc": "2.0", "id": pending.id, "method": method, "params": params or {}})
        except OSError as err:
            with self._pending_lock:
                self._pending.pop(pending.id, None)
            raise ConnectionClosed(f"write to hookd: {err}") from err
        return pending

    def request(self, method: str, params: Optional[JSONObject] = None, timeout: Optional[float] = None) -> Any:
        """Sends a request and waits for its result (raises HookdError)."""
        return self.send(method, params).result(timeout)

    def notify(self, method: str, params: Optional[JSONObject] = None) -> None:
        msg: JSONObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._write(msg)

    def initialize(self, params: Optional[InitializeParams] = None, timeout: Optional[float] = None) -> InitializeResult:
        """Starts the session and returns what hookd found."""
        result = self.request("initialize", dict(params or {}), timeout)
        self.notify("initialized", {})
        return cast(InitializeResult, result)

    def run(self, event: str, input: Optional[JSONObject] = None, turn_id: Optional[str] = None,
            timeout: Optional[float] = None) -> RunResult:
        """Runs one event's hooks and returns the combined RunResult."""
        return cast(RunResult, self.run_async(event, input, turn_id).result(timeout))

    def run_async(self, event: str, input: Optional[JSONObject] = None, turn_id: Optional[str] = None) -> Pending:
        """Starts hooks/run and returns at once; the Pending can be cancelled."""
        params: JSONObject = {"event": event, "input": input or {}}
        if turn_id:
            params["turnId"] = turn_id
        return self.send("hooks/run", params)

    def list(self, event: Optional[str] = None) -> ListResult:
        return cast(ListResult, self.request("hooks/list", {"event": event} if event else {}))

    def reload(self) -> HooksSummary:
        return cast(HooksSummary, self.request("hooks/reload"))

    def trust(self, keys: List[str]) -> TrustResult:
        return cast(TrustResult, self.request("hooks/trust", {"keys": list(keys)}))

    def set_enabled(self, key: str, enabled: bool) -> SetEnabledResult:
        return cast(SetEnabledResult, self.request("hooks/setEnabled", {"key": key, "enabled": enabled}))

    def activate_skill(self, name: str, agent_id: str = "") -> ActivateSkillResult:
        """Tells hookd an agent invoked a skill (claude profile): its
        frontmatter hooks run in that agent's events (agent_id, the
        subagent's; empty: the main agent) for the rest of the session."""
        params: dict[str, str] = {"name": name}
        if agent_id:
            params["agentId"] = agent_id
        return cast(ActivateSkillResult, self.request("hooks/activateSkill", params))

    def take_pending(self) -> TakePendingResult:
        return cast(TakePendingResult, self.request("hooks/takePending"))

    # ------------------------------------------------------------ lifecycle

    def close(self, timeout: float = 5.0) -> int:
        """Shuts hookd down (shutdown, then exit) and returns its exit code.
        If hookd does not answer or exit within timeout seconds it is killed."""
        if self.proc.poll() is not None:
            return self.proc.returncode
        try:
            self.request("shutdown", timeout=timeout)
            self.notify("exit")
            return self.proc.wait(timeout)
        except (HookdError, OSError, TimeoutError, subprocess.TimeoutExpired):
            self.kill()
            raise

    def kill(self) -> None:
        """Ends hookd at once; prefer close()."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._reader.join(5)
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def __enter__(self) -> "HookdClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.proc.poll() is None:
            try:
                self.close()
            except (HookdError, OSError, TimeoutError, subprocess.TimeoutExpired):
                pass
        self.kill()

    # ------------------------------------------------------------ the wire

    def _write(self, msg: JSONObject) -> None:
        with self._write_lock:
            assert self.proc.stdin is not None
            write_message(self.proc.stdin, msg)

    def _read_loop(self, stdout: IO[bytes]) -> None:
        try:
            while True:
                msg = read_message(stdout)
                if msg is None:
                    break
                self._dispatch(msg)
        except (OSError, ValueError):
            pass
        finally:
            with self._pending_lock:
                self._closed = True
                pending, self._pending = self._pending, {}
            for p in pending.values():
                p._answer.put({"error": ConnectionClosed()})

    def _dispatch(self, msg: JSONObject) -> None:
        method = msg.get("method")
        if method is None:
            # A response: hand it to whoever waits for that id.
            with self._pending_lock:
                pending = self._pending.pop(msg.get("id"), None)  # type: ignore[arg-type]
            if pending is not None:
                pending._answer.put(msg)
            return
        if "id" not in msg:
            if self.on_notification is not None:
                self.on_notification(method, msg.get("params"))
            else:
                self.notifications.put((method, msg.get("params")))
            return
        # A request from hookd: answer it off the reader thread, which must
        # keep reading (hookd may answer other requests meanwhile).
        threading.Thread(target=self._answer_request, args=(msg,), daemon=True).start()

    def _answer_request(self, msg: JSONObject) -> None:
        reply: JSONObject = {"jsonrpc": "2.0", "id": msg["id"]}
        if msg["method"] == "mcp/callTool" and self.call_tool is not None:
            try:
                reply["result"] = self.call_tool(cast(CallToolParams, msg.get("params") or {}))
            except HookdError as err:
                reply["error"] = {"code": err.code, "message": err.message}
            except Exception as err:  # the host's tool call failed: tell hookd why
                reply["error"] = {"code": INTERNAL_ERROR, "message": f"{type(err).__name__}: {err}"}
        else:
            reply["error"] = {"code": METHOD_NOT_FOUND, "message": f"this host does not handle {msg['method']}"}
        try:
            self._write(reply)
        except OSError:
            pass
