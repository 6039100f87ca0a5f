// SPDX-License-Identifier: Apache-2.0
/*
 * brisk's native client: hands the call to the user's warm brisk server over daemon.sock, or
 * runs the JVM launcher itself. The protocol, the socket directory's rules and the starter are
 * docs/DAEMON.md's; this file is its client half.
 *
 * It runs on every call, so it does only what the call needs: no allocation but one buffer for
 * an oversized request, the request in one sendmsg, signals read from a signalfd (no handlers),
 * raw system calls where glibc's wrappers would refuse (signals 32 and 33).
 *
 * Compile-time settings: BRISK_BUILD_ID (a string literal: the jar's brisk-version.properties
 * `build`), BRISK_JVM_DEFAULT (the JVM launcher when $BRISK_JVM is unset).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BRISK_BUILD_ID
#error "compile with -DBRISK_BUILD_ID='\"...\"' (scripts/build-client)"
#endif
#ifndef BRISK_JVM_DEFAULT
#define BRISK_JVM_DEFAULT "/usr/lib/brisk/brisk-jvm"
#endif

/* The most descriptors named in the arguments (/dev/fd/N) that a request passes on. */
#define MAX_PASSED 16
#define MAX_REQUEST (64u << 20)
#define STARTER_WAIT_MS 2000
/* the least descriptor limit a server starts with (start_server) */
#define SERVER_MIN_FILES 1024
/* a new build's starter waits this long for the old server to give up daemon.lock */
#define NEW_BUILD_LOCK_WAIT_S 10

extern char **environ;

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT};

/* the caller's signal mask, restored before any exec */
static sigset_t caller_mask;
/* bit K: descriptor K (0..2) was closed and holds /dev/null only for the request */
static int placeholders;

/* Writes the strings, up to a NULL, as one line on stderr (one write: lines of concurrent calls
 * do not interleave). */
static void say(const char *first, ...) {
    char line[1024];
    size_t n = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *s = first; s != NULL; s = va_arg(ap, const char *)) {
        size_t k = strlen(s);
        if (k > sizeof line - 1 - n) k = sizeof line - 1 - n;
        memcpy(line + n, s, k);
        n += k;
    }
    va_end(ap);
    line[n++] = '\n';
    ssize_t ignored = write(2, line, n);
    (void)ignored;
}

static const char *launcher(void) {
    const char *jvm = getenv("BRISK_JVM");
    return jvm != NULL && *jvm != '\0' ? jvm : BRISK_JVM_DEFAULT;
}

/* Execs the JVM launcher with the call's arguments and BRISK_DAEMON=0: the call as it would run
 * with no server. argv[0] is replaced by the launcher's path. */
static _Noreturn void run_direct(char **argv) {
    const char *jvm = launcher();
    const char *flag = getenv("BRISK_DAEMON");
    if (flag == NULL || strcmp(flag, "0") != 0) setenv("BRISK_DAEMON", "0", 1);
    for (int k = 0; k < 3; k++)
        if (placeholders & (1 << k)) close(k);
    sigprocmask(SIG_SETMASK, &caller_mask, NULL);
    argv[0] = (char *)jvm;
    execv(jvm, argv);
    say("brisk: cannot run the JVM launcher ", jvm, ": ", strerror(errno), NULL);
    _exit(127);
}

/* Copies a, b into buf (size n); returns 0 when it does not fit. */
static int join(char *buf, size_t n, const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb + 1 > n) return 0;
    memcpy(buf, a, la);
    memcpy(buf + la, b, lb + 1);
    return 1;
}

/* mkdir -p, new directories 0700. */
static void make_dirs(char *path) {
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    mkdir(path, 0700);
}

/* A signal's disposition through the kernel (glibc refuses 32 and 33); only the handler, the
 * first field of every architecture's kernel sigaction, is read. */
static int ignored(int sig) {
    void *act[8] = {0};
    return syscall(SYS_rt_sigaction, sig, NULL, act, 8) == 0 && act[0] == (void *)SIG_IGN;
}

static void on_alarm(int sig) { (void)sig; }

