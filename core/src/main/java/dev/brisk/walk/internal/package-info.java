// SPDX-License-Identifier: Apache-2.0
/**
 * The walk engines: {@code NativeEngine} ({@code DirWalker} per thread over FFM system calls,
 * {@code DirTask}s on a ForkJoinPool) and {@code PortableEngine} ({@code java.nio.file}).
 * Not exported.
 */
package dev.brisk.walk.internal;
