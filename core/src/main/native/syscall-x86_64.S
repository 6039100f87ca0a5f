# SPDX-License-Identifier: Apache-2.0
# A system call on x86-64 Linux without the C library's errno: the kernel's result as it is,
# -errno on failure. dev.brisk.internal.posix.Syscall holds the assembled bytes
# (scripts/native-code syscall-x86_64 prints them) and calls them through the FFM linker with
# its one shape, long f(long nr, long a, long b, long c, long d, long e, long f), and no errno
# capture: the linker's capture (a slice of the capture segment, its session acquired and
# released, errno copied out of the thread) cost ~4% of a walk's CPU at every call.
#
# It is glibc's syscall(3) without the branch that moves -errno into errno: the C calling
# convention's argument registers moved to the kernel's (rax the number, r10 for rcx, which the
# syscall instruction overwrites, the seventh argument from the stack into r9).
        .intel_syntax noprefix
        .text
        .globl brisk_syscall
brisk_syscall:
        mov rax, rdi
        mov rdi, rsi
        mov rsi, rdx
        mov rdx, rcx
        mov r10, r8
        mov r8, r9
        mov r9, [rsp + 8]
        syscall
        ret
