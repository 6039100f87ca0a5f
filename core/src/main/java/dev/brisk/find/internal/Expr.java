// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.walk.WalkEntry;

/**
 * A node of a find expression: a test, an action or an operator, evaluated per entry. Nodes are
 * immutable after parsing and thread-safe, except the actions that run commands, which the
 * walk calls from one thread only ({@link #needsOneThread()}).
 */
abstract class Expr {
    /** Evaluates this node for {@code e}; {@code c} is the calling thread's context. */
    abstract boolean eval(Ctx c, WalkEntry e);

    /** True when this node (or one below it) prints or runs something, which turns off the implicit -print. */
    boolean hasAction() {
        return false;
    }

    /** True when this node runs commands or stops the walk, so the walk must stay on one thread and in order. */
    boolean needsOneThread() {
        return false;
    }

    /** Runs what is still pending at the end of the walk (the last batch of -exec ... +); false if it failed. */
    boolean finish(Ctx c) {
        return true;
    }

    static final class And extends Expr {
        final Expr left, right;

        And(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return left.eval(c, e) && right.eval(c, e);
        }

        @Override
        boolean hasAction() {
            return left.hasAction() || right.hasAction();
        }

        @Override
        boolean needsOneThread() {
            return left.needsOneThread() || right.needsOneThread();
        }

        @Override
        boolean finish(Ctx c) {
            return left.finish(c) & right.finish(c);
        }
    }

    static final class Or extends Expr {
        final Expr left, right;

        Or(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return left.eval(c, e) || right.eval(c, e);
        }

        @Override
        boolean hasAction() {
            return left.hasAction() || right.hasAction();
        }

        @Override
        boolean needsOneThread() {
            return left.needsOneThread() || right.needsOneThread();
        }

        @Override
        boolean finish(Ctx c) {
            return left.finish(c) & right.finish(c);
        }
    }

    /** {@code A , B}: both evaluated, the value is B's. */
    static final class Comma extends Expr {
        final Expr left, right;

        Comma(Expr left, Expr right) {
            this.left = left;
            this.right = right;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            left.eval(c, e);
            return right.eval(c, e);
        }

        @Override
        boolean hasAction() {
            return left.hasAction() || right.hasAction();
        }

        @Override
        boolean needsOneThread() {
            return left.needsOneThread() || right.needsOneThread();
        }

        @Override
        boolean finish(Ctx c) {
            return left.finish(c) & right.finish(c);
        }
    }

    static final class Not extends Expr {
        final Expr inner;

        Not(Expr inner) {
            this.inner = inner;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return !inner.eval(c, e);
        }

        @Override
        boolean hasAction() {
            return inner.hasAction();
        }

        @Override
        boolean needsOneThread() {
            return inner.needsOneThread();
        }

        @Override
        boolean finish(Ctx c) {
            return inner.finish(c);
        }
    }

    /** {@code -true}, {@code -false}, and the options (-maxdepth, -depth...) which are true. */
    static final class Constant extends Expr {
        static final Constant TRUE = new Constant(true), FALSE = new Constant(false);
        private final boolean value;

        private Constant(boolean value) {
            this.value = value;
        }

        @Override
        boolean eval(Ctx c, WalkEntry e) {
            return value;
        }
    }
}
