// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import dev.brisk.exec.internal.DescriptorInput;
import dev.brisk.exec.internal.DescriptorOutput;
import dev.brisk.internal.posix.Caller;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The standard streams of the command running on this thread, for a {@link JobRunner} to read
 * and print to: this process's own descriptors 0, 1 and 2 in a direct run, or those of the client
 * whose call a warm brisk server runs ({@code dev.brisk.internal.posix.Caller}). A runner gives
 * either kind of output its fast paths (batched writes into a pipe, {@code sendfile} of large
 * output). A client's streams wait for a non-blocking descriptor, end their reads and drop
 * their writes once the client has relayed a signal. None of them closes its descriptor.
 */
public final class CallerStreams {
    private CallerStreams() {}

    // the client's streams come from factories typed as the JDK's streams: a direct run's JVM
    // then never loads their classes (start-up)

    /** Standard input. */
    public static InputStream stdin() {
        Caller c = Caller.current();
        return c.self() ? new FileInputStream(FileDescriptor.in) : DescriptorInput.of(c.stdin(), c);
    }

    /** Standard output. */
    public static OutputStream stdout() {
        Caller c = Caller.current();
        return c.self() ? new FileOutputStream(FileDescriptor.out) : DescriptorOutput.of(c.stdout(), c);
    }

    /** Standard error. */
    public static OutputStream stderr() {
        Caller c = Caller.current();
        return c.self() ? new FileOutputStream(FileDescriptor.err) : DescriptorOutput.of(c.stderr(), c);
    }
}
