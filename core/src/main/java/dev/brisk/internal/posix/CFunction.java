// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/**
 * C library functions that report errors by their return value (the {@code posix_spawn} family,
 * {@code sigemptyset}...), bound with {@link Syscall}'s own shape, {@code long f(long} x 7{@code )}
 * (with errno capture where Syscall's raw call cannot run, unused by these): the FFM linker
 * generates code per shape when a JVM first binds it (~10 ms here for a second shape, paid by every command-line run that spawns), so {@code brisk par}'s
 * and {@code brisk find}'s spawns pay for one shape only. On the two Linux ABIs brisk supports
 * (x86-64 System V and AArch64), an {@code int}, {@code short} or pointer argument travels in a
 * 64-bit register whose low bits the callee reads, an {@code int} result is the low half of the
 * result register, and arguments beyond the callee's own are ignored (the caller pops them), so
 * one shape fits every such function. Pass pointers as {@code MemorySegment.address()}.
 */
public final class CFunction {
    private CFunction() {}

    /** Binds {@code name}; throws {@link UnsatisfiedLinkError} when this C library lacks it. */
    public static MethodHandle bind(String name) {
        return Syscall.bindShape(name);
    }

    /** Whether this C library has {@code name}. */
    public static boolean exists(String name) {
        return Linker.nativeLinker().defaultLookup().find(name).isPresent();
    }

    /** Calls a {@link #bind bound} function; unused trailing arguments are 0. */
    public static int call(MethodHandle f, long a, long b, long c, long d, long e, long g) {
        return (int) Syscall.invoke(f, Errno.state(), a, b, c, d, e, g, 0L);
    }
}