/*
 * The starter of `brisk daemon run`, forked twice so that it is nobody's child (not the JVM's
 * the call execs), in its own session, with /dev/null for stdio and no other descriptor of the
 * caller's (a pipe it held would keep the caller's reader waiting). It holds daemon.lock while it
 * waits, so the calls that find no server at once start one between them; it waits until the
 * call it came from has ended (its pid: the client execs the JVM in place) or 2 s, then execs
 * the server with the log as stdout and stderr, having let the lock go: the server takes it.
 * new_build: the old server may still hold the lock; wait for it instead of giving up.
 */
static void start_server(const char *dir, int new_build) {
    /* a server keeps the descriptor limit it starts with and serves every later call under it:
     * one started from `ulimit -n 20` (which sets the hard limit too) would fail those calls
     * with EMFILE. Raise a low soft limit for it, or leave the start to a call with ordinary
     * limits (each call's own limits still hold for its jobs: the server applies them). */
    struct rlimit files;
    int low = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < SERVER_MIN_FILES;
    if (low && files.rlim_max < SERVER_MIN_FILES) return;
    pid_t caller = getpid();
    pid_t child = fork();
    if (child < 0) return;
    if (child > 0) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
        return;
    }
    if (fork() != 0) _exit(0);
    if (low) {
        files.rlim_cur = SERVER_MIN_FILES;
        if (setrlimit(RLIMIT_NOFILE, &files) != 0) _exit(1);
    }
    setsid();
    /* the server's own directory is /: the caller's may be deleted or unmounted later (and a
     * JVM started in a deleted directory does not start at all) */
    if (chdir("/") != 0) _exit(1);
    int null = open("/dev/null", O_RDWR);
    if (null < 0) _exit(1);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
        for (int fd = 3; fd < 1024; fd++) close(fd);
    /* the server owes nothing to the call that started it: no signal blocked or ignored (a
     * caller under nohup or a shell's `&` ignores SIGHUP or SIGINT; a JVM's child, glibc's
     * internal 32 and 33, which glibc's sigaction refuses to touch) */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    void *dfl[8] = {SIG_DFL};
    for (int sig = 1; sig <= 64; sig++)
        if (ignored(sig)) syscall(SYS_rt_sigaction, sig, dfl, NULL, 8);

    char path[4096];
    if (!join(path, sizeof path, dir, "/daemon.lock")) _exit(1);
    int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0) _exit(1);
    if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
        if (!new_build) _exit(0);
        struct sigaction sa = {.sa_handler = on_alarm};
        sigaction(SIGALRM, &sa, NULL);
        alarm(NEW_BUILD_LOCK_WAIT_S);
        if (flock(lock, LOCK_EX) != 0) _exit(0);
        alarm(0);
    }

    int pidfd = (int)syscall(SYS_pidfd_open, caller, 0);
    if (pidfd >= 0) {
        struct pollfd p = {.fd = pidfd, .events = POLLIN};
        while (poll(&p, 1, STARTER_WAIT_MS) < 0 && errno == EINTR) {}
        close(pidfd);
    } else if (errno != ESRCH) {
        /* a kernel before 5.3: look every 20 ms */
        struct timespec tick = {0, 20 * 1000 * 1000};
        for (int i = 0; i < STARTER_WAIT_MS / 20 && kill(caller, 0) == 0; i++) nanosleep(&tick, NULL);
    }

    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    int ok;
    if (state != NULL && state[0] == '/') ok = join(path, sizeof path, state, "/brisk");
    else if (home != NULL && home[0] == '/') ok = join(path, sizeof path, home, "/.local/state/brisk");
    else ok = 0;
    if (ok) {
        make_dirs(path);
        size_t n = strlen(path);
        if (join(path + n, sizeof path - n, "/daemon.log", "")) {
            int log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (log >= 0) {
                dup2(log, 1);
                dup2(log, 2);
            }
        }
    }
    setenv("BRISK_DAEMON", "0", 1);
    const char *jvm = launcher();
    close(lock);
    execl(jvm, jvm, "daemon", "run", (char *)NULL);
    say("brisk: cannot start the server: ", jvm, ": ", strerror(errno), NULL);
    _exit(127);
}

