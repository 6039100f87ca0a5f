// SPDX-License-Identifier: Apache-2.0
/** {@link dev.brisk.find.Find}: a find(1) work-alike on the fast tree walker. */
package dev.brisk.find;
