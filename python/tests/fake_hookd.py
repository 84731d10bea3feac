"""A stand-in for hookd that asks its host to call an MCP tool on every
hooks/run and reports what came back, with hooks/status notifications around
the call. It lets the suite check the host side of mcp/callTool whatever the
hookd build under test supports."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from hookd._wire import read_message, write_message  # noqa: E402

out = sys.stdout.buffer
next_id = 1000


def call_host(method, params):
    global next_id
    next_id += 1
    write_message(out, {"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
    while True:
        msg = read_message(sys.stdin.buffer)
        if msg is None:
            sys.exit(1)
        if msg.get("id") == next_id and "method" not in msg:
            return msg


def status(state):
    write_message(out, {"jsonrpc": "2.0", "method": "hooks/status", "params": {
        "runId": "r1", "hook": "fake:pre_tool_use:0:0", "statusMessage": "Asking policy", "state": state}})


while True:
    msg = read_message(sys.stdin.buffer)
    if msg is None:
        sys.exit(1)
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "exit":
        sys.exit(0)
    if "id" not in msg:
        continue
    result = None
    if method == "initialize":
        result = {"serverInfo": {"name": "fake-hookd", "version": "0"}, "protocolVersion": 1}
    elif method == "hooks/run":
        status("started")
        answer = call_host("mcp/callTool", {"server": "policy", "tool": "check",
                                            "arguments": params.get("input"), "timeoutMs": 5000})
        status("finished")
        result = {"event": params.get("event"), "decision": "none", "continue": True,
                  "hooks": [], "skipped": [], "callTool": answer}
    write_message(out, {"jsonrpc": "2.0", "id": msg["id"], "result": result})
