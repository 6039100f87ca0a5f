// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * The training run for {@code brisk find}'s own AOT cache (the launcher keeps one for find and
 * one, {@link AotTraining}'s, for everything else): {@code brisk find} over a small temporary
 * tree, through {@link FindCommand#main} as the command line runs it, with the usual
 * expressions. A cache holding only what find loads lets the JVM reach {@code main} about 10 ms
 * sooner than the shared one (every class in an AOT cache is loaded at start-up). Writes records
 * to standard output, which the launcher discards; exits 0. Not part of the CLI.
 */
final class FindTraining {
    private FindTraining() {}

    public static void main(String[] args) throws IOException, ClassNotFoundException {
        Class.forName(FindMain.class.getName()); // the entry point, verified once here rather than at every start
        // java.io only: whatever the training loads, the cache loads at every start
        File tree = new File(System.getProperty("java.io.tmpdir"), "brisk-aot-find-" + System.nanoTime());
        try {
            for (int d = 0; d < 40; d++) {
                File dir = new File(new File(tree, "d" + d), "sub");
                if (!dir.mkdirs()) {
                    throw new IOException("cannot create " + dir);
                }
                for (int f = 0; f < 50; f++) {
                    try (FileOutputStream out = new FileOutputStream(new File(dir, "f" + f + ".txt"))) {
                        out.write(new byte[f]);
                    }
                }
            }
            String root = tree.getPath();
            for (int round = 0; round < 10; round++) {
                FindCommand.main(new String[] {"find", root, "-type", "f"});
                FindCommand.main(new String[] {"find", root});
                FindCommand.main(new String[] {"find", root, "-name", "*.txt", "-print0"});
                FindCommand.main(new String[] {"find", root, "-type", "d", "-o", "-size", "+1", "-printf", "%p %s %m\\n"});
                FindCommand.main(new String[] {"find", root, "-maxdepth", "3", "-mtime", "-1"});
            }
            System.out.flush();
        } finally {
            delete(tree);
        }
    }

    private static void delete(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                delete(c);
            }
        }
        f.delete();
    }
}
