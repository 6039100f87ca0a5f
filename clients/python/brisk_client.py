# SPDX-License-Identifier: Apache-2.0
"""Client for `brisk serve`: run shell commands on warm shells over a Unix socket.

One file, standard library only. The wire protocol is docs/PROTOCOL.md.

    from brisk_client import Client
    with Client() as c:                       # $BRISK_SOCKET, $XDG_RUNTIME_DIR/brisk/serve.sock, ...
        r = c.run("ls -l", timeout=5, cwd="/tmp")
        print(r.exit_code, r.stdout, r.stderr, r.timed_out)
        with c.session() as s:                # cd and variables persist in a session
            s.run("cd /tmp"); s.run("pwd")

A Client is thread-safe: threads share its one connection, each request with its own id, and
whichever thread waits reads the socket for all of them (no reader thread). Closing the client,
or this process ending, makes the server kill every command still running for it.
"""

import itertools
import os
import socket
import struct
import threading

__all__ = ["Client", "Session", "Result", "BriskError", "default_socket_path"]

MAX_PAYLOAD = 1 << 20
_HEADER = struct.Struct(">cII")
_INLINE_STDIN = MAX_PAYLOAD // 2


class BriskError(Exception):
    """The server refused or aborted a request, or the connection failed."""


class Result:
    """A finished command: exit status, output bytes and how it ended."""

    __slots__ = ("exit_code", "stdout", "stderr", "timed_out", "signal",
                 "stdout_truncated", "stderr_truncated")

    def __init__(self, exit_code, stdout, stderr, timed_out, signal, stdout_truncated, stderr_truncated):
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out
        self.signal = signal
        self.stdout_truncated = stdout_truncated
        self.stderr_truncated = stderr_truncated

    @property
    def ok(self):
        return self.exit_code == 0 and not self.timed_out

    def __repr__(self):
        return ("Result(exit_code=%d, stdout=%r, stderr=%r, timed_out=%r)"
                % (self.exit_code, self.stdout[:60], self.stderr[:60], self.timed_out))


def default_socket_path():
    """$BRISK_SOCKET, else $XDG_RUNTIME_DIR/brisk/serve.sock, else /tmp/brisk-$UID/serve.sock."""
    explicit = os.environ.get("BRISK_SOCKET")
    if explicit:
        return explicit
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and runtime.startswith("/"):
        return os.path.join(runtime, "brisk", "serve.sock")
    return "/tmp/brisk-%d/serve.sock" % os.getuid()


