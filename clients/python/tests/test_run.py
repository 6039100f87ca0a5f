# SPDX-License-Identifier: Apache-2.0
"""brisk_client.run against a live `brisk serve` at $BRISK_SOCKET: subprocess.run's arguments,
result and exceptions, compared with subprocess.run itself where it defines the answer."""

import os
import subprocess
import tempfile
import time
import unittest

import brisk_client


class RunTest(unittest.TestCase):
    def test_result_is_subprocess_shaped(self):
        r = brisk_client.run("echo out; echo err >&2; exit 3")
        self.assertIsInstance(r, subprocess.CompletedProcess)
        self.assertEqual((r.args, r.returncode, r.stdout, r.stderr), ("echo out; echo err >&2; exit 3", 3, b"out\n", b"err\n"))
        self.assertEqual(brisk_client.run(["true"]).returncode, 0)

    def test_argv_words_with_quotes_spaces_and_bytes_are_passed_as_they_are(self):
        words = ["a b", "it's", 'say "hi"', "$HOME", "`id`", "*", "-n", "\\", "new\nline", "", b"\xff\xfe raw", "é"]
        got = brisk_client.run(["printf", "%s|"] + words).stdout
        want = subprocess.run(["printf", "%s|"] + words, capture_output=True).stdout
        self.assertEqual(got, want)
        self.assertEqual(got, "a b|it's|say \"hi\"|$HOME|`id`|*|-n|\\|new\nline||".encode() + b"\xff\xfe raw|" + "é|".encode())

    def test_check_raises_called_process_error_with_the_output(self):
        with self.assertRaises(subprocess.CalledProcessError) as e:
            brisk_client.run(["sh", "-c", "echo partial; echo why >&2; exit 7"], check=True)
        self.assertEqual((e.exception.returncode, e.exception.cmd), (7, ["sh", "-c", "echo partial; echo why >&2; exit 7"]))
        self.assertEqual((e.exception.stdout, e.exception.stderr), (b"partial\n", b"why\n"))
        self.assertEqual(brisk_client.run("exit 0", check=True).returncode, 0)

    def test_signal_deaths_read_as_subprocess_reports_them(self):
        argv = ["sh", "-c", "kill -TERM $$"]
        self.assertEqual(brisk_client.run(argv).returncode, subprocess.run(argv).returncode)
        self.assertEqual(brisk_client.run(["sh", "-c", "kill -KILL $$"]).returncode, -9)

    def test_timeout_kills_the_command_and_raises_timeout_expired(self):
        with tempfile.TemporaryDirectory() as d:
            pid_file = os.path.join(d, "pid")
            t = time.monotonic()
            with self.assertRaises(subprocess.TimeoutExpired) as e:
                brisk_client.run(["sh", "-c", 'echo started; echo $$ > "$0"; exec sleep 30', pid_file], timeout=0.5)
            self.assertLess(time.monotonic() - t, 10)
            self.assertEqual((e.exception.timeout, e.exception.stdout), (0.5, b"started\n"))
            with open(pid_file) as f:
                pid = int(f.read())
            deadline = time.monotonic() + 5
            while os.path.exists("/proc/%d" % pid) and time.monotonic() < deadline:
                time.sleep(0.02)
            self.assertFalse(os.path.exists("/proc/%d" % pid), "the timed-out command still runs")
        self.assertEqual(brisk_client.run("echo fine", timeout=30).stdout, b"fine\n")

    def test_text_decodes_with_universal_newlines_and_encodes_input(self):
        r = brisk_client.run(["printf", "h\u00e9\r\nl\u00e0\rx"], text=True, encoding="utf-8")
        self.assertEqual(r.stdout, "h\u00e9\nl\u00e0\nx")
        self.assertEqual(r.stdout, subprocess.run(["printf", "h\u00e9\r\nl\u00e0\rx"], capture_output=True, text=True, encoding="utf-8").stdout)
        self.assertEqual(brisk_client.run("cat", input="\u00fcber\n", text=True, encoding="utf-8").stdout, "\u00fcber\n")
        self.assertEqual(brisk_client.run(["printf", "\\377"], errors="replace").stdout, "\ufffd")
        with self.assertRaises(UnicodeDecodeError):
            brisk_client.run(["printf", "\\377"], text=True, encoding="utf-8")
        with self.assertRaises(subprocess.CalledProcessError) as e:
            brisk_client.run("echo no >&2; exit 1", text=True, check=True)
        self.assertEqual(e.exception.stderr, "no\n")

    def test_input_bytes_inline_and_streamed(self):
        data = bytes(range(256)) * 64
        self.assertEqual(brisk_client.run("cat", input=data).stdout, data)
        big = os.urandom(3 << 20)  # over one frame: streamed
        self.assertEqual(brisk_client.run(["wc", "-c"], input=big).stdout.strip(), b"%d" % len(big))
        self.assertEqual(brisk_client.run("cat").stdout, b"")  # stdin at end of file, never ours

    def test_cwd_env_and_shell_as_subprocess_means_them(self):
        self.assertEqual(brisk_client.run("pwd", cwd="/usr").stdout, b"/usr\n")
        self.assertEqual(brisk_client.run("pwd").stdout, os.getcwd().encode() + b"\n")  # ours, not the server's
        here = os.getcwd()
        try:
            os.chdir("/usr")
            self.assertEqual(brisk_client.run(["pwd"], cwd="bin").stdout, b"/usr/bin\n")
        finally:
            os.chdir(here)
        with self.assertRaises(FileNotFoundError):
            brisk_client.run("true", cwd="/no/such/dir")
        r = brisk_client.run(["env"], env={"ONLY": "this one", "B": "x=y"})
        self.assertEqual(sorted(r.stdout.decode().splitlines()), ["B=x=y", "ONLY=this one"])
        r = brisk_client.run('echo "$A|$HOME"', env={"A": "1"})
        self.assertEqual(r.stdout, b"1|\n")
        self.assertEqual(brisk_client.run(["echo $0 $1", "zero", "one"], shell=True).stdout, b"zero one\n")
        self.assertEqual(brisk_client.run("echo x", shell=False).returncode, 127)  # a program named "echo x"

    def test_uncaptured_output_goes_to_our_descriptors(self):
        with tempfile.TemporaryFile() as out:
            saved = os.dup(1)
            try:
                os.dup2(out.fileno(), 1)
                r = brisk_client.run("echo to-stdout", capture_output=False)
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            out.seek(0)
            self.assertEqual((r.stdout, r.stderr, out.read()), (None, None, b"to-stdout\n"))

    def test_bad_input_raises_at_once_and_sends_nothing(self):
        cases = [
            (ValueError, lambda: brisk_client.run(["echo", "a\0b"])),
            (ValueError, lambda: brisk_client.run("echo a\0b")),
            (ValueError, lambda: brisk_client.run(["true"], timeout=-1)),
            (ValueError, lambda: brisk_client.run(["true"], timeout=float("nan"))),
            (TypeError, lambda: brisk_client.run(["true"], timeout="5")),
            (TypeError, lambda: brisk_client.run(["true"], stdout=subprocess.PIPE)),
            (TypeError, lambda: brisk_client.run(["true"], bogus=1)),
            (TypeError, lambda: brisk_client.run(["echo", 3])),
            (TypeError, lambda: brisk_client.run("cat", input="str without text=True")),
            (TypeError, lambda: brisk_client.run("cat", input=b"bytes", text=True)),
            (ValueError, lambda: brisk_client.run(["true"], env={"A=B": "1"})),
            (ValueError, lambda: brisk_client.run(["true"], env={"A": "1\0"})),
            (ValueError, lambda: brisk_client.run(["true"], cwd="/tmp\0x")),
            (ValueError, lambda: brisk_client.run([])),
            (OSError, lambda: brisk_client.run(["echo", "x" * (2 << 20)])),
        ]
        # each the error subprocess.run gives (where subprocess defines one)
        self.assertRaises(ValueError, subprocess.run, ["echo", "a\0b"])
        self.assertRaises(TypeError, subprocess.run, ["echo", 3])
        shared = brisk_client._shared_client()
        for i, (error, call) in enumerate(cases):
            with self.subTest(i):
                self.assertRaises(error, call)
        # the same connection answers the next request: nothing half-sent is left on it
        self.assertIs(brisk_client._shared_client(), shared)
        self.assertEqual(brisk_client.run(["echo", "after"]).stdout, b"after\n")

    def test_a_fork_gets_a_connection_of_its_own(self):
        brisk_client.run("true")
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover (the child)
            try:
                os.write(w, brisk_client.run(["echo", "child"]).stdout)
            finally:
                os._exit(0)
        os.close(w)
        got = os.read(r, 100)
        os.close(r)
        os.waitpid(pid, 0)
        self.assertEqual(got, b"child\n")
        self.assertEqual(brisk_client.run(["echo", "parent"]).stdout, b"parent\n")
