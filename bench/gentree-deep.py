#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build a reproducible DEEP directory tree, the counterpart of gentree.py's wide one.

usage: gentree-deep.py ROOT NFILES [SEED]

Same ROOT, NFILES and SEED give the same tree: directories mostly nested in the one made last
(chains down to 96 levels below ROOT, then a fresh chain starts from a random shallower
directory), about ten files in each, files of 0-64 bytes. Deep chains stress what a wide tree
does not: kept parent descriptors, path lengths, the walker's stack.
"""
import os
import random
import sys

MAX_DEPTH = 96


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    root, nfiles = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 42)
    os.makedirs(root, exist_ok=True)
    dirs = [(root, 0)]
    cur, depth, made = root, 0, 0
    while made < nfiles:
        if rng.random() < 0.1:
            if depth >= MAX_DEPTH or rng.random() < 0.05:
                cur, depth = rng.choice(dirs[: max(1, len(dirs) // 2)])
            nd = os.path.join(cur, 'd%06d' % len(dirs))
            os.mkdir(nd)
            cur, depth = nd, depth + 1
            dirs.append((cur, depth))
        else:
            with open(os.path.join(cur, 'f%07d.txt' % made), 'wb') as f:
                f.write(b'x' * rng.randint(0, 64))
            made += 1
    print(len(dirs), 'directories,', made, 'files, deepest', max(d for _, d in dirs))


if __name__ == '__main__':
    main()
