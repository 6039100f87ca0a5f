// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.posix.ProgramPath;
import dev.brisk.internal.shell.CommandShape;
import dev.brisk.internal.shell.ShellSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a simple external command the way its shell would, without the shell: the program found
 * on PATH as the shell finds it, the words as its arguments, and the environment the shell
 * would have given it (the worker's environment plus what the shell itself adds: {@code PWD},
 * {@code OLDPWD} after a change of directory, {@code SHLVL} and {@code _}).
 * Used by isolated workers for {@link CommandShape.Kind#EXTERNAL} commands: one vfork and one
 * exec instead of a fork of the shell, then an exec. Immutable; thread-safe.
 */
final class DirectExec {
    /**
     * Variables the shell computes, refuses to change (readonly) or gives a meaning of its own: a
     * command that sets one goes through the shell, which does with it what it does.
     */
    private static final Set<String> SHELL_SET = Set.of("PWD", "OLDPWD", "SHLVL", "_", "UID", "EUID", "PPID",
            "SHELLOPTS", "RANDOM", "SRANDOM", "LINENO", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME", "HISTCMD",
            "GROUPS", "FUNCNAME", "DIRSTACK", "IFS", "OPTIND", "OPTARG", "HOSTNAME", "HOSTTYPE", "MACHTYPE", "OSTYPE");

    /** How the JVM encodes environment strings for a child, as ProcessBuilder does for the workers. */
    private static final java.nio.charset.Charset NATIVE = nativeCharset();

    /** What to start: the program's path, its argument vector, its environment, its directory (or null). */
    record Plan(byte[] path, List<byte[]> argv, List<byte[]> env, byte[] directory) {}

    private final Map<String, String> base;
    /** {@link #base} encoded once: the environment of every command that adds nothing to it, but {@code _}. */
    private final List<byte[]> baseEnvp;
    private final String pwd;

    /**
     * For bash workers only: other shells differ in what they pass on (dash drops variables with
     * invalid names, and reports a command killed by a signal on stderr), so they keep the shell.
     */
    DirectExec(ShellSpec spec) {
        if (!spec.bash()) {
            throw new IllegalArgumentException("direct spawns mimic bash only");
        }
        this.pwd = shellPwd(spec.environment().get("PWD"));
        Map<String, String> env = new LinkedHashMap<>(spec.environment());
        env.put("PWD", pwd);
        String oldpwd = env.get("OLDPWD");
        if (oldpwd != null && !Files.isDirectory(Path.of(oldpwd))) {
            env.remove("OLDPWD"); // bash drops an inherited OLDPWD that names no directory
        }
        // bash raises SHLVL when it starts, and lowers it again for a command it execs in place
        // of its subshell, as it does the last command of an isolated one
        env.put("SHLVL", Integer.toString(shellLevel(spec.environment().get("SHLVL"))));
        env.remove("_"); // set per command: the program bash runs
        this.base = Map.copyOf(env);
        this.baseEnvp = List.copyOf(encode(env));
    }

    /**
     * The plan for running {@code shape}'s words in {@code cwd} with the extra {@code env}, or
     * null when only the shell can do it exactly (a directory or name it would resolve
     * differently, a variable it computes itself, a program it would not find).
     */
    Plan plan(CommandShape shape, Path cwd, Map<String, String> extra) {
        if (shape.kind() != CommandShape.Kind.EXTERNAL) {
            return null;
        }
        for (String k : extra.keySet()) {
            if (SHELL_SET.contains(k) || k.startsWith("BASH")) {
                return null;
            }
        }
        String dir = pwd;
        if (cwd != null) {
            if (!cwd.isAbsolute() || !cwd.normalize().equals(cwd) || !Files.isDirectory(cwd)) {
                return null;
            }
            dir = cwd.toString();
            if (!NATIVE.newEncoder().canEncode(dir)) {
                return null;
            }
        }
        Map<String, String> env = base;
        if (cwd != null || !extra.isEmpty()) {
            env = new LinkedHashMap<>(base);
            env.putAll(extra);
            if (cwd != null) {
                env.put("OLDPWD", pwd);
                env.put("PWD", dir);
            }
        }
        String name = new String(shape.words().get(0), StandardCharsets.ISO_8859_1);
        String program = find(name, env.get("PATH"), dir);
        if (program == null) {
            return null;
        }
        List<byte[]> envp = env == base ? new ArrayList<>(baseEnvp) : encode(env);
        envp.add(("_=" + program).getBytes(NATIVE)); // bash names the program it runs in _
        return new Plan(program.getBytes(NATIVE), shape.words(), envp,
                cwd == null ? null : dir.getBytes(NATIVE));
    }

    private static List<byte[]> encode(Map<String, String> env) {
        List<byte[]> envp = new ArrayList<>(env.size() + 1);
        for (Map.Entry<String, String> e : env.entrySet()) {
            envp.add((e.getKey() + "=" + e.getValue()).getBytes(NATIVE));
        }
        return envp;
    }

    /**
     * The path the shell would exec for {@code name}, found by the one PATH rule
     * ({@link ProgramPath}), or null to leave it to the shell: PATH unset (bash has its own
     * default), or found through a relative PATH entry (bash names such a program differently).
     */
    private static String find(String name, String path, String dir) {
        byte[] n = name.getBytes(NATIVE);
        byte[] d = dir.getBytes(NATIVE);
        if (name.indexOf('/') >= 0) {
            byte[] full = name.startsWith("/") ? n : (dir + "/" + name).getBytes(NATIVE);
            return ProgramPath.runnable(full) ? name : null;
        }
        if (path == null) {
            return null;
        }
        ProgramPath.Program p = new ProgramPath(path.getBytes(NATIVE)).findFrom(d, n);
        if (!p.found() || p.path()[0] != '/') {
            return null;
        }
        return new String(p.path(), NATIVE);
    }

    /** The shell's PWD at start: the inherited one if it names the current directory, else the real path. */
    private static String shellPwd(String inherited) {
        String cwd = dev.brisk.internal.posix.Caller.workingDirectory();
        if (inherited != null && inherited.startsWith("/")) {
            try {
                if (Files.isSameFile(Path.of(inherited), Path.of(cwd))) {
                    return inherited;
                }
            } catch (IOException | RuntimeException e) {
                // not a usable directory (or not encodable): the shell falls back to the real path too
            }
        }
        return cwd;
    }

    private static java.nio.charset.Charset nativeCharset() {
        try {
            return java.nio.charset.Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }

    /**
     * bash's own rule, then its exec: the inherited level plus one (1 when it was missing or
     * invalid, and when it reached 1000), minus one.
     */
    private static int shellLevel(String inherited) {
        int v;
        try {
            v = Integer.parseInt(inherited == null ? "0" : inherited.trim());
        } catch (NumberFormatException e) {
            v = 0;
        }
        v = Math.max(0, v) + 1;
        return (v >= 1000 ? 1 : v) - 1;
    }
}
