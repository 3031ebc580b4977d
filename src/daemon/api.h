/*
 * The daemon's API, above services.h and transport.h: the route handlers
 * (api.c: jobs, prove, pause; api_circuits.c: circuits; status.c: status,
 * metrics, health; page.c: the status page), the farm's HTTP side
 * (farm/api.c) and the route table (routes.c) that server.c starts the
 * transport with. Handlers read a request and answer it through
 * transport.h, and do the work through services.h.
 */
#ifndef SP_DAEMON_API_H
#define SP_DAEMON_API_H

#include "daemon/services.h"
#include "daemon/transport.h"

/* The route handlers (route_fn): each answers r exactly once, with the
 * codes and bodies docs/api.md gives for its method and path. */
void sp_dmn_api_circuits_list(sp_dmn *d, dreq *r);
void sp_dmn_api_circuits_add(sp_dmn *d, dreq *r);
void sp_dmn_api_circuits_delete(sp_dmn *d, dreq *r);
void sp_dmn_api_jobs_submit(sp_dmn *d, dreq *r);
void sp_dmn_api_jobs_get(sp_dmn *d, dreq *r);
void sp_dmn_api_jobs_cancel(sp_dmn *d, dreq *r);
void sp_dmn_api_prove(sp_dmn *d, dreq *r);
void sp_dmn_api_pause(sp_dmn *d, dreq *r);
void sp_dmn_api_resume(sp_dmn *d, dreq *r);
/* Before the body of POST /v1/jobs or /v1/prove is read: answers 413 when
 * Content-Length is over what the named circuit's witnesses can take,
 * 422 when one partition of it can never fit the engine budget. Returns
 * 1 when it answered. */
int sp_dmn_api_jobs_early(sp_dmn *d, dreq *r, unsigned long long content_length);
void sp_dmn_api_page(sp_dmn *d, dreq *r);
void sp_dmn_api_healthz(sp_dmn *d, dreq *r);
void sp_dmn_api_readyz(sp_dmn *d, dreq *r);
void sp_dmn_api_status(sp_dmn *d, dreq *r);
void sp_dmn_api_metrics(sp_dmn *d, dreq *r);

/* routes.c: the route table of the API. */
extern const sp_dmn_route sp_dmn_routes[];
extern const size_t sp_dmn_n_routes;

/* page.c: the status page (HTML, NUL-terminated), served by sp_dmn_api_page. */
extern const char sp_dmn_page_html[];

/* ---- farm/api.c: the farm's HTTP side ----
 * On a farm node (sp_dmn_farm_on) jobs go to the queue database instead of
 * the job table; these submit, await and cancel them there. */

/* 1 while the farm's worker is connected to the queue database, 0 while
 * it is not, -1 when this daemon is no farm node. */
int sp_dmn_farm_connected(sp_dmn *d);
/* A circuit a farm job names: one registered here (by its id), or any
 * circuit of the farm by its content digest (64 lowercase hex digits, as
 * GET /v1/status shows them), whose facts a node that has it recorded in
 * the database. */
typedef struct {
    char digest[65];
    uint32_t n_vars, n_public;
    int native;
} farm_circuit;
/* 200 (*out set), 404 (neither), 503 (the database is away), 500; err. */
int sp_dmn_farm_lookup(sp_dmn *d, const char *circuit, farm_circuit *out, char err[SP_ERR_LEN]);

/* A job for the farm, checked by the caller (api.c). */
typedef struct {
    const farm_circuit *fc;
    const char *circuit, *request_id; /* circuit: as the client named it (shown in answers) */
    int priority;
    size_t n;
    const uint8_t *const *input;   /* n .wtns files, or n native inputs of 12 bytes (seed, partition; LE) */
    const size_t *input_len;
    const uint8_t *const *expect_pub; /* .wtns jobs: each witness's public inputs (n_public * 32 bytes) */
    const char *client;            /* sp_dmn_auth's: "" = this node's own */
    int max_queued;                /* the client's limit on queued jobs in the farm (0 = none) */
} farm_job;
/* Puts j in the queue: 202 (id set), 200 (id: the job the request id
 * names, which proves what j does: nothing queued), 409 (id: the job the
 * request id names, which proves something else), 429, 503, 500; err
 * says why. */
int sp_dmn_farm_submit(sp_dmn *d, const farm_job *j, char id[40], uint64_t *ahead, char err[SP_ERR_LEN]);
/* GET /v1/jobs/KEY (and /v1/prove's wait, strict: codes by outcome). */
void sp_dmn_farm_api_get(sp_dmn *d, dreq *r, const char *key, long wait_ms, int strict);
/* DELETE /v1/jobs/KEY. */
void sp_dmn_farm_api_cancel(sp_dmn *d, dreq *r, const char *key);
/* The "farm" member of /v1/status, and the farm's metrics. */
void sp_dmn_farm_status_json(sp_dmn *d, sp_json_writer *w);
void sp_dmn_farm_metrics(sp_dmn *d, char **buf, size_t *len, size_t *cap);

#endif
