// SPDX-License-Identifier: Apache-2.0
// The floor of a directory walk on this machine: the system calls brisk find makes for
// `-type f`, on N threads, printing every regular file's path, and nothing else: no JVM, no
// expression, no parser. bench/find-floor.sh compares brisk find and GNU find with it.
//
//   cc -O2 -pthread -o walk-floor bench/walk-floor.c && ./walk-floor ROOT [THREADS] [MODE]
//
// MODE 0: per directory one openat relative to its parent, getdents64 into 64 KiB until ext4's
// end-of-directory cookie or 0, one close (brisk before session 19, and with -Dbrisk.uring=off).
// MODE 1 (the default, brisk's walk now): the same getdents64, but a directory's subdirectories
// are opened together, and the closes queued since, in one io_uring_enter per batch (of up to 64)
// (MODE 2: opens one by one, only the closes batched; for comparison).
// With a fourth argument K (a number of KiB), every entry is also statx'd (relative to its
// directory's descriptor, AT_SYMLINK_NOFOLLOW, the basic mask, the root too) and the paths printed
// are those of `find ROOT -size +Kk`, of any type: the floor under `brisk find ROOT -size +Kk`.
//
// Work is shared as the directories two levels below the root (listed first, by one thread),
// each walked depth-first by whichever thread takes it next. Entries whose type getdents64 does
// not give (DT_UNKNOWN: not on ext4, tmpfs, xfs, btrfs) are skipped where brisk would statx them,
// and paths are limited to 64 KiB: a floor for such trees only.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/io_uring.h>

struct dirent64 { uint64_t d_ino; int64_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[]; };
enum { BUF = 65536, OUT = 65536, PATH_BUF = 65536, DT_DIR_ = 4, DT_REG_ = 8, ENTRIES = 256, BATCH = 64 };
static const int64_t EXT4_EOF = INT64_MAX;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
struct out { char buf[OUT]; size_t len; };
static void flush(struct out *o) {
    pthread_mutex_lock(&out_lock);
    for (size_t at = 0; at < o->len;) { ssize_t n = write(1, o->buf + at, o->len - at); if (n <= 0) { perror("write"); exit(1); } at += (size_t)n; }
    pthread_mutex_unlock(&out_lock); o->len = 0;
}
static void emit(struct out *o, const char *path, size_t len) {
    if (o->len + len + 1 > OUT) flush(o);
    memcpy(o->buf + o->len, path, len); o->buf[o->len + len] = '\n'; o->len += len + 1;
}
static long size_kb = -1; // -1: no statx (-type f); else print entries above this many KiB
static int big(int dirfd, const char *name) {
    struct statx st;
    if (syscall(SYS_statx, dirfd, name, AT_SYMLINK_NOFOLLOW, 0x7ff, &st) != 0) return 0;
    return (long)((st.stx_size + 1023) / 1024) > size_kb;
}
static int is_dot(const char *n) { return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])); }

