# SPDX-License-Identifier: Apache-2.0
# A system call on x86-64 Linux as a JNI native method:
#   jlong Java_dev_brisk_internal_posix_Kernel_call(JNIEnv *env, jclass cls,
#                                                   jlong nr, jlong a, jlong b, jlong c, jlong d, jlong e, jlong f)
# the kernel's result as it is, -errno on failure. dev.brisk.internal.posix.Kernel holds the
# assembled bytes (scripts/native-code jni-x86_64 prints them), wraps them in a small ELF shared
# object of its own making and loads it with System.load: the JVM binds a JNI method in well
# under a millisecond, where the FFM linker spends ~30 ms of a cold JVM's start generating code
# for its first downcall shape.
#
# The C calling convention's argument registers, shifted past env and cls, moved to the
# kernel's (rax the number, r10 for rcx, which the syscall instruction overwrites); the last three
# arguments come from the stack (above the return address).
        .intel_syntax noprefix
        .text
        .globl brisk_jni_syscall
brisk_jni_syscall:
        mov rax, rdx
        mov rdi, rcx
        mov rsi, r8
        mov rdx, r9
        mov r10, [rsp + 8]
        mov r8, [rsp + 16]
        mov r9, [rsp + 24]
        syscall
        ret
