/*
 * Byte counts written by people: the one syntax every size option takes
 * (the daemon's configuration and flags, `--set budget=...` of the engine
 * commands, SP_CUDA_MEM_LIMIT).
 *
 *   N        bytes, decimal digits only: 1000000
 *   N<unit>  unit K, M, G or T, optionally followed by "iB" (any case):
 *            powers of 1024: 64K = 64KiB = 65536, 2G = 2 << 30
 *   2^k      a power of two: 2^30
 *
 * Nothing else: no sign, spaces, fraction or other unit. "KB", "MB", "GB",
 * "TB" are refused rather than guessed (powers of 1000 or of 1024?).
 * A value that does not fit in size_t is refused, never wrapped.
 */
#ifndef SP_UTIL_BYTES_H
#define SP_UTIL_BYTES_H

#include <stddef.h>
#include "snarkpipe.h"

/*
 * On input: s, a NUL-terminated string.
 * On output: *out the byte count; untouched on failure.
 * Returns SP_OK, or SP_ERR_INVALID_ARG when s is not in the syntax above
 *   or its value does not fit in size_t.
 */
sp_status sp_bytes_parse(size_t *out, const char *s) SP_WARN_UNUSED;

#endif
