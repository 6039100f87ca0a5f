// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Java streams over the descriptors of the command running on this thread ({@link Caller}): for
 * this process itself the JDK's own streams over descriptors 0, 1 and 2; for a warm server's
 * client {@link DescriptorOutput} and {@link DescriptorInput}, which wait for a non-blocking
 * descriptor and end their reads and drop their writes once the client relayed a signal. The
 * streams never close the descriptor: whoever received it does.
 *
 * <p>The client's streams come from factories typed as the JDK's streams: a direct run's JVM
 * then never loads their classes (start-up).
 */
public final class DescriptorStream {
    private DescriptorStream() {}

    /** An output stream writing to the current caller's descriptor {@code fd}. */
    public static OutputStream output(int fd) {
        Caller c = Caller.current();
        if (c.self() && fd == 1) {
            return new FileOutputStream(FileDescriptor.out);
        }
        if (c.self() && fd == 2) {
            return new FileOutputStream(FileDescriptor.err);
        }
        return DescriptorOutput.of(fd, c);
    }

    /** A print stream on {@code fd} that flushes on every println (as System.err does); System.out or System.err for our own 1 and 2. */
    public static PrintStream print(int fd) {
        Caller c = Caller.current();
        if (c.self() && fd == 1) {
            return System.out;
        }
        if (c.self() && fd == 2) {
            return System.err;
        }
        return new PrintStream(DescriptorOutput.of(fd, c), true);
    }

    /** An input stream reading the current caller's descriptor {@code fd}. */
    public static InputStream input(int fd) {
        Caller c = Caller.current();
        if (c.self() && fd == 0) {
            return new FileInputStream(FileDescriptor.in);
        }
        return DescriptorInput.of(fd, c);
    }

    /** The current caller's standard input. */
    public static InputStream stdin() {
        return input(Caller.current().stdin());
    }

    /** The current caller's standard output. */
    public static OutputStream stdout() {
        return output(Caller.current().stdout());
    }

    /** The current caller's standard error. */
    public static OutputStream stderr() {
        return output(Caller.current().stderr());
    }
}
