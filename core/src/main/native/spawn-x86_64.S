# SPDX-License-Identifier: Apache-2.0
# brisk's process start on x86-64 Linux: clone3 with CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND
# and no stack of its own (the child runs on the caller's stack until it execs, as after vfork),
# then in the child the spawn's steps, as glibc's posix_spawn (2.36) takes them, in its order
# (signal dispositions, session or process group, file actions, signal mask), and execve.
#
# Why not posix_spawn: glibc maps a stack for the child at every call and unmaps it after, and
# the unmap of a multi-threaded process's memory interrupts every other CPU running it (measured:
# a quarter of brisk par's slot threads' time); its child also asks the disposition of each of
# the 64 signals. CLONE_CLEAR_SIGHAND (Linux 5.5) resets every handled signal in one step.
#
# The child uses no stack at all (system calls only, the plan's pointer in a register), so the
# caller's frame, which it shares, is never written. dev.brisk.internal.posix.NativeSpawn holds
# the assembled bytes (scripts/native-code spawn-x86_64 prints them) and fills the plan:
#
#   0 path   8 argv   16 envp   (C pointers)
#  24 flags: 1 setsid, 2 setpgid(0, pgroup), 4 empty signal mask
#  32 pgroup   40 number of actions   48 actions: 5 longs each (op, fd, from, path, open flags);
#     op 0 close(fd) then open(path, flags, 0666) as fd, 1 dup2(from, fd) (from == fd: its
#     close-on-exec flag cleared), 2 chdir(path), 3 close_range(fd, ~0U, 0),
#     4 prlimit64(0, fd, &{from, path}, NULL): resource fd's {soft, hard} limits from the two
#     longs at 16 and 24 (a warm server's client's limits); any step's error stops the child
#  56 signals set to SIG_DFL one by one (bit N-1 for signal N)
#  64 out: the errno that stopped the child (0: it exec'd)
#  72 clone_args (64 bytes)   136 sigaction SIG_DFL (32 bytes)   168 sigaction SIG_IGN (32 bytes)
# 200 an empty signal set (8 bytes)
# 208 signals set to SIG_IGN one by one, after those set to SIG_DFL (glibc's 32 and 33 as
#     posix_spawn leaves them, a warm server's client's ignored signals)
#
# long brisk_spawn(plan): the child's pid, or -errno when clone3 failed.
        .intel_syntax noprefix
        .text
        .globl brisk_spawn
brisk_spawn:
        mov     qword ptr [rdi + 64], 0
        mov     r8, rdi
        lea     rdi, [r8 + 72]
        mov     esi, 64
        mov     eax, 435                # clone3
        syscall
        test    rax, rax
        jz      .Lchild
        ret
.Lchild:
        mov     rbx, r8                 # the plan; the child never returns, so no register is saved
        mov     r14, [rbx + 24]
        mov     r12, [rbx + 56]         # first the signals to SIG_DFL
        lea     r15, [rbx + 136]
.Lsigset:
        mov     r13d, 1
.Lsigloop:
        test    r12, r12
        jz      .Lsigdone
        test    r12, 1
        jz      .Lsignext
        mov     edi, r13d
        mov     rsi, r15
        xor     edx, edx
        mov     r10d, 8
        mov     eax, 13                 # rt_sigaction (errors ignored, as glibc does)
        syscall
.Lsignext:
        shr     r12, 1
        inc     r13d
        jmp     .Lsigloop
.Lsigdone:
        lea     rax, [rbx + 168]
        cmp     r15, rax
        je      .Lsession
        mov     r15, rax                # then the signals to SIG_IGN
        mov     r12, [rbx + 208]
        jmp     .Lsigset
.Lsession:
        test    r14, 1
        jz      .Lpgid
        mov     eax, 112                # setsid
        syscall
        test    rax, rax
        js      .Lfail
        jmp     .Lactions
.Lpgid:
        test    r14, 2
        jz      .Lactions
        xor     edi, edi
        mov     rsi, [rbx + 32]
        mov     eax, 109                # setpgid
        syscall
        test    rax, rax
        js      .Lfail
.Lactions:
        mov     r12, [rbx + 48]
        mov     r13, [rbx + 40]
.Lactloop:
        test    r13, r13
        jz      .Lmask
        mov     rax, [r12]
        cmp     rax, 0
        je      .Lopen
        cmp     rax, 1
        je      .Ldup2
        cmp     rax, 2
        je      .Lchdir
        cmp     rax, 4
        je      .Lprlimit
        mov     rdi, [r12 + 8]          # close_range(fd, ~0U, 0)
        mov     esi, -1
        xor     edx, edx
        mov     eax, 436
        syscall
        test    rax, rax
        js      .Lfail
        jmp     .Lactnext
.Lopen:
        mov     rdi, [r12 + 8]          # close(fd) first, as glibc does (an error is no error here)
        mov     eax, 3
        syscall
        mov     rdi, -100               # openat(AT_FDCWD, path, flags, 0666)
        mov     rsi, [r12 + 24]
        mov     rdx, [r12 + 32]
        mov     r10d, 0666
        mov     eax, 257
        syscall
        test    rax, rax
        js      .Lfail
        cmp     rax, [r12 + 8]
        je      .Lactnext
        mov     r15, rax
        mov     rdi, rax                # dup2(opened, fd)
        mov     rsi, [r12 + 8]
        mov     eax, 33
        syscall
        test    rax, rax
        js      .Lfail
        mov     rdi, r15                # close(opened)
        mov     eax, 3
        syscall
        test    rax, rax
        js      .Lfail
        jmp     .Lactnext
.Ldup2:
        mov     rdi, [r12 + 16]
        mov     rsi, [r12 + 8]
        cmp     rdi, rsi
        je      .Lcloexec
        mov     eax, 33                 # dup2(from, fd)
        syscall
        test    rax, rax
        js      .Lfail
        jmp     .Lactnext
.Lcloexec:
        mov     esi, 2                  # fcntl(fd, F_SETFD, 0)
        xor     edx, edx
        mov     eax, 72
        syscall
        test    rax, rax
        js      .Lfail
        jmp     .Lactnext
.Lchdir:
        mov     rdi, [r12 + 24]
        mov     eax, 80                 # chdir(path)
        syscall
        test    rax, rax
        js      .Lfail
        jmp     .Lactnext
.Lprlimit:
        xor     edi, edi                # prlimit64(0, resource, &{soft, hard}, NULL)
        mov     rsi, [r12 + 8]
        lea     rdx, [r12 + 16]
        xor     r10d, r10d
        mov     eax, 302
        syscall
        test    rax, rax
        js      .Lfail
.Lactnext:
        add     r12, 40
        dec     r13
        jmp     .Lactloop
.Lmask:
        test    r14, 4
        jz      .Lexec
        mov     edi, 2                  # rt_sigprocmask(SIG_SETMASK, empty, NULL, 8)
        lea     rsi, [rbx + 200]
        xor     edx, edx
        mov     r10d, 8
        mov     eax, 14
        syscall
.Lexec:
        mov     rdi, [rbx]
        mov     rsi, [rbx + 8]
        mov     rdx, [rbx + 16]
        mov     eax, 59                 # execve
        syscall
.Lfail:
        neg     rax
        mov     [rbx + 64], rax
        mov     edi, 127
        mov     eax, 231                # exit_group(127)
        syscall
        hlt