struct ring {
    int fd; unsigned *sq_head, *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes; struct io_uring_cqe *cqes; unsigned tail; unsigned pending; unsigned inflight;
};
static __thread struct ring R;
static int use_uring = 1;
static void ring_init(struct ring *r) {
    struct io_uring_params p; memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    r->fd = syscall(SYS_io_uring_setup, ENTRIES, &p);
    if (r->fd < 0) { perror("io_uring_setup"); exit(1); }
    size_t sqsz = p.sq_off.array + p.sq_entries * sizeof(unsigned), cqsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    size_t sz = sqsz > cqsz ? sqsz : cqsz;
    char *sq = mmap(0, sz, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
    char *cq = sq;
    r->sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ|PROT_WRITE, MAP_SHARED|MAP_POPULATE, r->fd, IORING_OFF_SQES);
    r->sq_head = (unsigned*)(sq + p.sq_off.head); r->sq_tail = (unsigned*)(sq + p.sq_off.tail); r->sq_mask = (unsigned*)(sq + p.sq_off.ring_mask); r->sq_array = (unsigned*)(sq + p.sq_off.array);
    r->cq_head = (unsigned*)(cq + p.cq_off.head); r->cq_tail = (unsigned*)(cq + p.cq_off.tail); r->cq_mask = (unsigned*)(cq + p.cq_off.ring_mask); r->cqes = (struct io_uring_cqe*)(cq + p.cq_off.cqes);
    r->tail = *r->sq_tail; r->pending = 0;
}
static struct io_uring_sqe *sqe(struct ring *r) {
    unsigned idx = r->tail & *r->sq_mask; struct io_uring_sqe *s = &r->sqes[idx]; memset(s, 0, sizeof *s);
    r->sq_array[idx] = idx; r->tail++; r->pending++; return s;
}
// submits everything pending; waits for `wait` completions; fills fds[user_data] for opens
static void enter(struct ring *r, int *fds) {
    unsigned n = r->pending;
    __atomic_store_n(r->sq_tail, r->tail, __ATOMIC_RELEASE);
    int k = syscall(SYS_io_uring_enter, r->fd, n, n, IORING_ENTER_GETEVENTS, NULL, 0);
    if (k < 0) { perror("io_uring_enter"); exit(1); }
    r->pending = 0;
    unsigned head = *r->cq_head, tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
    for (; head != tail; head++) {
        struct io_uring_cqe *c = &r->cqes[head & *r->cq_mask];
        if (c->user_data != UINT64_MAX && fds) fds[c->user_data] = c->res;
    }
    __atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
}
static void flushc(struct ring *r) {
    unsigned n = r->pending;
    __atomic_store_n(r->sq_tail, r->tail, __ATOMIC_RELEASE);
    // the completions of the previous closes are not looked at: drop them
    __atomic_store_n(r->cq_head, __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
    int k = syscall(SYS_io_uring_enter, r->fd, n, 0, 0, NULL, 0);
    if (k < 0) { perror("io_uring_enter"); exit(1); }
    r->pending = 0;
}
static void qclose(int fd) {
    if (!use_uring) { close(fd); return; }
    if (use_uring == 2) { if (R.pending >= 32) flushc(&R); struct io_uring_sqe *s = sqe(&R); s->opcode = IORING_OP_CLOSE; s->fd = fd; s->user_data = UINT64_MAX; return; }
    if (R.pending >= ENTRIES - BATCH) enter(&R, NULL);
    struct io_uring_sqe *s = sqe(&R); s->opcode = IORING_OP_CLOSE; s->fd = fd; s->user_data = UINT64_MAX;
}

enum { MAX_DEPTH = 4096 };
static __thread char *buffers[MAX_DEPTH];
static const int OFLAGS = O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW;

static void walk(int fd, char *path, size_t len, char *dents, int depth, struct out *o, char **subs, size_t *subs_len) {
    // names of subdirectories (offsets into a local buffer)
    char *names = NULL; size_t nlen = 0, ncap = 0; int count = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, dents, BUF);
        if (n <= 0) break;
        struct dirent64 *last = NULL;
        for (long pos = 0; pos < n;) {
            struct dirent64 *d = (struct dirent64 *)(dents + pos);
            pos += d->d_reclen; last = d;
            if (is_dot(d->d_name)) continue;
            size_t nl = strlen(d->d_name);
            if (len + 1 + nl + 1 > PATH_BUF) continue;
            path[len] = '/'; memcpy(path + len + 1, d->d_name, nl + 1);
            if (size_kb >= 0) { if (big(fd, d->d_name)) emit(o, path, len + 1 + nl); }
            else if (d->d_type == DT_REG_) emit(o, path, len + 1 + nl);
            if (d->d_type == DT_DIR_) {
                if (subs) {
                    *subs = realloc(*subs, *subs_len + len + nl + 2);
                    memcpy(*subs + *subs_len, path, len + 1 + nl); (*subs)[*subs_len + len + 1 + nl] = '\n'; *subs_len += len + nl + 2;
                } else {
                    if (nlen + nl + 1 > ncap) { ncap = (ncap + nl + 1) * 2; names = realloc(names, ncap); }
                    memcpy(names + nlen, d->d_name, nl + 1); nlen += nl + 1; count++;
                }
            }
        }
        if (last && last->d_off == EXT4_EOF) break;
    }
    if (subs || !count) { free(names); return; }
    if (depth + 1 >= MAX_DEPTH) { free(names); return; }
    if (!buffers[depth + 1]) buffers[depth + 1] = malloc(BUF);
    int fds[BATCH]; size_t at = 0;
    for (int done = 0; done < count;) {
        int k = count - done < BATCH ? count - done : BATCH;
        size_t offs[BATCH]; size_t a = at;
        for (int i = 0; i < k; i++) { offs[i] = a; a += strlen(names + a) + 1; }
        if (use_uring == 2) {
            for (int i = 0; i < k; i++) fds[i] = openat(fd, names + offs[i], OFLAGS);
        } else if (use_uring) {
            for (int i = 0; i < k; i++) {
                struct io_uring_sqe *s = sqe(&R); s->opcode = IORING_OP_OPENAT; s->fd = fd; s->addr = (uint64_t)(names + offs[i]); s->open_flags = OFLAGS; s->user_data = i;
            }
            enter(&R, fds);
        } else for (int i = 0; i < k; i++) fds[i] = openat(fd, names + offs[i], OFLAGS);
        for (int i = 0; i < k; i++) {
            size_t nl = strlen(names + offs[i]);
            path[len] = '/'; memcpy(path + len + 1, names + offs[i], nl + 1);
            if (fds[i] >= 0) { walk(fds[i], path, len + 1 + nl, buffers[depth + 1], depth + 1, o, NULL, NULL); qclose(fds[i]); }
        }
        at = a; done += k;
    }
    free(names);
}

