# SPDX-License-Identifier: Apache-2.0
"""brisk_client.AsyncClient against a live `brisk serve` at $BRISK_SOCKET."""

import asyncio
import os
import subprocess
import tempfile
import time
import unittest
from unittest import mock

import brisk_client


class AsyncClientTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.c = await brisk_client.AsyncClient().open()

    async def asyncTearDown(self):
        await self.c.aclose()

    async def test_fifty_requests_in_flight_on_one_connection(self):
        t = time.monotonic()
        rs = await asyncio.wait_for(asyncio.gather(*(
            self.c.run("sleep 0.2; echo out%d; echo err%d >&2; exit %d" % (i, i, i % 4)) for i in range(50))), 60)
        elapsed = time.monotonic() - t
        for i, r in enumerate(rs):
            self.assertEqual((r.returncode, r.stdout, r.stderr), (i % 4, b"out%d\n" % i, b"err%d\n" % i))
        # one request after another would take 50 x 0.2 s; the server's shells ran them side by side
        self.assertLess(elapsed, 0.75 * 50 * 0.2)

    async def test_subprocess_semantics_as_run(self):
        r = await self.c.run(["printf", "%s|", "it's", "a b", b"\xff"])
        self.assertEqual(r.stdout, b"it's|a b|\xff|")
        with self.assertRaises(subprocess.CalledProcessError) as e:
            await self.c.run("echo no >&2; exit 2", check=True, text=True)
        self.assertEqual((e.exception.returncode, e.exception.stderr), (2, "no\n"))
        with self.assertRaises(subprocess.TimeoutExpired):
            await self.c.run("sleep 30", timeout=0.3)
        self.assertEqual((await self.c.run("cat", input=b"x" * (2 << 20))).stdout, b"x" * (2 << 20))

    async def test_a_cancelled_task_cancels_its_command(self):
        with tempfile.TemporaryDirectory() as d:
            pid_file = os.path.join(d, "pid")
            task = asyncio.ensure_future(self.c.run(["sh", "-c", 'echo $$ > "$0"; exec sleep 30', pid_file]))
            deadline = time.monotonic() + 30
            while not (os.path.exists(pid_file) and os.path.getsize(pid_file)):
                self.assertLess(time.monotonic(), deadline)
                await asyncio.sleep(0.01)
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task
            with open(pid_file) as f:
                pid = int(f.read())
            deadline = time.monotonic() + 5
            while os.path.exists("/proc/%d" % pid) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            self.assertFalse(os.path.exists("/proc/%d" % pid), "the cancelled command still runs")
        self.assertEqual((await self.c.run("echo next")).stdout, b"next\n")

    async def test_bad_input_raises_at_once_and_sends_nothing(self):
        for error, kw in [(ValueError, {"args": ["a\0b"]}), (ValueError, {"args": ["true"], "timeout": -0.5}),
                          (TypeError, {"args": ["true"], "bogus": 1}), (TypeError, {"args": [None]})]:
            with self.subTest(kw=kw), self.assertRaises(error):
                await self.c.run(**kw)
        self.assertEqual((await self.c.run(["echo", "after"])).stdout, b"after\n")

    async def test_tasks_that_open_at_once_share_one_connection(self):
        connects = []
        real = asyncio.open_unix_connection

        async def counted(*args, **kw):
            connects.append(args)
            return await real(*args, **kw)

        c = brisk_client.AsyncClient()
        try:
            with mock.patch("asyncio.open_unix_connection", counted):
                rs = await asyncio.gather(*(c.run(["echo", str(i)]) for i in range(10)))
            self.assertEqual([r.stdout for r in rs], [b"%d\n" % i for i in range(10)])
            self.assertEqual(len(connects), 1)
        finally:
            await c.aclose()
