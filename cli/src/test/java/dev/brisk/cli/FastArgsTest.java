package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FastArgsTest {
    private static PvCommand parse(boolean ok, String... args) {
        PvCommand c = new PvCommand();
        assertThat(FastArgs.parse(c, args)).isEqualTo(ok);
        return c;
    }

    @Test
    void clustersAttachedValuesAndLongForms() {
        PvCommand c = parse(true, "-ptb", "-L10k", "-s", "5", "--name=x y", "--interval", "0.5", "-EE", "f1", "-", "f2");
        assertThat(c.progress && c.timer && c.bytes).isTrue();
        assertThat(c.rateLimit).isEqualTo("10k");
        assertThat(c.size).isEqualTo("5");
        assertThat(c.name).isEqualTo("x y");
        assertThat(c.interval).isEqualTo("0.5");
        assertThat(c.skipErrors).hasSize(2);
        assertThat(c.files).containsExactly("f1", "-", "f2");
    }

    @Test
    void valueTakesTheRestOfAClusterAndTheNextWordAsIs() {
        PvCommand c = parse(true, "-qL", "-5", "-s=3", "--", "-n");
        assertThat(c.quiet).isTrue();
        assertThat(c.rateLimit).isEqualTo("-5"); // as getopt: pv then rejects it
        assertThat(c.size).isEqualTo("=3");
        assertThat(c.numeric).isFalse();
        assertThat(c.files).isEqualTo(List.of("-n"));
    }

    @Test
    void anythingElseIsLeftToPicocli() {
        parse(false, "--bogus");
        parse(false, "-pZ");
        parse(false, "-L");
        parse(false, "--size");
        parse(false, "--quiet=yes");
        parse(false, "-h");
        parse(false, "--version");
    }
}
