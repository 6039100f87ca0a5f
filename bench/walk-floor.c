// SPDX-License-Identifier: Apache-2.0
// The floor of a directory walk on this machine: the system calls brisk find makes for
// `-type f` (per directory one openat relative to its parent, getdents64 into 64 KiB until
// ext4's end-of-directory cookie or 0, one close), on N threads, printing every regular file's
// path, and nothing else: no JVM, no expression, no parser. bench/find-floor.sh compares
// brisk find and GNU find with it.
//
//   cc -O2 -pthread -o walk-floor bench/walk-floor.c && ./walk-floor ROOT [THREADS]
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
#include <unistd.h>

struct dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

enum { BUF = 65536, OUT = 65536, PATH_BUF = 65536, DT_DIR_ = 4, DT_REG_ = 8 };
static const int64_t EXT4_EOF = INT64_MAX;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

struct out { char buf[OUT]; size_t len; };

static void flush(struct out *o) {
    pthread_mutex_lock(&out_lock);
    for (size_t at = 0; at < o->len;) {
        ssize_t n = write(1, o->buf + at, o->len - at);
        if (n <= 0) { perror("write"); exit(1); }
        at += (size_t)n;
    }
    pthread_mutex_unlock(&out_lock);
    o->len = 0;
}

static void emit(struct out *o, const char *path, size_t len) {
    if (o->len + len + 1 > OUT) flush(o);
    memcpy(o->buf + o->len, path, len);
    o->buf[o->len + len] = '\n';
    o->len += len + 1;
}

static int is_dot(const char *n) { return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])); }

// Reads directory fd (path[0..len)), printing its files; with subs == NULL walks each
// subdirectory depth-first, else appends the subdirectories' paths to subs (one per line).
enum { MAX_DEPTH = 4096 };
static __thread char *buffers[MAX_DEPTH]; // a getdents64 buffer per depth, for this thread's walk

static void walk(int fd, char *path, size_t len, char *dents, int depth, struct out *o, char **subs, size_t *subs_len) {
    for (;;) {
        long n = syscall(SYS_getdents64, fd, dents, BUF);
        if (n <= 0) break;
        struct dirent64 *last = NULL;
        for (long pos = 0; pos < n;) {
            struct dirent64 *d = (struct dirent64 *)(dents + pos);
            pos += d->d_reclen;
            last = d;
            if (is_dot(d->d_name)) continue;
            size_t nl = strlen(d->d_name);
            if (len + 1 + nl + 1 > PATH_BUF) continue;
            path[len] = '/';
            memcpy(path + len + 1, d->d_name, nl + 1);
            if (d->d_type == DT_REG_) {
                emit(o, path, len + 1 + nl);
            } else if (d->d_type == DT_DIR_) {
                if (subs) {
                    *subs = realloc(*subs, *subs_len + len + nl + 2);
                    memcpy(*subs + *subs_len, path, len + 1 + nl);
                    (*subs)[*subs_len + len + 1 + nl] = '\n';
                    *subs_len += len + nl + 2;
                } else {
                    int c = openat(fd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
                    if (c >= 0 && depth + 1 < MAX_DEPTH) {
                        // the rest of this batch is still in dents: the child reads into its depth's buffer
                        if (!buffers[depth + 1]) buffers[depth + 1] = malloc(BUF);
                        walk(c, path, len + 1 + nl, buffers[depth + 1], depth + 1, o, NULL, NULL);
                    }
                    if (c >= 0) close(c);
                }
            }
        }
        if (last && last->d_off == EXT4_EOF) break;
    }
}

static char *work;
static size_t work_len;
static atomic_size_t next_item;

static void *worker(void *arg) {
    (void)arg;
    struct out *o = malloc(sizeof *o);
    o->len = 0;
    char *path = malloc(PATH_BUF), *dents = malloc(BUF);
    for (;;) {
        // take the next line of work
        size_t at, end;
        do {
            at = atomic_load(&next_item);
            if (at >= work_len) goto done;
            end = at;
            while (work[end] != '\n') end++;
        } while (!atomic_compare_exchange_weak(&next_item, &at, end + 1));
        memcpy(path, work + at, end - at);
        path[end - at] = 0;
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) continue;
        walk(fd, path, end - at, dents, 0, o, NULL, NULL);
        close(fd);
    }
done:
    flush(o);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: walk-floor ROOT [THREADS]\n"); return 2; }
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    char *path = malloc(PATH_BUF), *dents = malloc(BUF);
    struct out *o = malloc(sizeof *o);
    o->len = 0;
    size_t rl = strlen(argv[1]);
    memcpy(path, argv[1], rl + 1);
    // level 1: the root's files and subdirectories; level 2: theirs, listed as the work
    char *l1 = NULL;
    size_t l1_len = 0;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) { perror(argv[1]); return 1; }
    walk(fd, path, rl, dents, 0, o, &l1, &l1_len);
    close(fd);
    for (size_t at = 0; at < l1_len;) {
        size_t end = at;
        while (l1[end] != '\n') end++;
        memcpy(path, l1 + at, end - at);
        path[end - at] = 0;
        int d = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (d >= 0) {
            walk(d, path, end - at, dents, 0, o, &work, &work_len);
            close(d);
        }
        at = end + 1;
    }
    flush(o);
    pthread_t t[64];
    if (threads > 64) threads = 64;
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    return 0;
}
