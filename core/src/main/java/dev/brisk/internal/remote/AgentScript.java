// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import dev.brisk.internal.shell.ShellQuote;

/**
 * The shell half of a {@link RemoteShell}: a POSIX {@code sh} script that brisk sends as the
 * first bytes of the channel to a {@code /bin/sh -s} on the far side. Nothing is installed there:
 * the host needs a POSIX shell and coreutils ({@code mktemp}, {@code mkfifo}, {@code cat},
 * {@code stat}, {@code base64}, {@code rm}, {@code nproc}); {@code setsid} (util-linux), when present, gives each
 * job a process group of its own so that a timeout kills all of it.
 *
 * <p>After the script, the channel carries more script: one call per request, each a complete
 * shell command whose arguments brisk quotes, so no job text can desynchronise the shell:
 * <ul>
 * <li>{@code __bj SEQ SLOT GROUP 'TEXT'}: run TEXT in the background for slot SLOT (in its own
 *     session when GROUP is 1), stdin {@code /dev/null}, stdout and stderr to the slot's files;</li>
 * <li>{@code __bk SLOT SIGNAL}: signal the slot's job (its process group when it has one);</li>
 * <li>{@code __bf 'DIR' 'PATH' <<'__BRISK_EOF'} + base64 lines: write a transferred file;</li>
 * <li>{@code __br SEQ 'CODE'}: have the writer send back files ({@code __bs 'PATH'...} in CODE);</li>
 * <li>{@code __bc 'PATH'...}: remove files ({@code --cleanup});</li>
 * <li>{@code __bp N}: have the writer answer {@code p N}, proof that the agent still runs.</li>
 * </ul>
 *
 * <p>Only one process writes to the channel: the writer loop {@code __bw}, fed one line per
 * event through a FIFO (lines shorter than {@code PIPE_BUF}, each written by one {@code printf},
 * so concurrent writers never interleave: {@code echo} may be the shim, which writes a line in
 * two). It answers with frames: {@code h 1 CORES GROUPS} once; {@code x SEQ SLOT STATUS}
 * followed by the job's stdout, the connection's separator, its stderr and the separator again,
 * all by one {@code cat}, the only program a job costs the agent (none when both are empty:
 * the builtin {@code test -s} says so, and {@code printf} sends the separators); {@code R SEQ BYTES} followed by
 * a returned file ({@code -1}: missing) and {@code d SEQ} after the last one; {@code p N} to a
 * {@code __bp N}. The separator
 * ({@link #separator}) holds 128 random bits chosen per connection. Java knows a frame has ended
 * only when it has read the second separator, that is when {@code cat} has read the job's files
 * to their end, so the slot's next job cannot write into them before (measuring the output first
 * and sending that many bytes would cost a {@code stat} and a {@code head} per job).
 *
 * <p>When the channel ends (brisk exited, was killed, or the connection dropped), the shell reads
 * end of file: its EXIT trap stops the writer first (a job it kills now was lost, and must not be
 * reported as failed), signals every job (TERM, then KILL after a second), removes its directory
 * and exits, so nothing is left on the host. An agent killed outright (SIGKILL; a Slurm step
 * past its KillWait) cannot: its directory, {@code brisk-agent.PID.HOST.RANDOM}, is removed by
 * the next agent started on that host, once no process of the user has that pid and the lock
 * the agent held on its file {@code lock} is free.
 */
public final class AgentScript {
    /** The protocol version in the hello frame. */
    public static final int VERSION = 1;

    private AgentScript() {}

