// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * User and group names from {@code /etc/passwd} and {@code /etc/group}, read on first use
 * (names that only NSS services such as LDAP know are not seen). One table per process, shared
 * by the runs of a server: it only caches those two files, and {@link #revalidate} reads them
 * again once they change. Thread-safe after construction.
 */
final class Accounts {
    private final Map<Long, String> users = new HashMap<>(), groups = new HashMap<>();
    private final Map<String, Long> userIds = new HashMap<>(), groupIds = new HashMap<>();

    private static volatile Accounts instance;
    private static final byte[] PASSWD = "/etc/passwd".getBytes(StandardCharsets.US_ASCII),
            GROUP = "/etc/group".getBytes(StandardCharsets.US_ASCII);
    /** The two files' size and modification times when read. */
    private final long[] version = version();

    static Accounts get() {
        Accounts a = instance;
        if (a == null) {
            synchronized (Accounts.class) {
                if (instance == null) {
                    instance = new Accounts();
                }
                a = instance;
            }
        }
        return a;
    }

    /**
     * Forgets the table if either file changed since it was read: for a long-lived process,
     * at the start of each run (two stat calls).
     */
    static void revalidate() {
        Accounts a = instance;
        if (a != null && !java.util.Arrays.equals(a.version, version())) {
            synchronized (Accounts.class) {
                if (instance == a) {
                    instance = null;
                }
            }
        }
    }

    private static long[] version() {
        long[] v = new long[6];
        int i = 0;
        for (byte[] f : new byte[][] {PASSWD, GROUP}) {
            dev.brisk.walk.FileStat s = dev.brisk.walk.Walker.stat(f, true);
            if (s != null) {
                v[i] = s.size();
                v[i + 1] = s.mtimeSec();
                v[i + 2] = s.mtimeNsec();
            }
            i += 3;
        }
        return v;
    }

    private Accounts() {
        read(Path.of("/etc/passwd"), users, userIds);
        read(Path.of("/etc/group"), groups, groupIds);
    }

    private static void read(Path file, Map<Long, String> byId, Map<String, Long> byName) {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] f = line.split(":", -1);
                if (f.length < 3 || line.startsWith("#")) {
                    continue;
                }
                try {
                    long id = Long.parseLong(f[2]);
                    byId.putIfAbsent(id, f[0]);
                    byName.putIfAbsent(f[0], id);
                } catch (NumberFormatException ignored) {
                    // a malformed line names no account
                }
            }
        } catch (IOException ignored) {
            // no file: every id is nameless, as on a system without it
        }
    }

    String userName(long id) {
        return users.get(id);
    }

    String groupName(long id) {
        return groups.get(id);
    }

    Long userId(String name) {
        return userIds.get(name);
    }

    Long groupId(String name) {
        return groupIds.get(name);
    }
}
