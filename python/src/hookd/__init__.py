"""hookd for Python hosts: run coding-agent lifecycle hooks (Codex, Claude Code
and others) through the hookd binary this package carries.

    from hookd import HookdClient            # blocking, one reader thread
    from hookd.aio import AsyncHookdClient   # asyncio

Both spawn the binary that find_hookd() finds ($HOOKD_PATH, else the one in
this package's platform wheel, else hookd on PATH) and speak its JSON-RPC 2.0
protocol. Standard library only.
"""

from ._binary import find_hookd
from .client import (INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR,
                     REQUEST_CANCELLED, SERVER_NOT_INITIALIZED, CallTool, ConnectionClosed, HookdClient, HookdError,
                     Pending)

__all__ = [
    "find_hookd", "HookdClient", "HookdError", "ConnectionClosed", "Pending", "CallTool",
    "PARSE_ERROR", "INVALID_REQUEST", "METHOD_NOT_FOUND", "INVALID_PARAMS", "INTERNAL_ERROR",
    "SERVER_NOT_INITIALIZED", "REQUEST_CANCELLED",
]
