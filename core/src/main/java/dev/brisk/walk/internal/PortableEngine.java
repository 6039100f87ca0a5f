// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.walk.EntryType;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.Order;
import dev.brisk.walk.SymlinkMode;
import dev.brisk.walk.Visit;
import dev.brisk.walk.WalkEntry;
import dev.brisk.walk.WalkError;
import dev.brisk.walk.WalkOptions;
import dev.brisk.walk.WalkResult;
import dev.brisk.walk.WalkVisitor;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The portable engine: {@code java.nio.file} with an explicit stack, one thread. Names pass through
 * the platform charset ({@code sun.jnu.encoding}), so a name that is not valid there does not
 * survive; each entry costs a stat. Used where the native engine is unavailable.
 */
public final class PortableEngine {
    private static final Charset JNU = Charset.forName(
            System.getProperty("sun.jnu.encoding", "UTF-8"), Charset.defaultCharset());
    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final LinkOption[] FOLLOW = {};

    private PortableEngine() {}

    private record Item(Path path, byte[] bytes, int nameOff, EntryType type, int depth, Item parent, Object key,
            boolean after) {}

    public static WalkResult walk(List<byte[]> roots, WalkOptions options, WalkVisitor visitor, NativeEngine.Cancel cancel) {
        long[] errors = {0};
        boolean post = options.order() == Order.POST_ORDER;
        boolean followAll = options.symlinks() == SymlinkMode.LOGICAL;
        for (byte[] r : roots) {
            if (cancel.isCancelled()) {
                break;
            }
            Path p = Path.of(new String(r, JNU));
            boolean followRoot = options.symlinks() != SymlinkMode.PHYSICAL;
            BasicFileAttributes a = attrs(p, followRoot);
            if (a == null) {
                errors[0]++;
                visitor.failed(new WalkError(r, 2, "No such file or directory"));
                continue;
            }
            Object rootStore = options.sameFileSystem() ? store(p) : null;
            ArrayDeque<Item> stack = new ArrayDeque<>();
            stack.push(new Item(p, r, DirWalker.nameStart(r, r.length), typeOf(a), 0, null, a.fileKey(), false));
            while (!stack.isEmpty() && !cancel.isCancelled()) {
                Item it = stack.pop();
                boolean follow = it.depth == 0 ? followRoot : followAll;
                boolean descend = it.type == EntryType.DIRECTORY && it.depth < options.maxDepth()
                        && (!options.sameFileSystem() || it.depth == 0 || it.after
                            || Objects.equals(store(it.path), rootStore));
                if (descend && !it.after && followAll && isLoop(it)) {
                    // as GNU find: a directory that closes a loop is reported, not visited
                    errors[0]++;
                    visitor.failed(new WalkError(it.bytes, 40, "File system loop detected"));
                    continue;
                }
                if (it.after || !post || !descend) {
                    Visit v = visitor.visit(new PortableEntry(it, follow));
                    if (v == Visit.STOP) {
                        return new WalkResult(errors[0], true);
                    }
                    if (it.after || v == Visit.SKIP_SUBTREE) {
                        continue;
                    }
                }
                if (!descend) {
                    continue;
                }
                if (post) {
                    stack.push(new Item(it.path, it.bytes, it.nameOff, it.type, it.depth, it.parent, it.key, true));
                }
                List<Item> children = new ArrayList<>();
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(it.path)) {
                    for (Path c : ds) {
                        byte[] name = c.getFileName().toString().getBytes(JNU);
                        boolean slash = it.bytes.length > 0 && it.bytes[it.bytes.length - 1] == '/';
                        byte[] cb = Arrays.copyOf(it.bytes, it.bytes.length + (slash ? 0 : 1) + name.length);
                        if (!slash) {
                            cb[it.bytes.length] = '/';
                        }
                        System.arraycopy(name, 0, cb, cb.length - name.length, name.length);
                        BasicFileAttributes ca = attrs(c, followAll);
                        if (ca == null && followAll) {
                            ca = attrs(c, false);
                        }
                        EntryType t = ca == null ? EntryType.UNKNOWN : typeOf(ca);
                        children.add(new Item(c, cb, cb.length - name.length, t, it.depth + 1, it,
                                ca == null ? null : ca.fileKey(), false));
                    }
                } catch (IOException | RuntimeException e) {
                    errors[0]++;
                    visitor.failed(new WalkError(it.bytes, 0, reason(e)));
                }
                for (int i = children.size() - 1; i >= 0; i--) {
                    stack.push(children.get(i));
                }
            }
            if (cancel.isCancelled()) {
                return new WalkResult(errors[0], true);
            }
        }
        return new WalkResult(errors[0], cancel.isCancelled());
    }

    private static Object store(Path p) {
        try {
            return Files.getAttribute(p, "unix:dev", NOFOLLOW);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean isLoop(Item it) {
        if (it.key == null) {
            return false;
        }
        for (Item a = it.parent; a != null; a = a.parent) {
            if (Objects.equals(a.key, it.key)) {
                return true;
            }
        }
        return false;
    }

    private static String reason(Exception e) {
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof NotDirectoryException) {
            return "Not a directory";
        }
        if (e instanceof FileSystemLoopException) {
            return "Too many levels of symbolic links";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private static BasicFileAttributes attrs(Path p, boolean follow) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, follow ? FOLLOW : NOFOLLOW);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static EntryType typeOf(BasicFileAttributes a) {
        if (a.isRegularFile()) {
            return EntryType.FILE;
        }
        if (a.isDirectory()) {
            return EntryType.DIRECTORY;
        }
        if (a.isSymbolicLink()) {
            return EntryType.SYMLINK;
        }
        return EntryType.UNKNOWN;
    }

    static FileStat stat(byte[] path, boolean follow) {
        return stat(Path.of(new String(path, JNU)), follow);
    }

    static FileStat stat(Path p, boolean follow) {
        try {
            Map<String, Object> m = Files.readAttributes(p, "unix:*", follow ? FOLLOW : NOFOLLOW);
            FileTime at = (FileTime) m.get("lastAccessTime"), mt = (FileTime) m.get("lastModifiedTime"),
                    ct = (FileTime) m.get("ctime");
            return new FileStat((Integer) m.get("mode"), ((Integer) m.get("nlink")).longValue(),
                    (Integer) m.get("uid"), (Integer) m.get("gid"), (Long) m.get("size"),
                    ((Long) m.get("size") + 511) / 512, (Long) m.get("ino"), (Long) m.get("dev"), (Long) m.get("rdev"),
                    at.toInstant().getEpochSecond(), at.toInstant().getNano(),
                    mt.toInstant().getEpochSecond(), mt.toInstant().getNano(),
                    ct.toInstant().getEpochSecond(), ct.toInstant().getNano());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static boolean isEmptyDirectory(byte[] path, boolean follow) {
        Path p = Path.of(new String(path, JNU));
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
            return !ds.iterator().hasNext();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    static byte[] readLink(byte[] path) {
        try {
            return Files.readSymbolicLink(Path.of(new String(path, JNU))).toString().getBytes(JNU);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** An entry of the portable engine. */
    private static final class PortableEntry implements WalkEntry {
        private final Item item;
        private final boolean follow;
        private FileStat stat;
        private boolean statDone;
        private EntryType type;

        PortableEntry(Item item, boolean follow) {
            this.item = item;
            this.follow = follow;
            this.type = item.type;
        }

        @Override
        public byte[] pathBuffer() {
            return item.bytes;
        }

        @Override
        public int pathLength() {
            return item.bytes.length;
        }

        @Override
        public int nameOffset() {
            return item.nameOff;
        }

        @Override
        public EntryType type() {
            if (type == EntryType.UNKNOWN && stat() != null) {
                type = stat.type();
            }
            return type;
        }

        @Override
        public int depth() {
            return item.depth;
        }

        @Override
        public FileStat stat() {
            if (!statDone) {
                statDone = true;
                stat = PortableEngine.stat(item.path, follow);
                if (stat == null && follow) {
                    stat = PortableEngine.stat(item.path, false);
                }
            }
            return stat;
        }

        @Override
        public boolean isEmptyDirectory() {
            return PortableEngine.isEmptyDirectory(item.bytes, follow);
        }

        @Override
        public byte[] readLink() {
            return PortableEngine.readLink(item.bytes);
        }

        @Override
        public WalkEntry snapshot() {
            return new SnapshotEntry(item.bytes, item.nameOff, type(), item.depth, follow, statDone ? stat : null);
        }
    }
}
