// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * C library functions that report errors by their return value (the {@code posix_spawn} family,
 * {@code sigemptyset}...), all bound with ONE shape, {@code int f(long, long, long, long, long,
 * long)}, and no errno capture: the FFM linker generates code per shape when a JVM first binds it,
 * so this and {@link Syscall} are the only two shapes {@code brisk par}'s and {@code brisk find}'s
 * spawns pay for. On the two Linux ABIs brisk supports (x86-64 System V and AArch64), an
 * {@code int}, {@code short} or pointer argument travels in a 64-bit register whose low bits the
 * callee reads, and arguments beyond the callee's own are ignored, so one shape fits every such
 * function. Pass pointers as {@code MemorySegment.address()}.
 */
public final class CFunction {
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    private static final FunctionDescriptor SHAPE = FunctionDescriptor.of(ValueLayout.JAVA_INT, L, L, L, L, L, L);

    private CFunction() {}

    /** Binds {@code name}; throws {@link UnsatisfiedLinkError} when this C library lacks it. */
    public static MethodHandle bind(String name) {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find(name)
                        .orElseThrow(() -> new UnsatisfiedLinkError("no symbol " + name + " in the C library")),
                SHAPE);
    }

    /** Whether this C library has {@code name}. */
    public static boolean exists(String name) {
        return Linker.nativeLinker().defaultLookup().find(name).isPresent();
    }

    /** Calls a {@link #bind bound} function; unused trailing arguments are 0. */
    public static int call(MethodHandle f, long a, long b, long c, long d, long e, long g) {
        try {
            return (int) f.invokeExact(a, b, c, d, e, g);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
