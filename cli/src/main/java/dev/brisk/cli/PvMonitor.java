// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.internal.posix.Caller;
import dev.brisk.meter.Input;
import dev.brisk.meter.Meter;
import dev.brisk.meter.MeterOptions;
import dev.brisk.meter.MonitoredCommand;
import dev.brisk.meter.MonitoredCommand.Side;
import dev.brisk.meter.Output;
import dev.brisk.meter.RateLimiter;
import dev.brisk.meter.RateStats;
import dev.brisk.meter.StderrDisplay;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code brisk pv -M in|out|both COMMAND [ARG...]}: runs COMMAND with its standard input fed from
 * ours through a meter ({@code in}), its standard output metered to ours ({@code out}), or both on
 * two rows named {@code in} and {@code out} ({@code NAME in}, {@code NAME out} with {@code -N};
 * numeric lines start with {@code in } or {@code out }). The status is pv's own when pv met a
 * problem, else the command's (128 + N for signal N); 127 or 126 when it cannot start. SIGINT,
 * SIGTERM and SIGHUP are passed on to the command ({@link MonitoredCommand#relay}) and pv goes
 * on until the command's pipes close.
 */
final class PvMonitor {
    private static final String PROGRAM = "brisk pv";
    private static final String[] SIGNALS = {"INT", "TERM", "HUP"};
    private static final int SIGTERM = 15;

    private PvMonitor() {}

    /** Whether a command line asks for -M (for picocli's parser, which must then stop at the command). */
    static boolean requested(String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (a.startsWith("--monitor") || a.startsWith("-") && !a.startsWith("--") && a.indexOf('M') > 0) {
                return true;
            }
        }
        return false;
    }

    static int run(PvCommand cmd, MeterOptions options) {
        Side side = Side.named(cmd.monitor);
        String usage = side == null ? "-M: " + cmd.monitor + ": mode must be in, out or both"
                : cmd.files.isEmpty() ? "-M: a command to run is expected"
                : !cmd.watch.isEmpty() ? "-M: cannot monitor a command when watching file descriptors"
                : cmd.remote != null || cmd.query != null ? "-M: cannot monitor a command with remote control or query"
                : cmd.storeAndForward != null ? "-M: cannot monitor a command with store and forward"
                : side == Side.IN && (cmd.output != null || cmd.discard) ? "-M in: the command's output is its own (no -o or -X)"
                : null;
        if (usage != null) {
            cmd.err().println(PROGRAM + ": " + usage);
            return PvExit.USAGE.bit();
        }
        Path pidPath = null;
        if (cmd.pidfile != null) {
            try {
                pidPath = PidFile.write(cmd.pidfile);
            } catch (IOException e) {
                cmd.err().println(PROGRAM + ": " + cmd.pidfile + ": " + e.getMessage());
                return 1;
            }
        }
        RateStats rates = cmd.stats ? new RateStats() : null;
        Relay relay = Relay.install(); // before the start: a signal from then on reaches the command
        try (MonitoredCommand command = MonitoredCommand.start(RawArgs.of(cmd.files), side)) {
            relay.to(command);
            Meter in = null;
            Meter out = null;
            if (side == Side.BOTH) {
                cmd.cursor = true; // two meters on one terminal: a row each
                in = cmd.meter(options, rowName(cmd.name, "in"), "in ", new AtomicReference<>(), rates, true);
                // the output's own limiter at the same rate; -s and -S speak of the input
                RateLimiter limit = options.rateLimiter().bytesPerSecond() > 0
                        ? new RateLimiter(options.rateLimiter().bytesPerSecond()) : RateLimiter.unlimited();
                MeterOptions outOptions = options.toBuilder().size(-1).stopAtSize(false).rateLimiter(limit).build();
                out = cmd.meter(outOptions, rowName(cmd.name, "out"), "out ", new AtomicReference<>(), null, false);
            } else if (side == Side.IN) {
                in = cmd.meter(options, cmd.name, "", new AtomicReference<>(), rates, true);
            } else {
                out = cmd.meter(options, cmd.name, "", new AtomicReference<>(), rates, true);
            }
            Output output = cmd.discard ? Output.discard()
                    : cmd.output != null ? Output.file(cmd.output.getBytes(StandardCharsets.UTF_8)) : Output.stdout();
            MonitoredCommand.Result r = command.run(in, List.of(Input.stdin()), out, output);
            int own = (r.input() == null ? 0 : PvExit.of(r.input())) | (r.output() == null ? 0 : PvExit.of(r.output()));
            return own != 0 ? own : r.status();
        } catch (MonitoredCommand.StartException e) {
            cmd.err().println(PROGRAM + ": " + e.getMessage());
            return e.status();
        } catch (IOException e) {
            cmd.err().println(PROGRAM + ": " + e.getMessage());
            return PvExit.ACCESS.bit();
        } catch (PvCommand.BadValue e) {
            throw new AssertionError(e); // checked before
        } finally {
            if (rates != null) {
                cmd.err().println(rates.summary(cmd.bits));
            }
            PidFile.remove(pidPath);
        }
    }

    private static String rowName(String name, String side) {
        return name == null ? side : name + " " + side;
    }

    /**
     * Passes SIGINT, SIGTERM and SIGHUP on to the command instead of exiting the JVM, through
     * {@code sun.misc.Signal} (module jdk.unsupported, there for this), found reflectively because
     * javac flags it as internal API. A signal that comes before the command has started is
     * passed on as soon as it has. Without that module the JVM's shutdown runs instead: a hook
     * then sends SIGTERM to the command and exits with its status. A warm server's call (which
     * {@link PvCommand#directReason} sends back to run directly, so only when the server runs it
     * anyway) installs no handler, which would be the whole JVM's: the client's exit hook passes
     * its signal on.
     */
    private static final class Relay {
        private MonitoredCommand command;
        private int pending;
        private boolean hooked;

        static Relay install() {
            Relay relay = new Relay();
            Caller caller = Caller.current();
            if (!caller.self()) {
                caller.addExitHook(new Thread(() -> relay.signalled(caller.signal() != 0 ? caller.signal() : SIGTERM)));
                return relay;
            }
            try {
                Class<?> signal = Class.forName("sun.misc.Signal");
                Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
                Method number = signal.getMethod("getNumber");
                Object handler = Proxy.newProxyInstance(PvMonitor.class.getClassLoader(), new Class<?>[] {handlerType},
                        (proxy, method, args) -> switch (method.getName()) {
                            case "handle" -> {
                                relay.signalled((Integer) number.invoke(args[0]));
                                yield null;
                            }
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> "brisk pv -M signal relay";
                        });
                Method handle = signal.getMethod("handle", signal, handlerType);
                for (String name : SIGNALS) {
                    handle.invoke(null, signal.getConstructor(String.class).newInstance(name), handler);
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                relay.hooked = true;
            }
            return relay;
        }

        synchronized void signalled(int signal) {
            if (command != null) {
                command.relay(signal);
            } else {
                pending = signal;
            }
        }

        synchronized void to(MonitoredCommand started) {
            command = started;
            if (pending != 0) {
                started.relay(pending);
            }
            if (hooked) {
                Main.endOnSignal(() -> {
                    started.relay(SIGTERM);
                    return started.waitFor();
                });
            }
        }
    }
}
