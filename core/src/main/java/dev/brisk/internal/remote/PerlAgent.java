// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.remote;

/**
 * The agent brisk runs where the host has {@code perl} (every Debian system does: {@code
 * perl-base} is essential), in place of the {@code sh} one of {@link AgentScript}: the same
 * frames back, cheaper per job. The {@code sh} agent pays, for every job, a wrapper process, the
 * job's subshell, a FIFO line read a byte at a time and a {@code cat} to send the output; here one
 * Perl process multiplexes everything with {@code select}, each slot keeps one warm {@code sh}
 * that forks the job's subshell (the job's only process, as in the local pool), and Perl reads the
 * output files and sends the frame itself. The files live where the boot script says
 * ({@link AgentScript}: {@code $TMPDIR} when it is set, and not to {@code /tmp}, else {@code /dev/shm} when it has room,
 * where a job's output costs no disk journal: 3,000 short jobs on 6 slots took a quarter less time
 * here; else {@code /tmp}).
 *
 * <p>Requests are length-prefixed instead of shell code (one line of numbers, then the byte
 * strings the line announces), so nothing is quoted or parsed twice:
 * <ul>
 * <li>{@code j SEQ SLOT MODE LEN} + the job's text, MODE 0 for a subshell, 1 for a process group
 *     of its own, 2 for the slot's shell itself, 3 for the slot's shell with no redirection but
 *     the output's ({@link RemoteShell.Launch}). A job sent while the slot's job runs goes
 *     to the slot's shell at once, which starts it as soon as the running one ends, with no
 *     round trip through Perl; the two write to alternate output files, so the first one's are
 *     read while the second runs (a third waits in Perl);</li>
 * <li>{@code k SLOT SIGNAL}: signal the slot's job's process group (only jobs sent with MODE 1
 *     have one, and only they can be signalled: the others go with the agent's own group);</li>
 * <li>{@code f DIRLEN PATHLEN LEN} + directory, path, content: write a transferred file;</li>
 * <li>{@code g SEQ LEN...} + paths: send the files back ({@code R} frames, then {@code d SEQ});</li>
 * <li>{@code c LEN...} + paths: remove files;</li>
 * <li>{@code p N}: answer {@code p N}.</li>
 * </ul>
 *
 * <p>Signals (scancel, a time limit, a hang-up) and the end of the channel stop the agent before
 * it sends another frame: it signals every job and slot shell (TERM, then KILL after a second),
 * its process group, removes its directory and exits. The boot script carries the Perl source
 * quoted by {@link dev.brisk.internal.shell.ShellQuote}.
 */
final class PerlAgent {
    /** The protocol version in this agent's hello frame. */
    static final int VERSION = 2;

    private PerlAgent() {}

