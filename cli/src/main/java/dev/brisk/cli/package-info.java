// SPDX-License-Identifier: Apache-2.0
/**
 * The {@code brisk} command: a thin picocli adapter that parses flags, calls the library and maps
 * the outcome to an {@link dev.brisk.cli.ExitCode}.
 */
package dev.brisk.cli;
