// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rules of docs/ARCHITECTURE.md's "Layers", over the main sources of core and cli (their
 * code: comments and string literals do not count). The layer graph is read from the document's
 * {@code layers} block, so the document is the one declaration; each failure names the file and
 * line.
 * <ul>
 *   <li>Each package belongs to a unit of the graph (a package with its {@code .internal}
 *       engine), and a reference to a class of another unit (an import or a qualified name) is
 *       one that unit's line allows; another unit's {@code .internal} engine is its own, unless
 *       the line names that engine ({@code exec.internal}).</li>
 *   <li>No native binding outside {@code dev.brisk.internal.posix}: no FFM linker, symbol lookup,
 *       downcall or upcall, no {@code native} method, no loaded library.</li>
 *   <li>No {@code System.exit}, {@code Runtime.exit} or {@code Runtime.halt} outside the classes
 *       that start a program: {@link Main}, {@link FindMain} and {@link Docs}.</li>
 * </ul>
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ArchitectureTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<Path> SOURCES = List.of(ROOT.resolve("core/src/main/java"), ROOT.resolve("cli/src/main/java"));
    private static final Path POSIX = ROOT.resolve("core/src/main/java/dev/brisk/internal/posix");
    private static final Set<Path> ENTRY_POINTS = Set.of(ROOT.resolve("cli/src/main/java/dev/brisk/cli/Main.java"),
            ROOT.resolve("cli/src/main/java/dev/brisk/cli/FindMain.java"),
            ROOT.resolve("cli/src/main/java/dev/brisk/cli/Docs.java"));

    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.brisk\\.([a-z][a-z0-9_]*(?:\\.[a-z][a-z0-9_]*)*)\\.(?:[A-Z]|\\*)");
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+dev\\.brisk\\.([a-z0-9_.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern NATIVE = Pattern.compile("\\bjava\\.lang\\.foreign\\.(?:Linker|SymbolLookup|\\*)|\\b(?:Linker|SymbolLookup)\\s*\\."
            + "|\\b(?:downcallHandle|upcallStub|libraryLookup|loadLibrary)\\b|\\bSystem\\s*\\.\\s*load\\s*\\(|\\bnative\\b");
    private static final Pattern EXIT = Pattern.compile("\\bSystem\\s*\\.\\s*exit\\s*\\(|\\bRuntime\\b[^;]*?\\.\\s*(?:exit|halt)\\s*\\(");

    @Test
    void importsFollowTheLayerGraph() throws IOException {
        Map<String, Set<String>> graph = layerGraph();
        assertThat(cycle(graph)).as("a cycle in the layer graph").isEmpty();
        List<String> violations = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Path file : javaFiles()) {
            String code = code(Files.readString(file, StandardCharsets.UTF_8));
            Matcher pm = PACKAGE.matcher(code);
            if (!pm.find()) {
                continue; // module-info
            }
            String pkg = pm.group(1);
            String unit = unit(graph, pkg);
            if (unit == null) {
                violations.add(where(file, code, pm.start(1)) + ": package dev.brisk." + pkg + " is in no unit of the layer graph");
                continue;
            }
            seen.add(unit);
            Matcher m = REFERENCE.matcher(code);
            while (m.find()) {
                String target = m.group(1);
                String to = unit(graph, target);
                String why = to == null ? "dev.brisk." + target + " is in no unit of the layer graph"
                        : to.equals(unit) ? null
                        : !graph.get(unit).contains(to) ? unit + " may not use " + to + " (not on " + unit + "'s line of the layer graph)"
                        : !to.startsWith("internal.") && (target + ".").startsWith(to + ".internal.")
                                && !graph.get(unit).contains(to + ".internal") ? "dev.brisk." + target
                                + " is " + to + "'s engine: only " + to + " uses it"
                        : null;
                if (why != null) {
                    violations.add(where(file, code, m.start()) + ": " + why);
                }
            }
        }
        Set<String> unused = new LinkedHashSet<>(graph.keySet());
        unused.removeAll(seen);
        assertThat(unused).as("units of the layer graph without a package").isEmpty();
        assertThat(violations).as("references across the layer graph of docs/ARCHITECTURE.md").isEmpty();
    }

    @Test
    void nativeBindingsOnlyInPosix() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : javaFiles()) {
            if (!file.startsWith(POSIX)) {
                matches(file, NATIVE, "a native binding outside dev.brisk.internal.posix", violations);
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void onlyTheProgramEntriesEndTheJvm() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : javaFiles()) {
            if (!ENTRY_POINTS.contains(file)) {
                matches(file, EXIT, "ends the JVM (only Main, FindMain and Docs may: a command returns its status)", violations);
            }
        }
        assertThat(violations).isEmpty();
    }

    /** The map stays true: every class of the main sources (each file) is named in docs/ARCHITECTURE.md. */
    @Test
    void everyClassIsOnTheMap() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/ARCHITECTURE.md"), StandardCharsets.UTF_8);
        List<String> missing = new ArrayList<>();
        for (Path file : javaFiles()) {
            String name = file.getFileName().toString().replaceFirst("\\.java$", "");
            if (!name.equals("package-info") && !name.equals("module-info")
                    && !Pattern.compile("\\b" + name + "\\b").matcher(doc).find()) {
                missing.add(ROOT.relativize(file).toString());
            }
        }
        assertThat(missing).as("classes docs/ARCHITECTURE.md does not name").isEmpty();
    }

    /** The code reader itself: comments, strings, characters and text blocks are blanked, lines kept. */
    @Test
    void codeKeepsLinesAndDropsCommentsAndLiterals() {
        String src = "a // System.exit(1)\nb /* native\n x */ c \"Linker.x\" '\\'' \"\"\"\n  dev.brisk.exec.X \\\"\"\" \n  \"\"\" d\n";
        String code = code(src);
        assertThat(code.lines().count()).isEqualTo(src.lines().count());
        assertThat(code.replaceAll("\\s+", " ")).isEqualTo("a b c \"\" '' \"\"\" \"\"\" d ");
    }

    /** The graph in docs/ARCHITECTURE.md's {@code layers} block: each unit and the units it may use. */
    static Map<String, Set<String>> layerGraph() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/ARCHITECTURE.md"), StandardCharsets.UTF_8);
        int from = doc.indexOf("```layers\n");
        assertThat(from).as("docs/ARCHITECTURE.md has a ```layers block").isNotNegative();
        int to = doc.indexOf("```", from + 10);
        Map<String, Set<String>> graph = new LinkedHashMap<>();
        for (String line : doc.substring(from + 10, to).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] sides = line.split("->", -1);
            assertThat(sides).as("a line of the layers block: UNIT -> UNIT...: %s", line).hasSize(2);
            Set<String> uses = new LinkedHashSet<>(List.of(sides[1].trim().isEmpty() ? new String[0] : sides[1].trim().split("\\s+")));
            for (String u : List.copyOf(uses)) {
                if (isEngine(u)) {
                    uses.add(u.substring(0, u.length() - ".internal".length())); // an engine named: its unit too
                }
            }
            assertThat(graph.put(sides[0].trim(), uses)).as("%s declared twice", sides[0].trim()).isNull();
        }
        for (Map.Entry<String, Set<String>> e : graph.entrySet()) {
            assertThat(graph.keySet()).as("the units %s uses", e.getKey())
                    .containsAll(e.getValue().stream().filter(u -> !isEngine(u)).toList());
        }
        return graph;
    }

    /** The unit {@code pkg} (relative to dev.brisk) belongs to: the longest declared prefix; null when none. */
    private static String unit(Map<String, Set<String>> graph, String pkg) {
        String best = null;
        for (String u : graph.keySet()) {
            if ((pkg.equals(u) || pkg.startsWith(u + ".")) && (best == null || u.length() > best.length())) {
                best = u;
            }
        }
        return best;
    }

    /** A cycle of the graph as its units in order, or an empty list. */
    private static List<String> cycle(Map<String, Set<String>> graph) {
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            if (reaches(graph, start, start, path, new LinkedHashSet<>())) {
                return path;
            }
        }
        return List.of();
    }

    /** A unit's engine named on a line ({@code exec.internal}): allowed to that line's unit, by name. */
    private static boolean isEngine(String name) {
        return !name.startsWith("internal.") && name.endsWith(".internal");
    }

    private static boolean reaches(Map<String, Set<String>> graph, String from, String target, List<String> path, Set<String> visited) {
        for (String next : graph.get(from).stream().filter(u -> !isEngine(u)).toList()) {
            path.add(next);
            if (next.equals(target) || visited.add(next) && reaches(graph, next, target, path, visited)) {
                return true;
            }
            path.removeLast();
        }
        return false;
    }

    private static void matches(Path file, Pattern pattern, String what, List<String> violations) throws IOException {
        String code = code(Files.readString(file, StandardCharsets.UTF_8));
        Matcher m = pattern.matcher(code);
        while (m.find()) {
            violations.add(where(file, code, m.start()) + ": " + what + ": " + m.group().strip());
        }
    }

    private static List<Path> javaFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : SOURCES) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
            }
        }
        assertThat(files).as("the main sources under %s", ROOT).hasSizeGreaterThan(100);
        return files;
    }

    /** {@code file:line} of offset {@code at} in the file's code. */
    private static String where(Path file, String code, int at) {
        int line = 1;
        for (int i = 0; i < at; i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return ROOT.relativize(file) + ":" + line;
    }

    /**
     * {@code src} with every comment and the contents of every string, character and text block
     * literal blanked (newlines kept, so offsets keep their line).
     */
    static String code(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int n = src.length();
        int i = 0;
        while (i < n) {
            char c = src.charAt(i);
            if (src.startsWith("//", i)) {
                while (i < n && src.charAt(i) != '\n') {
                    i++;
                }
            } else if (src.startsWith("/*", i)) {
                int end = src.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                blank(src, i, end, out);
                i = end;
            } else if (src.startsWith("\"\"\"", i)) {
                out.append("\"\"\"");
                i = literal(src, i + 3, "\"\"\"", out);
            } else if (c == '"' || c == '\'') {
                out.append(c);
                i = literal(src, i + 1, String.valueOf(c), out);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Blanks a literal's contents from {@code i} to its {@code close} (escapes skipped), which it keeps. */
    private static int literal(String src, int i, String close, StringBuilder out) {
        int n = src.length();
        int from = i;
        while (i < n && !src.startsWith(close, i)) {
            i += src.charAt(i) == '\\' && i + 1 < n ? 2 : 1;
        }
        blank(src, from, i, out);
        if (i < n) {
            out.append(close);
            i += close.length();
        }
        return i;
    }

    private static void blank(String src, int from, int to, StringBuilder out) {
        for (int k = from; k < to; k++) {
            if (src.charAt(k) == '\n') {
                out.append('\n');
            }
        }
    }
}
