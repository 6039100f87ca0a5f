// SPDX-License-Identifier: Apache-2.0
// What one system call costs through brisk's Syscall (getppid, 1M calls, 3 rounds), and how this
// JVM makes it: by JNI (the default on x86-64), through the FFM linker (-Dbrisk.syscall=ffm) or
// through the C library's syscall(2) (-Dbrisk.syscall=libc). Run from the source tree after a build:
//   java --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1 [-Dbrisk.syscall=ffm] \
//       -cp core/target/classes bench/SyscallCost.java
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Syscall;
import java.lang.foreign.MemorySegment;

void main() {
    MemorySegment state = Errno.newState();
    long nr = "aarch64".equals(System.getProperty("os.arch")) ? 173 : 110; // getppid
    long t0 = System.nanoTime();
    long ppid = Syscall.call6(state, nr, 0, 0, 0, 0, 0, 0);
    System.out.printf("%s: first call (binding included) %d us, getppid %d%n", Syscall.how(), (System.nanoTime() - t0) / 1000, ppid);
    for (int round = 0; round < 3; round++) {
        long s = System.nanoTime();
        for (int i = 0; i < 1_000_000; i++) {
            Syscall.call6(state, nr, 0, 0, 0, 0, 0, 0);
        }
        System.out.printf("%d ns/call%n", (System.nanoTime() - s) / 1_000_000);
    }
}
