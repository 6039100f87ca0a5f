# SPDX-License-Identifier: Apache-2.0
"""The thread-safe client: one connection, many threads, each request with its own id."""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._process import ProcessRequest, output_sink
from ._wire import (HEADER, INLINE_STDIN, MAX_LIVE, MAX_PAYLOAD, START_WAIT, STDERR_TRUNCATED, STDOUT_TRUNCATED,
                    TIMED_OUT, BriskError, check_hello, default_socket_path, field, final_record, frame)
from ._wire import start_server as _start_server

Stdin = Union[str, bytes, bytearray, memoryview, Iterable[bytes], Any]


class Result:
    """A finished command: exit status, output bytes and how it ended."""

    __slots__ = ("exit_code", "stdout", "stderr", "timed_out", "signal",
                 "stdout_truncated", "stderr_truncated")

    def __init__(self, exit_code: int, stdout: bytes, stderr: bytes, timed_out: bool, signal: int,
                 stdout_truncated: bool, stderr_truncated: bool) -> None:
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out
        self.signal = signal
        self.stdout_truncated = stdout_truncated
        self.stderr_truncated = stderr_truncated

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    def __repr__(self) -> str:
        return ("Result(exit_code=%d, stdout=%r, stderr=%r, timed_out=%r)"
                % (self.exit_code, self.stdout[:60], self.stderr[:60], self.timed_out))


class _NotSent(BriskError):
    """The connection was found dead before the request went out: safe to retry elsewhere."""


class _Pending:
    __slots__ = ("out", "err", "out_sink", "err_sink", "done", "final", "error", "keeps_slot")

    def __init__(self, out_sink: Optional[Callable[[bytes], None]] = None,
                 err_sink: Optional[Callable[[bytes], None]] = None, keeps_slot: bool = False) -> None:
        self.out = bytearray()
        self.err = bytearray()
        self.out_sink = out_sink
        self.err_sink = err_sink
        self.done = False
        self.final = b""
        self.error: Optional[str] = None
        self.keeps_slot = keeps_slot  # a session's open: its id stays live after 'K'


def _bytes(v: Union[str, bytes, bytearray, memoryview]) -> bytes:
    return v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v)


def _connect(path: str) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
    except BaseException:
        s.close()
        raise
    return s


