// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import dev.brisk.exec.internal.PerlEngine;
import dev.brisk.exec.internal.PerlReplacements;
import dev.brisk.exec.internal.Replacement;
import dev.brisk.internal.shell.ShellWords;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import dev.brisk.internal.shell.ShellQuote;

/**
 * A command template: shell text with replacement strings ({@code {}} {@code {.}} {@code {/}}
 * {@code {//}} {@code {/.}} {@code {#}} {@code {%}} {@code {N}} and {@code {N.}} etc.), as GNU
 * parallel reads them. Rendering substitutes a job's arguments, each one shell-quoted as GNU
 * parallel quotes it unless the template was made with {@link Quoting#RAW}, so no argument can
 * inject code. GNU parallel's Perl replacement strings ({@code {= perl =}}, {@code --rpl},
 * {@code --plus}) are computed by one {@code perl} process that the first render needing one
 * starts and {@link #close()} ends. Text and arguments are bytes throughout. Thread-safe;
 * immutable but for that process and its values of the last jobs.
 *
 * <pre>{@code
 * Template t = Template.parse("gzip -9 {} && mv {}.gz {//}/done/".getBytes(), "{}", Quoting.SHELL);
 * byte[] script = t.render(JobArgs.single(List.of(name), 1, 1), Batching.NONE);
 * }</pre>
 *
 * <p>Over 500 lines because parsing, rendering, quoting, argv splitting and the shape test all read
 * the same parts list; the shell-word vocabulary is shared with the pool ({@code ShellWords}).
 */
public final class Template {
    /** Whether substituted values are shell-quoted. */
    public enum Quoting {
        /** Quote every value: the normal case. */
        SHELL,
        /** Insert values as they are: for input that is itself the command. */
        RAW
    }

    /** How several argument tuples in one job are inserted ({@code -m}, {@code -X}). */
    public enum Batching {
        /** One tuple per job, or {@code -n N}: {@code {}} stands for all values, space-separated. */
        NONE,
        /** {@code -m}: like NONE, for many tuples. */
        MULTI,
        /** {@code -X}: the word holding a replacement string is repeated once per tuple. */
        CONTEXT
    }

    /** What kind of command a template is, which decides how cheaply its jobs can run. */
    public enum Shape {
        /** Shell code: runs in a subshell of a warm shell. */
        SHELL,
        /** One simple command of an external program: can be spawned without a shell. */
        EXTERNAL,
        /** One simple command of a builtin that changes no shell state (echo, printf, true, false, :, test, [). */
        BUILTIN,
        /**
         * One pipeline of simple commands ({@code md5sum {} | cut -c1-32}): every element runs in
         * a process of its own anyway, so the job needs no subshell around it.
         */
        PIPELINE
    }

    /** A piece of the template: literal bytes, or a replacement string; {@code word} numbers the blank-separated words. */
    private record Part(byte[] literal, Replacement replacement, int word) {}

    private final List<Part> parts;
    private final Quoting quoting;
    private final Shape shape;
    private final boolean simple;
    /** A pipeline whose every element starts with the name of an external program. */
    private final boolean externalPipeline;

