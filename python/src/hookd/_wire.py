"""LSP framing (Content-Length headers) for hookd's JSON-RPC messages, for
blocking streams (the sync client) and asyncio streams (hookd.aio)."""

from __future__ import annotations

import asyncio
import json
from typing import IO, Optional

from .types import JSONObject


class _Header:
    """The headers of one frame, fed a line at a time. Header names are
    case-insensitive and may come in any order (Content-Type is ignored)."""

    def __init__(self) -> None:
        self.length: Optional[int] = None

    def feed(self, line: bytes) -> bool:
        """Takes one header line; True once the blank line ends the headers."""
        line = line.rstrip(b"\r\n")
        if not line:
            if self.length is None:
                raise ValueError("frame without Content-Length")
            return True
        name, _, value = line.decode("ascii", "replace").partition(":")
        if name.strip().lower() == "content-length":
            self.length = int(value.strip())
        return False


def read_message(stream: IO[bytes]) -> Optional[JSONObject]:
    """Reads one LSP-framed message; None at end of stream."""
    header = _Header()
    while True:
        line = stream.readline()
        if not line:
            return None
        if header.feed(line):
            break
    assert header.length is not None
    body = stream.read(header.length)
    if len(body) < header.length:
        return None
    msg: JSONObject = json.loads(body.decode("utf-8"))
    return msg


async def read_message_async(stream: asyncio.StreamReader) -> Optional[JSONObject]:
    """read_message for an asyncio stream."""
    header = _Header()
    while True:
        line = await stream.readline()
        if not line:
            return None
        if header.feed(line):
            break
    assert header.length is not None
    try:
        body = await stream.readexactly(header.length)
    except asyncio.IncompleteReadError:
        return None
    msg: JSONObject = json.loads(body.decode("utf-8"))
    return msg


def encode_message(msg: JSONObject) -> bytes:
    """One LSP-framed message as bytes. The length counts bytes, not characters."""
    body = json.dumps(msg, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body


def write_message(stream: IO[bytes], msg: JSONObject) -> None:
    """Writes one LSP-framed message."""
    stream.write(encode_message(msg))
    stream.flush()
