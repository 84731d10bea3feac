"""The protocol's requests and results as TypedDicts (docs/protocol.md has the
fields' meaning; the Node package's protocol.d.ts has the same types).

Keys hookd may leave out are NotRequired; results are plain dicts at run time.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict

# Annotations are never evaluated at run time (the __future__ import), so
# before Python 3.11 NotRequired need only exist for type checkers.
if sys.version_info >= (3, 11):
    from typing import NotRequired
elif TYPE_CHECKING:
    from typing_extensions import NotRequired

JSONObject = Dict[str, Any]
Decision = Literal["none", "allow", "deny", "block", "ask", "defer"]
HookStatus = Literal["succeeded", "blocked", "failed", "timedOut", "cancelled", "started"]


class SessionParams(TypedDict, total=False):
    id: str
    cwd: str
    transcriptPath: Optional[str]
    model: str
    permissionMode: str


class ConfigParams(TypedDict, total=False):
    home: str
    project: JSONObject
    plugins: List[JSONObject]
    pluginDirs: List[str]
    managed: JSONObject
    hooks: JSONObject
    bypassTrust: bool
    features: JSONObject


class InitializeParams(TypedDict, total=False):
    processId: Optional[int]
    clientInfo: JSONObject
    profile: str
    session: SessionParams
    config: ConfigParams


class HooksSummary(TypedDict):
    installed: int
    runnable: int
    warnings: int


class InitializeResult(TypedDict):
    serverInfo: JSONObject
    protocolVersion: int
    profile: str
    session: JSONObject
    capabilities: JSONObject
    hooks: HooksSummary


class ContextEntry(TypedDict):
    hook: str
    text: str
    spilled: NotRequired[str]
    bytes: NotRequired[int]


class HookMessage(TypedDict):
    hook: str
    text: str


class Permission(TypedDict):
    behavior: Literal["allow", "deny"]
    message: NotRequired[str]


# "async" is a keyword, so this part is spelled the functional way.
_HookRunFields = TypedDict("_HookRunFields", {
    "key": str, "status": HookStatus, "exitCode": Optional[int], "durationMs": int, "error": Optional[str],
    "async": bool,
})


class HookRun(_HookRunFields, total=False):
    stderr: str
    stdoutDropped: int
    stderrDropped: int
    stdoutSpilled: str
    stderrSpilled: str
    metadata: Any
    logs: Any


class Skip(TypedDict):
    key: str
    reason: str


class RunResult(TypedDict):
    event: str
    decision: Decision
    reason: NotRequired[Optional[str]]
    updatedInput: NotRequired[Optional[JSONObject]]
    permission: NotRequired[Optional[Permission]]
    stopReason: NotRequired[Optional[str]]
    feedback: NotRequired[Optional[str]]
    continuation: NotRequired[Optional[str]]
    additionalContext: NotRequired[Optional[List[ContextEntry]]]
    systemMessages: NotRequired[Optional[List[HookMessage]]]
    hooks: List[HookRun]
    skipped: List[Skip]
    runId: NotRequired[str]
    output: NotRequired[JSONObject]


class HookInfo(TypedDict):
    key: str
    event: str
    matcher: Optional[str]
    source: JSONObject
    handler: JSONObject
    trust: str
    enabled: bool
    runnable: bool


class Warning(TypedDict):
    source: str
    message: str


class ListResult(TypedDict):
    hooks: List[HookInfo]
    warnings: List[Warning]


class TrustResult(TypedDict):
    trusted: List[JSONObject]


class SetEnabledResult(TypedDict):
    key: str
    enabled: bool


class AsyncResult(TypedDict):
    runId: str
    hook: str
    event: str
    status: HookStatus
    error: Optional[str]
    exitCode: Optional[int]
    durationMs: int
    additionalContext: NotRequired[Optional[List[ContextEntry]]]
    systemMessages: NotRequired[Optional[List[HookMessage]]]


class TakePendingResult(TypedDict):
    results: List[AsyncResult]
    dropped: NotRequired[int]


class ActivateSkillResult(TypedDict):
    name: str
    hooks: List[str]
    active: List[str]


class CallToolParams(TypedDict):
    server: str
    tool: str
    arguments: JSONObject
    timeoutMs: int


class CallToolResult(TypedDict):
    content: List[JSONObject]
    structuredContent: NotRequired[JSONObject]
    isError: NotRequired[bool]
