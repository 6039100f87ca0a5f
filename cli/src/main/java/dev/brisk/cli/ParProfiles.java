// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * GNU parallel's profiles for {@code brisk par}: the words its command line starts with before
 * its own. Without {@code -J}, {@code /etc/parallel/config}, {@code config} in each config
 * directory ({@code $PARALLEL_HOME}, {@code $XDG_CONFIG_HOME/parallel}, each of
 * {@code $XDG_CONFIG_DIRS}/parallel, {@code ~/.parallel}: those that exist) and
 * {@code ~/.parallelrc}, where present; with {@code -J PROFILE} (repeatable) those profiles
 * instead: a path starting {@code ./} or {@code /}, else the name in the config directories.
 * Each line not starting with {@code #} is split as {@link ParseWords#shellwords}. Then
 * {@code $PARALLEL}'s words. {@code --plain} leaves all of them out. Stateless.
 */
final class ParProfiles {
    private ParProfiles() {}

    /**
     * The profiles' words, then {@code $PARALLEL}'s, for a command line {@code args};
     * {@code env} reads the caller's environment.
     *
     * @throws IllegalArgumentException naming a profile that exists and cannot be read
     */
    static List<String> words(String[] args, Function<String, String> env) {
        List<String> named = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--") || !a.startsWith("-") || a.equals("-")) {
                break;
            }
            if (a.equals("--plain")) {
                return List.of();
            }
            if ((a.equals("-J") || a.equals("--profile")) && i + 1 < args.length) {
                named.add(args[++i]);
            } else if (a.startsWith("--profile=")) {
                named.add(a.substring("--profile=".length()));
            } else if (a.startsWith("-J")) {
                named.add(a.substring(2));
            }
        }
        String home = env.apply("HOME");
        List<Path> dirs = configDirectories(env);
        List<Path> files = new ArrayList<>();
        if (named.isEmpty()) {
            files.add(Path.of("/etc/parallel/config"));
            dirs.forEach(d -> files.add(d.resolve("config")));
            if (home != null) {
                files.add(Path.of(home, ".parallelrc"));
            }
        } else {
            for (String p : named) {
                List<Path> found = new ArrayList<>();
                if (p.startsWith("./") || p.startsWith("/")) {
                    found.add(Path.of(p));
                } else {
                    dirs.forEach(d -> found.add(d.resolve(p)));
                }
                files.addAll(found); // one that cannot be read is left out, as GNU parallel leaves it
            }
        }
        List<String> words = new ArrayList<>();
        for (Path f : files) {
            if (!Files.isReadable(f) || Files.isDirectory(f)) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.stripLeading().startsWith("#")) {
                        words.addAll(ParseWords.shellwords(line));
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                throw new IllegalArgumentException(f + " not readable.");
            }
        }
        String parallel = env.apply("PARALLEL");
        if (parallel != null) {
            words.addAll(ParseWords.shellwords(parallel));
        }
        return words;
    }

    /**
     * GNU parallel's config directories that exist, in its order: {@code $PARALLEL_HOME},
     * {@code $XDG_CONFIG_HOME/parallel}, each of {@code $XDG_CONFIG_DIRS}/parallel,
     * {@code ~/.parallel}.
     */
    static List<Path> configDirectories(Function<String, String> env) {
        String home = env.apply("HOME");
        List<String> candidates = new ArrayList<>();
        candidates.add(env.apply("PARALLEL_HOME"));
        String xdg = env.apply("XDG_CONFIG_HOME");
        candidates.add(xdg == null ? null : xdg + "/parallel");
        String xdgDirs = env.apply("XDG_CONFIG_DIRS");
        if (xdgDirs != null) {
            for (String d : xdgDirs.split(":")) {
                candidates.add(d + "/parallel");
            }
        }
        candidates.add(home == null ? null : home + "/.parallel");
        List<Path> dirs = new ArrayList<>();
        for (String c : candidates) {
            if (c != null && !c.isEmpty() && Files.isDirectory(Path.of(c))) {
                dirs.add(Path.of(c));
            }
        }
        return dirs;
    }

    /** GNU parallel's config directory: the first of {@link #configDirectories}, else {@code ~/.parallel}. */
    static Path configDirectory(Function<String, String> env) {
        List<Path> dirs = configDirectories(env);
        String home = env.apply("HOME");
        return !dirs.isEmpty() ? dirs.getFirst() : Path.of(home == null ? "/tmp" : home, ".parallel");
    }
}