    /**
     * The program for {@code perl -e}; its arguments: cores (empty: count them), 1 when {@code setsid} exists, the
     * connection's boundary, the echo shim (shell code, may be empty), the directory for its own,
     * the host's name (in its directory's name, {@code brisk-agent.PID.HOST.RANDOM}).
     */
    static final String PROGRAM = """
            use strict;
            # POSIX and File::Path are loaded only where used (each costs a start-up as long as
            # perl itself); a host without them gets the sh agent (exit 98: the boot script goes on)
            BEGIN { for my $m ("POSIX.pm", "File/Path.pm") { exit 98 unless grep { -f "$_/$m" } @INC } }
            my ($cores, $groups, $boundary, $shim, $base, $host) = @ARGV;
            # as nproc counts them (the processors this process may run on), without starting it
            if (!$cores) {
              $cores = 0;
              if (!defined $ENV{OMP_NUM_THREADS} && !defined $ENV{OMP_THREAD_LIMIT} && open(my $h, "<", "/proc/self/status")) {
                while (<$h>) {
                  next unless /^Cpus_allowed_list:\\s*([\\d,-]+)/;
                  $cores += /^(\\d+)-(\\d+)$/ ? $2 - $1 + 1 : 1 for split /,/, $1;
                }
              }
              $cores ||= int(`nproc 2>/dev/null` || 1);
            }
            my $sep = "\\037brisk:$boundary\\036";
            my $dir;
            for (1 .. 100) {
              # named as the sh agent's directory: the boot script removes one a killed agent left
              my $d = sprintf("%s/brisk-agent.%d.%s.%08x", $base, $$, $host, int(rand(4294967296)));
              if (mkdir $d, 0700) { $dir = $d; last }
            }
            exit 97 unless defined $dir;
            # held locked while the agent runs (the boot script removes a killed agent's directory
            # only when it can take this lock); locked before it has its name; close-on-exec, so no
            # slot shell or job holds it (LOCK_EX | LOCK_NB: 2 | 4, without loading Fcntl)
            my $lock;
            rename("$dir/.lock", "$dir/lock") if open($lock, ">", "$dir/.lock") && flock($lock, 6);
            my $quit = 0;
            $SIG{$_} = sub { $quit = 1 } for qw(TERM HUP INT);
            $SIG{PIPE} = "IGNORE";
            binmode STDIN; binmode STDOUT;
            my %slot;
            my $in = "";
            sub q1 { my $s = shift; $s =~ s/\\x27/\\x27\\\\\\x27\\x27/g; return "\\x27$s\\x27" }
            sub put {
              my ($h, $d) = @_;
              while (length $d) {
                my $n = syswrite($h, $d);
                if (!defined $n) { return 0 if $quit || !$!{EINTR}; next }
                substr($d, 0, $n) = "";
              }
              return 1;
            }
            sub out { $quit = 1 unless $quit || put(\\*STDOUT, $_[0]) }
            sub stream {
              my $f = shift;
              open(my $h, "<:raw", $f) or return;
              my $b;
              while (!$quit && sysread($h, $b, 1048576)) { out($b) }
              close $h;
            }
            sub slurp {
              my $f = shift;
              open(my $h, "<:raw", $f) or return "";
              local $/;
              my $c = <$h>;
              close $h;
              return defined $c ? $c : "";
            }
            # the first N bytes of a file, with no PerlIO layer and no read to learn of its end
            sub head {
              my ($f, $n) = @_;
              sysopen(my $h, $f, 0) or return "";
              binmode $h; # PERL5OPT=-CD would give it a :utf8 layer, where sysread dies
              my $c = "";
              1 while length($c) < $n && sysread($h, $c, $n - length($c), length($c));
              close $h;
              return $c;
            }
            sub start {
              my $s = shift;
              pipe(my $cr, my $cw) or return;
              pipe(my $sr, my $sw) or return;
              my $pid = fork;
              return unless defined $pid;
              if ($pid == 0) {
                # the shell reads its commands from fd 0 and writes its status lines to fd 1, the
                # status pipe; a job's output goes to the slot's files, opened by path for each
                # job, so the shell holds no other descriptor that every job must close (dash saves
                # and restores each redirection of a job it runs itself: the five closes this
                # took cost ~25 system calls a job); all output is written with syswrite, so
                # closing flushes nothing twice
                close($_->{cw}), close($_->{sr}) for values %slot;
                close $cw; close $sr;
                open(STDIN, "<&", $cr);
                open(STDOUT, ">&", $sw);
                close $cr; close $sw;
                $SIG{$_} = "DEFAULT" for qw(PIPE TERM HUP INT);
                exec("/bin/sh", "-s") or do { require POSIX; POSIX::_exit(127) };
              }
              close $cr; close $sw;
              binmode $cw; binmode $sr;
              my $o = "$dir/$s.o"; my $e = "$dir/$s.e"; my $p = "$dir/$s.p";
              # __bj SEQ MODE TEXT SET: the job's output goes to the slot's files of SET (0 or 1),
              # so that the next job can be queued while Perl reads the last one's. Opened to
              # append, as a local job's files are: a job that writes to them through a second
              # open (echo a >/dev/stderr; echo b >&2) keeps both writes; Perl empties them
              my $to = ">>" . q1($o) . "\\$4 2>>" . q1($e) . "\\$4";
              my $code = "__bshim=" . q1($shim) . "\\neval \\"\\$__bshim\\"\\n"
                . "__bj() {\\n"
                . " if [ \\"\\$2\\" = 1 ]; then\\n"
                . "  PARALLEL_SEQ=\\$1 PARALLEL_JOBSLOT=$s setsid /bin/sh -c \\"\\$__bshim\\"\\x27\\neval \\"set --; \\$1\\"\\x27 sh \\"\\$3\\""
                . " </dev/null $to &\\n"
                . "  printf -- -%d \\$! >" . q1($p) . "\\n"
                . "  wait \\$!\\n"
                . " elif [ \\"\\$2\\" = 2 ]; then\\n"
                . "  PARALLEL_SEQ=\\$1; PARALLEL_JOBSLOT=$s; export PARALLEL_SEQ PARALLEL_JOBSLOT\\n"
                . "  { eval \\"\\$3\\"; } </dev/null $to\\n"
                . " elif [ \\"\\$2\\" = 3 ]; then\\n"
                . "  { eval \\"\\$3\\"; } $to\\n"
                . " else\\n"
                . "  ( PARALLEL_SEQ=\\$1; PARALLEL_JOBSLOT=$s; export PARALLEL_SEQ PARALLEL_JOBSLOT; unset -f __bj; eval \\"set --; \\$3\\" )"
                . " </dev/null $to\\n"
                . " fi\\n"
                . " printf \\x27x %d\\\\n\\x27 \\$?\\n"
                . "}\\n";
              put($cw, $code) or return;
              $slot{$s} = { shell => $pid, cw => $cw, sr => $sr, buf => "", sent => [], queue => [], flip => 0, o => $o, e => $e, p => $p };
              return $slot{$s};
            }
            sub dispatch {
              my ($x, $seq, $g, $text) = @_;
              my $set = ($x->{flip} ^= 1);
              my $mode = $g >= 2 ? $g : $g && $groups ? 1 : 0;
              push @{$x->{sent}}, [$seq, $set, $mode == 1];
              put($x->{cw}, "__bj $seq $mode " . q1($text) . " $set\\n") or $quit = 1;
            }
            sub frame {
              my ($s, $st) = @_;
              my $x = $slot{$s};
              my ($seq, $set, $grouped) = @{shift @{$x->{sent}}};
              truncate($x->{p}, 0) if $grouped;
              my ($o, $e) = ($x->{o} . $set, $x->{e} . $set);
              my ($so, $se) = (-s $o || 0, -s $e || 0);
              if ($so + $se < 1048576) {
                out("x $seq $s $st\\n" . ($so ? head($o, $so) : "") . $sep . ($se ? head($e, $se) : "") . $sep);
              } else {
                out("x $seq $s $st\\n"); stream($o); out($sep); stream($e); out($sep);
              }
              truncate($o, 0) if $so;
              truncate($e, 0) if $se;
              feed($x);
            }
            # a busy shell is given only a text that fits in its pipe: a longer one would block
            # Perl, and every slot with it, until the running job ends
            sub feed {
              my $x = shift;
              while (@{$x->{queue}} && !$quit
                  && (!@{$x->{sent}} || @{$x->{sent}} < 2 && length($x->{queue}[0][2]) <= 4096)) {
                dispatch($x, @{shift @{$x->{queue}}});
              }
            }
            sub request {
              return 0 unless $in =~ /\\A([^\\n]*)\\n/;
              my $line = $1;
              my @f = split / /, $line;
              my $op = $f[0];
              my @lens = $op eq "j" ? ($f[4]) : $op eq "f" ? @f[1 .. 3] : $op eq "g" ? @f[2 .. $#f] : $op eq "c" ? @f[1 .. $#f] : ();
              my $need = length($line) + 1;
              $need += $_ for @lens;
              return 0 if length($in) < $need;
              my $at = length($line) + 1;
              my @b;
              for my $l (@lens) { push @b, substr($in, $at, $l); $at += $l }
              substr($in, 0, $need) = "";
              if ($op eq "j") {
                my ($seq, $s, $g) = @f[1 .. 3];
                my $x = $slot{$s} || start($s) or do { $quit = 1; return 1 };
                push @{$x->{queue}}, [$seq, $g, $b[0]];
                feed($x);
              } elsif ($op eq "k") {
                my $x = $slot{$f[1]};
                my $job = $x && @{$x->{sent}} ? slurp($x->{p}) : "";
                kill($f[2], $job) if $job =~ /\\A-?[1-9]\\d*\\z/;
              } elsif ($op eq "f") {
                unless (-d $b[0]) { require File::Path; File::Path::mkpath($b[0]) }
                if (open(my $h, ">:raw", $b[1])) { print $h $b[2]; close $h }
              } elsif ($op eq "g") {
                my $r = "";
                for my $p (@b) {
                  if (-f $p) { out("R $f[1] " . (-s _) . "\\n"); stream($p) } else { out("R $f[1] -1\\n") }
                }
                out("d $f[1]\\n");
              } elsif ($op eq "c") {
                unlink @b;
              } elsif ($op eq "p") {
                out("p $f[1]\\n");
              }
              return 1;
            }
            out("h 2 $cores $groups\\n");
            # every host has a slot 1: its shell starts while the hello travels and the first job comes back
            start(1);
            while (!$quit) {
              my $rin = "";
              vec($rin, 0, 1) = 1;
              for my $x (values %slot) { vec($rin, fileno($x->{sr}), 1) = 1 }
              my $n = select(my $rout = $rin, undef, undef, undef);
              last if $quit;
              if ($n < 0) { next if $!{EINTR}; last }
              for my $s (keys %slot) {
                my $x = $slot{$s};
                next unless vec($rout, fileno($x->{sr}), 1);
                my $r = sysread($x->{sr}, $x->{buf}, 4096, length $x->{buf});
                if (!$r) { next if !defined $r && $!{EINTR}; $quit = 1; last }
                frame($s, $1) while $x->{buf} =~ s/\\Ax (\\d+)\\n//;
              }
              if (vec($rout, 0, 1)) {
                my $r = sysread(STDIN, $in, 65536, length $in);
                if (!defined $r) { next if $!{EINTR}; last }
                last if $r == 0;
                1 while !$quit && request();
              }
            }
            $quit = 1;
            $SIG{$_} = "IGNORE" for qw(TERM HUP INT);
            my @jobs = grep { /\\A-?[1-9]\\d*\\z/ } map { slurp($_->{p}) } grep { @{$_->{sent}} } values %slot;
            kill("TERM", @jobs) if @jobs;
            kill("TERM", map { $_->{shell} } values %slot);
            kill("TERM", -getpgrp());
            for (1 .. 10) {
              last unless grep { kill(0, $_) } @jobs;
              select(undef, undef, undef, 0.1);
            }
            kill("KILL", @jobs) if @jobs;
            require File::Path;
            File::Path::rmtree($dir);
            kill("KILL", -getpgrp());
            """;
}
