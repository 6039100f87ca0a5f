# SPDX-License-Identifier: Apache-2.0
"""Client for `brisk serve`: run shell commands on warm shells over a Unix socket.

Standard library only. The wire protocol is docs/PROTOCOL.md.

    import brisk_client
    r = brisk_client.run(["ls", "-l", "/tmp"], text=True)    # subprocess.run's arguments and result
    print(r.returncode, r.stdout)
    brisk_client.run("make test | tail -1", check=True, timeout=60)   # a str runs in the shell

    with brisk_client.Client() as c:          # the connection as such, brisk's own vocabulary
        r = c.run("ls -l", timeout=5, cwd="/tmp")
        print(r.exit_code, r.stdout, r.stderr, r.timed_out)
        with c.session() as s:                # cd and variables persist in a session
            s.run("cd /tmp"); s.run("pwd")

    async with brisk_client.AsyncClient() as c:             # asyncio: many requests at once
        results = await asyncio.gather(*(c.run(["echo", str(i)]) for i in range(50)))

The socket is $BRISK_SOCKET, else $XDG_RUNTIME_DIR/brisk/serve.sock, else
/tmp/brisk-$UID/serve.sock; when no server answers on the default socket, the user's server is
started (`brisk daemon start`, found as $BRISK_COMMAND or `brisk` on PATH).
"""

from __future__ import annotations

import atexit
import os
import subprocess
import threading
from typing import Any, Optional

from ._async import AsyncClient
from ._client import Client, Result, Session, _NotSent
from ._process import Args, Env, ProcessRequest, StrOrBytesPath
from ._wire import BriskError, default_socket_path

__all__ = ["run", "AsyncClient", "Client", "Session", "Result", "BriskError", "default_socket_path"]
__version__ = "0.1.0"

_shared: Optional[Client] = None
_shared_lock = threading.Lock()


@atexit.register
def _close_shared() -> None:
    if _shared is not None and _shared._pid == os.getpid():
        _shared.close()


def _shared_client(stale: Optional[Client] = None) -> Client:
    """The connection run() shares between threads: made on first use, and again after a fork
    or when it failed (an idle server exits; the next call starts a new one)."""
    global _shared
    with _shared_lock:
        c = _shared
        if c is not None and c._pid != os.getpid():
            c._sock.close()  # our copy of the parent's socket only: no shutdown, which it would share
        if c is None or c is stale or c.closed or c._pid != os.getpid():
            _shared = c = Client()
        return c


def run(args: Args, *, input: Any = None, capture_output: bool = True, text: bool = False,
        check: bool = False, timeout: Optional[float] = None, cwd: Optional[StrOrBytesPath] = None,
        env: Optional[Env] = None, shell: Optional[bool] = None, encoding: Optional[str] = None,
        errors: Optional[str] = None) -> "subprocess.CompletedProcess[Any]":
    """Runs a command on a warm shell of the user's brisk server, as subprocess.run would run it.

    args: a str (or bytes) is shell text; a sequence is an argv, its words quoted safely, run as
        one simple command (shell=True runs args[0] as the script with the rest as $0, $1, ...,
        as subprocess does; shell=False makes a str a program name).
    input: bytes (str with text=True) for the command's stdin; otherwise stdin is at end of file.
    capture_output: True (the default here, unlike subprocess) keeps stdout and stderr in the
        result; False writes them to this process's descriptors 1 and 2 as they come.
    text, encoding, errors: decode output (and encode input) as subprocess's text mode does:
        the locale's encoding unless told, universal newlines.
    check: raise subprocess.CalledProcessError when the status is not 0.
    timeout: seconds; the server kills the command's whole process group after that long and
        subprocess.TimeoutExpired is raised, with the output so far.
    cwd: the directory to run in (relative to ours); default: this process's current directory.
    env: the whole environment of the command, as in subprocess. Default: the server's
        environment (not this process's: pass env=os.environ for that).

    Returns subprocess.CompletedProcess (returncode -N when signal N killed the command).
    Differences from subprocess.run: a program that is not found gives returncode 127 (126 when
    it cannot be executed), the shell's answer, not FileNotFoundError; stdin is never inherited.
    Raises TypeError or ValueError for bad arguments before anything is sent, BriskError (an
    OSError) when no server can be reached or it refuses the request.
    Thread-safe; all threads share one connection (made again after os.fork()).
    """
    req = ProcessRequest(args, input=input, capture_output=capture_output, text=text, check=check,
                         timeout=timeout, cwd=cwd, env=env, shell=shell, encoding=encoding, errors=errors)
    c = _shared_client()
    try:
        return c._run_process(req)
    except _NotSent:
        # the shared connection was dead before this request went out: once more, on a new one
        return _shared_client(stale=c)._run_process(req)
