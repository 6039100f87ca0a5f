// SPDX-License-Identifier: Apache-2.0
// The floor under `brisk par -0 md5sum` on this machine: the same jobs (md5sum FILE, its stdout
// into a file that is read and emptied after each job) spawned by a C program on two threads,
// with nothing else: no JVM, no option parsing, no output ordering.
//
//   spawn-floor MODE < LIST      LIST: NUL-separated file names; MODE 0: posix_spawn, as brisk
//                                spawns (glibc maps and unmaps a stack for the child at each
//                                call); MODE 1: vfork in the thread itself (no stack to map)
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
static int nfiles, next, mode;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *work(void *arg) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/spawn-floor.%d.%ld", (int) getpid(), (long) arg);
    int out = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0 || unlink(path) != 0) {
        perror("spawn-floor: output file");
        exit(2);
    }
    char buf[4096];
    for (;;) {
        pthread_mutex_lock(&mu);
        int i = next++;
        pthread_mutex_unlock(&mu);
        if (i >= nfiles) {
            break;
        }
        char *argv[] = {"md5sum", files[i], NULL};
        pid_t pid;
        if (mode == 0) {
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
        ssize_t n = pread(out, buf, sizeof buf, 0);
        if (n > 0 && write(1, buf, n) != n) {
            exit(2);
        }
        if (ftruncate(out, 0) != 0) {
            exit(2);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: spawn-floor 0|1 < LIST\n");
        return 2;
    }
    mode = atoi(argv[1]);
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
    pthread_t t[2];
    for (long i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, work, (void *) i);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
    }
    return 0;
}
