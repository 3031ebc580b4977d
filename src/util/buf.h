/*
 * A growing text buffer written with printf formats (the daemon's
 * Prometheus metrics).
 */
#ifndef SP_UTIL_BUF_H
#define SP_UTIL_BUF_H

#include <stddef.h>

/*
 * On input: *buf, *len, *cap a buffer from earlier calls, or NULL, 0, 0 to
 *   start one; fmt and its arguments as for printf.
 * On output: the text appended at *buf + *len (NUL-terminated), *len and
 *   *cap updated; the buffer grows by doubling from 8 KiB. When memory
 *   runs out the buffer is freed, *buf = NULL and *cap = 1, so every later
 *   call does nothing: the caller checks *buf once at the end.
 * The caller frees *buf with free().
 */
void sp_buf_printf(char **buf, size_t *len, size_t *cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