static char *work; static size_t work_len; static atomic_size_t next_item;
static void *worker(void *arg) {
    (void)arg;
    if (use_uring) ring_init(&R);
    struct out *o = malloc(sizeof *o); o->len = 0;
    char *path = malloc(PATH_BUF), *dents = malloc(BUF);
    for (;;) {
        size_t at, end;
        do { at = atomic_load(&next_item); if (at >= work_len) goto done; end = at; while (work[end] != '\n') end++; }
        while (!atomic_compare_exchange_weak(&next_item, &at, end + 1));
        memcpy(path, work + at, end - at); path[end - at] = 0;
        int fd = open(path, OFLAGS);
        if (fd < 0) continue;
        walk(fd, path, end - at, dents, 0, o, NULL, NULL);
        qclose(fd);
    }
done:
    if (use_uring == 2 && R.pending) flushc(&R); else if (use_uring && R.pending) enter(&R, NULL);
    flush(o); return NULL;
}
int main(int argc, char **argv) {
    if (argc < 2 || argc > 5) { fprintf(stderr, "usage: walk-floor ROOT [THREADS] [MODE 0|1|2] [SIZE_KIB]\n"); return 2; }
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    use_uring = argc > 3 ? atoi(argv[3]) : 1;
    size_kb = argc > 4 ? atol(argv[4]) : -1;
    char *path = malloc(PATH_BUF), *dents = malloc(BUF);
    struct out *o = malloc(sizeof *o); o->len = 0;
    size_t rl = strlen(argv[1]); memcpy(path, argv[1], rl + 1);
    char *l1 = NULL; size_t l1_len = 0;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) { perror(argv[1]); return 1; }
    if (size_kb >= 0 && big(AT_FDCWD, path)) emit(o, path, rl);
    walk(fd, path, rl, dents, 0, o, &l1, &l1_len); close(fd);
    for (size_t at = 0; at < l1_len;) {
        size_t end = at; while (l1[end] != '\n') end++;
        memcpy(path, l1 + at, end - at); path[end - at] = 0;
        int d = open(path, OFLAGS);
        if (d >= 0) { walk(d, path, end - at, dents, 0, o, &work, &work_len); close(d); }
        at = end + 1;
    }
    flush(o);
    pthread_t t[64]; if (threads > 64) threads = 64;
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    return 0;
}