    /** The Perl expressions' engine, or null when the template has none. */
    private final PerlEngine perl;
    private final int expressionCount;
    /** The expressions computed for the last jobs' values ({@link Computed}), the oldest dropped. */
    private final Map<Computed, PerlEngine.Value[]> computed = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Computed, PerlEngine.Value[]> eldest) {
            return size() > 4096;
        }
    };

    /** The tuples whose values {@link #lastFlat} lists in a row (by identity; under {@link #computed}'s lock). */
    private List<List<byte[]>> flatOf;
    private List<byte[]> lastFlat;

    /** A value of a job: the input value's own array (its identity: a byte array's hash and equality), the job's number and slot. */
    private record Computed(byte[] value, long sequence, int slot) {}

    private Template(List<Part> parts, Quoting quoting, List<String> expressions) {
        this.parts = List.copyOf(parts);
        this.quoting = quoting;
        this.perl = expressions.isEmpty() ? null : new PerlEngine(expressions);
        this.expressionCount = expressions.size();
        this.shape = computeShape();
        this.simple = shape == Shape.EXTERNAL;
        this.externalPipeline = shape == Shape.PIPELINE && pipeline() == EXTERNAL_PIPELINE;
    }

    /**
     * Parses {@code text}. {@code allToken} is the string that stands for every argument:
     * {@code "{}"}, or the string given to {@code -I}. When the text holds no replacement string
     * at all, {@code " {}"} is implied at its end, as in GNU parallel.
     *
     * @throws IllegalArgumentException if {@code allToken} is empty
     */
    public static Template parse(byte[] text, String allToken, Quoting quoting) {
        return parse(text, allToken, quoting, true);
    }

    /**
     * Like {@link #parse(byte[], String, Quoting)}; with {@code implied} false no {@code {}} is
     * appended to a text without replacement strings ({@code --pipe}, where input goes to stdin).
     */
    public static Template parse(byte[] text, String allToken, Quoting quoting, boolean implied) {
        return parse(text, allToken, quoting, implied, List.of());
    }

    /**
     * Like {@link #parse(byte[], String, Quoting, boolean)}, with GNU parallel's Perl replacement
     * strings: {@code {= expr =}} and {@code {=N expr =}} always, and the tags of {@code rpl},
     * each {@code "TAG perl-code"} as {@code --rpl} takes it ({@link #plusDefinitions()} for
     * {@code --plus}, then the user's, a later one of a tag replacing an earlier one). Their
     * values come from one {@code perl} process that starts at the first render that needs it
     * and ends with {@link #close()}.
     *
     * @throws IllegalArgumentException if {@code allToken} is empty or a tag of {@code rpl} cannot be read
     */
    public static Template parse(byte[] text, String allToken, Quoting quoting, boolean implied, List<String> rpl) {
        if (allToken == null || allToken.isEmpty()) {
            throw new IllegalArgumentException("the replacement string must not be empty");
        }
        return parse(text, ReplacementNames.DEFAULT.withAll(allToken), quoting, implied, rpl);
    }

    /**
     * Like {@link #parse(byte[], String, Quoting, boolean, List)}, with brisk's own replacement
     * strings under the names of {@code names} (GNU parallel's {@code -I}, {@code --er},
     * {@code --bnr}, {@code --dnr}, {@code --seqreplace}, {@code --slotreplace}, {@code --bner})
     * and its Perl expressions between {@code names}' {@code --parens}. As in GNU parallel, all
     * names and {@code rpl}'s tags are found in one pass, the longest first, outside the Perl
     * expressions.
     *
     * @throws IllegalArgumentException if a tag of {@code rpl} cannot be read
     */
    public static Template parse(byte[] text, ReplacementNames names, Quoting quoting, boolean implied, List<String> rpl) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(quoting, "quoting");
        Parts p = new Parts(names.all());
        List<String> expressions = new ArrayList<>();
        String latin = new String(text, StandardCharsets.ISO_8859_1);
        boolean renamed = !names.onlyAllRenamed();
        if (renamed || !rpl.isEmpty() || latin.contains("{=")) {
            for (PerlReplacements.Segment seg : scanner(names, rpl).split(latin)) {
                if (seg.literal() != null) {
                    p.text(seg.literal().getBytes(StandardCharsets.ISO_8859_1), !renamed);
                    continue;
                }
                if (seg.replacement() != null) {
                    p.add(seg.replacement());
                    continue;
                }
                int index = expressions.indexOf(seg.expression());
                if (index < 0) {
                    index = expressions.size();
                    expressions.add(seg.expression());
                }
                p.add(new Replacement(seg.position() == 0 ? Replacement.Kind.ALL : Replacement.Kind.POSITIONAL,
                        seg.position(), Replacement.Modifier.NONE, index));
            }
        } else {
            p.text(text, true);
        }
        return new Template(p.finish(implied && text.length > 0, implied), quoting, expressions);
    }

    /**
     * The scanner of {@code names} and {@code rpl}'s tags: only Perl expressions and those tags
     * when the names are GNU parallel's but for {@code -I} (the rest is then read as it always
     * was, by {@link #replacementAt}), else every name as a tag of its own.
     */
    private static PerlReplacements scanner(ReplacementNames names, List<String> rpl) {
        if (names.onlyAllRenamed()) {
            return new PerlReplacements(rpl);
        }
        Map<String, Replacement> builtins = new LinkedHashMap<>();
        names.table().forEach((name, meaning) -> builtins.put(name, Replacement.parse(meaning.substring(1, meaning.length() - 1))));
        return new PerlReplacements(rpl, builtins, names.parensLeft(), names.parensRight());
    }

    /** The {@code --rpl} definitions GNU parallel 20221122's {@code --plus} adds, in {@code "TAG perl-code"} form. */
    public static List<String> plusDefinitions() {
        return PerlReplacements.PLUS;
    }

    /** A template's parts as {@link #parse} reads them: literal bytes split at blanks into words, and replacement strings. */
    private static final class Parts {
        private final byte[] token;
        private final String allToken;
        private final List<Part> parts = new ArrayList<>();
        private final ByteArrayOutputStream lit = new ByteArrayOutputStream();
        private int word;
        private boolean any;

        Parts(String allToken) {
            this.allToken = allToken;
            this.token = allToken.getBytes(StandardCharsets.UTF_8);
        }

        /** Adds {@code text}, its replacement strings found by {@link #replacementAt} ({@code scan}) or none (literal text only). */
        void text(byte[] text, boolean scan) {
            int i = 0;
            while (i < text.length) {
                Replacement r = null;
                int len = scan ? replacementAt(text, i, token, allToken) : 0;
                if (len > 0) {
                    r = startsWith(text, i, token) ? new Replacement(Replacement.Kind.ALL, 0, Replacement.Modifier.NONE)
                            : Replacement.parse(new String(text, i + 1, len - 2, StandardCharsets.ISO_8859_1));
                }
                if (r != null) {
                    add(r);
                    i += len;
                    continue;
                }
                byte b = text[i];
                if (b == ' ' || b == '\t' || b == '\n') {
                    flush(parts, lit, word);
                    lit.write(b);
                    flush(parts, lit, -1);
                    word++;
                } else {
                    lit.write(b);
                }
                i++;
            }
        }

        void add(Replacement r) {
            flush(parts, lit, word);
            parts.add(new Part(null, r, word));
            any = true;
        }

        /** The parts; with {@code implied}, {@code {}} after them when there is no replacement string ({@code blank}: after a blank). */
        List<Part> finish(boolean blank, boolean implied) {
            flush(parts, lit, word);
            if (!any && implied) {
                if (blank) {
                    parts.add(new Part(new byte[] {' '}, null, -1));
                    word++;
                }
                parts.add(new Part(null, new Replacement(Replacement.Kind.ALL, 0, Replacement.Modifier.NONE), word));
            }
            return parts;
        }
    }

    /**
     * The length of the replacement string at {@code text[i]} ({@code token}, the string for all
     * arguments, or a {@code {...}} form {@link Replacement#parse} reads), or 0 when there is none.
     */
    private static int replacementAt(byte[] text, int i, byte[] token, String allToken) {
        if (startsWith(text, i, token)) {
            return token.length;
        }
        if (text[i] != '{') {
            return 0;
        }
        for (int j = i + 1; j < text.length && j <= i + 14; j++) {
            if (text[j] == '{') {
                return 0;
            }
            if (text[j] == '}') {
                Replacement r = Replacement.parse(new String(text, i + 1, j - i - 1, StandardCharsets.ISO_8859_1));
                boolean plainAll = r != null && r.kind() == Replacement.Kind.ALL && r.modifier() == Replacement.Modifier.NONE;
                // another string for all arguments (-I) takes {} and, as in GNU parallel, {N} with it
                boolean renamed = !allToken.equals("{}") && (plainAll || r != null && r.kind() == Replacement.Kind.POSITIONAL);
                return r == null || renamed ? 0 : j - i + 1;
            }
        }
        return 0;
    }

    /**
     * GNU parallel's {@code -q}: the command's {@code words} as shell text in which each stays one
     * word, whatever it holds (blanks, {@code ;}, quotes): its literal text shell-quoted, its
     * replacement strings left for {@link #parse} (their values are quoted as they are inserted).
     */
    public static byte[] quotedWords(List<byte[]> words, String allToken) {
        return quotedWords(words, allToken, List.of());
    }

    /**
     * Like {@link #quotedWords(List, String)}, leaving GNU parallel's Perl replacement strings
     * ({@code {= =}} and the tags of {@code rpl}, as {@link #parse(byte[], String, Quoting, boolean, List)}
     * takes them) for {@link #parse} as well.
     */
    public static byte[] quotedWords(List<byte[]> words, String allToken, List<String> rpl) {
        return quotedWords(words, ReplacementNames.DEFAULT.withAll(allToken), rpl);
    }

    /**
     * Like {@link #quotedWords(List, String, List)}, leaving the replacement strings of
     * {@code names} (as {@link #parse(byte[], ReplacementNames, Quoting, boolean, List)} takes
     * them) for {@link #parse}.
     */
    public static byte[] quotedWords(List<byte[]> words, ReplacementNames names, List<String> rpl) {
        String allToken = names.all();
        boolean renamed = !names.onlyAllRenamed();
        byte[] token = renamed ? new byte[0] : allToken.getBytes(StandardCharsets.UTF_8);
        PerlReplacements perl = null;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int k = 0; k < words.size(); k++) {
            byte[] w = words.get(k);
            if (k > 0) {
                out.write(' ');
            }
            if (w.length == 0) {
                ShellQuote.appendAsParallel(out, w);
                continue;
            }
            String latin = new String(w, StandardCharsets.ISO_8859_1);
            List<PerlReplacements.Segment> segments;
            if (!renamed && rpl.isEmpty() && !latin.contains("{=")) {
                segments = List.of(new PerlReplacements.Segment(latin, null, 0, latin));
            } else {
                if (perl == null) {
                    perl = scanner(names, rpl);
                }
                segments = perl.split(latin);
            }
            ByteArrayOutputStream lit = new ByteArrayOutputStream();
            for (PerlReplacements.Segment seg : segments) {
                byte[] t = seg.source().getBytes(StandardCharsets.ISO_8859_1);
                if (seg.literal() == null) {
                    quoteLiteral(out, lit);
                    out.writeBytes(t);
                    continue;
                }
                for (int i = 0; i < t.length; ) {
                    int len = token.length == 0 ? 0 : replacementAt(t, i, token, allToken);
                    if (len > 0) {
                        quoteLiteral(out, lit);
                        out.write(t, i, len);
                        i += len;
                    } else {
                        lit.write(t[i++]);
                    }
                }
            }
            quoteLiteral(out, lit);
        }
        return out.toByteArray();
    }

    /** Writes {@code lit}, if any, shell-quoted to {@code out}, and empties it. */
    private static void quoteLiteral(ByteArrayOutputStream out, ByteArrayOutputStream lit) {
        if (lit.size() > 0) {
            ShellQuote.appendAsParallel(out, lit.toByteArray());
            lit.reset();
        }
    }

    private static void flush(List<Part> parts, ByteArrayOutputStream lit, int word) {
        if (lit.size() > 0) {
            parts.add(new Part(lit.toByteArray(), null, word));
            lit.reset();
        }
    }

    private static boolean startsWith(byte[] text, int at, byte[] token) {
        if (at + token.length > text.length) {
            return false;
        }
        for (int k = 0; k < token.length; k++) {
            if (text[at + k] != token[k]) {
                return false;
            }
        }
        return true;
    }

    /** Renders the command of one job. */
    public byte[] render(JobArgs args, Batching batching) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        render(out, args, batching);
        return out.toByteArray();
    }

    /** Renders the command of one job into {@code out}. */
    public void render(ByteArrayOutputStream out, JobArgs args, Batching batching) {
        render(out, args, batching, true);
    }

    /**
     * Renders a {@code --template} file's contents for one job: as {@link #render}, but a
     * replacement string's several values (and {@link Batching#CONTEXT}'s copies of a word)
     * follow each other with nothing between, as GNU parallel prints its list of words.
     */
    public byte[] renderJoined(JobArgs args, Batching batching) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        render(out, args, batching, false);
        return out.toByteArray();
    }

    private void render(ByteArrayOutputStream out, JobArgs args, Batching batching, boolean spaced) {
        int start = out.size();
        boolean skip = walk(args, batching, new Sink() {
            @Override
            public void literal(byte[] b) {
                out.write(b, 0, b.length);
            }

            @Override
            public void space() {
                if (spaced) {
                    out.write(' ');
                }
            }

            @Override
            public void values(List<byte[]> vs, boolean number) {
                for (int k = 0; k < vs.size(); k++) {
                    if (k > 0 && spaced) {
                        out.write(' ');
                    }
                    if (number) {
                        out.writeBytes(vs.get(k));
                    } else {
                        value(out, vs.get(k));
                    }
                }
            }
        });
        if (skip) {
            throw new Skipped(Arrays.copyOfRange(out.toByteArray(), start, out.size()));
        }
    }

    /**
     * What a job's command is made of, in order: literal text, a blank between the copies of
     * a word repeated by {@link Batching#CONTEXT}, and the values of a replacement string. The
     * rendered text and the argument vector are two readings of the same walk, so they never
     * disagree.
     */
    private interface Sink {
        void literal(byte[] b);

        void space();

        /** Values of one replacement string, each a word of its own; numbers ({#}, {%}) need no quoting. */
        void values(List<byte[]> vs, boolean number);
    }

    /**
     * As GNU parallel replaces: with {@link Batching#CONTEXT} a word holding {@code {}} (or one
     * of its modified forms) is repeated once per value of the job (each value of each tuple,
     * in order), and a positional {@code {N}} is the job's Nth value wherever it stands.
     */
    private boolean walk(JobArgs args, Batching batching, Sink sink) {
        boolean[] skip = perl == null ? null : new boolean[1];
        List<List<byte[]>> all = args.tuples();
        if (batching != Batching.CONTEXT || all.size() <= 1 && (all.isEmpty() || all.getFirst().size() <= 1)) {
            for (Part p : parts) {
                emit(sink, p, args, args.tuples(), skip);
            }
            return skip != null && skip[0];
        }
        int i = 0;
        while (i < parts.size()) {
            Part p = parts.get(i);
            if (p.word < 0) {
                emit(sink, p, args, args.tuples(), skip);
                i++;
                continue;
            }
            int end = i;
            boolean context = false;
            while (end < parts.size() && parts.get(end).word == p.word) {
                Replacement r = parts.get(end).replacement;
                context |= r != null && r.kind() == Replacement.Kind.ALL;
                end++;
            }
            if (!context) {
                for (int k = i; k < end; k++) {
                    emit(sink, parts.get(k), args, args.tuples(), skip);
                }
            } else {
                boolean first = true;
                for (List<byte[]> tuple : all) {
                    for (byte[] v : tuple) {
                        if (!first) {
                            sink.space();
                        }
                        first = false;
                        List<List<byte[]>> one = List.of(List.of(v));
                        for (int k = i; k < end; k++) {
                            emit(sink, parts.get(k), args, one, skip);
                        }
                    }
                }
            }
            i = end;
        }
        return skip != null && skip[0];
    }

    private void emit(Sink sink, Part p, JobArgs args, List<List<byte[]>> tuples, boolean[] skip) {
        if (p.literal != null) {
            sink.literal(p.literal);
            return;
        }
        if (p.replacement.perl() >= 0) {
            // values are quoted as {}'s are; one of uq() goes in as it is (only in a template of Shape.SHELL)
            List<PerlEngine.Value> xs = perlValues(p.replacement.perl(), values(p.replacement, args, tuples), args, skip);
            boolean asIs = xs.stream().anyMatch(PerlEngine.Value::unquoted);
            List<byte[]> vs = new ArrayList<>(xs.size());
            for (PerlEngine.Value x : xs) {
                if (asIs && !x.unquoted() && quoting == Quoting.SHELL) {
                    ByteArrayOutputStream q = new ByteArrayOutputStream(x.bytes().length + 2);
                    ShellQuote.appendAsParallel(q, x.bytes());
                    vs.add(q.toByteArray());
                } else {
                    vs.add(x.bytes());
                }
            }
            sink.values(vs, asIs);
            return;
        }
        boolean number = p.replacement.kind() == Replacement.Kind.SEQUENCE || p.replacement.kind() == Replacement.Kind.SLOT;
        sink.values(values(p.replacement, args, tuples), number);
    }

    /**
     * The values of Perl expression {@code index} for {@code values} in the job {@code args}, not
     * yet quoted. A call of {@code skip()} is noted in {@code skip} (the job's command is still made, for the
     * job log). As in GNU parallel, an expression runs once per value of a job, however often the
     * job is rendered (queued ahead, traced, run).
     */
    private List<PerlEngine.Value> perlValues(int index, List<byte[]> values, JobArgs args, boolean[] skip) {
        List<byte[]> flat;
        synchronized (computed) {
            // one list per job's values, not per part: perl is sent @arg only when the list changes
            if (flatOf != args.tuples()) {
                flatOf = args.tuples();
                lastFlat = new ArrayList<>();
                flatOf.forEach(lastFlat::addAll);
            }
            flat = lastFlat;
        }
        List<PerlEngine.Value> r = new ArrayList<>(values.size());
        for (byte[] v : values) {
            PerlEngine.Value x;
            synchronized (computed) {
                PerlEngine.Value[] known = computed.computeIfAbsent(new Computed(v, args.sequence(), args.slot()),
                        k -> new PerlEngine.Value[expressionCount]);
                x = known[index];
                if (x == null) {
                    x = known[index] = perl.evaluate(index, v, flat, args.sequence(), args.slot());
                }
            }
            skip[0] |= x.skip();
            r.add(x);
        }
        return r;
    }

    /**
     * Thrown by {@link #render} when a Perl expression called GNU parallel's {@code skip()}: the
     * job is not to run (GNU parallel logs it with exit value -2 and counts it as failed).
     */
    public static final class Skipped extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient byte[] command;

        Skipped(byte[] command) {
            super("skip()", null, false, false);
            this.command = command;
        }

        /** The job's command as rendered, for the job log. */
        public byte[] command() {
            return command.clone();
        }
    }

    /**
     * Whether the template holds a Perl expression ({@code {= =}}, a {@code --rpl} or
     * {@code --plus} string), whose values need the {@code perl} helper.
     */
    public boolean usesPerl() {
        return perl != null;
    }

    /**
     * Tells the Perl expressions GNU parallel's {@code total_jobs()} and the number of job
     * slots (for {@code {0%}}); nothing for a template without them.
     */
    public void perlContext(long totalJobs, int jobs) {
        if (perl != null) {
            perl.context(totalJobs, jobs);
        }
    }

    /** Tells the Perl expressions GNU parallel's {@code $Global::total_completed}: the jobs done so far; nothing without them. */
    public void perlCompleted(long jobs) {
        if (perl != null) {
            perl.completed(jobs);
        }
    }

    /** Whether a Perl expression of the template calls GNU parallel's {@code total_jobs()}, which needs all input read first. */
    public boolean usesTotalJobs() {
        return perl != null && perl.mentions("total_jobs");
    }

    /**
     * Stops a Perl expression that is computing a value now (its render fails with an
     * {@link ExecException}); for a run stopped by a signal. {@link #close()} still ends the helper.
     */
    public void interrupt() {
        if (perl != null) {
            perl.kill();
        }
    }

    /** Ends the {@code perl} helper if one was started; a later render starts another. */
    public void close() {
        if (perl != null) {
            perl.close();
        }
    }

    /** The values a replacement string stands for in a job, modified, not yet quoted. */
    private static List<byte[]> values(Replacement r, JobArgs args, List<List<byte[]>> tuples) {
        List<byte[]> vs = new ArrayList<>();
        switch (r.kind()) {
            case SEQUENCE -> vs.add(Long.toString(args.sequence()).getBytes(StandardCharsets.US_ASCII));
            case SLOT -> vs.add(Integer.toString(args.slot()).getBytes(StandardCharsets.US_ASCII));
            case ALL -> {
                for (List<byte[]> tuple : tuples) {
                    for (byte[] v : tuple) {
                        vs.add(r.modifier().apply(v));
                    }
                }
            }
            case POSITIONAL -> {
                // the Nth of the job's values, all tuples read as one list (GNU parallel's arg_list_flat)
                List<List<byte[]>> job = args.tuples();
                int count = 0;
                for (List<byte[]> tuple : job) {
                    count += tuple.size();
                }
                int n = r.position() > 0 ? r.position() - 1 : count + r.position();
                for (List<byte[]> tuple : job) {
                    if (n >= 0 && n < tuple.size()) {
                        vs.add(r.modifier().apply(tuple.get(n)));
                        break;
                    }
                    n -= tuple.size();
                }
            }
        }
        return vs;
    }

    /**
     * The argument vector the shell would build from the rendered command of a
     * {@linkplain #isSimpleExternalCommand() simple} template: words as bytes, no quoting, each
     * value one word (with {@link Batching#CONTEXT}, the word holding {@code {}} once per
     * tuple). For a template that is not simple, null.
     */
    public List<byte[]> argv(JobArgs args, Batching batching) {
        if (!simple) {
            return null;
        }
        return words(args, batching).getFirst();
    }

    /**
     * The commands of a job that can run without a shell, each as the argument vector the shell
     * would build (words as bytes, no quoting): one for a
     * {@linkplain #isSimpleExternalCommand() simple} template, one per element for a
     * {@linkplain #isExternalPipeline() pipeline of external programs}, whose output flows from
     * each to the next. Batched jobs split as their rendered command would: each value one
     * word, the word holding {@code {}} repeated per tuple with {@link Batching#CONTEXT}. Null
     * for any other template.
     */
    public List<List<byte[]>> commands(JobArgs args, Batching batching) {
        if (!(simple || externalPipeline)) {
            return null;
        }
        return words(args, batching);
    }

    /** The words of each command of the template (split at {@code |}), for {@code args}. */
    private List<List<byte[]>> words(JobArgs args, Batching batching) {
        Words w = new Words(externalPipeline);
        walk(args, batching, w);
        return w.finish();
    }

    /** Splits a job's command into words as the shell would, with no quoting to undo: values are words as they are. */
    private static final class Words implements Sink {
        private final boolean pipeline;
        private final List<List<byte[]>> commands = new ArrayList<>(2);
        private List<byte[]> words = new ArrayList<>();
        private final ByteArrayOutputStream cur = new ByteArrayOutputStream();
        private boolean started;

        Words(boolean pipeline) {
            this.pipeline = pipeline;
        }

        @Override
        public void literal(byte[] lit) {
            for (byte b : lit) {
                if (b == ' ' || b == '\t' || b == '\n' || (b == '|' && pipeline)) {
                    end();
                    if (b == '|') {
                        commands.add(words);
                        words = new ArrayList<>();
                    }
                } else {
                    cur.write(b);
                    started = true;
                }
            }
        }

        @Override
        public void space() {
            end();
        }

        @Override
        public void values(List<byte[]> vs, boolean number) {
            for (int k = 0; k < vs.size(); k++) {
                if (k > 0) {
                    end();
                }
                cur.writeBytes(vs.get(k));
                started = true;
            }
        }

        private void end() {
            if (started) {
                words.add(cur.toByteArray());
                cur.reset();
                started = false;
            }
        }

        List<List<byte[]>> finish() {
            end();
            commands.add(words);
            return commands;
        }
    }

    private void value(ByteArrayOutputStream out, byte[] v) {
        if (quoting == Quoting.SHELL) {
            ShellQuote.appendAsParallel(out, v);
        } else {
            out.write(v, 0, v.length);
        }
    }

    /**
     * Whether the command's first word holds a replacement string: one comes before any blank
     * or {@code =} ({@code {}}, {@code my_{= s/_// =}}, {@code {2}}; not {@code V={}}). GNU
     * parallel inserts the values of such a command unquoted ({@link Quoting#RAW}): the input is
     * (part of) the command.
     */
    public boolean commandIsReplacement() {
        for (Part p : parts) {
            if (p.replacement != null) {
                return true;
            }
            for (byte b : p.literal) {
                if (b == ' ' || b == '\t' || b == '\n' || b == '=') {
                    return false;
                }
            }
        }
        return false;
    }

    /** True when the template holds any replacement string (GNU's {@code --results NAME} test: does NAME change?). */
    public boolean hasReplacements() {
        return parts.stream().anyMatch(p -> p.replacement != null) || usesPerl();
    }

    /** True when some replacement string stands for all arguments ({@code {}} or its modified forms). */
    public boolean usesAll() {
        return parts.stream().anyMatch(p -> p.replacement != null && p.replacement.kind() == Replacement.Kind.ALL);
    }

    /**
     * True when the template is one simple command of an external program: literal words with
     * no shell syntax and a first word that is no shell builtin or keyword. Such a command can
     * be {@code exec}uted in place of its subshell, which saves one fork per job.
     */
    public boolean isSimpleExternalCommand() {
        return simple;
    }

    /**
     * True when the template is a {@link Shape#PIPELINE} whose every element starts with the
     * name of an external program (no builtin, keyword or function name): its elements can be
     * spawned directly, joined by pipes, with no shell at all.
     */
    public boolean isExternalPipeline() {
        return externalPipeline;
    }

    /** The kind of command this template is. */
    public Shape shape() {
        return shape;
    }

    private Shape computeShape() {
        // a value of uq() is shell code; others are words, as {}'s are
        if (quoting == Quoting.RAW || perl != null && perl.mentions("uq") || parts.isEmpty() || parts.get(0).literal == null) {
            return Shape.SHELL;
        }
        if (pipeline() != NO_PIPELINE) {
            return Shape.PIPELINE;
        }
        for (Part p : parts) {
            if (p.literal == null) {
                continue;
            }
            for (byte b : p.literal) {
                if (!(ShellQuote.plain(b) || b == ' ' || b == '\t' || b == ',' || b == ':' || b == '@' || b == '[' || b == ']')) {
                    return Shape.SHELL;
                }
            }
        }
        Part first = parts.get(0);
        if (first.word != 0 || (parts.size() > 1 && parts.get(1).word == 0)) {
            return Shape.SHELL;
        }
        String name = new String(first.literal, StandardCharsets.ISO_8859_1);
        if (ShellWords.isPureBuiltin(name)) {
            return Shape.BUILTIN;
        }
        if (ShellWords.isShellWord(name) || name.indexOf('[') >= 0 || name.indexOf(']') >= 0) {
            return Shape.SHELL;
        }
        for (Part p : parts) {
            if (p.literal != null && (contains(p.literal, '[') || contains(p.literal, ']'))) {
                return Shape.SHELL;
            }
        }
        return Shape.EXTERNAL;
    }

    /**
     * A pipeline of at least two commands whose literal text has no list operators, grouping,
     * quoting, substitution or assignment at all (a conservative test: anything unusual keeps
     * the subshell), and whose first words are not shell keywords or state-changing builtins:
     * {@link #PIPELINE}, or {@link #EXTERNAL_PIPELINE} when no first word is a builtin either;
     * else {@link #NO_PIPELINE}.
     */
    private int pipeline() {
        int bars = 0;
        boolean external = true;
        boolean commandStart = true;
        StringBuilder word = new StringBuilder();
        for (Part p : parts) {
            if (p.literal == null) {
                if (commandStart) {
                    return NO_PIPELINE;
                }
                continue;
            }
            byte[] lit = p.literal;
            for (int i = 0; i < lit.length; i++) {
                byte b = lit[i];
                if (b == '|') {
                    if ((i + 1 < lit.length && lit[i + 1] == '|') || commandStart) {
                        return NO_PIPELINE;
                    }
                    bars++;
                    commandStart = true;
                    word.setLength(0);
                    continue;
                }
                if (b == ' ' || b == '\t') {
                    if (commandStart && word.length() > 0) {
                        if (!firstWord(word.toString())) {
                            return NO_PIPELINE;
                        }
                        external &= externalName(word.toString());
                        commandStart = false;
                    }
                    continue;
                }
                if (!(ShellQuote.plain(b) || b == ',' || b == ':' || b == '@' || b == '%' || b == '=' && !commandStart)) {
                    return NO_PIPELINE;
                }
                if (commandStart) {
                    word.append((char) b);
                }
            }
        }
        // the last command may be a single word (| sort)
        if (commandStart && word.length() > 0 && firstWord(word.toString())) {
            external &= externalName(word.toString());
            commandStart = false;
        }
        if (commandStart) {
            return NO_PIPELINE;
        }
        return bars == 0 ? NO_PIPELINE : external ? EXTERNAL_PIPELINE : PIPELINE;
    }

    /** Whether {@code w} may start a command of a pipeline that needs no subshell. */
    private static boolean firstWord(String w) {
        return !ShellWords.isShellWord(w) || ShellWords.isPureBuiltin(w);
    }

    /**
     * Whether {@code w} names an external program: a builtin (echo), a name the warm shell
     * defines as a function or a job name (%1) runs differently from the program of that name.
     */
    private static boolean externalName(String w) {
        return !ShellWords.isShellWord(w) && !w.startsWith("__brisk_") && w.charAt(0) != '%';
    }

    private static final int NO_PIPELINE = 0, PIPELINE = 1, EXTERNAL_PIPELINE = 2;

    private static boolean contains(byte[] b, char c) {
        for (byte x : b) {
            if (x == c) {
                return true;
            }
        }
        return false;
    }
}
