/*
 * Opening files that are about to be read whole or mapped: only regular
 * files, and never a blocking open. open(2) of a FIFO without a writer
 * blocks until one appears (for ever, for a daemon thread or the CLI);
 * a character device can stream without end. Every reader of key,
 * circuit, witness and JSON files goes through here.
 */
#ifndef SP_UTIL_FILE_H
#define SP_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>
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

#endif
