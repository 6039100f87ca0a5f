# SPDX-License-Identifier: Apache-2.0
"""The wire format of docs/PROTOCOL.md (frames, request fields, the final record) and where the
server's socket is. Shared by the thread-safe Client and the asyncio AsyncClient."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from typing import Tuple

MAX_PAYLOAD = 1 << 20
"""A frame's payload is at most 1 MiB."""
MAX_LIVE = 32
"""Live requests and sessions per connection; a client queues more rather than be refused."""
INLINE_STDIN = MAX_PAYLOAD // 2
"""stdin up to this size rides in the request (field 'i'); more is streamed in 'I' frames."""

HEADER = struct.Struct(">cII")
_FIELD = struct.Struct(">cI")
_FINAL = struct.Struct(">iBB")
_HELLO = b"brisk-serve 1"

TIMED_OUT = 1
STDOUT_TRUNCATED = 2
STDERR_TRUNCATED = 4


class BriskError(OSError):
    """The server refused or aborted a request, or the connection to it failed."""


def frame(kind: bytes, rid: int, payload: bytes) -> bytes:
    return HEADER.pack(kind, rid, len(payload)) + payload


def field(tag: bytes, value: bytes) -> bytes:
    return _FIELD.pack(tag, len(value)) + value


def final_record(payload: bytes) -> Tuple[int, int, int]:
    """(exit status, signal, flags) of an 'x' frame's payload."""
    code, sig, flags = _FINAL.unpack_from(payload)
    return code, sig, flags


def check_hello(kind: bytes, payload: bytes) -> None:
    """Raises BriskError unless (kind, payload) is a protocol 1 hello."""
    if kind == b"E":
        raise BriskError("the server refused the connection: " + payload.decode("utf-8", "replace"))
    # a later version may append " " and more words, but "brisk-serve 10" is another protocol
    if kind != b"H" or not (payload == _HELLO or payload.startswith(_HELLO + b" ")):
        raise BriskError("not a brisk serve protocol 1 hello: %r" % payload)


def default_socket_path() -> str:
    """$BRISK_SOCKET, else $XDG_RUNTIME_DIR/brisk/serve.sock, else /tmp/brisk-$UID/serve.sock."""
    explicit = os.environ.get("BRISK_SOCKET")
    if explicit:
        return explicit
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and runtime.startswith("/"):
        return os.path.join(runtime, "brisk", "serve.sock")
    return "/tmp/brisk-%d/serve.sock" % os.getuid()


START_WAIT = 10.0
"""Seconds a started server has to accept its first connection."""


def start_server() -> bool:
    """Runs `brisk daemon start` ($BRISK_COMMAND, else brisk on PATH); True when it said it runs.

    The server is the user's own: detached, and it exits by itself when idle (docs/DAEMON.md).
    """
    brisk = os.environ.get("BRISK_COMMAND") or shutil.which("brisk")
    if not brisk:
        return False
    try:
        done = subprocess.run([brisk, "daemon", "start"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
