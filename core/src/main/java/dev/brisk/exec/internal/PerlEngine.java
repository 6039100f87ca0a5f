// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.EnvText;
import dev.brisk.exec.ExecException;
import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorInput;
import dev.brisk.internal.posix.DescriptorOutput;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.ProgramPath;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.posix.WaitStatus;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The one {@code perl} of a run that evaluates its {@code {= perl expression =}}s and
 * {@code --rpl} strings, as GNU parallel evaluates them in itself: each expression compiled once
 * as {@code sub { no strict; no warnings; my $job = shift; EXPR }} in package {@code Arg}, run
 * with {@code $_} as the argument and {@code @arg} as the job's arguments; {@code seq()},
 * {@code slot()}, {@code total_jobs()} (also as {@code $Global::JobQueue->total_jobs()}),
 * {@code $Global::total_completed}, {@code Q()}, {@code pQ()}, {@code uq()}, {@code skip()},
 * {@code hash()}, the time functions and {@code $job->seq()}, {@code $job->slot()},
 * {@code $job->skip()} as GNU defines them; GNU's own {@code ::shell_quote}, {@code ::Q},
 * {@code ::pQ} and its {@code File::Basename} imports ({@code ::dirname}, {@code ::basename},
 * {@code ::fileparse}, loaded when first called) in package {@code main}.
 *
 * <p>The wire is length-prefixed frames on a pipe each way (numbers big-endian): {@code C},
 * the count and each expression as a 4-byte length and its bytes, answered {@code K} or
 * {@code F} and the message; {@code E}, the expression's index, the job's sequence number
 * (8 bytes), the jobs completed (8 bytes), slot, number of arguments, each argument and then {@code $_}, answered by a flags
 * byte (1: {@code uq()}, 2: {@code skip()}, 4: the expression died, 8: it called {@code exit},
 * the value its status) and the value. Started on
 * the first evaluation; thread-safe (one evaluation at a time); {@link #close} ends it.
 */
public final class PerlEngine implements AutoCloseable {
    /** A value of an expression: its bytes, whether {@code uq()} was called, whether {@code skip()} was. */
    public record Value(byte[] bytes, boolean unquoted, boolean skip) {}

    /** The helper; {@code compile} comes first, so an expression sees none of the script's lexical variables. */
    private static final String SCRIPT = """
            package Arg; no strict; no warnings; use POSIX ();
            BEGIN { *CORE::GLOBAL::exit = sub { die bless [defined $_[0] ? int($_[0]) : 0], 'Arg::Exit' } }
            sub compile { eval('sub { no strict; no warnings; my $job = shift; ' . $_[0] . ' }') }
            binmode STDIN; binmode STDOUT;
            our ($unquote, $skip, $total, @arg); my @subs;
            $Global::JobQueue = bless {}, 'Arg::Queue'; sub Arg::Queue::total_jobs { $total }
            sub rd { my $n = shift; my $b = ''; while (length($b) < $n) {
              my $r = sysread(STDIN, $b, $n - length($b), length($b)); CORE::exit(0) unless $r; } $b }
            sub str { rd(unpack('N', rd(4))) }
            sub out { my $s = shift; while (length $s) { my $w = syswrite(STDOUT, $s); CORE::exit(0) unless $w; substr($s, 0, $w) = ''; } }
            sub main::shell_quote_scalar { local $_ = $_[0];
              if (/[^-_.+a-z0-9\\/]/i) { s/'/'"'"'/g; $_ = "'$_'"; s/^''//; s/''$//; return $_; }
              return $_ eq '' ? "''" : $_; }
            sub main::Q { main::shell_quote_scalar($_[0]) }
            sub main::perl_quote_scalar { my $a = $_[0]; $a =~ s/[\\\\\\"\\$\\@]/\\\\$&/go if defined $a; $a }
            sub main::pQ { main::perl_quote_scalar($_[0]) }
            sub main::shell_quote { wantarray ? (map { main::Q($_) } @_) : join(' ', map { main::Q($_) } @_) }
            sub main::dirname { require File::Basename; File::Basename::dirname(@_) }
            sub main::basename { require File::Basename; File::Basename::basename(@_) }
            sub main::fileparse { require File::Basename; File::Basename::fileparse(@_) }
            sub main::uniq { keys %{{ map { $_ => 1 } @_ }} }
            sub main::make_regexp_ungreedy { my $re = shift; my ($class, $esc, $found, $u) = (0, 0, 0, '');
              for my $c (split //, $re) {
                if ($found) { $u .= '?' if $c ne '?'; $found = 0; }
                $u .= $c;
                if ($esc) { $esc = 0; next; } if ($c eq "\\\\") { $esc = 1; next; } if ($c eq '[') { $class = 1; next; }
                if ($class) { $class = 0 if $c eq ']'; next; }
                $found = 1 if $c =~ /[*}+]/; }
              $u .= '?' if $found; $u }
            sub Q { main::Q($_[0]) } sub pQ { main::pQ($_[0]) }
            sub hash { $Global::use{"B"} ||= eval "use B; 1;"; B::hash(@_) }
            sub total_jobs { $total } sub skip { $skip = 1 } sub uq { $unquote = 1 }
            sub seq { $Arg::job->{seq} } sub slot { $Arg::job->{slot} }
            sub Job::seq { $_[0]{seq} } sub Job::slot { $_[0]{slot} } sub Job::skip { $skip = 1 }
            sub t { POSIX::strftime($_[0], localtime(time())) }
            sub yyyy_mm_dd_hh_mm_ss { t("%Y-%m-%dT%H:%M:%S") } sub yyyy_mm_dd_hh_mm { t("%Y-%m-%dT%H:%M") }
            sub yyyy_mm_dd { t("%Y-%m-%d") } sub hh_mm_ss { t("%H:%M:%S") } sub hh_mm { t("%H:%M") }
            sub yyyymmddhhmmss { t("%Y%m%d%H%M%S") } sub yyyymmddhhmm { t("%Y%m%d%H%M") } sub yyyymmdd { t("%Y%m%d") }
            sub hhmmss { t("%H%M%S") } sub hhmm { t("%H%M") }
            while (1) {
              my $op = rd(1);
              if ($op eq 'C') {
                my $n = unpack('N', rd(4)); my $err;
                for my $i (0 .. $n - 1) { my $e = str(); next if defined $err;
                  $subs[$i] = compile($e);
                  $err = "Cannot use $e: $@" unless $subs[$i]; }
                out(defined $err ? pack('a N/a*', 'F', $err) : 'K');
              } elsif ($op eq 'T') {
                ($total, $Global::max_jobs_running) = unpack('Q> N', rd(12));
              } elsif ($op eq 'A') {
                my $n = unpack('N', rd(4)); @arg = (undef, map { str() } 1 .. $n);
              } else {
                my ($i, $seq, $slot);
                ($i, $seq, $Global::total_completed, $slot) = unpack('N Q> Q> N', rd(24));
                local $_ = str(); ($unquote, $skip) = (0, 0);
                local $Arg::job = bless { seq => $seq, slot => $slot }, 'Job';
                my $ok = eval { $subs[$i]->($Arg::job); 1 };
                my $exit = !$ok && ref $@ eq 'Arg::Exit';
                my $v = $exit ? $@->[0] : $ok ? (defined $_ ? "$_" : '') : "$@";
                out(pack('C N/a*', ($unquote ? 1 : 0) | ($skip ? 2 : 0) | ($ok ? 0 : 4) | ($exit ? 8 : 0), $v));
              }
            }
            """;

    private final List<String> expressions;
    private volatile int pid;
    /** True while an evaluation waits for perl's answer: perl is not reaped then, so {@link #kill} may signal its pid. */
    private volatile boolean evaluating;
    private DataOutputStream toPerl;
    private DataInputStream fromPerl;
    private int[] fds;
    private long total;
    private volatile long completed;
    private int maxJobs;
    /** The list perl holds as {@code @arg} (compared by identity), or null. */
    private List<byte[]> sentArgs;

    /** An engine for {@code expressions} (GNU's perl code, as bytes in ISO-8859-1 characters); nothing starts yet. */
    public PerlEngine(List<String> expressions) {
        this.expressions = List.copyOf(expressions);
    }

    /** Whether some expression's text holds {@code word}. */
    public boolean mentions(String word) {
        return expressions.stream().anyMatch(e -> e.contains(word));
    }

    /** {@code total_jobs()} and GNU's {@code $Global::max_jobs_running} (for {@code {0%}}), sent before the next evaluation. */
    public synchronized void context(long totalJobs, int jobs) {
        this.total = totalJobs;
        this.maxJobs = jobs;
        if (toPerl != null) {
            try {
                sendContext();
            } catch (IOException e) {
                throw new ExecException("perl ended: " + e.getMessage());
            }
        }
    }

    /** GNU's {@code $Global::total_completed}: the jobs done so far (those a resumed job log holds too), for the next evaluations. */
    public void completed(long jobs) {
        this.completed = jobs;
    }

    /**
     * The value of expression {@code index} for {@code value} in the job {@code seq} on
     * {@code slot} whose arguments are {@code args}.
     *
     * @throws ExecException if perl cannot run, an expression does not compile (GNU's
     *     "Cannot use EXPR: ..." message) or dies
     */
    public synchronized Value evaluate(int index, byte[] value, List<byte[]> args, long seq, int slot) {
        try {
            if (toPerl == null) {
                start();
            }
            evaluating = true;
            if (args != sentArgs) {
                // @arg, once per list (a job's render evaluates each of its values with the same
                // one: sent with each value, an -X job of N values sent N² of them); as GNU
                // parallel's @arg, an expression's change to it stays for the job's next values
                toPerl.writeByte('A');
                toPerl.writeInt(args.size());
                for (byte[] a : args) {
                    toPerl.writeInt(a.length);
                    toPerl.write(a);
                }
                sentArgs = args;
            }
            toPerl.writeByte('E');
            toPerl.writeInt(index);
            toPerl.writeLong(seq);
            toPerl.writeLong(completed);
            toPerl.writeInt(slot);
            toPerl.writeInt(value.length);
            toPerl.write(value);
            toPerl.flush();
            int flags = fromPerl.readUnsignedByte();
            byte[] v = new byte[fromPerl.readInt()];
            fromPerl.readFully(v);
            if ((flags & 8) != 0) {
                throw ExecException.exited((int) Long.parseLong(new String(v, StandardCharsets.US_ASCII).strip()));
            }
            if ((flags & 4) != 0) {
                throw new ExecException(new String(v, StandardCharsets.UTF_8).strip());
            }
            return new Value(v, (flags & 1) != 0, (flags & 2) != 0);
        } catch (IOException e) {
            throw new ExecException("perl, which runs the {= =} expressions, ended"
                    + (e instanceof java.io.EOFException ? "" : ": " + e.getMessage()));
        } finally {
            evaluating = false;
        }
    }

    /**
     * Kills perl if it is computing a value now (an expression that does not end, and the run is
     * stopped by a signal): that evaluation fails. Not synchronized, so it reaches an evaluation
     * that holds the lock; {@link #close} still reaps perl.
     */
    public void kill() {
        int p = pid;
        if (evaluating && p > 0) {
            Libc.signal(p, Signals.SIGKILL);
        }
    }

    private void start() throws IOException {
        ProgramPath.Program perl = ProgramPath.of(Caller.current().getenv("PATH")).find("perl".getBytes(StandardCharsets.US_ASCII));
        if (!perl.found()) {
            throw new ExecException("perl is needed for {= =} and --rpl, and there is none on PATH: " + Errno.message(perl.errno()));
        }
        int[] in = Libc.pipe();
        int[] out = Libc.pipe();
        List<byte[]> argv = new ArrayList<>();
        argv.add("perl".getBytes(StandardCharsets.US_ASCII));
        argv.add("-e".getBytes(StandardCharsets.US_ASCII));
        argv.add(SCRIPT.getBytes(StandardCharsets.US_ASCII));
        List<byte[]> env = new ArrayList<>();
        Caller.current().environment().forEach((k, v) -> env.add(EnvText.entry(k, v)));
        try (Spawn spawn = new Spawn()) {
            spawn.dup2(in[0], 0).dup2(out[1], 1).closeFrom(3).defaultSignals(Spawn.CALLER_IGNORED | Signals.GLIBC_INTERNAL);
            pid = spawn.start(perl.path(), argv, env);
        } finally {
            Libc.close(in[0]);
            Libc.close(out[1]);
        }
        if (pid <= 0) {
            Libc.close(in[1]);
            Libc.close(out[0]);
            throw new ExecException("cannot run perl: " + Errno.message(pid < 0 ? -pid : Errno.ENOENT));
        }
        fds = new int[] {in[1], out[0]};
        toPerl = new DataOutputStream(new BufferedOutputStream(new DescriptorOutput(in[1], Caller.SELF), 8192));
        InputStream raw = new DescriptorInput(out[0], Caller.SELF);
        fromPerl = new DataInputStream(new BufferedInputStream(raw, 8192));
        sendContext();
        toPerl.writeByte('C');
        toPerl.writeInt(expressions.size());
        for (String e : expressions) {
            byte[] b = e.getBytes(StandardCharsets.ISO_8859_1);
            toPerl.writeInt(b.length);
            toPerl.write(b);
        }
        toPerl.flush();
        if (fromPerl.readUnsignedByte() != 'K') {
            byte[] msg = new byte[fromPerl.readInt()];
            fromPerl.readFully(msg);
            throw new ExecException(new String(msg, StandardCharsets.UTF_8)); // GNU's text: perl's message, its newline kept
        }
    }

    private void sendContext() throws IOException {
        toPerl.writeByte('T');
        toPerl.writeLong(total);
        toPerl.writeInt(maxJobs);
        toPerl.flush();
    }

    /** Ends perl (end of its input) and reaps it; the engine starts again if asked for a value. */
    @Override
    public synchronized void close() {
        if (toPerl == null) {
            return;
        }
        for (int fd : fds) {
            Libc.close(fd);
        }
        toPerl = null;
        fromPerl = null;
        sentArgs = null;
        WaitStatus.waitFor(pid); // between evaluations: it ends at the end of its input
    }
}
