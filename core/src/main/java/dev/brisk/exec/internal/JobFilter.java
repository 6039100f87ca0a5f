// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.Template;
import java.util.List;

/**
 * GNU parallel's {@code --filter}: each filter is a template whose values go in unquoted, and
 * the text it renders for a job is evaluated as Perl under {@code use strict}, as GNU parallel
 * evaluates it (a bareword such as an unquoted value dies, and counts as false). One
 * {@code perl} for the run, started at the first job; thread-safe; {@link #close} ends it.
 */
final class JobFilter implements AutoCloseable {
    private final List<Template> filters;
    private final PerlEngine perl = new PerlEngine(List.of("use strict; $_ = (eval $_) ? 1 : 0;"));

    JobFilter(List<Template> filters) {
        this.filters = filters;
    }

    /** Whether every filter is true for the job of {@code args}. */
    boolean holds(JobArgs args, Template.Batching batching) {
        for (Template t : filters) {
            byte[] code = t.render(args, batching);
            PerlEngine.Value v = perl.evaluate(0, code, List.of(), args.sequence(), args.slot());
            if (v.bytes().length != 1 || v.bytes()[0] != '1') {
                return false;
            }
        }
        return true;
    }

    /** Stops an evaluation that never ends (a run stopped by a signal). */
    void interrupt() {
        perl.kill();
        filters.forEach(Template::interrupt);
    }

    @Override
    public void close() {
        perl.close();
        filters.forEach(Template::close);
    }
}
