// SPDX-License-Identifier: Apache-2.0
/**
 * A fast tree walker: {@link dev.brisk.walk.Walker} walks roots with {@link dev.brisk.walk.WalkOptions}
 * and hands each {@link dev.brisk.walk.WalkEntry} (path bytes, type, depth, lazy stat) to a
 * {@link dev.brisk.walk.WalkVisitor} or a stream. The engine lives in {@code dev.brisk.walk.internal}.
 */
package dev.brisk.walk;
