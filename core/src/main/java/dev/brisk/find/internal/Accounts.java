// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * User and group names from {@code /etc/passwd} and {@code /etc/group}, read once on first use
 * (names that only NSS services such as LDAP know are not seen). Thread-safe after construction.
 */
final class Accounts {
    private final Map<Long, String> users = new HashMap<>(), groups = new HashMap<>();
    private final Map<String, Long> userIds = new HashMap<>(), groupIds = new HashMap<>();

    private static volatile Accounts instance;

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
