// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * GNU parallel's replacement strings that are Perl code: {@code {= expr =}}, {@code {=N expr =}}
 * and the tags of {@code --rpl 'TAG expr'} (with {@code --plus}, GNU's own table of them),
 * found in a command's text as GNU parallel 20221122 finds them ({@code CommandLineQueue::new}):
 * the shortest {@code {= =}} first, then each tag, the longest first, outside the expressions
 * found so far; a tag with a {@code (regex)} group matches text of that shape and its captures
 * are the expression's {@code $$1}, {@code $$2}...; a tag starting with <code>{</code> also has a
 * positional form (<code>{2..}</code> for <code>{..}</code>). brisk's own replacement strings under other
 * names ({@code --er}, {@code -I}...) are found in the same pass as tags that name a
 * {@link Replacement} instead of code, and {@code --parens} gives the expressions' delimiters.
 * An expression that starts with a number is
 * positional (GNU's {@code 1 $_=total_jobs()} is "once per job": the first argument's). Text is
 * bytes as ISO-8859-1 characters. Immutable.
 */
public final class PerlReplacements {
    /**
     * A piece of text: literal, a Perl expression (with its position, 0 for every argument), or
     * one of brisk's own replacement strings under another name ({@code replacement}), and the
     * text it was found as ({@code source}).
     */
    public record Segment(String literal, String expression, int position, String source, Replacement replacement) {
        /** A literal text or a Perl expression. */
        public Segment(String literal, String expression, int position, String source) {
            this(literal, expression, position, source, null);
        }

        static Segment text(String t) {
            return new Segment(t, null, 0, t);
        }
    }

    /** The {@code --rpl} definitions {@code --plus} adds (GNU parallel 20221122's {@code %Global::plus}). */
    public static final List<String> PLUS = List.of(
            "{+/} s:/[^/]*$:: || s:.*$::",
            "{+.} s:.*\\.:: || s:.*$::",
            "{+..} s:.*\\.([^/.]*\\.[^/.]*)$:$1: || s:.*$::",
            "{+...} s:.*\\.([^/.]*\\.[^/.]*\\.[^/.]*)$:$1: || s:.*$::",
            "{..} s:\\.[^/.]*\\.[^/.]*$::",
            "{...} s:\\.[^/.]*\\.[^/.]*\\.[^/.]*$::",
            "{/..} s:.*/::; s:\\.[^/.]*\\.[^/.]*$::",
            "{/...} s:.*/::; s:\\.[^/.]*\\.[^/.]*\\.[^/.]*$::",
            "{choose_k} for $t (2..$#arg){ if($arg[$t-1] ge $arg[$t]) { skip() } }",
            "{uniq} if(::uniq(@arg) != @arg) { skip(); }",
            "{##} 1 $_=total_jobs()",
            "{0%} 1 $f=1+int((log($Global::max_jobs_running||1)/log(10)));$_=sprintf(\"%0${f}d\",slot())",
            "{0#} 1 $f=1+int((log(total_jobs())/log(10)));$_=sprintf(\"%0${f}d\",seq())",
            "{:-([^}]+?)} $_ ||= $$1",
            "{:(\\d+?)} substr($_,0,$$1) = \"\"",
            "{:(\\d+?):(\\d+?)} $_ = substr($_,$$1,$$2);",
            "{#([^#}][^}]*?)} $nongreedy=::make_regexp_ungreedy($$1);s/^$nongreedy(.*)/$1/;",
            "{##([^#}][^}]*?)} s/^$$1//;",
            "{%([^}]+?)} $nongreedy=::make_regexp_ungreedy($$1);s/(.*)$nongreedy$/$1/;",
            "{%%([^}]+?)} s/$$1$//;",
            "{/([^#%}/]+?)/([^}]*?)} s/$$1/$$2/;",
            "{/#([^}]+?)/([^}]*?)} s/^$$1/$$2/g;",
            "{/%([^}]+?)/([^}]*?)} s/$$1$/$$2/g;",
            "{//([^}]+?)/([^}]*?)} s/$$1/$$2/g;",
            "{^([^}]+?)} s/^($$1)/uc($1)/e;",
            "{^^([^}]+?)} s/($$1)/uc($1)/eg;",
            "{,([^}]+?)} s/^($$1)/lc($1)/e;",
            "{,,([^}]+?)} s/($$1)/lc($1)/eg;",
            "{slot} 1 $_=\"\\${PARALLEL_JOBSLOT}\";uq()",
            "{host} 1 $_=\"\\${PARALLEL_SSHHOST}\";uq()",
            "{sshlogin} 1 $_=\"\\${PARALLEL_SSHLOGIN}\";uq()",
            "{hgrp} 1 $_=\"\\${PARALLEL_HOSTGROUPS}\";uq()",
            "{agrp} 1 $_=\"\\${PARALLEL_ARGHOSTGROUPS}\";uq()");

    private static final Pattern TAG = Pattern.compile("^([^(]*)(\\(.*\\))?([^)]*)$", Pattern.DOTALL);
    private static final Pattern POSITION = Pattern.compile("^(-?\\d+) *");
    private static final Pattern GROUP_REFERENCE = Pattern.compile("\\$\\$(\\d+)");

    /** One tag: the pattern of its plain and its positional form (or null), and its code or the replacement it names. */
    private record Tag(Pattern plain, Pattern positional, String code, Replacement builtin) {}

    private final List<Tag> tags;
    /** A Perl expression between the delimiters ({@code {= =}}), the shortest first. */
    private final Pattern perl;
    private final String left;

    /**
     * The tags of {@code definitions}, each {@code "TAG perl-code"} as {@code --rpl} takes it (split
     * at the first blank; a later definition of a tag replaces an earlier one).
     *
     * @throws IllegalArgumentException for a definition without a tag or with a group that is no regular expression
     */
    public PerlReplacements(List<String> definitions) {
        this(definitions, Map.of(), "{=", "=}");
    }

    /**
     * As {@link #PerlReplacements(List)}, with brisk's own replacement strings under the names of
     * {@code builtins} (their definitions' tags may replace them) and Perl expressions between
     * {@code left} and {@code right} ({@code --parens}) instead of {@code {=} and {@code =}}.
     *
     * @throws IllegalArgumentException for a definition without a tag or with a group that is no regular expression
     */
    public PerlReplacements(List<String> definitions, Map<String, Replacement> builtins, String left, String right) {
        this.left = left;
        this.perl = Pattern.compile(Pattern.quote(left) + "((?:(?!" + Pattern.quote(left) + "|" + Pattern.quote(right)
                + ").)*?)" + Pattern.quote(right), Pattern.DOTALL);
        Map<String, Object> byTag = new LinkedHashMap<>(builtins);
        for (String d : definitions) {
            String[] kv = d.split("\\s", 2);
            if (kv[0].isEmpty()) {
                throw new IllegalArgumentException("--rpl needs a tag before its perl expression: '" + d + "'");
            }
            byTag.put(kv[0], kv.length > 1 ? kv[1] : "");
        }
        List<String> order = new ArrayList<>(byTag.keySet());
        order.sort(Comparator.comparingInt(String::length).reversed());
        List<Tag> t = new ArrayList<>();
        for (String tag : order) {
            Matcher m = TAG.matcher(tag);
            if (!m.matches()) {
                throw new IllegalArgumentException("--rpl: cannot read the tag '" + tag + "'");
            }
            String prefix = m.group(1);
            String group = m.group(2) == null ? "" : m.group(2);
            String postfix = m.group(3);
            try {
                Pattern plain = Pattern.compile(Pattern.quote(prefix) + group + Pattern.quote(postfix), Pattern.DOTALL);
                Object meaning = byTag.get(tag);
                Replacement builtin = meaning instanceof Replacement r ? r : null;
                // GNU gives {#} and {%} positional forms too, whose number runs into the expression's: none here
                boolean positions = prefix.startsWith("{") && (builtin == null || builtin.kind() == Replacement.Kind.ALL);
                Pattern positional = positions
                        ? Pattern.compile("\\{(-?\\d+)\\s*" + Pattern.quote(prefix.substring(1)) + group + Pattern.quote(postfix), Pattern.DOTALL)
                        : null;
                t.add(new Tag(plain, positional, builtin == null ? (String) meaning : null, builtin));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("--rpl: the tag '" + tag + "' holds no regular expression Java reads: " + e.getDescription());
            }
        }
        this.tags = List.copyOf(t);
    }

    /** Whether {@code text} may hold a Perl replacement string at all: the quick test before {@link #split}. */
    public boolean mayApply(String text) {
        return text.contains(left) || !tags.isEmpty();
    }

    /** {@code text} cut into literal text and the Perl expressions it holds, in order. */
    public List<Segment> split(String text) {
        List<Segment> segments = new ArrayList<>();
        Matcher m = perl.matcher(text);
        int at = 0;
        while (m.find()) {
            if (m.start() > at) {
                segments.add(Segment.text(text.substring(at, m.start())));
            }
            segments.add(expression(m.group(1), m.group()));
            at = m.end();
        }
        if (at < text.length()) {
            segments.add(Segment.text(text.substring(at)));
        }
        for (Tag tag : tags) {
            segments = apply(segments, tag.plain, tag, false);
            if (tag.positional != null) {
                segments = apply(segments, tag.positional, tag, true);
            }
        }
        return segments;
    }

    /**
     * The segments with each match of {@code p} in their literal text made an expression of
     * {@code tag}'s code, or its replacement (a positional form whose number is no position brisk
     * takes, 0 or of ten digits, stays text).
     */
    private static List<Segment> apply(List<Segment> in, Pattern p, Tag tag, boolean positional) {
        List<Segment> out = new ArrayList<>(in.size());
        for (Segment s : in) {
            if (s.literal == null) {
                out.add(s);
                continue;
            }
            Matcher m = p.matcher(s.literal);
            int at = 0;
            while (m.find()) {
                if (tag.builtin != null) {
                    Replacement r = positional ? positionalForm(tag.builtin, m.group(1)) : tag.builtin;
                    if (r == null) {
                        continue;
                    }
                    if (m.start() > at) {
                        out.add(Segment.text(s.literal.substring(at, m.start())));
                    }
                    out.add(new Segment(null, null, r.position(), m.group(), r));
                    at = m.end();
                    continue;
                }
                if (m.start() > at) {
                    out.add(Segment.text(s.literal.substring(at, m.start())));
                }
                int first = positional ? 2 : 1;
                StringBuilder set = new StringBuilder(positional ? m.group(1) : "");
                for (int g = first; g <= m.groupCount() && m.group(g) != null; g++) {
                    set.append("$_pAr_gRp").append(g - first + 1).append(" = \"")
                            .append(m.group(g).replaceAll("[\\\\\"$@]", "\\\\$0")).append("\";");
                }
                out.add(expression(set + GROUP_REFERENCE.matcher(tag.code).replaceAll("\\$_pAr_gRp$1"), m.group()));
                at = m.end();
            }
            if (at == 0) {
                out.add(s);
            } else if (at < s.literal.length()) {
                out.add(Segment.text(s.literal.substring(at)));
            }
        }
        return out;
    }

    /** The positional form at {@code number} of a replacement for every argument, or null for no position ({@code 0}, ten digits). */
    private static Replacement positionalForm(Replacement all, String number) {
        if (number.replace("-", "").length() > 9 || Integer.parseInt(number) == 0) {
            return null;
        }
        return new Replacement(Replacement.Kind.POSITIONAL, Integer.parseInt(number), all.modifier());
    }

    /** An expression as GNU reads it: a leading number is its position, then spaces, which go. */
    private static Segment expression(String code, String source) {
        Matcher m = POSITION.matcher(code);
        if (m.find() && m.group(1).length() < 10) {
            return new Segment(null, code.substring(m.end()), Integer.parseInt(m.group(1)), source);
        }
        return new Segment(null, code.replaceFirst("^ +", ""), 0, source);
    }
}
