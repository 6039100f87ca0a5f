// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The wire format's two parsers: frames and a request's fields. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RequestFieldsTest {
    private static byte[] field(char tag, byte[] v) {
        return ByteBuffer.allocate(5 + v.length).put((byte) tag).putInt(v.length).put(v).array();
    }

    private static byte[] fields(byte[]... fs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] f : fs) {
            out.writeBytes(f);
        }
        return out.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void parsesEveryField() {
        RequestFields r = RequestFields.parse(fields(field('c', ascii("echo \377")), field('d', ascii("/tmp")),
                field('e', ascii("A=b=c")), field('i', new byte[] {0, 1}), field('t', ascii("1500")),
                field('m', ascii("10")), field('S', ascii("7"))));
        assertThat(r.script()).isEqualTo(ascii("echo \377"));
        assertThat(r.cwd()).isEqualTo("/tmp");
        assertThat(r.env()).singleElement().satisfies(kv -> assertThat(kv).containsExactly("A", "b=c"));
        assertThat(r.stdin()).containsExactly(0, 1);
        assertThat(r.timeoutMillis()).isEqualTo(1500);
        assertThat(r.maxOutput()).isEqualTo(10);
        assertThat(r.session()).isEqualTo(7);
        assertThat(RequestFields.parse(fields(field('a', ascii("ls")), field('a', ascii("-l")))).argv()).hasSize(2);
    }

    @Test
    void refusesWhatIsMalformed() {
        assertThatThrownBy(() -> RequestFields.parse(new byte[0])).hasMessageContaining("exactly one of");
        assertThatThrownBy(() -> RequestFields.parse(fields(field('c', ascii("x")), field('a', ascii("y")))))
                .hasMessageContaining("exactly one of");
        assertThatThrownBy(() -> RequestFields.parse(fields(field('c', ascii("x")), field('d', ascii("/\377")))))
                .hasMessage("cwd field is not valid UTF-8");
        assertThatThrownBy(() -> RequestFields.parse(fields(field('c', ascii("x")), field('e', ascii("NOEQUALS")))))
                .hasMessageContaining("not NAME=VALUE");
        assertThatThrownBy(() -> RequestFields.parse(fields(field('c', ascii("x")), field('t', ascii("-1")))))
                .hasMessage("timeout is not a decimal number");
        assertThatThrownBy(() -> RequestFields.parse(fields(field('c', ascii("x")), field('S', ascii("0")))))
                .hasMessageContaining("session id out of range");
        assertThatThrownBy(() -> RequestFields.parse(fields(field('c', ascii("x")), field('i', ascii("a")), field('s', new byte[0]))))
                .hasMessageContaining("both inline");
        assertThatThrownBy(() -> RequestFields.parse(fields(field('Q', ascii("x")))))
                .hasMessage("unknown request field 'Q'");
        byte[] lying = ByteBuffer.allocate(7).put((byte) 'c').putInt(100).put((byte) 'x').put((byte) 'y').array();
        assertThatThrownBy(() -> RequestFields.parse(lying)).hasMessage("field 'c' claims 100 bytes, 2 left");
        assertThatThrownBy(() -> RequestFields.parse(new byte[] {'c', 0})).hasMessageContaining("truncated field header");
    }

    @Test
    void framesRoundTripAndTheLimitHolds() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Frame.write(Channels.newChannel(out), Frame.STDOUT, 0xfffffffe, ascii("hello"), 1, 3);
        Frame f = Frame.read(Channels.newChannel(new java.io.ByteArrayInputStream(out.toByteArray())), ByteBuffer.allocate(9));
        assertThat(f.type()).isEqualTo(Frame.STDOUT);
        assertThat(f.id()).isEqualTo(0xfffffffe);
        assertThat(f.payload()).isEqualTo(ascii("ell"));
        assertThat(Frame.read(Channels.newChannel(new java.io.ByteArrayInputStream(new byte[0])), ByteBuffer.allocate(9))).isNull();
        byte[] big = ByteBuffer.allocate(9).put((byte) 'R').putInt(1).putInt(Frame.MAX_PAYLOAD + 1).array();
        assertThatThrownBy(() -> Frame.read(Channels.newChannel(new java.io.ByteArrayInputStream(big)), ByteBuffer.allocate(9)))
                .isInstanceOf(Frame.TooLargeException.class);
        byte[] cut = ByteBuffer.allocate(11).put((byte) 'R').putInt(1).putInt(5).put((byte) 1).put((byte) 2).array();
        assertThatThrownBy(() -> Frame.read(Channels.newChannel(new java.io.ByteArrayInputStream(cut)), ByteBuffer.allocate(9)))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> Frame.read(Channels.newChannel(new java.io.ByteArrayInputStream(new byte[] {'R', 0, 0})), ByteBuffer.allocate(9)))
                .isInstanceOf(EOFException.class);
    }
}