/* The socket directory (docs/DAEMON.md, "Where, and who") into dir; 0 when it has no name. */
static int socket_dir(char *dir, size_t n) {
    const char *explicit = getenv("BRISK_SOCKET");
    if (explicit != NULL && *explicit != '\0') {
        const char *slash = strrchr(explicit, '/');
        if (slash == NULL) return join(dir, n, ".", "");
        size_t len = slash == explicit ? 1 : (size_t)(slash - explicit);
        if (len + 1 > n) return 0;
        memcpy(dir, explicit, len);
        dir[len] = '\0';
        return 1;
    }
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (runtime != NULL && runtime[0] == '/') return join(dir, n, runtime, "/brisk");
    char uid[16];
    char *p = uid + sizeof uid;
    *--p = '\0';
    unsigned u = getuid();
    do *--p = (char)('0' + u % 10); while ((u /= 10) != 0);
    return join(dir, n, "/tmp/brisk-", p);
}

/* 1 when dir is (or has just been made) the user's own 0700 directory; else says why not. */
static int safe_dir(const char *dir) {
    struct stat st;
    if (lstat(dir, &st) != 0) {
        if (errno != ENOENT || (mkdir(dir, 0700) != 0 && errno != EEXIST) || lstat(dir, &st) != 0) {
            say("brisk: cannot make ", dir, " for the server's socket (", strerror(errno), "): running without it", NULL);
            return 0;
        }
    }
    char why[40];
    if (S_ISLNK(st.st_mode)) {
        strcpy(why, "a symbolic link");
    } else if (!S_ISDIR(st.st_mode)) {
        strcpy(why, "not a directory");
    } else if (st.st_uid != getuid()) {
        char num[16], *p = num + sizeof num;
        *--p = '\0';
        unsigned u = st.st_uid;
        do *--p = (char)('0' + u % 10); while ((u /= 10) != 0);
        join(why, sizeof why, "owner uid ", p);
    } else if ((st.st_mode & 077) != 0) {
        unsigned m = st.st_mode & 07777;
        char mode[] = "mode 0000";
        for (int i = 8; i >= 5; i--, m >>= 3) mode[i] = (char)('0' + (m & 7));
        strcpy(why, mode);
    } else {
        return 1;
    }
    say("brisk: ", dir, " is not safe for the server's socket (", why, "): running without it", NULL);
    return 0;
}

static unsigned char *put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
    return p + 4;
}

static unsigned char *put64(unsigned char *p, uint64_t v) {
    return put32(put32(p, (uint32_t)(v >> 32)), (uint32_t)v);
}

static unsigned char *put_bytes(unsigned char *p, const char *s, size_t n) {
    p = put32(p, (uint32_t)n);
    memcpy(p, s, n);
    return p + n;
}

