// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.shell.ShellSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts the workers of one pool: owns the pool's private directory (mode 0700, on tmpfs when
 * there is one) and its {@link Watchdog}. Thread-safe.
 */
public final class WorkerFactory implements AutoCloseable {
    private static final Path SETSID = ShellSpec.SETSID;

    private final ShellSpec spec;
    private final Path dir;
    private final Watchdog watchdog;
    private final AtomicInteger next = new AtomicInteger();
    private final DirectExec direct;
    private final Integer nice;

    /** A factory of workers of {@code spec} at niceness {@code nice} (null: this process's). */
    public WorkerFactory(ShellSpec spec, Integer nice) throws IOException {
        if (SETSID == null) {
            throw new IOException("setsid(1) not found in /usr/bin or /bin: install util-linux");
        }
        this.spec = spec;
        this.nice = nice;
        this.direct = spec.bash() && Spawn.fullyAvailable() ? new DirectExec(spec) : null;
        this.dir = Files.createTempDirectory(baseDirectory(), "brisk-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        this.watchdog = new Watchdog(SETSID, dir);
    }

    /** Starts one shell in the given mode. */
    public Worker start(Worker.Mode mode) throws IOException {
        return Worker.start(spec, mode, dir.resolve("w" + next.incrementAndGet()), SETSID, watchdog, direct, nice);
    }

    public ShellSpec spec() {
        return spec;
    }

    /** Ends the watchdog, which kills whatever the workers left and removes the directory. */
    @Override
    public void close() {
        watchdog.close();
    }

    private static Path baseDirectory() {
        String xdg = System.getenv("XDG_RUNTIME_DIR");
        if (xdg != null && !xdg.isEmpty() && Files.isDirectory(Path.of(xdg)) && Files.isWritable(Path.of(xdg))) {
            return Path.of(xdg);
        }
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

}
