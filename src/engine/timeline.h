/*
 * The TIMELINE writer: one line per pipeline event,
 *   TIMELINE,<ms since engine start, 3 decimals>,<EVENT>,<job>,<detail>
 * where <job> is "j<seq>" (or "-" for engine-wide events) and <detail> a
 * comma-separated list of key=value pairs (values never hold commas or
 * line breaks: they are replaced by '_'). Lines are written whole and
 * flushed, so several threads and a crash never leave half lines.
 */
#ifndef SP_ENGINE_TIMELINE_H
#define SP_ENGINE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"

typedef struct sp_timeline sp_timeline;

/* Monotonic clock in milliseconds (the engine's clock). */
double sp_engine_now_ms(void);

/* path "-" = stderr, else a file created or truncated. t0_ms is the
 * monotonic time (sp_engine_now_ms) that counts as 0.
 * Returns SP_OK, SP_ERR_IO (err says why), SP_ERR_NOMEM. */
sp_status sp_timeline_open(sp_timeline **tl, const char *path, double t0_ms, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Writes one event; job_seq 0 writes "-". detail is printf-formatted.
 * tl NULL: nothing. */
void sp_timeline_emit(sp_timeline *tl, const char *event, uint64_t job_seq, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copies s into out (out_len bytes) with ',', '\n', '\r' replaced by '_'. */
void sp_timeline_clean(char *out, size_t out_len, const char *s);

void sp_timeline_close(sp_timeline *tl);

#endif
