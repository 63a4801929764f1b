/* SPDX-License-Identifier: BSD-3-Clause */
/* Files replaced atomically (outfile.h). */

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
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

/* How long a FIFO's reader may take to come (a reader started just before). */
#define FIFO_WAIT_MS 2000

/*
 * Written in place, as fopen(path, "w") would, except that a FIFO is opened
 * without blocking: with no reader after FIFO_WAIT_MS, -ENXIO instead of an
 * open() that waits for ever and that no signal ends (SA_RESTART).
 */
static int
open_in_place(struct sl_outfile *o, const char *path)
{
	int fd, waited = 0;

	/* Non-blocking even when @p path was not a FIFO at stat(): it may be one now. */
	while ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0666)) < 0 &&
	       errno == ENXIO && waited < FIFO_WAIT_MS) {
		usleep(10 * 1000);
		waited += 10;
	}
	if (fd < 0)
		return -errno;
	/* A reader is there: the writes themselves wait for it, as a pipe's do. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    (o->f = fdopen(fd, "w")) == NULL) {
		int err = errno;

		close(fd);
		return -err;
	}
	o->direct = 1;
	return 0;
}

int
sl_outfile_target(const char *path, char *out, size_t len)
{
	char cur[4096], dir[4096], to[4096];
	struct stat st, dst;
	int n = snprintf(cur, sizeof(cur), "%s", path);

	if (n < 0 || (size_t)n >= sizeof(cur))
		return -ENAMETOOLONG;
	for (int hops = 0; lstat(cur, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		const char *d;
		ssize_t k;

		if (hops == 40)
			return -ELOOP; /* as the kernel's limit */
		snprintf(dir, sizeof(dir), "%s", cur);
		d = dirname(dir);
		/*
		 * fs.protected_symlinks' rule, which resolving the link here
		 * would bypass: in a sticky world-writable directory (/tmp),
		 * only a link of ours or of the directory's owner is followed.
		 */
		if (st.st_uid != geteuid() && stat(d, &dst) == 0 &&
		    (dst.st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH) &&
		    st.st_uid != dst.st_uid)
			return -EPERM;
		k = readlink(cur, to, sizeof(to) - 1);
		if (k < 0)
			return -errno;
		to[k] = '\0';
		n = to[0] == '/' ? snprintf(cur, sizeof(cur), "%s", to)
				 : snprintf(cur, sizeof(cur), "%s/%s", d, to);
		if (n < 0 || (size_t)n >= sizeof(cur))
			return -ENAMETOOLONG;
	}
	n = snprintf(out, len, "%s", cur);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int
sl_outfile_open(struct sl_outfile *o, const char *path)
{
	struct stat st;
	bool exists;
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
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return open_in_place(o, path);
	/* A link: replace the file it leads to (made when the link dangles), keep the link. */
	n = sl_outfile_target(path, o->path, sizeof(o->path));
	if (n != 0)
		return n;
	n = snprintf(o->tmp, sizeof(o->tmp), "%s.tmpXXXXXX", o->path);
	if (n < 0 || (size_t)n >= sizeof(o->tmp))
		return -ENAMETOOLONG;
	exists = stat(o->path, &st) == 0;
	mode = exists ? st.st_mode & 0777 : 0666 & ~umask_get();
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		/* A file we may write in a directory we may not: written in place. */
		if ((errno == EACCES || errno == EPERM || errno == EROFS) && exists &&
		    access(o->path, W_OK) == 0)
			return open_in_place(o, o->path);
		return -errno;
	}
	/*
	 * The old file's owner and group, where we may give them (as sed -i
	 * does); where not, the new file is the writer's, as a new one would be.
	 */
	if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(fd, st.st_uid, st.st_gid) != 0)
		errno = 0;
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
