/** Benchmarks of brisk against baselines and peers, each run from a script in {@code bench/}. */
package dev.brisk.bench;
