// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Slurm's hostlist and CPU-count syntax, the allocation from the environment, and the srun command line. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SlurmAllocationTest {
    @TempDir
    Path bin;

    private static final SlurmAllocation.HostNames NO_SCONTROL = list -> {
        throw new IOException("no scontrol here");
    };

    @Test
    void expandsHostLists() {
        assertThat(SlurmAllocation.expandHostList("n[1-3,5],gpu01")).containsExactly("n1", "n2", "n3", "n5", "gpu01");
        assertThat(SlurmAllocation.expandHostList("node[08-11]")).containsExactly("node08", "node09", "node10", "node11");
        assertThat(SlurmAllocation.expandHostList("rack[1-2]-n[01-02]")).containsExactly("rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02");
        assertThat(SlurmAllocation.expandHostList("a,b[7],c[9-10]x")).containsExactly("a", "b7", "c9x", "c10x");
        assertThat(SlurmAllocation.expandHostList("n[001-003]")).containsExactly("n001", "n002", "n003");
    }

    @Test
    void refusesBadHostLists() {
        for (String bad : List.of("n[1-3", "n1-3]", "n[3-1]", "n[a-b]", "n[]", "", "n[1-2[3]]")) {
            assertThatThrownBy(() -> SlurmAllocation.expandHostList(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--slurm");
        }
    }

    @Test
    void expandsCpuCounts() {
        assertThat(SlurmAllocation.expandCounts("2(x3),1")).containsExactly(2, 2, 2, 1);
        assertThat(SlurmAllocation.expandCounts("36")).containsExactly(36);
        assertThat(SlurmAllocation.expandCounts("4,8(x2)")).containsExactly(4, 8, 8);
        for (String bad : List.of("", "x", "2(3)", "2(x)", "0", "2(x0)", "2(x3")) {
            assertThatThrownBy(() -> SlurmAllocation.expandCounts(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private Map<String, String> env(String... kv) throws IOException {
        Path srun = bin.resolve("srun");
        if (!Files.exists(srun)) {
            Files.writeString(srun, "#!/bin/sh\nexit 0\n");
            Files.setPosixFilePermissions(srun, PosixFilePermissions.fromString("rwx------"));
        }
        Map<String, String> env = new HashMap<>(Map.of("PATH", bin.toString()));
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return env;
    }

    @Test
    void readsTheAllocationFromTheEnvironment() throws IOException {
        SlurmAllocation a = SlurmAllocation.fromEnvironment(env("SLURM_JOB_ID", "42", "SLURM_JOB_NODELIST", "n[1-3],big",
                "SLURM_JOB_CPUS_PER_NODE", "2(x3),16"), NO_SCONTROL);
        assertThat(a.jobId()).isEqualTo("42");
        assertThat(a.nodes()).containsExactly(new SlurmAllocation.Node("n1", 2), new SlurmAllocation.Node("n2", 2),
                new SlurmAllocation.Node("n3", 2), new SlurmAllocation.Node("big", 16));
        // a list brisk reads is not handed to scontrol (a process to wait for before the first step)
        a = SlurmAllocation.fromEnvironment(env("SLURM_JOB_ID", "8", "SLURM_JOB_NODELIST", "rack[1-2]-n[01-02]"),
                list -> {
                    throw new AssertionError("scontrol asked for " + list);
                });
        assertThat(a.nodes()).extracting(SlurmAllocation.Node::name)
                .containsExactly("rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02");
        // scontrol's answer wins for a list beyond brisk's reader, when it runs
        a = SlurmAllocation.fromEnvironment(env("SLURM_JOB_ID", "7", "SLURM_JOB_NODELIST", "weird{1..2}",
                "SLURM_JOB_CPUS_PER_NODE", "1(x2)"), list -> List.of("w1", "w2"));
        assertThat(a.nodes()).extracting(SlurmAllocation.Node::name).containsExactly("w1", "w2");
    }

    @Test
    void saysWhatIsWrongInOneLine() throws IOException {
        assertThatThrownBy(() -> SlurmAllocation.fromEnvironment(env(), NO_SCONTROL))
                .hasMessage("--slurm: not inside a Slurm allocation (no SLURM_JOB_ID or SLURM_JOB_NODELIST):"
                        + " run it under salloc or sbatch, or use --slurm-submit");
        Map<String, String> noSrun = env("SLURM_JOB_ID", "1", "SLURM_JOB_NODELIST", "n1");
        noSrun.put("PATH", bin.resolve("nothing").toString());
        assertThatThrownBy(() -> SlurmAllocation.fromEnvironment(noSrun, NO_SCONTROL)).hasMessage("--slurm: srun not found on PATH");
        assertThatThrownBy(() -> SlurmAllocation.fromEnvironment(env("SLURM_JOB_ID", "1", "SLURM_JOB_NODELIST", "n[1-2]",
                "SLURM_JOB_CPUS_PER_NODE", "2(x3)"), NO_SCONTROL)).hasMessageContaining("does not match the 2 nodes");
    }

    @Test
    void srunTransportAsksForOneTaskOnTheNodeWithAllItsCpusAndAnUnbufferedChannel() {
        SlurmAllocation a = new SlurmAllocation("42", List.of(new SlurmAllocation.Node("gpu01", 16)));
        SrunTransport t = SrunTransport.of(a, a.nodes().getFirst());
        assertThat(t.host()).isEqualTo("gpu01");
        assertThat(t.command()).containsExactly("srun", "--jobid=42", "--overlap", "--nodes=1", "--ntasks=1",
                "--nodelist=gpu01", "--cpus-per-task=16", "--mem=0", "--unbuffered", "--job-name=brisk", "/bin/sh", "-s");
        assertThatThrownBy(() -> new SrunTransport("42", "", 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
