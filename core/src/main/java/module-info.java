// SPDX-License-Identifier: Apache-2.0
/**
 * brisk's library: a pool of warm shells ({@link dev.brisk.shell}),
 * served to other programs over a Unix socket ({@link dev.brisk.serve}), a job runner
 * ({@link dev.brisk.exec}), a pipe meter ({@link dev.brisk.meter}), a tree walker
 * ({@link dev.brisk.walk}) and a find(1) work-alike built on it ({@link dev.brisk.find}). JDK
 * only; every system call goes through one internal layer ({@code dev.brisk.internal.posix},
 * not exported), whose restricted foreign-function calls need
 * {@code --enable-native-access=dev.brisk.core} (or {@code ALL-UNNAMED} on the class path).
 */
module dev.brisk.core {
    requires jdk.net;

    exports dev.brisk.shell;
    exports dev.brisk.serve;
    exports dev.brisk.exec;
    exports dev.brisk.meter;
    exports dev.brisk.walk;
    exports dev.brisk.find;
}
