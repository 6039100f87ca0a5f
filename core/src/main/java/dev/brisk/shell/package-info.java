// SPDX-License-Identifier: Apache-2.0
/**
 * A pool of warm shells that runs commands with exact exit codes, separate byte-exact output,
 * timeouts that kill whole process groups, and no state leaking between commands.
 *
 * <p>Start with {@link dev.brisk.shell.ShellPool#builder()}; describe a command with
 * {@link dev.brisk.shell.Command}; read its {@link dev.brisk.shell.CommandResult}. A
 * {@link dev.brisk.shell.ShellSession} keeps shell state (cd, variables, functions) between the
 * commands of one caller.
 */
package dev.brisk.shell;