    /**
     * The script. {@code echoShim}: shell code defining bash's {@code echo} for non-bash shells,
     * or empty, quoted for the shell; {@code boundary}: the connection's random hex digits of
     * {@link #separator}; {@code exports}: shell code exporting the jobs' variables; {@code perl}:
     * hand over to {@link PerlAgent} where the host has a working {@code perl}.
     */
    public static String text(String echoShim, String boundary, String exports, boolean perl) {
        String handOver = !perl ? "" : """
                if command -v perl >/dev/null 2>&1; then
                  __bG=0
                  command -v setsid >/dev/null 2>&1 && __bG=1
                  perl -C0 -e %s '' "$__bG" %s %s "$__bT" "$__bH"
                  __bX=$?
                  [ "$__bX" = 98 ] || exit "$__bX"
                fi
                """.formatted(ShellQuote.quoteLatin1(PerlAgent.PROGRAM.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                boundary, echoShim);
        return "exec 2>/dev/null\numask 077\n" + exports + TMP + handOver
                + PRELUDE.replace("__BRISK_ECHO_SHIM__", echoShim).replace("__BRISK_BOUNDARY__", boundary);
    }

    /** The separator the writer puts after a job's stdout and after its stderr, for {@code boundary} (hex digits). */
    public static byte[] separator(String boundary) {
        return ("\037brisk:" + boundary + "\036").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * Where the agent keeps job output ({@code __bT}): {@code $TMPDIR} when set to anything but
     * {@code /tmp}; else {@code /dev/shm} (no disk journal per job) when it has at least 1 GiB
     * free, so that a container's small {@code /dev/shm} (64 MB under Docker) does not cut a large
     * output short; else {@code /tmp}. A {@code TMPDIR} of {@code /tmp} says nothing more than its
     * absence, and Slurm sets it so in every step where the user had none: honoured, it sent every
     * job's output through the disk's journal (3,000 {@code md5sum} jobs under {@code --slurm}: a
     * third of brisk's cost per job beyond the local run).
     */
    private static final String TMP = """
            __bT=${TMPDIR:-}
            case $__bT in /tmp | /tmp/) __bT= ;; esac
            if [ -z "$__bT" ]; then
              __bT=/tmp
              if [ -d /dev/shm ] && [ -w /dev/shm ]; then
                # free blocks:block size, one process (df and awk took two)
                __bF=$(stat -f -c '%a:%S' /dev/shm 2>/dev/null)
                case $__bF in
                  *[!0-9:]* | '' | :* | *: | *:*:*) ;;
                  *) [ $(( ${__bF%:*} * ${__bF#*:} / 1024 )) -ge 1048576 ] && __bT=/dev/shm ;;
                esac
              fi
            fi
            # an agent's directory is brisk-agent.PID.HOST.RANDOM, and holds a file "lock" that
            # the agent keeps locked (flock) while it runs. One that a killed agent left (SIGKILL,
            # or a step's end past Slurm's KillWait: no EXIT trap ran) is removed by the next agent
            # started on that host: one of this host's ($TMPDIR may be shared between hosts), ours,
            # whose pid no process of ours has (builtins only, for the rest), and whose lock
            # flock(1) can take (the pid alone would not do where agents share a host name and
            # $TMPDIR but not a pid namespace, as containers can)
            __bH=
            read -r __bH </proc/sys/kernel/hostname
            case $__bH in *[!A-Za-z0-9._-]*) __bH= ;; esac
            if [ -n "$__bH" ]; then
              for __d in "$__bT"/brisk-agent.*."$__bH".*; do
                [ -d "$__d" ] && [ -O "$__d" ] && [ -f "$__d/lock" ] || continue
                __p=${__d#"$__bT"/brisk-agent.}
                [ "${__p#*.}" = "$__bH.${__d##*.}" ] || continue
                __p=${__p%%.*}
                case $__p in '' | *[!0-9]*) continue ;; esac
                kill -s 0 "$__p" && continue
                flock -n "$__d/lock" true && rm -rf -- "$__d"
              done
            fi
            """;

    private static final String PRELUDE = """
            __bD=$(mktemp -d "$__bT/brisk-agent.$$.$__bH.XXXXXXXX") || exit 97
            # the lock the next agents look for (see above); taken before it has its name, so that
            # a "lock" is never found unlocked while its agent runs; fd 9, which no job gets
            exec 9>"$__bD/.lock" && flock -n 9 && mv -f "$__bD/.lock" "$__bD/lock"
            mkfifo "$__bD/w" || exit 97
            printf '\\037brisk:%s\\036' __BRISK_BOUNDARY__ >"$__bD/sep"
            __bS=$(cat "$__bD/sep")
            __bG=0
            command -v setsid >/dev/null 2>&1 && __bG=1
            __bshim=__BRISK_ECHO_SHIM__
            __bs() {
              for __f; do
                if [ -f "$__f" ]; then
                  printf 'R %s %s\\n' "$__q" "$(stat -L -c %s -- "$__f")"; cat -- "$__f"
                else
                  printf 'R %s -1\\n' "$__q"
                fi
              done
            }
            __bw() {
              printf 'h 1 %s %s\\n' "$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" "$__bG"
              while IFS=' ' read -r __o __q __s __st __os __es; do
                case $__o in
                  x) printf 'x %s %s %s\\n' "$__q" "$__s" "$__st"
                     if [ -s "$__bD/$__s.o" ] || [ -s "$__bD/$__s.e" ]; then
                       cat "$__bD/$__s.o" "$__bD/sep" "$__bD/$__s.e" "$__bD/sep"
                     else
                       printf '%s%s' "$__bS" "$__bS"
                     fi ;;
                  r) . "$__bD/r.$__q"; printf 'd %s\\n' "$__q" ;;
                  p) printf 'p %s\\n' "$__q" ;;
                  q) exit 0 ;;
                esac
              done
            }
            __bw <"$__bD/w" &
            __bW=$!
            exec 3>"$__bD/w" >/dev/null
            __bkill() {
              for __f in "$__bD"/*.p; do
                [ -f "$__f" ] || continue
                __p=; read -r __p <"$__f"
                [ -n "$__p" ] && kill -s "$1" -- "$__p"
              done
            }
            __bexit() {
              trap '' TERM HUP INT PIPE
              kill -s TERM "$__bW"
              __bkill TERM
              kill -s TERM 0
              __n=0
              while [ $__n -lt 10 ]; do
                __n=$((__n + 1))
                __live=
                for __f in "$__bD"/*.p; do
                  [ -f "$__f" ] || continue
                  __p=; read -r __p <"$__f"
                  [ -n "$__p" ] && kill -s 0 -- "$__p" && __live=1
                done
                [ -z "$__live" ] && break
                sleep 0.1
              done
              __bkill KILL
              rm -rf "$__bD"
              kill -s KILL 0
            }
            trap __bexit EXIT
            trap 'exit 0' TERM HUP INT PIPE
            __bj() {
              # emptied here and opened to append by the job, as a local job's files are: a job
              # that writes to them through a second open (echo a >/dev/stderr; echo b >&2)
              # keeps both writes (the slot's last frame has reached brisk: this job followed it)
              : >"$__bD/$2.p"; : >"$__bD/$2.o"; : >"$__bD/$2.e"
              {
                if [ "$3" = 1 ] && [ $__bG = 1 ]; then
                  PARALLEL_SEQ=$1 PARALLEL_JOBSLOT=$2 setsid /bin/sh -c "$__bshim"'
            eval "set --; $1"' sh "$4" </dev/null >>"$__bD/$2.o" 2>>"$__bD/$2.e" 3>&- 9>&- &
                  printf '%s\\n' "-$!" >"$__bD/$2.p"
                else
                  ( PARALLEL_SEQ=$1; PARALLEL_JOBSLOT=$2; export PARALLEL_SEQ PARALLEL_JOBSLOT
                    unset -f __bj __bk __bp __bf __br __bc __bs __bw __bkill __bexit; trap - EXIT TERM HUP INT PIPE
                    eval "set --; $4" ) </dev/null >>"$__bD/$2.o" 2>>"$__bD/$2.e" 3>&- 9>&- &
                  printf '%s\\n' "$!" >"$__bD/$2.p"
                fi
                wait $!
                __st=$?
                : >"$__bD/$2.p"
                printf 'x %s %s %s\\n' "$1" "$2" "$__st" >&3
              } &
            }
            __bk() {
              __p=; read -r __p <"$__bD/$1.p"
              [ -n "$__p" ] && kill -s "$2" -- "$__p"
            }
            __bp() {
              printf 'p %s\\n' "$1" >&3
            }
            __bf() {
              mkdir -p -- "$1" && base64 -d >"$2"
            }
            __br() {
              printf '%s\\n' "$2" >"$__bD/r.$1"
              printf 'r %s\\n' "$1" >&3
            }
            __bc() {
              rm -f -- "$@"
            }
            eval "$__bshim"
            """;
}
