// SPDX-License-Identifier: Apache-2.0
/**
 * Benchmarks that time brisk against the JDK way, the system tool and the peers in one run.
 * Each class's Javadoc gives the command that runs it; results go to docs/PERFORMANCE.md.
 */
package dev.brisk.bench;
