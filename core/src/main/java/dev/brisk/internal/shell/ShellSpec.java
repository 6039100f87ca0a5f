// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.shell;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A resolved shell: its executable, whether it is bash (job control, {@code --norc}), and the
 * clean environment its workers start with. Immutable.
 */
public record ShellSpec(Path executable, boolean bash, Map<String, String> environment) {
    /**
     * setsid(1), which starts every worker and channel in a session of its own: its path in
     * /usr/bin or /bin, or null when neither has it.
     */
    public static final Path SETSID = Files.isExecutable(Path.of("/usr/bin/setsid")) ? Path.of("/usr/bin/setsid")
            : Files.isExecutable(Path.of("/bin/setsid")) ? Path.of("/bin/setsid") : null;

    /** {@link #SETSID} as a command word; plain {@code setsid} (a failing start names it) without one. */
    public static String setsid() {
        return SETSID == null ? "setsid" : SETSID.toString();
    }


    /**
     * Variables a shell would act on at start or in its read loop (rc files, prompt hooks,
     * {@code TMOUT} timing out {@code read}): never passed to a worker.
     */
    private static final Set<String> UNSAFE = Set.of("BASH_ENV", "ENV", "TMOUT", "PROMPT_COMMAND",
            "SHELLOPTS", "BASHOPTS", "CDPATH", "GLOBIGNORE", "BASH_XTRACEFD", "PS4", "IFS",
            "POSIXLY_CORRECT", "HISTFILE", "MAILPATH", "MAIL");

    /**
     * The bash functions {@code environment} exports ({@code export -f NAME}: a variable
     * {@code BASH_FUNC_NAME%%} holding {@code () { BODY }}), as bash text that defines them,
     * {@code NAME () { BODY }} a line each, in the variables' order by name; empty without any.
     * They are never in a worker's own environment (a function could replace what the worker
     * runs): a job that is to see them runs this text first, in its own subshell.
     */
    public static byte[] exportedFunctions(Map<String, String> environment) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (String name : exportedFunctionNames(environment)) {
            out.writeBytes(dev.brisk.internal.posix.EnvText.encode(name + " " + environment.get(FUNCTION_PREFIX + name + "%%")));
            out.write('\n');
        }
        return out.toByteArray();
    }

    private static final String FUNCTION_PREFIX = "BASH_FUNC_";

    /** The names of the bash functions {@code environment} exports (see {@link #exportedFunctions}), in order. */
    public static java.util.List<String> exportedFunctionNames(Map<String, String> environment) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
            String k = e.getKey();
            if (k.startsWith(FUNCTION_PREFIX) && k.endsWith("%%") && k.length() > FUNCTION_PREFIX.length() + 2
                    && e.getValue().startsWith("() {")) {
                names.add(k.substring(FUNCTION_PREFIX.length(), k.length() - 2));
            }
        }
        return names;
    }

    /**
     * Resolves {@code shell} (a name looked up on PATH, or a path) and cleans {@code environment}.
     *
     * @throws IllegalArgumentException if no such executable exists
     */
    public static ShellSpec resolve(String shell, Map<String, String> environment) {
        Path exe = find(shell, environment.getOrDefault("PATH", System.getenv("PATH")));
        if (exe == null) {
            throw new IllegalArgumentException("shell not found: '" + shell + "' (not an executable file, nor on PATH)");
        }
        Map<String, String> env = new TreeMap<>(environment);
        env.keySet().removeIf(k -> UNSAFE.contains(k) || k.startsWith("BASH_FUNC_"));
        String name = exe.getFileName().toString();
        Path real = exe;
        try {
            real = exe.toRealPath();
        } catch (java.io.IOException ignored) {
            // keep the path as given
        }
        boolean bash = name.contains("bash") || real.getFileName().toString().contains("bash");
        return new ShellSpec(exe, bash, Map.copyOf(env));
    }

    private static Path find(String shell, String path) {
        if (shell.isEmpty()) {
            return null;
        }
        if (shell.indexOf('/') >= 0) {
            Path p = Path.of(shell);
            return Files.isExecutable(p) && !Files.isDirectory(p)
                    ? Path.of(dev.brisk.internal.posix.Caller.workingDirectory()).resolve(p) : null;
        }
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, shell);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    /** The argument vector that starts a worker running {@code script} in {@code dir}. */
    public List<String> command(Path setsid, String script, Path dir) {
        String name = executable.getFileName().toString();
        return bash
                ? List.of(setsid.toString(), executable.toString(), "--noprofile", "--norc", "-c", script, name, dir.toString())
                : List.of(setsid.toString(), executable.toString(), "-c", script, name, dir.toString());
    }
}
