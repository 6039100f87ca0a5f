package dev.brisk.cli;

/** A subcommand whose usage errors exit with its peer tool's status instead of {@link ExitCode#USAGE}. */
interface UsageStatus {
    /** The exit status for a bad command line. */
    int usageStatus();
}
