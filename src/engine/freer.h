/*
 * Serialized freeing: large buffers handed to one background thread that
 * frees them one at a time, so that pipeline threads never stall in
 * munmap and at most one TLB-shootdown storm runs at once
 * (docs/algorithms.md §5). The queue is threaded through the buffers
 * themselves (a node is written into the first bytes of each buffer), so
 * handing a buffer over never allocates and never fails.
 */
#ifndef SP_ENGINE_FREER_H
#define SP_ENGINE_FREER_H

#include <stddef.h>
#include "snarkpipe.h"

typedef struct sp_freer sp_freer;

/* How a buffer is freed: fn(fn_ctx, p, bytes). */
typedef void (*sp_freer_free_fn)(void *fn_ctx, void *p, size_t bytes);
/* Called after each free, without the freer's lock, with the item's
 * budget bytes (0 included). */
typedef void (*sp_freer_done_fn)(void *ctx, size_t budget_bytes);

/* On output: *f a running freer. Returns SP_OK or SP_ERR_NOMEM. */
sp_status sp_freer_create(sp_freer **f, sp_freer_done_fn done, void *done_ctx) SP_WARN_UNUSED;

/* Hands p (bytes long) over; fn frees it later on the freer's thread.
 * Buffers shorter than a queue node (48 bytes) are freed at once, and the
 * done callback then runs on the caller's thread: call this without
 * holding a lock that the done callback takes. */
void sp_freer_push(sp_freer *f, void *p, size_t bytes, size_t budget_bytes, sp_freer_free_fn fn, void *fn_ctx);

/* Bytes handed over and not yet freed. */
size_t sp_freer_pending(sp_freer *f);

/* Frees everything still queued, stops and joins the thread. NULL ok. */
void sp_freer_destroy(sp_freer *f);

#endif
