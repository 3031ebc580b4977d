/*
 * The daemon's state layer, above types.h: what every thread reads of
 * the daemon's own state. settings.c: the reloadable settings, each read
 * under cfg_mu, and who a request's bearer token names. state.c: the
 * state directory, one durable file per circuit and per job (what it
 * holds is given back at start by restore.c, in services.h). Nothing here
 * calls a service, the transport or a route.
 */
#ifndef SP_DAEMON_STATE_H
#define SP_DAEMON_STATE_H

#include "daemon/types.h"

/* ---- settings.c: the reloadable settings ---- */

/* The key residency settings (reloadable), read together under cfg_mu. */
typedef struct {
    size_t hot_budget, warm_budget; /* hot_budget resolved (auto = engine budget / 4) */
    long min_idle_ms, idle_demote_ms;
    int skip_subgroup_check, load_threads;
    char cache_dir[SP_DMN_CONF_PATH]; /* keys.cache_dir; "" = no key cache */
    size_t cache_max;                 /* keys.cache_max */
} key_policy;
void sp_dmn_key_policy(sp_dmn *d, key_policy *p);
/* server.header_timeout and body_timeout (reloadable). */
void sp_dmn_deadlines(sp_dmn *d, long *header_ms, long *body_ms);

/* Reloadable settings read under cfg_mu. */
size_t sp_dmn_max_body(sp_dmn *d);
long sp_dmn_max_wait(sp_dmn *d);
/* Copies the token ("" = none) under cfg_mu. */
void sp_dmn_token(sp_dmn *d, char *out, size_t out_len);
/* 1 when requests need a bearer token (server.token_file or a [client.NAME]). */
int sp_dmn_auth_on(sp_dmn *d);
/*
 * Who a request's bearer token (NULL: none) names, compared in the same
 * time whatever its first wrong byte.
 * Returns 1 when it may come in: *client "" when the daemon takes no
 * token, else "token:" and a digest of the token (never the token; the
 * farm counts a client by it, across nodes), *max_queued its limit on
 * queued jobs (a [client.NAME]'s max_queued; on a farm node,
 * farm.max_queued_per_client for server.token_file or no token; else 0 =
 * none). 0 when it may not.
 */
#define SP_DMN_CLIENT_LEN 40
int sp_dmn_auth(sp_dmn *d, const char *bearer, char client[SP_DMN_CLIENT_LEN], int *max_queued);
/* 1 when this daemon is a farm node. */
int sp_dmn_farm_on(const sp_dmn *d);

/* ---- state.c: the state directory (one file per circuit and job) ---- */

/* 1 when a state directory is configured (state_dir set), else 0: then
 * nothing below touches the disk. */
int sp_dmn_state_on(const sp_dmn *d);
/* The wall clock in ms since the epoch (what the state files record). */
double sp_dmn_state_now_unix_ms(void);
/* Creates state_dir and takes its lock (state_dir/daemon.lock, held
 * until the process ends): a second daemon on one state directory would
 * run the first one's jobs again. Returns SP_OK, or SP_ERR_IO with err
 * (naming the pid of the daemon that holds the lock when that is why). */
sp_status sp_dmn_state_lock(sp_dmn *d, char err[SP_ERR_LEN]);
/* Creates state_dir and its circuits/, jobs/, uploads/; sets upload_dir. */
sp_status sp_dmn_state_init(sp_dmn *d, char err[SP_ERR_LEN]);
/* The paused state (POST /v1/pause) kept across restarts: state_dir/paused
 * exists while paused. set writes or removes it durably (SP_OK or the
 * error; nothing without a state directory); get says 1 when it exists. */
sp_status sp_dmn_state_set_paused(sp_dmn *d, int paused, char err[SP_ERR_LEN]);
int sp_dmn_state_paused(sp_dmn *d);
struct iovec;
/* Writes sub/name atomically and durably (tmp, fsync, rename, fsync dir). */
sp_status sp_dmn_state_put(sp_dmn *d, const char *sub, const char *name, const struct iovec *iov, int n,
                           char err[SP_ERR_LEN]);
/* Removes sub/name durably (a missing file is fine). */
sp_status sp_dmn_state_del(sp_dmn *d, const char *sub, const char *name, char err[SP_ERR_LEN]);
/* The path of sub/name (name NULL: of sub) in the state directory. */
void sp_dmn_state_path(char *out, size_t n, const sp_dmn *d, const char *sub, const char *name);
/* The names in sub ending in suffix (longer than it, not hidden), sorted.
 * On output: *names a malloc'ed array of malloc'ed names (free with
 * sp_dmn_state_list_free; NULL when none). Returns their count (0 also
 * when sub cannot be read). */
size_t sp_dmn_state_list(sp_dmn *d, const char *sub, const char *suffix, char ***names);
void sp_dmn_state_list_free(char **names, size_t n);
/* Reads sub/name (a regular file). Returns its bytes, malloc'ed with a NUL
 * after them (*len their count), or NULL with err (*len 0). */
uint8_t *sp_dmn_state_read(sp_dmn *d, const char *sub, const char *name, size_t *len, char err[SP_ERR_LEN]);
/* Removes every file of sub ending in suffix that keep does not want
 * (keep returns 1 to keep one; NULL: removes them all), logging each (the
 * leftovers of a crash). */
void sp_dmn_state_sweep(sp_dmn *d, const char *sub, const char *suffix, int (*keep)(sp_dmn *, const char *));
/* The files of circuits and jobs. Each returns SP_OK, or the error with
 * err; without a state directory it does nothing and returns SP_OK.
 * circuits/<id>.json of an api or upload circuit, written or removed
 * (config ones: nothing). */
sp_status sp_dmn_state_circuit_save(sp_dmn *d, const dcircuit *c, char err[SP_ERR_LEN]);
sp_status sp_dmn_state_circuit_drop(sp_dmn *d, const dcircuit *c, char err[SP_ERR_LEN]);
/* jobs/<id>.job: the accepted job's header and .wtns files (w, wlen), or
 * for a native job its header holding the inputs (w NULL). */
sp_status sp_dmn_state_job_save(sp_dmn *d, const djob *j, const uint8_t *const *w, const size_t *wlen,
                                const sp_dmn_native_input *inputs, char err[SP_ERR_LEN]);
/* jobs/<id>.result: j's status and result text. */
sp_status sp_dmn_state_job_result(sp_dmn *d, const djob *j, double done_unix_ms, char err[SP_ERR_LEN]);
/* Removes jobs/<id><ext> without waiting for the disk (see state.c). */
void sp_dmn_state_job_forget(sp_dmn *d, const char *id, const char *ext);

#endif
