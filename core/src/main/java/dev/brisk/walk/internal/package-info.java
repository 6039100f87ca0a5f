// SPDX-License-Identifier: Apache-2.0
/**
 * The walk engines: {@code NativeEngine} ({@code DirWalker} per thread over a stack of
 * {@code Frame}s, reading {@code getdents64} records with {@code Dirents}; its parent
 * descriptors kept within a budget by {@code DescriptorCache}; loops under -L caught by
 * {@code LoopGuard}; {@code DirTask}s on a ForkJoinPool; {@code Syscalls} on the shared
 * {@code dev.brisk.internal.posix.Syscall} binding; {@code Scratch} per-thread native memory)
 * and {@code PortableEngine} ({@code java.nio.file}). Not exported.
 */
package dev.brisk.walk.internal;
