// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A shell command and how to run it: working directory, extra environment, standard input,
 * timeout, where its output goes and how much of it to keep.
 *
 * <p>Immutable and thread-safe: every {@code with}-style method returns a new {@code Command}.
 * The command text is bytes (any bytes but NUL), so scripts that are not valid UTF-8 pass
 * through untouched. By default a command reads nothing (its standard input is at end of file
 * at once), inherits the pool's timeout and output cap, and has its output collected into its
 * {@link CommandResult}.
 *
 * <pre>{@code
 * Command c = Command.of("make test")
 *         .cwd(Path.of("/src")).env("CI", "1")
 *         .stdin("input bytes".getBytes())
 *         .timeout(Duration.ofSeconds(5));
 * }</pre>
 */
public final class Command {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final byte[] script;
    private final Path cwd;
    private final Map<String, String> env;
    private final byte[] stdin;
    private final Duration timeout;
    private final OutputStream stdoutSink;
    private final OutputStream stderrSink;
    private final long maxOutputBytes;

    private Command(byte[] script, Path cwd, Map<String, String> env, byte[] stdin, Duration timeout,
                    OutputStream stdoutSink, OutputStream stderrSink, long maxOutputBytes) {
        this.script = script;
        this.cwd = cwd;
        this.env = env;
        this.stdin = stdin;
        this.timeout = timeout;
        this.stdoutSink = stdoutSink;
        this.stderrSink = stderrSink;
        this.maxOutputBytes = maxOutputBytes;
    }

    /** A command from shell text, encoded as UTF-8. */
    public static Command of(String script) {
        Objects.requireNonNull(script, "script");
        return of(script.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A command from raw shell text (copied). Any bytes but NUL, which no shell can read.
     *
     * @throws IllegalArgumentException if the text holds a NUL byte
     */
    public static Command of(byte[] script) {
        Objects.requireNonNull(script, "script");
        for (int i = 0; i < script.length; i++) {
            if (script[i] == 0) {
                throw new IllegalArgumentException("command text holds a NUL byte at offset " + i
                        + "; a shell cannot read it");
            }
        }
        return new Command(script.clone(), null, Map.of(), null, null, null, null, -1);
    }

    /** This command run in {@code dir}; a directory that does not exist fails the command (status 1). */
    public Command cwd(Path dir) {
        Objects.requireNonNull(dir, "dir");
        return new Command(script, dir.toAbsolutePath(), env, stdin, timeout, stdoutSink, stderrSink,
                maxOutputBytes);
    }

    /**
     * This command with {@code name=value} exported. Values may hold any characters, newlines and
     * quotes included. In a {@link ShellSession} the variable stays exported for later commands.
     *
     * @throws IllegalArgumentException if {@code name} is not a shell variable name
     */
    public Command env(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a shell variable name: '" + name + "'");
        }
        if (name.startsWith("__brisk_")) {
            throw new IllegalArgumentException("variable names starting with __brisk_ are the pool's own: '" + name + "'");
        }
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("value of " + name + " holds a NUL character");
        }
        Map<String, String> next = new LinkedHashMap<>(env);
        next.put(name, value);
        return new Command(script, cwd, Collections.unmodifiableMap(next), stdin, timeout, stdoutSink,
                stderrSink, maxOutputBytes);
    }

    /** This command reading {@code input} (copied) on its standard input, then end of file. */
    public Command stdin(byte[] input) {
        Objects.requireNonNull(input, "input");
        return new Command(script, cwd, env, input.clone(), timeout, stdoutSink, stderrSink,
                maxOutputBytes);
    }

    /**
     * This command killed (its whole process group, TERM then KILL) once it has run for
     * {@code limit}; its result then says {@link CommandResult#timedOut()}.
     *
     * @throws IllegalArgumentException if {@code limit} is zero or negative
     */
    public Command timeout(Duration limit) {
        Objects.requireNonNull(limit, "limit");
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + limit);
        }
        return new Command(script, cwd, env, stdin, limit, stdoutSink, stderrSink, maxOutputBytes);
    }

    /**
     * This command's standard output written to {@code sink} as it arrives instead of collected:
     * for output too large to hold. The pool writes from the thread running the command and
     * never closes the sink; a slow sink slows the command (the pipe fills), it never grows memory.
     */
    public Command stdoutTo(OutputStream sink) {
        Objects.requireNonNull(sink, "sink");
        return new Command(script, cwd, env, stdin, timeout, sink, stderrSink, maxOutputBytes);
    }

    /** Like {@link #stdoutTo}, for standard error. */
    public Command stderrTo(OutputStream sink) {
        Objects.requireNonNull(sink, "sink");
        return new Command(script, cwd, env, stdin, timeout, stdoutSink, sink, maxOutputBytes);
    }

    /**
     * Keep at most {@code bytes} of each collected stream; the rest is read and dropped (the
     * command still runs to its end) and the result says {@link CommandResult#truncated()}.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public Command maxOutputBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("output cap must be zero or more, got " + bytes);
        }
        return new Command(script, cwd, env, stdin, timeout, stdoutSink, stderrSink, bytes);
    }

    /** The command text (a copy). */
    public byte[] script() {
        return script.clone();
    }

    byte[] scriptBytes() {
        return script;
    }

    /** The working directory, or null for the shell's own. */
    public Path cwd() {
        return cwd;
    }

    /** The extra environment, in the order it was given. */
    public Map<String, String> environment() {
        return env;
    }

    /** The standard input bytes (a copy), or null for none (end of file at once). */
    public byte[] stdin() {
        return stdin == null ? null : stdin.clone();
    }

    byte[] stdinBytes() {
        return stdin;
    }

    /** The timeout, or null for the pool's default. */
    public Duration timeout() {
        return timeout;
    }

    /** The sink for standard output, or null to collect it. */
    public OutputStream stdoutSink() {
        return stdoutSink;
    }

    /** The sink for standard error, or null to collect it. */
    public OutputStream stderrSink() {
        return stderrSink;
    }

    /** The output cap, or -1 for the pool's default. */
    public long maxOutputBytes() {
        return maxOutputBytes;
    }

    @Override
    public String toString() {
        String text = new String(script, StandardCharsets.UTF_8);
        return "Command[" + (text.length() > 80 ? text.substring(0, 77) + "..." : text) + "]";
    }
}
