// SPDX-License-Identifier: Apache-2.0
/**
 * brisk's library: a pool of warm shells ({@link dev.brisk.shell}), a job runner ({@link dev.brisk.exec}), a pipe meter ({@link dev.brisk.meter}). JDK only; the restricted
 * foreign-function calls it makes need {@code --enable-native-access=dev.brisk.core} (or
 * {@code ALL-UNNAMED} on the class path).
 */
module dev.brisk.core {
    exports dev.brisk.shell;
    exports dev.brisk.exec;
    exports dev.brisk.meter;
    exports dev.brisk.walk;
    exports dev.brisk.find;
}