/* Sends all of buf; the first piece carries the n descriptors. 0, or -1 with errno. */
static int send_request(int sock, const unsigned char *buf, size_t len, const int *fds, int n_fds) {
    union {
        struct cmsghdr h;
        char space[CMSG_SPACE((4 + MAX_PASSED) * sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space,
                         .msg_controllen = CMSG_SPACE((size_t)n_fds * sizeof(int))};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN((size_t)n_fds * sizeof(int));
    memcpy(CMSG_DATA(c), fds, (size_t)n_fds * sizeof(int));
    ssize_t n;
    while ((n = sendmsg(sock, &msg, MSG_NOSIGNAL)) < 0)
        if (errno != EINTR) return -1;
    for (size_t off = (size_t)n; off < len; off += (size_t)n)
        while ((n = send(sock, buf + off, len - off, MSG_NOSIGNAL)) < 0)
            if (errno != EINTR) return -1;
    return 0;
}

/* The descriptors (3 and up) that the arguments name as /dev/fd/N or /proc/self/fd/N (bash's
 * <(...) and >(...) among them) and that the caller has open: the server gets them too, so the
 * same names reach the same files (docs/DAEMON.md). At most MAX_PASSED; none of the client's own. */
static int named_descriptors(char **argv, int *out, int sock, int sfd, int cwd) {
    static const char *const prefixes[] = {"/dev/fd/", "/proc/self/fd/"};
    int n = 0;
    for (char **a = argv; *a != NULL; a++) {
        for (size_t k = 0; k < 2; k++) {
            size_t plen = strlen(prefixes[k]);
            for (const char *at = strstr(*a, prefixes[k]); at != NULL; at = strstr(at + 1, prefixes[k])) {
                const char *d = at + plen;
                if (*d < '0' || *d > '9') continue;
                long fd = 0;
                while (*d >= '0' && *d <= '9' && fd < 1000000) fd = fd * 10 + (*d++ - '0');
                if (fd < 3 || fd == sock || fd == sfd || fd == cwd || fcntl((int)fd, F_GETFD) < 0) continue;
                int seen = 0;
                for (int i = 0; i < n; i++) seen |= out[i] == fd;
                if (!seen && n < MAX_PASSED) out[n++] = (int)fd;
            }
        }
    }
    return n;
}

/* Stops the client as the terminal's SIGTSTP would have (the server has been told first), and
 * blocks SIGTSTP again once continued. */
static void stop_self(void) {
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    raise(SIGTSTP);
    sigprocmask(SIG_BLOCK, &one, NULL);
}

/* Whether file or directory `name` in directory `at`, or anything below it, changed after `jar`
 * (nanoseconds); a directory counts too, so a deleted or added source is a change. 1 when it
 * cannot be told (an unreadable source): the launcher then looks itself. */
static int newer(int at, const char *name, const struct timespec *jar, int depth) {
    struct stat st;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno != ENOENT;
    if (st.st_mtim.tv_sec > jar->tv_sec || (st.st_mtim.tv_sec == jar->tv_sec && st.st_mtim.tv_nsec > jar->tv_nsec))
        return 1;
    if (!S_ISDIR(st.st_mode)) return 0;
    if (depth > 32) return 1;
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return 1;
    /* getdents64 straight into a stack buffer: no opendir's allocation and fcntl calls */
    union {
        char bytes[16384];
        struct dirent64 align;
    } buf;
    int changed = 0;
    for (long n; !changed && (n = syscall(SYS_getdents64, fd, buf.bytes, sizeof buf.bytes)) != 0;) {
        if (n < 0) {
            changed = 1;
            break;
        }
        for (long off = 0; !changed && off < n;) {
            struct dirent64 *e = (struct dirent64 *)(buf.bytes + off);
            off += e->d_reclen;
            if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || (e->d_name[1] == '.' && e->d_name[2] == '\0'))) continue;
            changed = newer(fd, e->d_name, jar, depth + 1);
        }
    }
    close(fd);
    return changed;
}

/* For ./brisk in a clone (BRISK_SOURCES: the clone's root): when a source is newer than the jar,
 * or there is no jar, hands the call back to the launcher script under bash, which builds
 * (BRISK_LAUNCH=bash). The sources are what the launcher's own check reads: the three POMs and
 * core/src/main, cli/src/main. */
static void check_sources(int argc, char **argv) {
    const char *root = getenv("BRISK_SOURCES");
    if (root == NULL || *root != '/') return;
    char path[4096];
    int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    int stale = 1;
    struct stat jar;
    if (rootfd >= 0 && fstatat(rootfd, "cli/target/brisk.jar", &jar, 0) == 0) {
        static const char *const sources[] = {"pom.xml", "core/pom.xml", "cli/pom.xml", "core/src/main", "cli/src/main"};
        stale = 0;
        for (size_t i = 0; !stale && i < sizeof sources / sizeof sources[0]; i++)
            stale = newer(rootfd, sources[i], &jar.st_mtim, 0);
    }
    if (rootfd >= 0) close(rootfd);
    if (!stale) {
        unsetenv("BRISK_SOURCES"); /* the launcher's business, not the call's environment */
        return;
    }
    if (!join(path, sizeof path, root, "/brisk")) return;
    unsetenv("BRISK_SOURCES");
    setenv("BRISK_LAUNCH", "bash", 1);
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (args == NULL) return;
    args[0] = "/bin/bash";
    args[1] = path;
    for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
    sigprocmask(SIG_SETMASK, &caller_mask, NULL);
    execv("/bin/bash", args);
    say("brisk: cannot run the launcher ", path, " with /bin/bash: ", strerror(errno), NULL);
    _exit(127);
}

