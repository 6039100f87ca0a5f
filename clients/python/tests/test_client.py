# SPDX-License-Identifier: Apache-2.0
"""brisk_client.Client against a live `brisk serve` at $BRISK_SOCKET (run by PythonPackageIT)."""

import os
import threading
import time
import unittest

from brisk_client import BriskError, Client


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.c = Client()

    def tearDown(self):
        self.c.close()

    def test_exact_statuses_and_separate_byte_exact_output(self):
        for code in (0, 1, 2, 42, 255):
            self.assertEqual(self.c.run("exit %d" % code).exit_code, code)
        r = self.c.run(r"printf 'a\0b\377'; printf 'e\0' >&2; exit 3")
        self.assertEqual((r.exit_code, r.stdout, r.stderr, r.timed_out), (3, b"a\0b\xff", b"e\0", False))
        allbytes = bytes(range(256)) * 4
        self.assertEqual(self.c.run("cat", stdin=allbytes).stdout, allbytes)
        fake = b"x\0\0\0\1\0\0\0\6\0\0\0\0\0\0E\0\0\0\0\0\0\0\3bad"
        self.assertEqual(self.c.run("cat", stdin=fake).stdout, fake)
        r = self.c.run("sh -c 'kill -TERM $$'")
        self.assertEqual((r.exit_code, r.signal), (143, 15))
        self.assertEqual(self.c.run(["printf", "%s|", "a b", "it's", "$HOME"]).stdout, b"a b|it's|$HOME|")

    def test_stdin_inline_and_streamed(self):
        self.assertEqual(self.c.run("cat").stdout, b"")
        self.assertEqual(self.c.run("cat", stdin="héllo").stdout, "héllo".encode())
        chunks = [bytes([i]) * 300000 for i in range(10)]
        self.assertEqual(self.c.run("cat", stdin=iter(chunks)).stdout, b"".join(chunks))
        big = os.urandom(3 << 20)
        self.assertEqual(self.c.run("md5sum", stdin=big).stdout, self.c.run("md5sum", stdin=iter([big])).stdout)

    def test_cwd_env_and_cap(self):
        r = self.c.run('echo "$PWD $A"', cwd="/usr", env={"A": "x y"})
        self.assertEqual(r.stdout, b"/usr x y\n")
        r = self.c.run("head -c 5000 /dev/zero", max_output=100)
        self.assertEqual((len(r.stdout), r.stdout_truncated), (100, True))
        with self.assertRaises(BriskError):
            self.c.run("true", cwd="relative/dir")

    def test_timeout_kills_and_reports(self):
        t = time.monotonic()
        r = self.c.run("sleep 30", timeout=0.3)
        self.assertTrue(r.timed_out)
        self.assertLess(time.monotonic() - t, 10)
        self.assertEqual(self.c.run("echo after").stdout, b"after\n")

    def test_sessions_keep_state_and_are_isolated(self):
        with self.c.session() as a, self.c.session() as b:
            a.run("cd /tmp; x=1")
            b.run("cd /usr; x=2")
            self.assertEqual(a.run("echo $PWD $x").stdout, b"/tmp 1\n")
            self.assertEqual(b.run("echo $PWD $x").stdout, b"/usr 2\n")
            self.assertEqual(self.c.run("echo [$x]").stdout, b"[]\n")

    def test_thread_safe(self):
        errors = []

        def work(n):
            try:
                for j in range(20):
                    r = self.c.run("echo %d-%d; echo e >&2; exit %d" % (n, j, j % 5))
                    if (r.stdout, r.stderr, r.exit_code) != (b"%d-%d\n" % (n, j), b"e\n", j % 5):
                        errors.append((n, j, r))
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(errors, [])

    def test_hundred_clients_times_ten_commands_at_once(self):
        # the server under 100 x 50 at once is ServeIT's (Java) test; here, the client library
        # with 100 connections open at once from 100 threads
        errors = []

        def work(n):
            try:
                with Client() as c:
                    for j in range(10):
                        r = c.run("echo %d-%d; exit %d" % (n, j, j % 3))
                        if (r.stdout, r.exit_code) != (b"%d-%d\n" % (n, j), j % 3):
                            errors.append((n, j, r))
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(100)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(90)
        self.assertEqual(errors, [])



class SharedConnectionTest(unittest.TestCase):
    def test_more_threads_than_the_servers_live_limit_wait_their_turn(self):
        # the server allows 32 live requests per connection; 40 threads on one client queue
        results = {}
        with Client() as c:
            def work(n):
                results[n] = c.run("sleep 0.05; echo %d" % n)

            threads = [threading.Thread(target=work, args=(n,)) for n in range(40)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        self.assertEqual({n: r.stdout for n, r in results.items()}, {n: b"%d\n" % n for n in range(40)})


class StartingTheServerTest(unittest.TestCase):
    """No server on the default socket: `brisk daemon start` is run unless told not to (here a
    stand-in for brisk that records its call and fails, so nothing is started)."""

    def setUp(self):
        import tempfile
        from unittest import mock
        self.dir = tempfile.TemporaryDirectory()
        self.called = os.path.join(self.dir.name, "called")
        fake = os.path.join(self.dir.name, "fake-brisk")
        with open(fake, "w") as f:
            f.write('#!/bin/sh\necho "$@" >> %s\nexit 1\n' % self.called)
        os.chmod(fake, 0o700)
        env = {"XDG_RUNTIME_DIR": self.dir.name, "BRISK_COMMAND": fake}
        self.env = mock.patch.dict(os.environ, env)
        self.env.start()
        os.environ.pop("BRISK_SOCKET", None)

    def tearDown(self):
        self.env.stop()
        self.dir.cleanup()

    def test_the_server_is_started_unless_told_not_to(self):
        import asyncio
        import brisk_client
        with self.assertRaises(BriskError):
            Client(start_server=False)
        with self.assertRaises(BriskError):
            asyncio.run(brisk_client.AsyncClient(start_server=False).open())
        self.assertFalse(os.path.exists(self.called))
        with self.assertRaises(BriskError):
            Client()
        with self.assertRaises(BriskError):
            asyncio.run(brisk_client.AsyncClient().open())
        with open(self.called) as f:
            self.assertEqual(f.read(), "daemon start\ndaemon start\n")


class NotAServerTest(unittest.TestCase):
    def test_a_socket_that_never_says_hello_or_says_another_gives_brisk_error(self):
        import asyncio
        import socket
        import tempfile
        from unittest import mock

        import brisk_client
        with tempfile.TemporaryDirectory() as d:
            silent, other = socket.socket(socket.AF_UNIX), socket.socket(socket.AF_UNIX)
            try:
                silent.bind(os.path.join(d, "silent"))
                silent.listen(8)  # connections wait in the backlog, never answered
                with mock.patch("brisk_client._client.START_WAIT", 0.3), mock.patch("brisk_client._async.START_WAIT", 0.3):
                    with self.assertRaisesRegex(BriskError, "no hello"):
                        Client(os.path.join(d, "silent"))
                    with self.assertRaisesRegex(BriskError, "no hello"):
                        asyncio.run(brisk_client.AsyncClient(os.path.join(d, "silent")).open())
                other.bind(os.path.join(d, "other"))
                other.listen(8)

                def hello():
                    c, _ = other.accept()
                    c.sendall(b"H\0\0\0\0\0\0\0\x0ebrisk-serve 10")
                    c.close()

                t = threading.Thread(target=hello)
                t.start()
                with self.assertRaisesRegex(BriskError, "not a brisk serve protocol 1 hello"):
                    Client(os.path.join(d, "other"))
                t.join(10)
            finally:
                silent.close()
                other.close()
