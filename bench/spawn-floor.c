// SPDX-License-Identifier: Apache-2.0
// The floor under `brisk par -0 md5sum` on this machine: the same jobs (md5sum FILE, its stdout
// into a file that is read and emptied after each job) spawned by a C program on two threads,
// with nothing else: no JVM, no option parsing, no output ordering.
//
//   spawn-floor MODE [cut] < LIST   LIST: NUL-separated file names; MODE 0: posix_spawn, as brisk
//                                spawns (glibc maps and unmaps a stack for the child at each
//                                call); MODE 1: vfork in the thread itself (no stack to map)
//
// With `cut`, each job is the composed `md5sum FILE | cut -c1-32` (MODE 0 only): two children
// joined by a pipe, cut's stdout into the file: the floor under `brisk par 'md5sum {} | cut -c1-32'`
// (bench/par-floor.py's figure counts the children's CPU alone; this adds the least a runner does).
// THREADS=N in the environment: N spawning threads instead of 2 (bench/composed-floor.sh runs
// two processes of one thread each beside one process of two).
//
// Run by bench/par-cpu.sh beside brisk and fd.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static char **files;
static int nfiles, next, mode, composed, threads = 2;

static pid_t spawn(const char *prog, char **argv, int in, int out, int close1, int close2) {
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none;
    sigemptyset(&none);
    posix_spawn_file_actions_init(&fa);
    if (in >= 0) posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    if (close1 >= 0) posix_spawn_file_actions_addclose(&fa, close1);
    if (close2 >= 0) posix_spawn_file_actions_addclose(&fa, close2);
    posix_spawnattr_init(&at);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    if (posix_spawn(&pid, prog, &fa, &at, argv, environ) != 0) {
        perror("spawn-floor: posix_spawn");
        exit(2);
    }
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return pid;
}
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *work(void *arg) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/spawn-floor.%d.%ld", (int) getpid(), (long) arg);
    int out = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600); // O_APPEND: each job writes at 0 after the truncation, as brisk's files
    if (out < 0 || unlink(path) != 0) {
        perror("spawn-floor: output file");
        exit(2);
    }
    char buf[4096];
    off_t mark = 0;
    for (;;) {
        pthread_mutex_lock(&mu);
        int i = next++;
        pthread_mutex_unlock(&mu);
        if (i >= nfiles) {
            break;
        }
        char *argv[] = {"md5sum", files[i], NULL};
        pid_t pid;
        if (composed) {
            int p[2];
            if (pipe2(p, O_CLOEXEC) != 0) {
                perror("spawn-floor: pipe2");
                exit(2);
            }
            char *cut[] = {"cut", "-c1-32", NULL};
            pid_t a = spawn("/usr/bin/md5sum", argv, -1, p[1], p[0], -1);
            pid = spawn("/usr/bin/cut", cut, p[0], out, p[1], -1);
            close(p[0]);
            close(p[1]);
            int st;
            waitpid(a, &st, 0);
        } else if (mode == 0) {
            posix_spawn_file_actions_t fa;
            posix_spawnattr_t at;
            sigset_t none;
            sigemptyset(&none);
            posix_spawn_file_actions_init(&fa);
            posix_spawn_file_actions_adddup2(&fa, out, 1);
            posix_spawnattr_init(&at);
            posix_spawnattr_setsigmask(&at, &none);
            posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
            if (posix_spawn(&pid, "/usr/bin/md5sum", &fa, &at, argv, environ) != 0) {
                perror("spawn-floor: posix_spawn");
                exit(2);
            }
            posix_spawn_file_actions_destroy(&fa);
            posix_spawnattr_destroy(&at);
        } else {
            sigset_t all, old;
            sigfillset(&all);
            pthread_sigmask(SIG_BLOCK, &all, &old);
            pid = vfork();
            if (pid == 0) {
                dup2(out, 1);
                sigprocmask(SIG_SETMASK, &old, NULL);
                execve("/usr/bin/md5sum", argv, environ);
                _exit(127);
            }
            pthread_sigmask(SIG_SETMASK, &old, NULL);
        }
        int status;
        waitpid(pid, &status, 0);
        // read on from where the last job's output ended, emptied only now and then (as brisk does)
        ssize_t n = pread(out, buf, sizeof buf, mark);
        if (n > 0 && write(1, buf, n) != n) {
            exit(2);
        }
        mark += n > 0 ? n : 0;
        if (mark >= 1 << 20) {
            if (ftruncate(out, 0) != 0) {
                exit(2);
            }
            mark = 0;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "cut") != 0)) {
        fprintf(stderr, "usage: spawn-floor 0|1 [cut] < LIST\n");
        return 2;
    }
    mode = atoi(argv[1]);
    composed = argc == 3;
    const char *t = getenv("THREADS");
    if (t && (threads = atoi(t)) < 1) {
        threads = 1;
    }
    if (threads > 64) {
        threads = 64;
    }
    size_t cap = 1 << 20, len = 0;
    char *data = malloc(cap);
    ssize_t n;
    while ((n = read(0, data + len, cap - len)) > 0) {
        len += n;
        if (len == cap) {
            data = realloc(data, cap *= 2);
        }
    }
    files = malloc(sizeof(char *) * (len + 1));
    for (size_t s = 0; s < len; s += strlen(data + s) + 1) {
        files[nfiles++] = data + s;
    }
    pthread_t th[64];
    for (long i = 0; i < threads; i++) {
        pthread_create(&th[i], NULL, work, (void *) i);
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(th[i], NULL);
    }
    return 0;
}
