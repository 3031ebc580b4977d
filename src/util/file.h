/*
 * Opening files that are about to be read whole or mapped: only regular
 * files, and never a blocking open; and replacing a file atomically. open(2) of a FIFO without a writer
 * blocks until one appears (for ever, for a daemon thread or the CLI);
 * a character device can stream without end. Every reader of key,
 * circuit, witness and JSON files goes through here.
 */
#ifndef SP_UTIL_FILE_H
#define SP_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "snarkpipe.h"

/*
 * On input: path; what names the file's role in messages ("zkey").
 * On output: *fd an open read-only descriptor (O_CLOEXEC, blocking mode
 *   restored) of a regular file, *size its length; *fd = -1 on failure.
 * Returns SP_OK, or SP_ERR_IO with err "<what>: cannot open <path>: ..."
 *   or "<what>: <path> is not a regular file" (a FIFO, a device, a
 *   directory or a socket is refused without blocking and without
 *   reading a byte). err never holds bytes of the file.
 */
sp_status sp_file_open_regular(int *fd, uint64_t *size, const char *path, const char *what,
                               char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * As sp_file_open_regular, for reading through stdio.
 * On input: mode "r" or "rb".
 * Returns the stream (fclose() it), or NULL with err as above (or
 *   "<what>: <path>: ..." when no stream could be made).
 */
FILE *sp_file_fopen_regular(const char *path, const char *mode, const char *what, char err[SP_ERR_LEN]);

/*
 * Replaces the file at path with data[0..len) so that a reader sees the
 * old contents or the new ones, never a part, and a failure (a full disk,
 * a crash) leaves the old file as it was: the bytes go to a new file in
 * the same directory ("<path>.tmp-<pid>-<n>", created exclusively), are
 * fsync'ed, renamed over path, and the directory is fsync'ed.
 * On input: path; when it names a symbolic link, the file the link points
 *   to is replaced (the link stays), as writing through it would; a path
 *   that exists must be a regular file (a directory, FIFO or device is
 *   refused without opening it). what names the file's role in messages.
 * On output: the new file has the permission bits (0777) of the file it
 *   replaces, or 0666 less the umask when there was none.
 * Returns SP_OK, or SP_ERR_IO with err "<what>: <path>: ...": nothing is
 *   left behind and path is untouched, except when only the last step,
 *   the directory's fsync, failed: the new file is then already in place.
 */
sp_status sp_file_write_atomic(const char *path, const void *data, size_t len, const char *what,
                               char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * As sp_file_write_atomic, with the contents given as the n pieces
 * iov[0..n) written one after another, and new_mode the permission bits
 * of a file that did not exist yet (less the umask; 0666 for
 * sp_file_write_atomic, 0600 for private files); a replaced file keeps
 * its own.
 */
struct iovec;
sp_status sp_file_write_atomicv(const char *path, const struct iovec *iov, int n, unsigned new_mode, const char *what,
                                char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * As sp_file_write_atomic, without either fsync: readers and a failure of
 * this process still see the old file or the whole new one, never a part,
 * but after a crash of the system the new file may be empty or short. For
 * files that can be made again (a witness), where the fsyncs would cost
 * more than redoing the work in that rare case.
 */
sp_status sp_file_replace(const char *path, const void *data, size_t len, const char *what,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* 1 when name (a file name without its folder) has the form of the
 * temporary files above ("<name>.tmp-<pid>-<n>"), which only a process
 * killed while writing leaves behind: what a sweep of leftovers removes. */
int sp_file_is_atomic_tmp(const char *name);

#endif
