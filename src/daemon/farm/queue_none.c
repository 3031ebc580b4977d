/*
 * The farm's queue when libpq was missing at build time: sp_dmn_q_available
 * says 0 and sp_dmn_q_open says why (queue.h); the daemon refuses farm.queue
 * before it gets here. The other functions are never reached (no
 * sp_dmn_queue can exist) and only keep the link whole.
 */
#ifndef SP_WITH_PQ

#include <stdio.h>
#include "daemon/farm/queue.h"

#define NO_PQ "this snarkpipe was built without the farm: libpq (Debian: libpq-dev) was not found at build time"

int sp_dmn_q_available(void) { return 0; }
void sp_dmn_q_describe(char *out, size_t out_len, const char *conninfo) { snprintf(out, out_len, "postgresql"); }

sp_status sp_dmn_q_open(sp_dmn_queue **q, const char *conninfo, int migrate, char err[SP_ERR_LEN])
{
    *q = NULL;
    snprintf(err, SP_ERR_LEN, NO_PQ);
    return SP_ERR_UNSUPPORTED;
}

/* Never reached: no sp_dmn_queue can be opened. */
void sp_dmn_q_close(sp_dmn_queue *q) {}
sp_status sp_dmn_q_ensure(sp_dmn_queue *q, char err[SP_ERR_LEN])
{ snprintf(err, SP_ERR_LEN, NO_PQ); return SP_ERR_UNSUPPORTED; }
int sp_dmn_q_connected(const sp_dmn_queue *q) { return 0; }
void sp_dmn_q_stats(const sp_dmn_queue *q, double *ms, uint64_t *calls, uint64_t *reconnects)
{ *ms = 0; *calls = *reconnects = 0; }
sp_status sp_dmn_q_node_lock(sp_dmn_queue *q, const char *name, char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_node_up(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *const *dig,
                           size_t n_dig, long keep_ms, long lease_ms, size_t *released, int *recent,
                           char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_node_down(sp_dmn_queue *q, const char *inst, char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_circuit_put(sp_dmn_queue *q, const char *digest, const char *name, uint32_t n_vars,
                               uint32_t n_public, int native, char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
int sp_dmn_q_circuit_get(sp_dmn_queue *q, const char *digest, uint32_t *n_vars, uint32_t *n_public, int *native,
                         char err[SP_ERR_LEN])
{ sp_dmn_q_ensure(q, err); return 503; }
int sp_dmn_q_submit(sp_dmn_queue *q, const sp_dmn_q_job *job, int64_t *id, uint64_t *ahead, char err[SP_ERR_LEN])
{ sp_dmn_q_ensure(q, err); return 503; }
int sp_dmn_q_job_get(sp_dmn_queue *q, const char *key, int parts, int attempts, sp_dmn_q_jobinfo *info,
                     char err[SP_ERR_LEN])
{ sp_dmn_q_ensure(q, err); return 503; }
void sp_dmn_q_jobinfo_free(sp_dmn_q_jobinfo *info) {}
int sp_dmn_q_cancel(sp_dmn_queue *q, int64_t id, int *cancelled, int *was_running, sp_dmn_qj_state *state,
                    char err[SP_ERR_LEN])
{ sp_dmn_q_ensure(q, err); return 503; }
sp_status sp_dmn_q_claim_parts(sp_dmn_queue *q, const char *inst, const char *const *dig, const uint64_t *bytes,
                               size_t n_dig, size_t max, uint64_t room_bytes, long lease_ms, int max_attempts,
                               sp_dmn_q_claim **out, size_t *n, char err[SP_ERR_LEN])
{ *out = NULL; *n = 0; return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_reap(sp_dmn_queue *q, long lease_ms, size_t *n, char err[SP_ERR_LEN])
{ *n = 0; return sp_dmn_q_ensure(q, err); }
void sp_dmn_q_claims_free(sp_dmn_q_claim *c, size_t n) {}
sp_status sp_dmn_q_heartbeat(sp_dmn_queue *q, const char *inst, const char *name, int capacity, const char *const *dig,
                             size_t n_dig, long keep_ms, long lease_ms, sp_dmn_q_hold *h, size_t n, int *node_lost,
                             char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_store(sp_dmn_queue *q, const char *inst, const sp_dmn_q_claim *c, const sp_dmn_q_proof *p,
                         int *stored, int *last, char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_release(sp_dmn_queue *q, const char *inst, const sp_dmn_q_claim *c, int fail, int count_attempt,
                           int max_attempts, const char *code, const char *why, int *done, char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_assemble(sp_dmn_queue *q, int64_t id, sp_dmn_q_assemble_fn fn, void *ctx, int *outcome,
                            char err[SP_ERR_LEN])
{ return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_ready_jobs(sp_dmn_queue *q, const char *const *dig, size_t n_dig, int64_t *ids, size_t max,
                              size_t *n, char err[SP_ERR_LEN])
{ *n = 0; return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_janitor(sp_dmn_queue *q, int max_attempts, long keep_ms, long lease_ms, size_t *failed,
                           size_t *late, char err[SP_ERR_LEN])
{ *failed = *late = 0; return sp_dmn_q_ensure(q, err); }
sp_status sp_dmn_q_listen(sp_dmn_queue *q, char err[SP_ERR_LEN]) { return sp_dmn_q_ensure(q, err); }
int sp_dmn_q_socket(const sp_dmn_queue *q) { return -1; }
sp_status sp_dmn_q_drain_notifies(sp_dmn_queue *q, int *work, int *cancel, void (*on_done)(void *ctx, int64_t id),
                                  void *ctx)
{ return SP_ERR_UNSUPPORTED; }

#endif
