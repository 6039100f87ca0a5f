// SPDX-License-Identifier: Apache-2.0
package dev.brisk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library's public surface is what a user calls: every public type of every package that
 * {@code module-info} exports is an entry point listed here (with what a user does with it), or
 * appears in a public signature (a constructor's, method's or field's type, a supertype) of a
 * type reached from one. A public type that nothing reaches (an engine class left in a public
 * package, a helper made public for another package's sake) fails this test: move it to the
 * package's {@code internal}, or, if a user really starts from it, list it below.
 */
class PublicApiTest {
    /** The types a user starts from, by name, with why. */
    private static final Map<String, String> ENTRY_POINTS = Map.ofEntries(
            Map.entry("dev.brisk.shell.ShellPool", "a pool of warm shells, built with its Builder"),
            Map.entry("dev.brisk.shell.Command", "what a pool runs"),
            Map.entry("dev.brisk.shell.ShellException", "what a pool throws (unchecked: no signature names it)"),
            Map.entry("dev.brisk.serve.BriskServer", "serves a pool over a Unix socket"),
            Map.entry("dev.brisk.serve.BriskClient", "the Java client of that server"),
            Map.entry("dev.brisk.serve.CallServer", "the warm server of brisk daemon"),
            Map.entry("dev.brisk.serve.CallServer$AlreadyRunning", "what CallServer.bind throws, as an IOException, when a server holds the lock"),
            Map.entry("dev.brisk.serve.SocketLocation", "where a server listens by default"),
            Map.entry("dev.brisk.exec.JobRunner", "runs a template over argument sources"),
            Map.entry("dev.brisk.exec.ExecException", "what a run throws (unchecked: no signature names it)"),
            Map.entry("dev.brisk.exec.Template$Skipped", "what rendering a job that GNU's skip() skips throws (unchecked: no signature names it)"),
            Map.entry("dev.brisk.exec.TreeItems", "the files under a directory as an item source"),
            Map.entry("dev.brisk.exec.InputRules", "xargs's input rules applied to an item source"),
            Map.entry("dev.brisk.exec.PipeRecords", "--pipe's records: a stream cut into blocks, one item per job"),
            // quote34 moves shell quoting into one implementation; it is not touched here
            Map.entry("dev.brisk.meter.Meter", "a metered copy"),
            // pv's parts, each usable beside a Meter (candidates for meter.internal if no user needs them)
            Map.entry("dev.brisk.meter.StatusLine", "pv's status line from a progress report"),
            Map.entry("dev.brisk.meter.StderrDisplay", "draws a status line on a terminal"),
            Map.entry("dev.brisk.meter.TitleDisplay", "a status line as the window or process title"),
            Map.entry("dev.brisk.meter.ProgressTracker", "rates and ETA from byte counts"),
            Map.entry("dev.brisk.meter.RateStats", "pv -v's rate statistics"),
            Map.entry("dev.brisk.meter.DescriptorWatch", "meters another process's descriptors (pv -d)"),
            Map.entry("dev.brisk.meter.MonitoredCommand", "a command run with metered stdin/stdout (pv -M)"),
            Map.entry("dev.brisk.meter.ByteSize", "reads and prints sizes as pv does"),
            Map.entry("dev.brisk.walk.Walker", "walks a tree"),
            Map.entry("dev.brisk.find.Find", "find(1) as a call"));

    @Test
    @Timeout(60)
    void everyPublicTypeIsAnEntryPointOrInAPublicSignature() throws Exception {
        Path classes = classesDirectory();
        Set<String> exported = exportedPackages(classes);
        assertThat(exported).contains("dev.brisk.exec", "dev.brisk.shell");
        Set<String> published = new TreeSet<>();
        for (String pkg : exported) {
            published.addAll(publicTypes(classes, pkg));
        }
        assertThat(published).as("the entry points are public types of exported packages").containsAll(ENTRY_POINTS.keySet());

        Set<String> reached = new TreeSet<>(ENTRY_POINTS.keySet());
        Deque<String> todo = new ArrayDeque<>(ENTRY_POINTS.keySet());
        while (!todo.isEmpty()) {
            for (Class<?> used : signatureTypes(Class.forName(todo.pop(), false, getClass().getClassLoader()))) {
                if (published.contains(used.getName()) && reached.add(used.getName())) {
                    todo.push(used.getName());
                }
            }
        }
        Set<String> stray = new TreeSet<>(published);
        stray.removeAll(reached);
        assertThat(stray).as("public types no entry point's public signatures reach (make them internal, or list an"
                + " entry point)").isEmpty();
    }

    private static Path classesDirectory() throws URISyntaxException {
        return Path.of(dev.brisk.exec.JobRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** The packages {@code module-info} exports to everyone. */
    private static Set<String> exportedPackages(Path classes) throws IOException {
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            Set<String> r = new TreeSet<>();
            for (ModuleDescriptor.Exports e : ModuleDescriptor.read(in).exports()) {
                if (!e.isQualified()) {
                    r.add(e.source());
                }
            }
            return r;
        }
    }

    /** The public top-level and member types of {@code pkg}, by binary name. */
    private Set<String> publicTypes(Path classes, String pkg) throws IOException, ClassNotFoundException {
        Set<String> r = new TreeSet<>();
        Path dir = classes.resolve(pkg.replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String simple = f.getFileName().toString().replaceFirst("\\.class$", "");
                if (simple.equals("package-info")) {
                    continue;
                }
                Class<?> c = Class.forName(pkg + "." + simple, false, getClass().getClassLoader());
                if (visible(c)) {
                    r.add(c.getName());
                }
            }
        }
        return r;
    }

    /** Public, and a member of public types all the way out (not local, anonymous or synthetic). */
    private static boolean visible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isSynthetic() || k.isAnonymousClass() || k.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The types {@code c}'s public signatures name (protected ones too, where a user may extend
     * it). A member type is not used by being declared in a public type: a signature must name it.
     */
    private static Set<Class<?>> signatureTypes(Class<?> c) {
        Set<Class<?>> r = new java.util.HashSet<>();
        boolean extendable = !Modifier.isFinal(c.getModifiers()) && !c.isEnum() && !c.isRecord();
        add(r, c.getGenericSuperclass());
        for (Type t : c.getGenericInterfaces()) {
            add(r, t);
        }
        for (TypeVariable<?> v : c.getTypeParameters()) {
            add(r, v);
        }
        for (Field f : c.getDeclaredFields()) {
            if (open(f.getModifiers(), extendable) && !f.isSynthetic()) {
                add(r, f.getGenericType());
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            addExecutable(r, k, extendable);
        }
        for (Method m : c.getDeclaredMethods()) {
            if (!m.isSynthetic() && !m.isBridge()) {
                addExecutable(r, m, extendable);
                if (open(m.getModifiers(), extendable)) {
                    add(r, m.getGenericReturnType());
                }
            }
        }
        r.remove(c);
        return r;
    }

    private static boolean open(int modifiers, boolean extendable) {
        return Modifier.isPublic(modifiers) || extendable && Modifier.isProtected(modifiers);
    }

    private static void addExecutable(Set<Class<?>> r, Executable e, boolean extendable) {
        if (!open(e.getModifiers(), extendable) || e.isSynthetic()) {
            return;
        }
        for (Type t : e.getGenericParameterTypes()) {
            add(r, t);
        }
        for (Type t : e.getGenericExceptionTypes()) {
            add(r, t);
        }
        for (TypeVariable<?> v : e.getTypeParameters()) {
            add(r, v);
        }
    }

    /** Adds the classes {@code t} names: its raw class, type arguments, array components, bounds. */
    private static void add(Set<Class<?>> r, Type t) {
        switch (t) {
            case null -> { }
            case Class<?> c when c.isArray() -> add(r, c.getComponentType());
            case Class<?> c -> r.add(c);
            case ParameterizedType p -> {
                add(r, p.getRawType());
                add(r, p.getOwnerType());
                for (Type a : p.getActualTypeArguments()) {
                    add(r, a);
                }
            }
            case GenericArrayType g -> add(r, g.getGenericComponentType());
            case WildcardType w -> {
                for (Type b : w.getUpperBounds()) {
                    add(r, b);
                }
                for (Type b : w.getLowerBounds()) {
                    add(r, b);
                }
            }
            case TypeVariable<?> v -> {
                for (Type b : v.getBounds()) {
                    add(r, b);
                }
            }
            default -> throw new AssertionError("unknown kind of type: " + t);
        }
    }

    @Test
    @Timeout(10)
    void theTypeWalkSeesGenericsArraysAndSupertypes() throws Exception {
        // the walk itself: a type named only inside a generic, an array or a bound is still named
        Set<Class<?>> s = signatureTypes(dev.brisk.exec.JobOptions.class);
        assertThat(s).contains(dev.brisk.exec.TermStep.class, dev.brisk.exec.Template.class, java.time.Duration.class)
                .doesNotContain(dev.brisk.exec.JobOptions.class);
        assertThat(signatureTypes(dev.brisk.exec.ItemSource.class)).contains(java.io.Closeable.class);
    }
}
