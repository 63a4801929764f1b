/* SPDX-License-Identifier: BSD-3-Clause */
/* Files replaced atomically (outfile.h). */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "outfile.h"

/* The process's umask, read without changing it (umask() would, for every thread). */
static mode_t
umask_get(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned int m = 022;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Umask: %o", &m) == 1)
			break;
	if (f != NULL)
		fclose(f);
	return (mode_t)m;
}

/* Is @p st the file descriptor @p fd is open on? */
static bool
same_as_fd(const struct stat *st, int fd)
{
	struct stat f;

	return fstat(fd, &f) == 0 && f.st_dev == st->st_dev && f.st_ino == st->st_ino;
}

int
sl_outfile_open(struct sl_outfile *o, const char *path)
{
	struct stat st;
	mode_t mode;
	int fd, n;

	o->f = NULL;
	o->direct = 0;
	n = snprintf(o->path, sizeof(o->path), "%s", path);
	if (n < 0 || (size_t)n >= sizeof(o->path))
		return -ENAMETOOLONG;
	/*
	 * The file standard output or error already goes to (/dev/stdout with
	 * stdout into a log): written through that stream, after what the run
	 * printed there; reopening it would truncate the log, renaming over it
	 * would lose it.
	 */
	if (stat(path, &st) == 0 && (same_as_fd(&st, STDOUT_FILENO) ||
				     same_as_fd(&st, STDERR_FILENO))) {
		o->direct = 2;
		o->f = same_as_fd(&st, STDOUT_FILENO) ? stdout : stderr;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device, a FIFO, a terminal: never renamed over. */
		o->direct = 1;
		o->f = fopen(path, "w");
		return o->f != NULL ? 0 : -errno;
	}
	/* A link to an existing file: replace the file, keep the link. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, o->tmp) != NULL)
		snprintf(o->path, sizeof(o->path), "%s", o->tmp);
	n = snprintf(o->tmp, sizeof(o->tmp), "%s.tmpXXXXXX", o->path);
	if (n < 0 || (size_t)n >= sizeof(o->tmp))
		return -ENAMETOOLONG;
	mode = stat(o->path, &st) == 0 ? st.st_mode & 0777 : 0666 & ~umask_get();
	fd = mkstemp(o->tmp);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode) != 0 || (o->f = fdopen(fd, "w")) == NULL) {
		int err = errno;

		close(fd);
		unlink(o->tmp);
		return -err;
	}
	return 0;
}

int
sl_outfile_commit(struct sl_outfile *o, int failed)
{
	int err = 0;

	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		err = errno != 0 ? errno : EIO;
	else if (!o->direct && fsync(fileno(o->f)) != 0)
		err = errno;
	if (o->direct != 2 && fclose(o->f) != 0 && err == 0) /* 2: stdout, stderr stay open */
		err = errno != 0 ? errno : EIO;
	o->f = NULL;
	if (failed && err == 0)
		err = EIO;
	if (o->direct)
		return -err;
	if (err == 0 && rename(o->tmp, o->path) != 0)
		err = errno;
	if (err != 0) {
		unlink(o->tmp);
		return -err;
	}
	return 0;
}