def _start_server():
    """Runs `brisk daemon start` ($BRISK_COMMAND, else brisk on PATH); True when it said it runs."""
    import shutil
    import subprocess
    brisk = os.environ.get("BRISK_COMMAND") or shutil.which("brisk")
    if not brisk:
        return False
    try:
        done = subprocess.run([brisk, "daemon", "start"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


class _Pending:
    __slots__ = ("out", "err", "done", "final", "error")

    def __init__(self):
        self.out = bytearray()
        self.err = bytearray()
        self.done = False
        self.final = None
        self.error = None


def _field(tag, value):
    return _HEADER_FIELD.pack(tag, len(value)) + value


_HEADER_FIELD = struct.Struct(">cI")


def _bytes(v):
    return v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v)


class Client:
    """A connection to a brisk server."""

    def __init__(self, socket_path=None):
        path = socket_path or default_socket_path()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            try:
                self._sock.connect(path)
            except (FileNotFoundError, ConnectionRefusedError):
                # no server on the default socket: start the user's brisk server, as the brisk
                # command does (docs/DAEMON.md), and try once more
                if socket_path is not None or not _start_server():
                    raise
                self._sock.connect(path)
        except OSError as e:
            self._sock.close()
            raise BriskError("cannot connect to brisk serve at %s: %s" % (path, e)) from e
        self._buf = bytearray()
        self._chunk = bytearray(65536)
        self._chunk_view = memoryview(self._chunk)
        self._send_lock = threading.Lock()
        self._cv = threading.Condition()
        self._reading = False
        self._pending = {}
        self._ids = itertools.count(1)
        self._closed = None
        kind, _, payload = self._read_frame()
        if kind == b"E":
            self._sock.close()
            raise BriskError("the server refused the connection: " + payload.decode("utf-8", "replace"))
        if kind != b"H" or not payload.startswith(b"brisk-serve 1"):
            self._sock.close()
            raise BriskError("not a brisk serve protocol 1 hello: %r" % payload)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Closes the connection; the server kills whatever this client still runs."""
        with self._cv:
            if self._closed is None:
                self._closed = "the client was closed"
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def session(self):
        """Opens a session: a shell of its own where cd, variables and functions persist."""
        sid = self._new_id()
        self._send(b"O", sid, b"")
        self._wait(sid, self._pending[sid])
        return Session(self, sid)

    def run(self, cmd, *, timeout=None, stdin=None, cwd=None, env=None, max_output=None, _session=0):
        """Runs cmd and waits for it.

        cmd: shell text (str or bytes), or a list of argv words (run as one quoted simple command).
        timeout: seconds; the command's process group is killed after that long (timed_out=True).
        stdin: None (end of file at once), str/bytes, or a file object / iterable of bytes
            (streamed in frames; the command starts once all of it has been sent).
        cwd: absolute directory; env: dict of extra variables; max_output: bytes kept per stream.
        Returns a Result; raises BriskError when the server refuses or aborts the request.
        """
        fields = []
        if isinstance(cmd, (list, tuple)):
            fields.extend(_field(b"a", _bytes(w)) for w in cmd)
        else:
            fields.append(_field(b"c", _bytes(cmd)))
        if cwd is not None:
            fields.append(_field(b"d", os.fsencode(cwd)))
        if env:
            for k, v in env.items():
                fields.append(_field(b"e", ("%s=%s" % (k, v)).encode("utf-8")))
        chunks = None
        if stdin is not None:
            if isinstance(stdin, (str, bytes, bytearray, memoryview)) and len(stdin) <= _INLINE_STDIN:
                fields.append(_field(b"i", _bytes(stdin)))
            else:
                fields.append(_field(b"s", b""))
                chunks = stdin
        if timeout is not None:
            fields.append(_field(b"t", str(max(1, int(timeout * 1000))).encode()))
        if max_output is not None:
            fields.append(_field(b"m", str(int(max_output)).encode()))
        if _session:
            fields.append(_field(b"S", str(_session).encode()))
        rid = self._new_id()
        p = self._pending[rid]
        self._send(b"R", rid, b"".join(fields))
        if chunks is not None:
            self._stream(rid, chunks)
        final = self._wait(rid, p)
        code, sig, flags = struct.unpack_from(">iBB", final)
        return Result(code, bytes(p.out), bytes(p.err), bool(flags & 1), sig, bool(flags & 2), bool(flags & 4))

    def _stream(self, rid, source):
        if isinstance(source, (str, bytes, bytearray, memoryview)):
            data = memoryview(_bytes(source))
            source = (data[i:i + MAX_PAYLOAD] for i in range(0, len(data), MAX_PAYLOAD))
        elif hasattr(source, "read"):
            f = source
            source = iter(lambda: f.read(65536), b"")
        for chunk in source:
            chunk = _bytes(chunk)
            for i in range(0, len(chunk), MAX_PAYLOAD):
                self._send(b"I", rid, chunk[i:i + MAX_PAYLOAD])
        self._send(b"I", rid, b"")

    def _new_id(self):
        with self._cv:
            if self._closed:
                raise BriskError("the connection is closed: " + self._closed)
            rid = next(self._ids) & 0xFFFFFFFF or next(self._ids)
            self._pending[rid] = _Pending()
            return rid

    def _send(self, kind, rid, payload):
        frame = _HEADER.pack(kind, rid, len(payload)) + payload
        try:
            with self._send_lock:
                self._sock.sendall(frame)
        except OSError as e:
            raise BriskError("writing to brisk serve failed: %s" % e) from e

    def _read_frame(self):
        buf = self._buf
        while len(buf) < 9:
            self._fill()
        kind, rid, n = _HEADER.unpack_from(buf)
        while len(buf) < 9 + n:
            self._fill()
        payload = bytes(buf[9:9 + n])
        del buf[:9 + n]
        return kind, rid, payload

    def _fill(self):
        # recv_into a buffer kept for the connection: recv(N) would allocate N bytes per call
        got = self._sock.recv_into(self._chunk)
        if not got:
            raise BriskError("the server closed the connection")
        self._buf += self._chunk_view[:got]

    def _wait(self, rid, p):
        """Waits for request rid; whichever thread waits first reads the socket for everyone."""
        try:
            with self._cv:
                while not p.done and self._reading:
                    self._cv.wait()
                if p.done:
                    return self._outcome(p)
                if self._closed:
                    raise BriskError("the connection is closed: " + self._closed)
                self._reading = True
            try:
                while not p.done:
                    try:
                        frame = self._read_frame()
                    except (BriskError, OSError) as e:
                        self._fail(str(e))
                        break
                    self._dispatch(*frame)
            finally:
                with self._cv:
                    self._reading = False
                    self._cv.notify_all()
            return self._outcome(p)
        except BaseException:
            if not p.done and not self._closed:
                try:
                    self._send(b"C", rid, b"")  # e.g. KeyboardInterrupt: kill what we no longer wait for
                except BriskError:
                    pass
            raise
        finally:
            with self._cv:
                self._pending.pop(rid, None)

    @staticmethod
    def _outcome(p):
        if p.error is not None:
            raise BriskError(p.error)
        return p.final

    def _dispatch(self, kind, rid, payload):
        p = self._pending.get(rid)
        if kind == b"o":
            if p is not None:
                p.out += payload
        elif kind == b"e":
            if p is not None:
                p.err += payload
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
                    self._cv.notify_all()
        # other lower-case frame types may be skipped (docs/PROTOCOL.md)

    def _fail(self, why):
        with self._cv:
            if self._closed is None:
                self._closed = why
            for p in self._pending.values():
                if not p.done:
                    p.error = why
                    p.done = True
            self._cv.notify_all()


class Session:
    """A shell of one's own on the server; use as a context manager, or call close()."""

    def __init__(self, client, sid):
        self._client = client
        self.id = sid

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def run(self, cmd, **kw):
        """Runs cmd in this session; the arguments are those of Client.run."""
        return self._client.run(cmd, _session=self.id, **kw)

    def close(self):
        """Closes the session's shell on the server."""
        c = self._client
        with c._cv:
            if c._closed:
                return
            c._pending[self.id] = p = _Pending()
        c._send(b"X", self.id, b"")
        try:
            c._wait(self.id, p)
        except BriskError:
            pass
