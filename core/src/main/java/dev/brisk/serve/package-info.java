// SPDX-License-Identifier: Apache-2.0
/**
 * {@code brisk serve}: the warm shell pool served over a Unix-domain socket to programs in any
 * language, with the wire protocol of {@code docs/PROTOCOL.md}.
 *
 * <p>{@link dev.brisk.serve.BriskServer} is the server ({@link dev.brisk.serve.ServeOptions},
 * {@link dev.brisk.serve.SocketLocation}); {@link dev.brisk.serve.BriskClient} is the Java
 * client, which speaks in the pool's own {@link dev.brisk.shell.Command} and
 * {@link dev.brisk.shell.CommandResult}.
 */
package dev.brisk.serve;