class Client:
    """A connection to a brisk server.

    With no socket_path, the default socket is used (default_socket_path()) and, when no server
    answers there, the user's server is started (`brisk daemon start`) unless start_server is
    False; the client connects once it accepts.

    A Client is thread-safe: threads share its one connection, each request with its own id, and
    whichever thread waits reads the socket for all of them (no reader thread). At most 32
    requests and sessions are live on the wire at once (the server's limit); more wait their
    turn. Closing the client, or this process ending, makes the server kill every command still
    running for it.
    """

    def __init__(self, socket_path: Optional[str] = None, *, start_server: bool = True) -> None:
        path = socket_path or default_socket_path()
        try:
            try:
                self._sock = _connect(path)
            except (FileNotFoundError, ConnectionRefusedError):
                # no server on the default socket: start the user's brisk server, as the brisk
                # command does (docs/DAEMON.md), and connect once it accepts
                if socket_path is not None or not start_server or not _start_server():
                    raise
                deadline = time.monotonic() + START_WAIT
                while True:
                    try:
                        self._sock = _connect(path)
                        break
                    except (FileNotFoundError, ConnectionRefusedError):
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.02)
        except OSError as e:
            raise BriskError("cannot connect to brisk serve at %s: %s" % (path, e)) from e
        self._pid = os.getpid()
        self._buf = bytearray()
        self._chunk = bytearray(65536)
        self._chunk_view = memoryview(self._chunk)
        self._send_lock = threading.Lock()
        self._cv = threading.Condition()
        self._reading = False
        self._pending: Dict[int, _Pending] = {}
        self._live = 0
        self._ids = itertools.count(1)
        self._closed: Optional[str] = None
        try:
            self._sock.settimeout(START_WAIT)  # a server that accepts but never says hello
            kind, _, payload = self._read_frame()
            check_hello(kind, payload)
            self._sock.settimeout(None)
        except socket.timeout as e:
            self._sock.close()
            raise BriskError("no hello from brisk serve at %s within %g s" % (path, START_WAIT)) from e
        except (BriskError, OSError) as e:
            self._sock.close()
            raise e if isinstance(e, BriskError) else BriskError(str(e)) from e

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """True once the client was closed or its connection failed."""
        return self._closed is not None

    def close(self) -> None:
        """Closes the connection; the server kills whatever this client still runs."""
        with self._cv:
            if self._closed is None:
                self._closed = "the client was closed"
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def session(self) -> "Session":
        """Opens a session: a shell of its own where cd, variables and functions persist."""
        sid, p = self._new_id(_Pending(keeps_slot=True))
        self._send(b"O", sid, b"")
        self._wait(sid, p)
        return Session(self, sid)

    def run(self, cmd: Union[str, bytes, Sequence[Union[str, bytes]]], *, timeout: Optional[float] = None,
            stdin: Optional[Stdin] = None, cwd: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
            max_output: Optional[int] = None, _session: int = 0) -> Result:
        """Runs cmd and waits for it.

        cmd: shell text (str or bytes), or a list of argv words (run as one quoted simple command).
        timeout: seconds; the command's process group is killed after that long (timed_out=True).
        stdin: None (end of file at once), str/bytes, or a file object / iterable of bytes
            (streamed in frames; the command starts once all of it has been sent).
        cwd: absolute directory (default: the server's); env: dict of extra variables;
        max_output: bytes kept per stream.
        Returns a Result; raises BriskError when the server refuses or aborts the request, and
        ValueError for a NUL byte in the command.
        """
        fields: List[bytes] = []
        if isinstance(cmd, (list, tuple)):
            words = [_bytes(w) for w in cmd]
            if any(b"\0" in w for w in words):
                raise ValueError("embedded null byte")
            fields.extend(field(b"a", w) for w in words)
        else:
            text = _bytes(cmd)  # type: ignore[arg-type]
            if b"\0" in text:
                raise ValueError("embedded null byte")
            fields.append(field(b"c", text))
        if cwd is not None:
            fields.append(field(b"d", os.fsencode(cwd)))
        if env:
            for k, v in env.items():
                fields.append(field(b"e", ("%s=%s" % (k, v)).encode("utf-8")))
        chunks = None
        if stdin is not None:
            if isinstance(stdin, (str, bytes, bytearray, memoryview)) and len(stdin) <= INLINE_STDIN:
                fields.append(field(b"i", _bytes(stdin)))
            else:
                fields.append(field(b"s", b""))
                chunks = stdin
        if timeout is not None:
            if timeout < 0:
                raise ValueError("timeout must be non-negative, not %r" % (timeout,))
            fields.append(field(b"t", str(max(1, int(timeout * 1000))).encode()))
        if max_output is not None:
            fields.append(field(b"m", str(int(max_output)).encode()))
        if _session:
            fields.append(field(b"S", str(_session).encode()))
        payload = b"".join(fields)
        if len(payload) > MAX_PAYLOAD:
            raise ValueError("the request is over the protocol's 1 MiB: %d bytes" % len(payload))
        p = self._request(payload, chunks, _Pending())
        code, sig, flags = final_record(p.final)
        return Result(code, bytes(p.out), bytes(p.err), bool(flags & TIMED_OUT), sig,
                      bool(flags & STDOUT_TRUNCATED), bool(flags & STDERR_TRUNCATED))

    def _run_process(self, req: ProcessRequest) -> "subprocess.CompletedProcess[Any]":
        """run()'s call on this connection (see brisk_client.run)."""
        if req.capture:
            p = _Pending()
        else:
            for f in (sys.stdout, sys.stderr):
                try:
                    f.flush()  # what this process printed comes first, as before a child's output
                except (AttributeError, OSError, ValueError):
                    pass
            p = _Pending(output_sink(1), output_sink(2))
        self._request(req.payload, req.stream, p)
        return req.completed(p.final, bytes(p.out) if req.capture else None, bytes(p.err) if req.capture else None)

    def _request(self, payload: bytes, stdin: Optional[Stdin], p: _Pending) -> _Pending:
        rid, p = self._new_id(p)
        try:
            self._send(b"R", rid, payload)
        except BriskError as e:
            self._fail(str(e))
            raise _NotSent(str(e)) from e
        if stdin is not None:
            try:
                self._stream(rid, stdin)
            except BaseException:
                try:
                    self._send(b"C", rid, b"")  # the command must not wait for the rest of its stdin
                except BriskError:
                    pass
                raise
        self._wait(rid, p)
        return p

    def _stream(self, rid: int, source: Stdin) -> None:
        if isinstance(source, (str, bytes, bytearray, memoryview)):
            data = memoryview(_bytes(source))
            source = (data[i:i + MAX_PAYLOAD] for i in range(0, len(data), MAX_PAYLOAD))
        elif hasattr(source, "read"):
            f: Any = source
            source = iter(lambda: f.read(65536), b"")
        for chunk in source:
            chunk = _bytes(chunk)
            for i in range(0, len(chunk), MAX_PAYLOAD):
                self._send(b"I", rid, chunk[i:i + MAX_PAYLOAD])
        self._send(b"I", rid, b"")

    def _new_id(self, p: _Pending) -> "tuple[int, _Pending]":
        """A fresh id for p, once the connection has fewer than MAX_LIVE live ids."""
        self._pump(lambda: self._live < MAX_LIVE)
        with self._cv:
            if self._closed:
                raise _NotSent("the connection is closed: " + self._closed)
            rid = next(self._ids) & 0xFFFFFFFF or next(self._ids)
            self._pending[rid] = p
            self._live += 1
            return rid, p

    def _send(self, kind: bytes, rid: int, payload: bytes) -> None:
        data = frame(kind, rid, payload)
        try:
            with self._send_lock:
                self._sock.sendall(data)
        except OSError as e:
            raise BriskError("writing to brisk serve failed: %s" % e) from e

    def _read_frame(self) -> "tuple[bytes, int, bytes]":
        buf = self._buf
        while len(buf) < 9:
            self._fill()
        kind, rid, n = HEADER.unpack_from(buf)
        while len(buf) < 9 + n:
            self._fill()
        payload = bytes(buf[9:9 + n])
        del buf[:9 + n]
        return kind, rid, payload

    def _fill(self) -> None:
        # recv_into a buffer kept for the connection: recv(N) would allocate N bytes per call
        got = self._sock.recv_into(self._chunk)
        if not got:
            raise BriskError("the server closed the connection")
        self._buf += self._chunk_view[:got]

    def _pump(self, ready: Callable[[], bool]) -> None:
        """Returns once ready() holds or the connection failed. The first thread that waits
        reads the socket for everyone; the others sleep until a frame they wait for came."""
        with self._cv:
            while not ready() and self._reading and not self._closed:
                self._cv.wait()
            if ready() or self._closed:
                return
            self._reading = True
        try:
            while True:
                with self._cv:
                    if ready():
                        return
                try:
                    kind, rid, payload = self._read_frame()
                except (BriskError, OSError) as e:
                    self._fail(str(e))
                    return
                self._dispatch(kind, rid, payload)
        finally:
            with self._cv:
                self._reading = False
                self._cv.notify_all()

    def _wait(self, rid: int, p: _Pending) -> bytes:
        """Waits for the final frame of rid; a caller interrupted meanwhile cancels the request."""
        try:
            self._pump(lambda: p.done)
        except BaseException:
            if not p.done and not self._closed:
                try:
                    self._send(b"C", rid, b"")  # e.g. KeyboardInterrupt: kill what we no longer wait for
                except BriskError:
                    pass
            raise
        if p.error is not None:
            raise BriskError(p.error)
        if not p.done:
            raise BriskError("the connection is closed: %s" % self._closed)
        return p.final

    def _dispatch(self, kind: bytes, rid: int, payload: bytes) -> None:
        p = self._pending.get(rid)
        if kind == b"o":
            if p is not None:
                p.out_sink(payload) if p.out_sink else p.out.extend(payload)
        elif kind == b"e":
            if p is not None:
                p.err_sink(payload) if p.err_sink else p.err.extend(payload)
        elif kind in (b"x", b"K", b"E"):
            if kind == b"E" and rid == 0:
                self._fail("the server ended the connection: " + payload.decode("utf-8", "replace"))
                return
            if p is not None:
                with self._cv:
                    if kind == b"E":
                        p.error = payload.decode("utf-8", "replace")
                    p.final = payload
                    p.done = True
                    del self._pending[rid]
                    if not (kind == b"K" and p.keeps_slot):
                        self._live -= 1
                    self._cv.notify_all()
        elif kind.isupper():
            self._fail("unknown frame type %r from the server" % kind)
        # other lower-case frame types may be skipped (docs/PROTOCOL.md)

    def _fail(self, why: str) -> None:
        with self._cv:
            if self._closed is None:
                self._closed = why
            for p in self._pending.values():
                p.error = why
                p.done = True
            self._pending.clear()
            self._live = 0
            self._cv.notify_all()


class Session:
    """A shell of one's own on the server; use as a context manager, or call close()."""

    def __init__(self, client: Client, sid: int) -> None:
        self._client = client
        self.id = sid

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, cmd: Union[str, bytes, Sequence[Union[str, bytes]]], **kw: Any) -> Result:
        """Runs cmd in this session; the arguments are those of Client.run."""
        return self._client.run(cmd, _session=self.id, **kw)

    def close(self) -> None:
        """Closes the session's shell on the server."""
        c = self._client
        with c._cv:
            if c._closed:
                return
            # the session's id is live already: its 'K' or 'E' answer ends it and frees its slot
            c._pending[self.id] = p = _Pending()
        try:
            c._send(b"X", self.id, b"")
            c._wait(self.id, p)
        except BriskError:
            pass
