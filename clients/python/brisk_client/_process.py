# SPDX-License-Identifier: Apache-2.0
"""subprocess.run's arguments as a brisk request, and a finished request as subprocess.run's result.

Everything here is checked before a byte is sent, so bad input raises the error subprocess.run
would raise (TypeError, ValueError, FileNotFoundError, OSError E2BIG) and never leaves a
half-sent request on the connection.
"""

from __future__ import annotations

import errno
import locale
import math
import numbers
import os
import stat
import subprocess
from typing import Any, Callable, List, Mapping, Optional, Sequence, Union

from ._wire import INLINE_STDIN, MAX_PAYLOAD, TIMED_OUT, field, final_record

StrOrBytesPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Args = Union[StrOrBytesPath, Sequence[StrOrBytesPath]]
Env = Mapping[Union[str, bytes], Union[str, bytes]]


class ProcessRequest:
    """One call of run(), validated and encoded: the 'R' payload and any stdin left to stream."""

    __slots__ = ("args", "payload", "stream", "text", "encoding", "errors", "capture", "check", "timeout")

    def __init__(self, args: Args, *, input: Any, capture_output: bool, text: Optional[bool], check: bool,
                 timeout: Optional[float], cwd: Optional[StrOrBytesPath], env: Optional[Env],
                 shell: Optional[bool], encoding: Optional[str], errors: Optional[str]) -> None:
        self.args = args
        self.capture = bool(capture_output)
        self.check = bool(check)
        self.text = bool(text or encoding or errors)
        self.encoding = encoding or (locale.getpreferredencoding(False) if self.text else None)
        self.errors = errors or "strict"
        self.timeout = _timeout(timeout)
        fields = _command_fields(args, shell, env)
        fields.extend(_cwd_field(cwd))
        if self.timeout is not None and not math.isinf(self.timeout):
            fields.append(field(b"t", b"%d" % max(1, math.ceil(self.timeout * 1000))))
        head = b"".join(fields)
        if len(head) + 5 > MAX_PAYLOAD:
            raise OSError(errno.E2BIG, os.strerror(errno.E2BIG))
        data = self._stdin(input)
        self.stream: Optional[bytes] = None
        if data is None:
            self.payload = head
        elif len(data) <= INLINE_STDIN and len(head) + 5 + len(data) <= MAX_PAYLOAD:
            self.payload = head + field(b"i", data)
        else:
            self.payload = head + field(b"s", b"")
            self.stream = data

    def _stdin(self, input: Any) -> Optional[bytes]:
        if input is None:
            return None
        if self.text:
            if not isinstance(input, str):
                raise TypeError("input must be str in text mode, not %s" % type(input).__name__)
            assert self.encoding is not None
            return input.encode(self.encoding, self.errors)
        if isinstance(input, str):
            raise TypeError("input must be a bytes-like object, not str (or pass text=True)")
        return bytes(memoryview(input))

    def completed(self, final: bytes, out: Optional[bytes], err: Optional[bytes]) -> "subprocess.CompletedProcess[Any]":
        """The result subprocess.run would give, or the exception it would raise."""
        code, sig, flags = final_record(final)
        stdout: Any = self._decode(out)
        stderr: Any = self._decode(err)
        if flags & TIMED_OUT:
            assert self.timeout is not None
            raise subprocess.TimeoutExpired(self.args, self.timeout, output=stdout, stderr=stderr)
        # subprocess reports death by signal N as -N; the shell's $? says 128+N (docs/PROTOCOL.md)
        done: "subprocess.CompletedProcess[Any]" = subprocess.CompletedProcess(self.args, -sig if sig else code, stdout, stderr)
        if self.check:
            done.check_returncode()
        return done

    def _decode(self, data: Optional[bytes]) -> Union[bytes, str, None]:
        if data is None or not self.text:
            return data
        assert self.encoding is not None
        # text mode reads with universal newlines, as subprocess's text wrappers do
        return data.decode(self.encoding, self.errors).replace("\r\n", "\n").replace("\r", "\n")


def _timeout(timeout: Any) -> Optional[float]:
    if timeout is None:
        return None
    if not isinstance(timeout, numbers.Real) or isinstance(timeout, bool):
        raise TypeError("timeout must be a number of seconds, not %s" % type(timeout).__name__)
    if math.isnan(timeout) or timeout < 0:
        raise ValueError("timeout must be non-negative, not %r" % (timeout,))
    return float(timeout)


def _word(value: Any) -> bytes:
    b = os.fsencode(value)  # str, bytes or os.PathLike, else TypeError, as subprocess says
    if b"\0" in b:
        raise ValueError("embedded null byte")
    return b


def _command_fields(args: Args, shell: Optional[bool], env: Optional[Env]) -> List[bytes]:
    if isinstance(args, (str, bytes)):
        words = [_word(args)]
        if shell is None:
            shell = True
    elif isinstance(args, os.PathLike):
        if shell:
            raise TypeError("path-like args is not allowed when shell is true")
        words = [_word(args)]
    else:
        words = [_word(a) for a in args]
        if not words:
            raise ValueError("args is an empty sequence: no program to run")
    if shell and env is None and len(words) == 1:
        return [field(b"c", words[0])]  # the common case: the warm shell itself runs the text
    if shell:
        # subprocess's own form on POSIX: the first word is the script, the rest $0, $1, ...
        words = [b"/bin/sh", b"-c"] + words
    if env is not None:
        # env replaces the whole environment, as in subprocess; the server could only add to it
        if b"=" in words[0]:
            words = [b"/bin/sh", b"-c", b'exec "$@"', b"sh"] + words
        words = [b"env", b"-i", b"--"] + _environment(env) + words
    return [field(b"a", w) for w in words]


def _environment(env: Env) -> List[bytes]:
    pairs = []
    for k, v in env.items():
        kb, vb = _word(k), _word(v)
        if not kb or b"=" in kb:
            raise ValueError("illegal environment variable name")
        pairs.append(kb + b"=" + vb)
    return pairs


def _cwd_field(cwd: Optional[StrOrBytesPath]) -> List[bytes]:
    if cwd is None:
        # a child of subprocess.run starts where its caller is, not where the server is
        try:
            path = os.fsencode(os.getcwd())
        except OSError:
            return []
    else:
        path = _word(os.path.abspath(os.fspath(cwd)))
        try:
            mode = os.stat(path).st_mode
        except OSError as e:
            raise type(e)(e.errno, e.strerror, os.fsdecode(path)) from None
        if not stat.S_ISDIR(mode):
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), os.fsdecode(path))
    try:
        path.decode("utf-8")
    except UnicodeDecodeError:
        if cwd is None:
            return []  # the server's directory, rather than failing every call
        raise ValueError("cwd must be valid UTF-8 to be sent to brisk serve: %r" % path) from None
    return [field(b"d", path)]


def output_sink(fd: int) -> Callable[[bytes], None]:
    """Writes a command's output to this process's descriptor fd, as an uncaptured child would."""
    def write(data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view):]
        except OSError:
            pass  # a closed stdout: the child would have been told by SIGPIPE and gone on
    return write
