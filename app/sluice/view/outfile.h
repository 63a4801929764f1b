/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_OUTFILE_H
#define SL_OUTFILE_H

/*
 * A file replaced atomically (--json): written to a temporary file in the
 * same directory, flushed to disk, then renamed over the path. A reader sees
 * the old file or the whole new one, never half; a failed write removes the
 * temporary file and leaves the old one as it was. The new file has the old
 * one's mode, or 0666 less the umask (as fopen would), and its owner and
 * group where the writer may give them (root may).
 *
 * Only a regular file (or a new one) is replaced: a symbolic link's target
 * is (created when the link dangles), and anything else (/dev/full, a FIFO,
 * a terminal) is written in place as fopen would, never renamed over. A
 * FIFO with no reader within 2 s is -ENXIO, not an open that waits for
 * ever. A file we may write in a directory we may not (no temporary file
 * possible) is written in place too: not atomic, but written.
 */

#include <stddef.h>
#include <stdio.h>

struct sl_outfile {
	FILE *f;
	int direct;            /* 1: not a regular file, written in place; 2: stdout or stderr */
	char tmp[4096];
	char path[4096];       /* the file replaced (a link's target) */
};

/*
 * The file --json @p path writes, into @p out: the path itself, or the end
 * of its chain of symbolic links (at most 40; -ELOOP past that), which may
 * not exist yet. A link owned by another user in a sticky world-writable
 * directory (/tmp) is not followed: -EPERM, as fs.protected_symlinks does.
 */
int sl_outfile_target(const char *path, char *out, size_t len);
/* Open the temporary file; 0, or -errno with nothing created. */
int sl_outfile_open(struct sl_outfile *o, const char *path);
/*
 * Flush, sync and rename into place (failed != 0: the caller's own writes
 * failed; the file is discarded). 0, or -errno with the temporary file
 * removed and the old file untouched.
 */
int sl_outfile_commit(struct sl_outfile *o, int failed);

#endif /* SL_OUTFILE_H */
