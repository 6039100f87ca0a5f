// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.util.List;
import java.util.Objects;

/**
 * The arguments of one job: one or more tuples (one value per input source; several tuples with
 * {@code -n}, {@code -m}, {@code -X}), its sequence number ({@code {#}}, from 1) and its job
 * slot ({@code {%}}, from 1). Values are bytes and are not copied: callers must not change them.
 *
 * @param tuples the argument tuples, at least one
 * @param sequence the job number, from 1
 * @param slot the job slot, from 1 (0 before the job is started)
 */
public record JobArgs(List<List<byte[]>> tuples, long sequence, int slot) {
    public JobArgs {
        Objects.requireNonNull(tuples, "tuples");
        tuples = List.copyOf(tuples);
    }

    /** One tuple. */
    public static JobArgs single(List<byte[]> tuple, long sequence, int slot) {
        return new JobArgs(List.of(tuple), sequence, slot);
    }

    /** The same arguments in job slot {@code s}. */
    public JobArgs inSlot(int s) {
        return new JobArgs(tuples, sequence, s);
    }
}
