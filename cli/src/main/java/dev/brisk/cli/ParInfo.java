// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * GNU parallel's options of {@code brisk par} that print something and end the run, each as
 * GNU parallel 20221122 does it: {@code --bug}, {@code --shell-completion},
 * {@code --max-line-length-allowed}, {@code --record-env}, {@code --min-version}. Each writes to
 * the streams it is given and returns the exit status. Stateless.
 */
final class ParInfo {
    /** The GNU parallel version whose command line brisk par takes. */
    static final int GNU_VERSION = 20221122;

    /** The variables GNU parallel sets in its own environment before {@code --record-env} records it. */
    private static final List<String> GNU_SETS = List.of("OLDPWD", "PARALLEL_HOME", "PARALLEL_REMOTE_TMPDIR",
            "PARALLEL_RSYNC_OPTS", "TMPDIR");

    private ParInfo() {}

    /** {@code --bug}: GNU parallel's request for a bug report, as its test of it prints it; 255. */
    static int bug(OutputStream err) throws IOException {
        String text = String.join("\n", "brisk par: This should not happen. You have found a bug. Please report it",
                "to brisk's maintainers.", "", "Include this in the report:",
                "* The version number: " + new Main.Version().getVersion()[0].replace('\n', ' '),
                "* The bugid: test-bug", "* The command line being run",
                "* The files being read (put the files on a webserver if they are big)", "",
                "If you get the error on smaller/fewer files, please include those instead.", "");
        err.write(text.getBytes(StandardCharsets.UTF_8));
        err.flush();
        return 255;
    }

    /**
     * {@code --shell-completion SHELL}: brisk's completion script for bash, zsh or fish (those of
     * {@code brisk completion}), {@code auto} that of {@code $PARALLEL_SHELL}, else
     * {@code $SHELL}; another shell is GNU parallel's error, 255.
     */
    static int shellCompletion(String shell, Function<String, String> env, OutputStream out, OutputStream err) throws IOException {
        String which = shell;
        if (shell.equals("auto")) {
            String s = env.apply("PARALLEL_SHELL");
            s = s == null || s.isEmpty() ? env.apply("SHELL") : s;
            s = s == null ? "" : s;
            which = s.matches("(.*/)?zsh") ? "zsh" : s.matches("(.*/)?bash") ? "bash" : s.matches("(.*/)?fish") ? "fish" : null;
            if (which == null) {
                return error("--shellcompletion is not implemented for '" + s + "'.", err);
            }
        }
        Completions c = new Completions(Main.commandLine());
        String script = switch (which) {
            case "bash" -> c.bash();
            case "zsh" -> c.zsh();
            case "fish" -> c.fish();
            default -> null;
        };
        if (script == null) {
            return error("--shellcompletion is not implemented for '" + shell + "'.", err);
        }
        out.write(script.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return 0;
    }

    /** {@code --max-line-length-allowed}: the longest command as GNU parallel measures it, as {@code --show-limits} reports it. */
    static int maxLineLength(int limit, OutputStream out) throws IOException {
        out.write((limit + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return 0;
    }

    /**
     * {@code --record-env}: the names of the variables of {@code environment} and of those GNU
     * parallel sets in its own ({@code TMPDIR}, {@code PARALLEL_HOME}...), one a line, in
     * {@code ignored_vars} of the config directory ({@link ParProfiles#configDirectory}), where
     * {@code --env _} reads which to leave out; 255 with GNU parallel's error if it cannot be written.
     */
    static int recordEnv(Map<String, String> environment, Function<String, String> env, OutputStream err) throws IOException {
        Path file = ParProfiles.configDirectory(env).resolve("ignored_vars");
        java.util.Set<String> all = new java.util.TreeSet<>(environment.keySet());
        all.addAll(GNU_SETS); // as GNU parallel's file, which holds those it sets itself
        StringBuilder names = new StringBuilder();
        all.forEach(k -> names.append(k).append('\n'));
        try {
            Files.writeString(file, names);
        } catch (IOException e) {
            return error("Cannot write to " + file + ".", err);
        }
        return 0;
    }

    /**
     * {@code --env}'s names, as GNU parallel reads them: each value split at commas, and
     * {@code _} all the variables of {@code environment} not in the config directory's
     * {@code ignored_vars} ({@code --record-env}) that are shell variable names.
     *
     * @throws IllegalArgumentException with GNU parallel's error when {@code _} is given and there is no {@code ignored_vars}
     */
    static List<String> envNames(List<String> given, Map<String, String> environment, Function<String, String> env) {
        List<String> names = new ArrayList<>();
        boolean all = false;
        for (String g : given) {
            for (String n : g.split(",")) {
                if (n.equals("_")) {
                    all = true;
                } else if (!n.isEmpty()) {
                    names.add(n);
                }
            }
        }
        if (all) {
            Path file = ParProfiles.configDirectory(env).resolve("ignored_vars");
            List<String> ignored;
            try {
                ignored = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalArgumentException("Run 'brisk par --record-env' in a clean environment first.");
            }
            for (String k : environment.keySet()) {
                if (!ignored.contains(k) && !names.contains(k) && k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    names.add(k);
                }
            }
        }
        return names;
    }

    /**
     * {@code --min-version VERSION}: the version of GNU parallel whose language brisk par speaks,
     * and 0 when that is VERSION or later, else 255.
     */
    static int minVersion(int version, OutputStream out) throws IOException {
        out.write((GNU_VERSION + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return version <= GNU_VERSION ? 0 : 255;
    }

    private static int error(String message, OutputStream err) throws IOException {
        err.write(("brisk par: " + message + "\n").getBytes(StandardCharsets.UTF_8));
        err.flush();
        return 255;
    }
}
