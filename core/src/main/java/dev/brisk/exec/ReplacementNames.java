// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link Template}'s own replacement strings are called: GNU parallel's {@code -I}
 * ({@code {}}), {@code --er} ({@code {.}}), {@code --bnr} ({@code {/}}), {@code --dnr}
 * ({@code {//}}), {@code --seqreplace} ({@code {#}}), {@code --slotreplace} ({@code {%}}),
 * {@code --bner} ({@code {/.}}), and {@code --parens}, the delimiters of a Perl expression
 * ({@code {==}}: its first half opens one, its second half closes it). A name that starts with
 * <code>{</code> also has positional forms (<code>{2.}</code> for <code>{.}</code>, <code>{2}</code> for {@code {}});
 * one holding a {@code (regex)} group matches text of that shape, as a {@code --rpl} tag does.
 *
 * <pre>{@code
 * ReplacementNames names = new ReplacementNames("[]", "[.]", "{/}", "{//}", "{#}", "{%}", "{/.}", "{==}");
 * Template t = Template.parse("mv [] [.].txt".getBytes(), names, Template.Quoting.SHELL, true, List.of());
 * }</pre>
 *
 * @param all the string for every argument ({@code -I})
 * @param noExtension the argument without its extension ({@code --er})
 * @param basename its base name ({@code --bnr})
 * @param dirname its directory ({@code --dnr})
 * @param sequence the job's number ({@code --seqreplace})
 * @param slot the job's slot ({@code --slotreplace})
 * @param basenameNoExtension its base name without extension ({@code --bner})
 * @param parens a Perl expression's delimiters, the opening one the first half ({@code --parens})
 */
public record ReplacementNames(String all, String noExtension, String basename, String dirname, String sequence,
        String slot, String basenameNoExtension, String parens) {
    /** GNU parallel's names. */
    public static final ReplacementNames DEFAULT = new ReplacementNames("{}", "{.}", "{/}", "{//}", "{#}", "{%}", "{/.}", "{==}");

    /**
     * Checks the names.
     *
     * @throws IllegalArgumentException naming the option of a name that is null or empty
     */
    public ReplacementNames {
        String[] given = {all, noExtension, basename, dirname, sequence, slot, basenameNoExtension, parens};
        String[] options = {"-I", "--er", "--bnr", "--dnr", "--seqreplace", "--slotreplace", "--bner", "--parens"};
        for (int i = 0; i < given.length; i++) {
            if (given[i] == null || given[i].isEmpty()) {
                throw new IllegalArgumentException(options[i] + ": the replacement string must not be empty");
            }
        }
    }

    /** These names with {@code all} for every argument. */
    public ReplacementNames withAll(String all) {
        return new ReplacementNames(all, noExtension, basename, dirname, sequence, slot, basenameNoExtension, parens);
    }

    /** The string that opens a Perl expression: the first half of {@link #parens} (the shorter one when its length is odd). */
    public String parensLeft() {
        return parens.substring(0, parens.length() / 2);
    }

    /** The string that closes a Perl expression: the rest of {@link #parens}. */
    public String parensRight() {
        return parens.substring(parens.length() / 2);
    }

    /** Whether only {@link #all} may differ from GNU parallel's names. */
    boolean onlyAllRenamed() {
        return withAll(DEFAULT.all).equals(DEFAULT);
    }

    /**
     * The strings with what each stands for, as GNU parallel renames them: its defaults, each
     * renamed in its order ({@code -I}, {@code --er}, {@code --bnr}, {@code --dnr},
     * {@code --seqreplace}, {@code --slotreplace}, {@code --bner}), so a name given twice ends as
     * the later rename leaves it. The values are the defaults' names ({@code "{}"}, {@code "{.}"} ...).
     */
    Map<String, String> table() {
        Map<String, String> t = new LinkedHashMap<>();
        for (String d : new String[] {"{}", "{#}", "{%}", "{/}", "{//}", "{/.}", "{.}"}) {
            t.put(d, d);
        }
        String[][] renames = {{"{}", all}, {"{.}", noExtension}, {"{/}", basename}, {"{//}", dirname},
            {"{#}", sequence}, {"{%}", slot}, {"{/.}", basenameNoExtension}};
        for (String[] r : renames) {
            if (!r[0].equals(r[1])) {
                t.put(r[1], t.remove(r[0])); // a later name may take an earlier one's: --er {/} --bnr X
            }
        }
        return t;
    }
}
