# SPDX-License-Identifier: Apache-2.0
"""The asyncio client: many requests in flight on one connection, answered by id."""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
from typing import Any, Callable, Dict, Optional

from ._process import Args, Env, ProcessRequest, StrOrBytesPath, output_sink
from ._wire import HEADER, MAX_LIVE, MAX_PAYLOAD, START_WAIT, BriskError, check_hello, default_socket_path, frame, start_server


class _Pending:
    __slots__ = ("out", "err", "out_sink", "err_sink", "future")

    def __init__(self, future: "asyncio.Future[bytes]", out_sink: Optional[Callable[[bytes], None]],
                 err_sink: Optional[Callable[[bytes], None]]) -> None:
        self.out = bytearray()
        self.err = bytearray()
        self.out_sink = out_sink
        self.err_sink = err_sink
        self.future = future


class AsyncClient:
    """An asyncio connection to a brisk server.

        async with AsyncClient() as c:
            r = await c.run(["ls", "-l"], text=True)
            rs = await asyncio.gather(*(c.run("echo %d" % i) for i in range(50)))

    Any number of tasks share one connection; up to 32 requests are live on the wire at once
    (the server's limit) and the rest wait their turn. A task cancelled while its command runs
    cancels the command (the server kills its process group). Closing the client kills whatever
    it still runs. Use it from the event loop it was opened on only.
    """

    def __init__(self, socket_path: Optional[str] = None, *, start_server: bool = True) -> None:
        """Makes a client; the connection is opened by `async with` or open(). Given no
        socket_path, open() starts the user's server when none answers, unless start_server is
        False (as Client does)."""
        self._path = socket_path
        self._start = start_server
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._task: Optional["asyncio.Task[None]"] = None
        self._pending: Dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._slots: Optional[asyncio.Semaphore] = None
        self._drain: Optional[asyncio.Lock] = None
        self._closed: Optional[str] = None
        self._connecting: Optional["asyncio.Task[None]"] = None

    async def open(self) -> "AsyncClient":
        """Connects (starting the user's server when none answers on the default socket); tasks
        that call it at once share one connection, and a failed attempt is made again next time."""
        if self._connecting is None:
            self._connecting = asyncio.get_running_loop().create_task(self._connect())
        task = self._connecting
        try:
            await asyncio.shield(task)
        except BaseException:
            if task.done() and not task.cancelled() and task.exception() is not None and self._connecting is task:
                self._connecting = None
            raise
        return self

    async def _connect(self) -> None:
        path = self._path or default_socket_path()
        try:
            try:
                reader, writer = await asyncio.open_unix_connection(path, limit=4 * MAX_PAYLOAD)
            except (FileNotFoundError, ConnectionRefusedError):
                loop = asyncio.get_running_loop()
                if self._path is not None or not self._start or not await loop.run_in_executor(None, start_server):
                    raise
                deadline = loop.time() + START_WAIT
                while True:  # connect once the started server accepts
                    try:
                        reader, writer = await asyncio.open_unix_connection(path, limit=4 * MAX_PAYLOAD)
                        break
                    except (FileNotFoundError, ConnectionRefusedError):
                        if loop.time() > deadline:
                            raise
                        await asyncio.sleep(0.02)
        except OSError as e:
            raise BriskError("cannot connect to brisk serve at %s: %s" % (path, e)) from e
        try:
            kind, _, payload = await asyncio.wait_for(self._read_frame(reader), START_WAIT)
            check_hello(kind, payload)
        except (asyncio.IncompleteReadError, asyncio.TimeoutError) as e:
            writer.close()
            raise BriskError("no hello from brisk serve at %s: %r" % (path, e)) from e
        except BaseException:
            writer.close()
            raise
        self._reader, self._writer = reader, writer
        self._slots = asyncio.Semaphore(MAX_LIVE)
        self._drain = asyncio.Lock()
        self._task = asyncio.get_running_loop().create_task(self._read_loop(reader))

    async def __aenter__(self) -> "AsyncClient":
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def closed(self) -> bool:
        return self._closed is not None

    async def aclose(self) -> None:
        """Closes the connection; the server kills whatever this client still runs."""
        self._fail("the client was closed")
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except OSError:
                pass
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def run(self, args: Args, *, input: Any = None, capture_output: bool = True, text: bool = False,
                  check: bool = False, timeout: Optional[float] = None, cwd: Optional[StrOrBytesPath] = None,
                  env: Optional[Env] = None, shell: Optional[bool] = None, encoding: Optional[str] = None,
                  errors: Optional[str] = None) -> "subprocess.CompletedProcess[Any]":
        """brisk_client.run on this connection: the same arguments, result and exceptions."""
        req = ProcessRequest(args, input=input, capture_output=capture_output, text=text, check=check,
                             timeout=timeout, cwd=cwd, env=env, shell=shell, encoding=encoding, errors=errors)
        await self.open()
        assert self._slots is not None and self._writer is not None and self._drain is not None
        await self._slots.acquire()  # given back when the request's final frame comes (_finish)
        if self._closed:
            self._slots.release()
            raise BriskError("the connection is closed: " + self._closed)
        rid = next(self._ids) & 0xFFFFFFFF or next(self._ids)
        future: "asyncio.Future[bytes]" = asyncio.get_running_loop().create_future()
        if not req.capture:
            for f in (sys.stdout, sys.stderr):
                try:
                    f.flush()
                except (AttributeError, OSError, ValueError):
                    pass
        p = _Pending(future, None if req.capture else output_sink(1), None if req.capture else output_sink(2))
        self._pending[rid] = p
        writer = self._writer
        try:
            # one write() per frame and no await inside one: frames of other tasks never interleave
            writer.write(frame(b"R", rid, req.payload))
            if req.stream is not None:
                data = memoryview(req.stream)
                for i in range(0, len(data), MAX_PAYLOAD):
                    writer.write(frame(b"I", rid, bytes(data[i:i + MAX_PAYLOAD])))
                    async with self._drain:
                        await writer.drain()
                writer.write(frame(b"I", rid, b""))
            async with self._drain:
                await writer.drain()
            final = await future
        except asyncio.CancelledError:
            if rid in self._pending and not self._closed:
                try:
                    writer.write(frame(b"C", rid, b""))  # kill what nobody waits for any more
                except (OSError, RuntimeError):
                    pass
            raise
        except OSError as e:
            self._fail("writing to brisk serve failed: %s" % e)
            raise BriskError("writing to brisk serve failed: %s" % e) from e
        return req.completed(final, bytes(p.out) if req.capture else None, bytes(p.err) if req.capture else None)

    @staticmethod
    async def _read_frame(reader: asyncio.StreamReader) -> "tuple[bytes, int, bytes]":
        kind, rid, n = HEADER.unpack(await reader.readexactly(9))
        return kind, rid, await reader.readexactly(n) if n else b""

    async def _read_loop(self, reader: asyncio.StreamReader) -> None:
        why = "the server closed the connection"
        try:
            while True:
                kind, rid, payload = await self._read_frame(reader)
                p = self._pending.get(rid)
                if kind == b"o":
                    if p is not None:
                        p.out_sink(payload) if p.out_sink else p.out.extend(payload)
                elif kind == b"e":
                    if p is not None:
                        p.err_sink(payload) if p.err_sink else p.err.extend(payload)
                elif kind in (b"x", b"E"):
                    if kind == b"E" and rid == 0:
                        why = "the server ended the connection: " + payload.decode("utf-8", "replace")
                        break
                    if p is not None:
                        self._finish(rid, p, payload if kind == b"x" else None,
                                     payload.decode("utf-8", "replace"))
                elif kind.isupper():
                    why = "unknown frame type %r from the server" % kind
                    break
                # other lower-case frame types may be skipped (docs/PROTOCOL.md)
        except (asyncio.IncompleteReadError, OSError) as e:
            if not isinstance(e, asyncio.IncompleteReadError):
                why = "reading from brisk serve failed: %s" % e
        self._fail(why)

    def _finish(self, rid: int, p: _Pending, final: Optional[bytes], error: str) -> None:
        del self._pending[rid]
        assert self._slots is not None
        self._slots.release()
        if not p.future.done():
            if final is None:
                p.future.set_exception(BriskError(error))
            else:
                p.future.set_result(final)

    def _fail(self, why: str) -> None:
        if self._closed is None:
            self._closed = why
        for rid, p in list(self._pending.items()):
            self._finish(rid, p, None, why)
        if self._writer is not None and why != "the client was closed":
            self._writer.close()