static _Noreturn void server_gone(int refused) {
    say(refused ? "brisk: the brisk server refused the call" : "brisk: the brisk server ended during the call", NULL);
    _exit(1);
}

int main(int argc, char **argv) {
    sigprocmask(SIG_SETMASK, NULL, &caller_mask);
    if (argc < 1) {
        static char *none[2];
        run_direct(none);
    }
    check_sources(argc, argv);
    if (argc > 1 && strcmp(argv[1], "--no-daemon") == 0) {
        argv[1] = argv[0];
        run_direct(argv + 1);
    }
    const char *flag = getenv("BRISK_DAEMON");
    if (flag != NULL && strcmp(flag, "0") == 0) run_direct(argv);

    char dir[4096];
    if (!socket_dir(dir, sizeof dir)) run_direct(argv);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (!join(addr.sun_path, sizeof addr.sun_path, dir, "/daemon.sock")) {
        say("brisk: the socket path ", dir, "/daemon.sock is too long: running without it", NULL);
        run_direct(argv);
    }
    if (!safe_dir(dir)) run_direct(argv);

    /* a closed descriptor 0..2 is sent as /dev/null opened O_PATH: it holds the slot, so the
     * socket does not, and a read or write on it fails with EBADF, as on the closed one (find's
     * "write error: Bad file descriptor" through the server too) */
    for (int k = 0; k < 3; k++) {
        if (fcntl(k, F_GETFD) >= 0) continue;
        int null = open("/dev/null", O_PATH);
        if (null != k) run_direct(argv);
        placeholders |= 1 << k;
    }
    int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock < 0) run_direct(argv);
    if (connect(sock, (struct sockaddr *)&addr, sizeof addr) != 0) {
        /* `brisk daemon stop|status|start` with no server: the JVM answers (and `start` starts
         * one itself); a server started behind `stop` would undo it */
        int daemon_call = argc > 1 && strcmp(argv[1], "daemon") == 0;
        if ((errno == ENOENT || errno == ECONNREFUSED) && !daemon_call) {
            start_server(dir, 0);
        } else if (errno != ENOENT && errno != ECONNREFUSED) {
            say("brisk: cannot reach the server at ", addr.sun_path, " (", strerror(errno), "): running without it", NULL);
        }
        run_direct(argv);
    }
    int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (cwd < 0) run_direct(argv);

    /* what the caller ignores is not forwarded (the command inherits it ignored); the rest of the
     * forwarded signals are read from a signalfd from here on, so none is lost */
    uint64_t ignore = 0;
    for (int sig = 1; sig <= 64; sig++)
        if (ignored(sig)) ignore |= 1ull << (sig - 1);
    sigset_t watched;
    sigemptyset(&watched);
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        if (!(ignore & (1ull << (forwarded[i] - 1)))) sigaddset(&watched, forwarded[i]);
    sigprocmask(SIG_BLOCK, &watched, NULL);
    int sfd = signalfd(-1, &watched, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) run_direct(argv);

    uint32_t terminals = 0, foreground = 0;
    pid_t pgrp = getpgrp();
    for (int k = 0; k < 3; k++) {
        pid_t fg;
        if (ioctl(k, TIOCGPGRP, &fg) == 0) {
            terminals |= 1u << k;
            if (fg == pgrp) foreground |= 1u << k;
        } else if (isatty(k)) {
            terminals |= 1u << k;
        }
    }
    mode_t mask = umask(022);
    umask(mask);

    /* the request: sized first, then written into a stack buffer or, when larger, one allocation */
    static const char id[] = BRISK_BUILD_ID;
    int passed[MAX_PASSED];
    int n_passed = named_descriptors(argv + 1, passed, sock, sfd, cwd);
    size_t len = 4 + 4 + 4 + (sizeof id - 1) + 4 * 5 + 8 + 4 + RLIM_NLIMITS * 20 + 4 + 4 + 4 + 4 * (size_t)n_passed;
    for (char **a = argv + 1; *a != NULL; a++) len += 4 + strlen(*a);
    for (char **e = environ; *e != NULL; e++) len += 4 + strlen(*e);
    if (len - 8 > MAX_REQUEST) run_direct(argv);
    unsigned char stack[32768];
    unsigned char *buf = len <= sizeof stack ? stack : malloc(len);
    if (buf == NULL) run_direct(argv);
    unsigned char *p = buf;
    memcpy(p, "BRK1", 4);
    p = put32(p + 4, (uint32_t)(len - 8));
    p = put_bytes(p, id, sizeof id - 1);
    p = put32(p, (uint32_t)getpid());
    p = put32(p, (uint32_t)pgrp);
    p = put32(p, terminals);
    p = put32(p, foreground);
    p = put32(p, (uint32_t)mask);
    p = put64(p, ignore);
    p = put32(p, RLIM_NLIMITS);
    for (int r = 0; r < RLIM_NLIMITS; r++) {
        struct rlimit l = {RLIM_INFINITY, RLIM_INFINITY};
        #ifdef __GLIBC__
        getrlimit((__rlimit_resource_t)r, &l);
#else
        getrlimit(r, &l);
#endif
        p = put32(p, (uint32_t)r);
        p = put64(p, l.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)l.rlim_cur);
        p = put64(p, l.rlim_max == RLIM_INFINITY ? UINT64_MAX : (uint64_t)l.rlim_max);
    }
    int argc_rest = 0;
    unsigned char *count = p;
    p += 4;
    for (char **a = argv + 1; *a != NULL; a++, argc_rest++) p = put_bytes(p, *a, strlen(*a));
    put32(count, (uint32_t)argc_rest);
    int envc = 0;
    count = p;
    p += 4;
    for (char **e = environ; *e != NULL; e++, envc++) p = put_bytes(p, *e, strlen(*e));
    put32(count, (uint32_t)envc);
    p = put32(p, (uint32_t)n_passed);
    int fds[4 + MAX_PASSED] = {cwd, 0, 1, 2};
    for (int i = 0; i < n_passed; i++) {
        p = put32(p, (uint32_t)passed[i]);
        fds[4 + i] = passed[i];
    }

    if (send_request(sock, buf, len, fds, 4 + n_passed) != 0) server_gone(1);
    if (buf != stack) free(buf);
    close(cwd);

    /* answers and signals until the server's verdict */
    unsigned char in[4096];
    size_t have = 0, skip = 0;
    int signalled = 0;
    struct pollfd fd[2] = {{.fd = sock, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
    for (;;) {
        if (poll(fd, 2, -1) < 0) {
            if (errno == EINTR) continue;
            server_gone(0);
        }
        if (fd[1].revents & POLLIN) {
            struct signalfd_siginfo info[8];
            ssize_t n = read(sfd, info, sizeof info);
            for (ssize_t i = 0; i < n / (ssize_t)sizeof info[0]; i++) {
                unsigned char frame[9] = {'s'};
                put32(put32(frame + 1, 4), info[i].ssi_signo);
                if (send(sock, frame, sizeof frame, MSG_NOSIGNAL) == (ssize_t)sizeof frame) signalled = 1;
                if (info[i].ssi_signo == SIGTSTP) stop_self();
            }
        }
        if (fd[0].revents == 0) continue;
        ssize_t n = recv(sock, in + have, sizeof in - have, 0);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            /* ECONNRESET: it closed with the request (or a signal frame) unread */
            server_gone(errno == ECONNRESET && !signalled);
        }
        if (n == 0) server_gone(0);
        have += (size_t)n;
        if (skip > 0) {
            size_t k = skip < have ? skip : have;
            memmove(in, in + k, have - k);
            have -= k;
            skip -= k;
        }
        while (have >= 5) {
            uint32_t flen = (uint32_t)in[1] << 24 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 8 | in[4];
            switch (in[0]) {
            case 'x':
                if (have < 9) goto more;
                _exit(in[8]);
            case 'd':
                run_direct(argv);
            case 'b':
                start_server(dir, 1);
                run_direct(argv);
            default: {
                /* a frame this client does not know: skipped */
                size_t whole = 5 + (size_t)flen;
                if (whole <= have) {
                    memmove(in, in + whole, have - whole);
                    have -= whole;
                } else {
                    skip = whole - have;
                    have = 0;
                }
            }
            }
        }
    more:;
    }
}
