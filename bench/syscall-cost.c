// SPDX-License-Identifier: Apache-2.0
// What a system call costs on this machine, without a JVM:
//   syscall-cost getppid N           N getppid calls: the price of entering and leaving the kernel
//   syscall-cost statx DIR N MODE    N statx calls on DIR's files f0..f999 (make them first:
//                                    mkdir DIR && cd DIR && for i in $(seq 0 999); do : > f$i; done),
//                                    MODE 0 one system call each, MODE 1 in io_uring batches of 64
//
//   cc -O2 -o syscall-cost bench/syscall-cost.c
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int statx_loop(const char *dir, int n, int mode) {
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd < 0) { perror(dir); return 1; }
    char names[64][32];
    struct statx sx[64];
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    int fd = syscall(SYS_io_uring_setup, 64, &p);
    if (fd < 0) { perror("io_uring_setup"); return 1; }
    size_t sz = p.sq_off.array + p.sq_entries * 4, cz = p.cq_off.cqes + p.cq_entries * 16;
    if (cz > sz) sz = cz;
    char *r = mmap(0, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
    struct io_uring_sqe *sqes = mmap(0, 64 * 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
    unsigned *sqt = (unsigned *)(r + p.sq_off.tail), *arr = (unsigned *)(r + p.sq_off.array);
    unsigned *cqh = (unsigned *)(r + p.cq_off.head), *cqt = (unsigned *)(r + p.cq_off.tail);
    for (int i = 0; i < 64; i++) arr[i] = i;
    unsigned tail = *sqt;
    double t0 = now();
    long ok = 0;
    for (int base = 0; base < n; base += 64) {
        for (int i = 0; i < 64; i++) sprintf(names[i], "f%d", (base + i) % 1000);
        if (mode == 0) {
            for (int i = 0; i < 64; i++)
                if (statx(dfd, names[i], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx[i]) == 0) ok++;
            continue;
        }
        for (int i = 0; i < 64; i++) {
            struct io_uring_sqe *s = &sqes[(tail + i) & 63];
            memset(s, 0, sizeof *s);
            s->opcode = IORING_OP_STATX;
            s->fd = dfd;
            s->addr = (uint64_t)names[i];
            s->len = STATX_BASIC_STATS;
            s->statx_flags = AT_SYMLINK_NOFOLLOW;
            s->off = (uint64_t)&sx[i];
            s->user_data = i;
        }
        tail += 64;
        __atomic_store_n(sqt, tail, __ATOMIC_RELEASE);
        syscall(SYS_io_uring_enter, fd, 64, 64, IORING_ENTER_GETEVENTS, NULL, 0);
        unsigned h = *cqh, t = __atomic_load_n(cqt, __ATOMIC_ACQUIRE);
        for (; h != t; h++) {
            struct io_uring_cqe *c = (struct io_uring_cqe *)(r + p.cq_off.cqes) + (h & (p.cq_entries - 1));
            if (c->res == 0) ok++;
        }
        __atomic_store_n(cqh, h, __ATOMIC_RELEASE);
    }
    printf("statx %s: %ld of %d ok, %.0f ns each\n", mode ? "io_uring" : "system call", ok, n, (now() - t0) / n * 1e9);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "getppid")) {
        int n = atoi(argv[2]);
        double t0 = now();
        for (int i = 0; i < n; i++) syscall(SYS_getppid);
        printf("getppid: %.1f ns each\n", (now() - t0) / n * 1e9);
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "statx")) return statx_loop(argv[2], atoi(argv[3]), atoi(argv[4]));
    fprintf(stderr, "usage: syscall-cost getppid N | syscall-cost statx DIR N MODE(0|1)\n");
    return 2;
}
