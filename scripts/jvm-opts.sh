# SPDX-License-Identifier: Apache-2.0
# Sourced by ./brisk and by the installed /usr/lib/brisk/brisk-jvm: the JVM flags of each subcommand, so
# that the installed brisk starts as the one in a clone does. Builtins only (it runs on every call).
#
# In: $1 = the subcommand (brisk's first argument), jar = brisk.jar, aotdir = where the AOT
# caches live, aot_layered = 1 for the installed package's layout (below). Out: arrays opts, jit,
# replay, entry, train (flags of the training run only); aot = this subcommand's cache, trainer =
# the class whose run trains it. brisk_aot_opts then adds the cache's flags when it exists.
#
# The caches: find's (brisk-find.aot) is a static AOT cache. The other subcommands' is, in a clone
# (./brisk), a second static cache (brisk.aot, ~20 MB); in the Debian package (aot_layered=1), a
# dynamic CDS archive over find's (brisk.jsa, ~6 MB, made with -XX:ArchiveClassesAtExit on top of
# brisk-find.aot): the JDK's classes both use are stored once, and the package's caches take 18.7 MB
# instead of 33 (measured, with start-up times: docs/PACKAGING.md, "Size").
brisk_jvm_opts() {
    # find has an AOT cache of its own: the JVM loads every class of a cache at start-up, and one
    # holding only find's classes starts find ~10 ms sooner than the shared one
    # the FFM linker's and the method handles' one-time code (class-file building, lambda forms),
    # compiled by C1 only after 20 times the usual calls: at start-up it is run a few hundred
    # times, compiled, and never run again
    local s=CompileThresholdScaling
    local late=("-XX:CompileCommand=$s,jdk.internal.classfile.*::*,20.0" "-XX:CompileCommand=$s,java.lang.classfile.*::*,20.0"
        "-XX:CompileCommand=$s,java.lang.invoke.*::*,20.0" "-XX:CompileCommand=$s,jdk.internal.foreign.abi.*::*,20.0"
        "-XX:CompileCommand=$s,jdk.internal.constant.*::*,20.0" "-XX:CompileCommand=$s,sun.invoke.*::*,20.0")
    if [ "${1:-}" = find ]; then
        aot=$aotdir/brisk-find.aot trainer=dev.brisk.cli.FindTraining
        # its own entry point: Main refers to picocli's classes, which the JVM would load from their jar
        entry=(-cp "$jar" dev.brisk.cli.FindMain)
        # no replay of the training's compilations at start-up: it queues hundreds of C1 compilations
        # (mostly of the FFM linker's one-time code) ahead of the walk's own (measured: less CPU, faster)
        replay=(-XX:-AOTReplayTraining)
        # and so no training data recorded either (method profiles, ~0.3 MB of the cache)
        train=(-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining)
        # C1 compiles find's own code after a tenth of the usual calls, and the FFM linker's one-time
        # code (below) only after 20 times as many: ~190 compilations fewer while the walk runs on
        # both cores (measured: ~15 ms of CPU less, the walk's loops compiled sooner)
        jit=(-XX:CompileCommand=quiet "-XX:CompileCommand=$s,dev.brisk.*::*,0.1" "${late[@]}")
    else
        aot=$aotdir/brisk.aot trainer=dev.brisk.cli.AotTraining replay=() entry=(-jar "$jar") train=()
        # the same late compilation of the one-time code for par, pv and the rest: a one-job
        # `brisk par` made ~400 compilations, most of them of that code (measured, 9 runs each:
        # CPU 390 -> 340 ms and 10 ms sooner for `par echo ::: a`, 340 -> 290 ms for `pv -q`; 100,000
        # `echo {}` jobs no slower)
        jit=(-XX:CompileCommand=quiet "${late[@]}")
        if [ "${aot_layered:-}" = 1 ]; then aot=$aotdir/brisk.jsa; fi
    fi
    # -XX:-MaxFDLimit: HotSpot raises its soft open-file limit to the hard one by default, and every
    # command brisk runs (find -exec, par's jobs, the pool's shells) would inherit the raised limit;
    # without it brisk and its children keep the limits brisk was started with, as GNU find's do
    # (brisk never raises its own: the walker sizes its descriptor budget from the soft limit)
    # -XX:-UsePerfData: no /tmp/hsperfdata_USER/PID file per run, and no "Cannot use file
    # /tmp/hsperfdata_... because it is locked by another process" warning on stderr when a JVM
    # of another PID namespace sharing /tmp holds the same number (seen in a test run); it costs
    # jstat and jps their view of brisk, not its speed (measured in session 13: git log -p -- docs/PERFORMANCE-HISTORY.md)
    opts=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss16m -XX:-MaxFDLimit -XX:-UsePerfData --enable-native-access=ALL-UNNAMED)
    if [ "${BRISK_JIT:-}" = full ]; then
        opts=(-XX:+UseParallelGC -XX:-MaxFDLimit -XX:-UsePerfData --enable-native-access=ALL-UNNAMED)
        jit=()
    fi
    # brisk daemon: the warm server (docs/DAEMON.md) lives for many calls, so it takes the full
    # tiered JIT (C2 pays off over hours) whatever BRISK_JIT says, and a serial collector over a
    # small heap that goes back to the system after a burst of calls: it grows by itself but
    # shrinks only at a collection, to at most 30% free (MaxHeapFreeRatio), all at once
    # (-ShrinkHeapInSteps), so an idle server stays small (the target: < 128 MB resident)
    if [ "${1:-}" = daemon ]; then
        opts=(-XX:+UseSerialGC -Xss16m -XX:-MaxFDLimit -XX:-UsePerfData --enable-native-access=ALL-UNNAMED
            -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:-ShrinkHeapInSteps)
        # brisk's own code compiles after a tenth of the usual calls, as find's: a call path runs
        # once per call, and at the usual thresholds a server's par or find code stayed
        # interpreted (tier 0) for its first few hundred calls (jcmd Compiler.codelist)
        jit=(-XX:CompileCommand=quiet "-XX:CompileCommand=$s,dev.brisk.*::*,0.1" "${late[@]}")
        # it shares the other subcommands' cache: trained (when ./brisk finds it stale) with their flags
        train=(-XX:TieredStopAtLevel=1)
    fi
    case ${1:-} in
        # find too: its default heap grew to 140 MB on 1-2M files with -name, -size or -printf
        # (young generation filled before the first collection); with -Xms16m 45 MB, and no
        # slower (bench/scale.sh find, 2026-12-01: git log -p -- docs/PERFORMANCE-HISTORY.md, "Scale")
        find) opts+=(-Xms16m) ;;
        # brisk serve runs for hours: a small young generation keeps its resident memory low (by
        # default the young generation is a third of 1/64 of RAM, touched whole before the first
        # collection)
        serve) opts+=(-Xmn16m) ;;
        # a heap that starts small and grows only when the live data needs it: by default the JVM
        # commits 1/64 of the machine's memory and fills a young generation of a third of it
        # before its first collection, so 1M `brisk par` jobs took 198 MB where their live data is
        # a few MB (58 MB with this; no measurable cost in jobs per second; bench/scale.sh par)
        *) opts+=(-Xms16m) ;;
    esac
}

# ArchiveRelocationMode=0: the JVM maps the cache at the address it was made for instead of a
# random one (the JDK's default since 21, for address-space randomisation), which saves relocating
# every pointer in it: the JVM's own start ("Genesis") 6-13 ms -> 2 ms. The price is that the
# cache's classes sit at a predictable address in brisk's process, as they did before JDK 21.
# A dynamic archive (.jsa) names its base (find's cache) itself, and is given as
# -XX:SharedArchiveFile (-XX:AOTCache takes only a static cache).
brisk_aot_opts() {
    if [ -f "$aot" ] && [ "${BRISK_NO_AOT:-}" != 1 ]; then
        case $aot in
            *.jsa) opts+=(-XX:SharedArchiveFile="$aot") ;;
            *) opts+=(-XX:AOTCache="$aot") ;;
        esac
        opts+=(-Xlog:aot=off -Xlog:cds=off -XX:+UnlockDiagnosticVMOptions
            -XX:ArchiveRelocationMode=0 ${replay[@]+"${replay[@]}"})
    fi
}
