// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The client socket against a real listening socket of the JDK's in the same process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnixSocketTest {
    @TempDir
    Path dir;
    Path path;
    ServerSocketChannel server;
    /** Threads of the tests' own: the common pool may have one thread, and these block. */
    final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeEach
    void listen() throws IOException {
        path = dir.resolve("s.sock");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(path));
    }

    @AfterEach
    void stop() throws IOException {
        threads.shutdownNow();
        server.close();
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static void writeAll(UnixSocket s, byte[] data) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(data);
        while (b.hasRemaining()) {
            s.write(b);
        }
    }

    /** One read of up to {@code n} bytes on a thread of the test's own. */
    private CompletableFuture<Integer> readLater(UnixSocket s, int n) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return s.read(ByteBuffer.allocate(n));
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, threads);
    }

    private static byte[] readAll(java.nio.channels.ReadableByteChannel in, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining() && in.read(b) >= 0) {
            // until n bytes or the end
        }
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    @Test
    void bytesGoBothWaysExactlyAcrossManyChunks() throws Exception {
        byte[] data = random(1_000_003);
        try (UnixSocket s = UnixSocket.connect(path, 0); SocketChannel peer = server.accept()) {
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
                try {
                    ByteBuffer b = ByteBuffer.allocate(7919);
                    long left = data.length;
                    while (left > 0) {
                        b.clear().limit((int) Math.min(b.capacity(), left));
                        int n = peer.read(b);
                        left -= n;
                        b.flip();
                        while (b.hasRemaining()) {
                            peer.write(b);
                        }
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, threads);
            CompletableFuture<byte[]> back = CompletableFuture.supplyAsync(() -> {
                try {
                    return readAll(s, data.length);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, threads);
            writeAll(s, data);
            assertThat(back.get(30, TimeUnit.SECONDS)).isEqualTo(data);
            echo.get(30, TimeUnit.SECONDS);
            peer.shutdownOutput(); // the end of the stream, as a close would give it
            assertThat(s.read(ByteBuffer.allocate(10))).isEqualTo(-1);
        }
    }

    /** The reason this class exists: a SocketChannel closes itself when a writer is interrupted. */
    @Test
    void interruptsOfAWriterBlockedOnAFullSocketLeaveItOpen() throws Exception {
        byte[] data = random(4 << 20);
        try (UnixSocket s = UnixSocket.connect(path, 0); SocketChannel peer = server.accept()) {
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    writeAll(s, data);
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            ByteBuffer b = ByteBuffer.allocate(4096);
            while (got.size() < data.length) {
                writer.interrupt(); // blocked in the write, or between two: either way it carries on
                b.clear();
                int n = peer.read(b);
                assertThat(n).isPositive();
                got.write(b.array(), 0, n);
            }
            writer.join();
            assertThat(failed.get()).isNull();
            assertThat(got.toByteArray()).isEqualTo(data);
            // and the socket still carries bytes after it all
            s.write(ByteBuffer.wrap(new byte[] {7}));
            b.clear();
            assertThat(peer.read(b)).isEqualTo(1);
        }
    }

    @Test
    void shutdownEndsAReadBlockedInAnotherThreadAndAnInterruptDoesNot() throws Exception {
        try (UnixSocket s = UnixSocket.connect(path, 0); SocketChannel peer = server.accept()) {
            CompletableFuture<Integer> r = new CompletableFuture<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    r.complete(s.read(ByteBuffer.allocate(16)));
                } catch (Throwable e) {
                    r.completeExceptionally(e);
                }
            });
            Thread.sleep(200);
            reader.interrupt();
            Thread.sleep(200);
            assertThat(r).isNotDone();
            peer.write(ByteBuffer.wrap(new byte[] {42}));
            assertThat(r.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            reader.join();
            CompletableFuture<Integer> r2 = readLater(s, 16);
            Thread.sleep(200);
            assertThat(r2).isNotDone();
            s.shutdown();
            assertThat(r2.get(10, TimeUnit.SECONDS)).isEqualTo(-1);
        }
    }

    /**
     * The error, not a signal. (The JVM ignores SIGPIPE itself, so this cannot show that
     * {@code MSG_NOSIGNAL} is set; it shows the error a caller gets.)
     */
    @Test
    void aPeerThatWentAwayIsEpipe() throws Exception {
        try (UnixSocket s = UnixSocket.connect(path, 0)) {
            server.accept().close();
            assertThatThrownBy(() -> {
                for (int i = 0; i < 1000; i++) {
                    writeAll(s, new byte[4096]);
                }
            }).isInstanceOfSatisfying(PosixException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EPIPE));
        }
    }

    @Test
    void closeFreesTheDescriptorOnceAndLaterCallsSayClosed() throws Exception {
        UnixSocket s = UnixSocket.connect(path, 0);
        server.accept().close();
        s.shutdown();
        s.close();
        s.close();
        assertThat(s.isOpen()).isFalse();
        assertThatThrownBy(() -> s.read(ByteBuffer.allocate(1))).isInstanceOf(java.nio.channels.ClosedChannelException.class);
        assertThatThrownBy(() -> s.write(ByteBuffer.allocate(1))).isInstanceOf(java.nio.channels.ClosedChannelException.class);
    }

    @Test
    void connectFailuresSayWhy() throws Exception {
        assertThatThrownBy(() -> UnixSocket.connect(dir.resolve("missing.sock"), 0))
                .hasMessage("connect: No such file or directory");
        Path plain = Files.writeString(dir.resolve("plain"), "x");
        String refused = "connect: " + Libc.strerror(111); // ECONNREFUSED, in the C library's words
        assertThatThrownBy(() -> UnixSocket.connect(plain, 0)).hasMessage(refused);
        server.close();
        assertThatThrownBy(() -> UnixSocket.connect(path, 0)).hasMessage(refused);
        Path longer = dir.resolve("x".repeat(120));
        assertThatThrownBy(() -> UnixSocket.connect(longer, 0))
                .hasMessageStartingWith("the socket path is ").hasMessageEndingWith("holds at most 107");
    }

    @Test
    void aTimeoutEndsAReadThatGetsNothingAndZeroLiftsIt() throws Exception {
        try (UnixSocket s = UnixSocket.connect(path, 300); SocketChannel peer = server.accept()) {
            assertThatThrownBy(() -> s.read(ByteBuffer.allocate(9))).hasMessage("read: no progress within 300 ms");
            s.timeout(0);
            CompletableFuture<Integer> r = readLater(s, 9);
            Thread.sleep(600);
            assertThat(r).isNotDone();
            peer.write(ByteBuffer.wrap(new byte[] {1, 2}));
            assertThat(r.get(10, TimeUnit.SECONDS)).isEqualTo(2);
        }
    }
}
