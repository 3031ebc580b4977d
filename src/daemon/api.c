/*
 * The /v1 routes of jobs (submit, await, cancel), prove (submit and
 * wait), pause and resume (api.h); api_circuits.c has the circuits'.
 *
 * Witnesses come in one of three bodies:
 *   application/octet-stream (or any other type): the body is one .wtns
 *       file; circuit, priority and request_id are query arguments;
 *   multipart/form-data: fields circuit, priority, request_id and one file
 *       part "witness" per partition, in order;
 *   application/json: {"circuit", "priority", "request_id",
 *       "witnesses": [base64 .wtns, ...]}.
 * A native circuit's job (daemon/native.h) carries inputs instead, in JSON
 * only: {"circuit", "priority", "request_id", "inputs": [{"seed": S,
 * "partition": P}, ...]}; the engine makes each partition's witness.
 * A circuit registered with its .wasm (daemon/wasmcirc.h) takes
 * input.json texts in the same three bodies: the raw body, file parts
 * "input", or JSON "inputs": [{signals}, ...]; its synthesis workers run
 * the .wasm. What the body holds is read as what the circuit takes.
 * Query arguments fill in what a body does not say.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "daemon/form.h"
#include "daemon/api.h"
#include "daemon/log.h"

/* ---- small helpers ---- */

/* A decimal int in [-1e6, 1e6] from text; 0 on success. */
static int parse_prio(int *out, const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < -1000000 || v > 1000000)
        return -1;
    *out = (int)v;
    return 0;
}

/* ---- witness input ---- */

typedef struct {
    char circuit[72]; /* an id (63 at most) or a farm digest (64) */
    char request_id[130];
    int has_rid;
    int priority;
    size_t n;
    const uint8_t **data;
    size_t *len;
    uint8_t **decoded;      /* base64 bodies, freed with the input */
    sp_dmn_form_part *parts;
    sp_json_doc *doc;
    const sp_json_val *ins; /* JSON "inputs", read once the circuit's kind is known (sub_resolve) */
    int is_json, n_form_witness, n_form_input;
    int resolved;           /* sub_resolve done, for takes */
    sp_dmn_takes takes;
    sp_dmn_native_input *inputs; /* a native job: n_inputs of them (NULL: witnesses) */
    size_t n_inputs;
} sub_in;

static void sub_free(sub_in *in)
{
    for (size_t i = 0; in->decoded && i < in->n; i++)
        free(in->decoded[i]);
    free(in->decoded);
    free(in->data);
    free(in->len);
    free(in->parts);
    free(in->inputs);
    sp_json_free(in->doc);
}

static int sub_alloc(sub_in *in, size_t n)
{
    in->data = calloc(n + 1, sizeof *in->data);
    in->len = calloc(n + 1, sizeof *in->len);
    in->decoded = calloc(n + 1, sizeof *in->decoded);
    return in->data && in->len && in->decoded ? 0 : -1;
}

/* Sets one of the named fields; answers 400 itself on a bad value. */
static int sub_field(dreq *r, sub_in *in, const char *name, const char *v, size_t vlen)
{
    if (!strcmp(name, "circuit") && vlen < sizeof in->circuit) {
        snprintf(in->circuit, sizeof in->circuit, "%.*s", (int)vlen, v);
    } else if (!strcmp(name, "request_id") && vlen <= 127) {
        snprintf(in->request_id, sizeof in->request_id, "%.*s", (int)vlen, v);
        in->has_rid = 1;
    } else if (!strcmp(name, "priority")) {
        char t[16];
        snprintf(t, sizeof t, "%.*s", (int)(vlen < 15 ? vlen : 15), v);
        if (vlen > 15 || parse_prio(&in->priority, t)) {
            sp_dmn_http_error(r, 400, "bad_request", "priority must be an integer from -1000000 to 1000000");
            return -1;
        }
    } else if (!strcmp(name, "circuit") || !strcmp(name, "request_id")) {
        sp_dmn_http_error(r, 400, "bad_request", "%s is too long", name);
        return -1;
    }
    return 0;
}

static int sub_from_query(dreq *r, sub_in *in)
{
    static const char *names[] = {"circuit", "request_id", "priority"};
    for (int i = 0; i < 3; i++) {
        const char *v = sp_dmn_req_arg(r, names[i]);
        if (v && sub_field(r, in, names[i], v, strlen(v)))
            return -1;
    }
    return 0;
}

static int sub_from_form(dreq *r, sub_in *in)
{
    size_t len, np;
    const uint8_t *b = sp_dmn_req_body(r, &len);
    char err[SP_ERR_LEN];
    if (sp_dmn_form_parse(&in->parts, &np, sp_dmn_req_header(r, "Content-Type"), b, len, err) != SP_OK) {
        sp_dmn_http_error(r, 400, "bad_request", "%s", err);
        return -1;
    }
    size_t nw = 0;
    for (size_t i = 0; i < np; i++) {
        in->n_form_witness += !strcmp(in->parts[i].name, "witness");
        in->n_form_input += !strcmp(in->parts[i].name, "input");
    }
    nw = (size_t)in->n_form_witness + (size_t)in->n_form_input;
    if (in->n_form_witness && in->n_form_input) {
        sp_dmn_http_error(r, 400, "bad_request", "give \"witness\" parts or \"input\" parts (input.json), not both");
        return -1;
    }
    if (sub_alloc(in, nw)) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory");
        return -1;
    }
    for (size_t i = 0; i < np; i++) {
        const sp_dmn_form_part *p = &in->parts[i];
        if (!strcmp(p->name, "witness") || !strcmp(p->name, "input")) {
            in->data[in->n] = p->data;
            in->len[in->n++] = p->len;
        } else if (sub_field(r, in, p->name, (const char *)p->data, p->len)) {
            return -1;
        }
    }
    return 0;
}

static int sub_from_json(dreq *r, sub_in *in)
{
    if (!(in->doc = sp_dmn_req_json(r)))
        return -1;
    const sp_json_val *o = sp_json_root(in->doc), *ws = sp_json_get(o, "witnesses"), *pr = sp_json_get(o, "priority");
    const char *c = sp_dmn_json_str(o, "circuit"), *rid = sp_dmn_json_str(o, "request_id");
    if ((c && sub_field(r, in, "circuit", c, strlen(c))) || (rid && sub_field(r, in, "request_id", rid, strlen(rid))))
        return -1;
    if (pr && pr->type != SP_JSON_NUMBER) {
        sp_dmn_http_error(r, 400, "bad_request", "priority must be a number");
        return -1;
    }
    if (pr && sub_field(r, in, "priority", pr->text, pr->n))
        return -1;
    in->is_json = 1;
    in->ins = sp_json_get(o, "inputs");
    if (in->ins && ws) {
        sp_dmn_http_error(r, 400, "bad_request", "give \"witnesses\" or \"inputs\", not both");
        return -1;
    }
    if (in->ins)
        return 0; /* read once the circuit's kind is known */
    if (!ws || ws->type != SP_JSON_ARRAY) {
        sp_dmn_http_error(r, 400, "bad_request", "\"witnesses\" must be an array of base64 .wtns files (or, for a "
                          "native circuit or one with its .wasm, \"inputs\" an array of its inputs)");
        return -1;
    }
    if (sub_alloc(in, ws->n)) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory");
        return -1;
    }
    for (size_t i = 0; i < ws->n; i++) {
        const sp_json_val *v = ws->items[i];
        if (v->type != SP_JSON_STRING || sp_dmn_b64_decode(&in->decoded[i], &in->len[i], v->text, v->n) != SP_OK) {
            sp_dmn_http_error(r, 400, "bad_witness", "witnesses[%zu] is not base64", i);
            return -1;
        }
        in->data[i] = in->decoded[i];
        in->n = i + 1;
    }
    return 0;
}

static int sub_parse(dreq *r, sub_in *in)
{
    memset(in, 0, sizeof *in);
    if (sub_from_query(r, in))
        return -1;
    if (sp_dmn_req_is_type(r, "multipart/form-data"))
        return sub_from_form(r, in);
    if (sp_dmn_req_is_type(r, "application/json"))
        return sub_from_json(r, in);
    size_t len;
    const uint8_t *b = sp_dmn_req_body(r, &len);
    if (sub_alloc(in, 1)) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory");
        return -1;
    }
    in->data[0] = b;
    in->len[0] = len;
    in->n = len ? 1 : 0;
    return 0;
}

/* Parses every witness against c; answers 400 itself on a bad one. */
static sp_fr **parse_witnesses(const sp_dmn_ops *ops, dreq *r, const sub_in *in, const dcircuit *c)
{
    sp_fr **w = calloc(in->n, sizeof *w);
    char err[SP_ERR_LEN];
    if (!w) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory");
        return NULL;
    }
    for (size_t k = 0; k < in->n; k++) {
        sp_status st = sp_dmn_jobs_witness(ops, &w[k], in->data[k], in->len[k], c->n_vars, c->id, err);
        if (st != SP_OK) {
            sp_dmn_http_error(r, st == SP_ERR_NOMEM ? 503 : 400, "bad_witness", "witness %zu: %s", k, err);
            for (size_t i = 0; i < k; i++)
                free(w[i]);
            free(w);
            return NULL;
        }
    }
    return w;
}

int sp_dmn_api_jobs_early(sp_dmn *d, dreq *r, unsigned long long content_length)
{
    const char *id = sp_dmn_req_arg(r, "circuit");
    uint32_t n_vars = 0, domain = 0;
    sp_dmn_takes takes = SP_DMN_TAKES_WITNESS;
    if (!id || sp_dmn_reg_facts(d, id, &n_vars, &domain, &takes) != 0)
        return 0; /* the circuit is named in the body, or unknown: answered once the body is in */
    /* a, b, c alone (3 x domain x 32 bytes) already over the whole budget: no partition can ever run */
    unsigned long long abc = 3ULL * domain * 32;
    if (abc > d->engine_budget) {
        sp_dmn_http_error(r, 422, "job_too_large", "a partition of '%s' needs more than %llu bytes, over the whole engine "
                          "budget (%zu, engine.budget)", id, abc, d->engine_budget);
        return 1;
    }
    if (takes == SP_DMN_TAKES_INPUT_JSON)
        return 0; /* an input.json has no size the circuit bounds: server.max_body does */
    /* The largest body of the most witnesses the engine can ever hold: a
     * .wtns is 32 bytes a value plus a header (4 KiB of room given);
     * base64 in JSON takes 4/3; parts and fields get 512 bytes each. */
    unsigned long long w = 32ULL * n_vars + 4096, parts = d->cfg.eng.max_partitions, cap = w;
    const char *kind = "raw .wtns";
    if (takes == SP_DMN_TAKES_SEEDS) { /* JSON inputs: an item is at most about 60 bytes, given twice that */
        cap = parts * 128 + 65536;
        kind = "JSON (inputs)";
    } else if (sp_dmn_req_is_type(r, "multipart/form-data")) {
        cap = parts * (w + 512) + 65536;
        kind = "multipart";
    } else if (sp_dmn_req_is_type(r, "application/json")) {
        cap = parts * (w / 3 * 4 + 8) + 65536;
        kind = "JSON";
    }
    if (content_length > cap) {
        sp_dmn_http_error(r, 413, "body_too_large", "the body has %llu bytes; a %s body of a job of '%s' has at most "
                          "%llu (%llu partitions at most, engine.max_partitions)", content_length, kind, id, cap, parts);
        return 1;
    }
    return 0;
}

/* JSON "inputs" of a circuit with its .wasm: each item an input.json
 * object, written back as text into the input's data; 0 or -1 answered. */
static int json_texts(dreq *r, sub_in *in)
{
    const sp_json_val *a = in->ins;
    if (a->type != SP_JSON_ARRAY || a->n == 0) {
        sp_dmn_http_error(r, 400, "bad_input", "\"inputs\" must be an array of one or more input.json objects");
        return -1;
    }
    if (sub_alloc(in, a->n)) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory");
        return -1;
    }
    for (size_t k = 0; k < a->n; k++) {
        sp_json_writer w;
        sp_jw_init(&w, 0);
        sp_json_emit(&w, a->items[k]);
        char *t = NULL;
        size_t tl = 0;
        if (sp_jw_finish(&t, &tl, &w) != SP_OK) {
            sp_dmn_http_error(r, 503, "out_of_memory", "out of memory");
            return -1;
        }
        in->decoded[k] = (uint8_t *)t;
        in->data[k] = (const uint8_t *)t;
        in->len[k] = tl;
        in->n = k + 1;
    }
    return 0;
}

/* Reads what the body carries as what the circuit takes (from its facts,
 * or once acquired: the same answer unless it was registered again
 * meanwhile). Returns 0, or -1 after answering 400 (a body of another
 * kind than the circuit takes, or a bad input). */
static int sub_resolve(const sp_dmn_ops *ops, dreq *r, sub_in *in, sp_dmn_takes takes, const char *id)
{
    char err[SP_ERR_LEN];
    if (in->resolved && in->takes == takes)
        return 0;
    if (in->resolved) {
        sp_dmn_http_error(r, 400, "bad_request", "circuit '%s' was registered again as another kind meanwhile", id);
        return -1;
    }
    in->resolved = 1;
    in->takes = takes;
    int witnesses = in->is_json ? !in->ins : in->n_form_witness || (!in->n_form_input && !in->parts);
    if (takes == SP_DMN_TAKES_SEEDS) {
        if (!in->ins) {
            sp_dmn_http_error(r, 400, "bad_request", "circuit '%s' is native: a job carries inputs, JSON {\"circuit\", "
                              "\"inputs\": [{\"seed\": S, \"partition\": P}, ...]}, not witnesses", id);
            return -1;
        }
        int rc = sp_dmn_native_inputs(&in->inputs, &in->n_inputs, in->ins, err);
        if (rc)
            sp_dmn_http_error(r, rc == -2 ? 503 : 400, rc == -2 ? "out_of_memory" : "bad_input", "%s", err);
        return rc ? -1 : 0;
    }
    if (takes == SP_DMN_TAKES_WITNESS) {
        if (witnesses)
            return 0;
        sp_dmn_http_error(r, 400, "bad_request", "circuit '%s' takes witnesses (.wtns); inputs are for native "
                          "circuits and circuits registered with their .wasm", id);
        return -1;
    }
    if (in->is_json ? !in->ins : in->n_form_witness) {
        sp_dmn_http_error(r, 400, "bad_request", "circuit '%s' has its .wasm: a job carries input.json (the raw body, "
                          "\"input\" parts, or JSON \"inputs\": [{...}, ...]), not witnesses", id);
        return -1;
    }
    if (in->is_json && json_texts(r, in))
        return -1;
    for (size_t k = 0; k < in->n; k++)
        if (ops->wasmc_check_input((const char *)in->data[k], in->len[k], err)) {
            sp_dmn_http_error(r, 400, "bad_input", "input %zu: %s", k, err);
            return -1;
        }
    return 0;
}

/* Parses and submits; answers every failure itself. Returns the job
 * (a watcher reference) or NULL; *again set when it is the job its
 * request id already named (same circuit and inputs: nothing new runs). */
static djob *submit(sp_dmn *d, dreq *r, int *again)
{
    *again = 0;
    char err[SP_ERR_LEN];
    if (atomic_load(&d->draining)) {
        sp_dmn_http_header(r, "Retry-After", "5");
        sp_dmn_http_error(r, 503, "shutting_down", "the daemon is shutting down and takes no new jobs");
        return NULL;
    }
    sub_in in;
    djob *j = NULL;
    dcircuit *c = NULL;
    if (sub_parse(r, &in) == 0) {
        uint32_t nv, dom;
        sp_dmn_takes takes;
        if (!in.circuit[0])
            sp_dmn_http_error(r, 400, "bad_request", "which circuit? (circuit=ID)");
        else if (sp_dmn_reg_facts(d, in.circuit, &nv, &dom, &takes) == 0 &&
                 sub_resolve(d->ops, r, &in, takes, in.circuit))
            ; /* answered before the key is loaded for nothing */
        else if (in.n == 0 && !in.inputs)
            sp_dmn_http_error(r, 400, in.takes == SP_DMN_TAKES_INPUT_JSON ? "bad_input" : "bad_witness",
                              "no %s in the request", in.takes == SP_DMN_TAKES_INPUT_JSON ? "input" : "witness");
        else {
            int code = sp_dmn_reg_acquire(d, in.circuit, &c, err);
            if (code != 200)
                sp_dmn_http_error(r, code, code == 404 ? "unknown_circuit" : "key_unavailable", "%s", err);
            else if (sub_resolve(d->ops, r, &in, sp_dmn_reg_takes(c), c->id)) { /* registered again meanwhile */
                sp_dmn_reg_unref(d, c);
                c = NULL;
            }
        }
    }
    int json_in = c && in.takes == SP_DMN_TAKES_INPUT_JSON;
    sp_fr **w = c && !in.inputs && !json_in ? parse_witnesses(d->ops, r, &in, c) : NULL;
    if (w || (c && (in.inputs || json_in))) {
        size_t n = in.inputs ? in.n_inputs : in.n;
        job_spec s = {in.has_rid ? in.request_id : NULL, in.priority, w, n, in.inputs ? NULL : in.data,
                      in.inputs ? NULL : in.len, NULL, 0, in.inputs, json_in};
        size_t qpos = 0;
        int max_queued;
        const char *client = sp_dmn_req_client(r, &max_queued);
        int code = sp_dmn_jobs_submit_for(d, client, max_queued, c, &s, &j, &qpos, err);
        if (code == 200) {
            for (size_t k = 0; w && k < in.n; k++)
                free(w[k]);
            sp_dmn_reg_unref(d, c); /* the job holds its own reference */
            c = NULL;
            *again = 1;
        } else if (code != 202) {
            for (size_t k = 0; w && k < in.n; k++)
                free(w[k]);
            if (code == 503) /* only for what passes: a job that can never fit is a 4xx (no retry loop) */
                sp_dmn_http_header(r, "Retry-After", "1");
            sp_dmn_http_error(r, code, code == 409 ? "duplicate_request_id" : code == 429 ? "too_many_queued"
                              : code == 503 ? "busy" : code == 413
                              ? "too_many_partitions" : code == 422 ? "job_too_large" : code == 500 ? "state_write_failed"
                              : "bad_request", "%s", err);
        } else {
            j->queue_pos = qpos;
        }
        free(w);
    }
    if (c && !j)
        sp_dmn_reg_unref(d, c);
    if (!j)
        atomic_fetch_add(&d->rejected_submits, 1);
    sub_free(&in);
    return j;
}

/* ---- farm mode: jobs go to the queue database (farm/api.c) ---- */

typedef struct {
    char id[40];
    uint64_t ahead;
    size_t n;
} farm_ok;

/* Checks every witness against the circuit (its public inputs recorded
 * for the assembler), or encodes the native inputs (seed, partition:
 * little-endian), and submits. Returns 1 when accepted, 2 when the
 * request id names a job that proves the same (ok->id), 0 after
 * answering. */
static int farm_put(sp_dmn *d, dreq *r, const sub_in *in, const farm_circuit *ri, farm_ok *ok)
{
    char err[SP_ERR_LEN];
    size_t n = in->inputs ? in->n_inputs : in->n, np = ri->n_public;
    if (n > d->cfg.eng.max_partitions) {
        sp_dmn_http_error(r, 413, "too_many_partitions", "the job has %zu partitions; at most %zu (engine.max_partitions)",
                          n, d->cfg.eng.max_partitions);
        return 0;
    }
    const uint8_t **inp = calloc(n, sizeof *inp), **pub = in->inputs ? NULL : calloc(n, sizeof *pub);
    size_t *len = calloc(n, sizeof *len);
    uint8_t *buf = malloc(in->inputs ? 12 * n : n * np * 32 + 1);
    int code = !inp || !len || !buf || (!in->inputs && !pub) ? 503 : 0;
    if (code)
        snprintf(err, SP_ERR_LEN, "out of memory");
    for (size_t k = 0; !code && k < n; k++) {
        if (in->inputs) {
            uint8_t *b = buf + 12 * k;
            for (int i = 0; i < 8; i++)
                b[i] = (uint8_t)(in->inputs[k].seed >> (8 * i));
            for (int i = 0; i < 4; i++)
                b[8 + i] = (uint8_t)(in->inputs[k].partition >> (8 * i));
            inp[k] = b;
            len[k] = 12;
            continue;
        }
        sp_fr *w = NULL;
        char why[SP_ERR_LEN];
        sp_status st = sp_dmn_jobs_witness(d->ops, &w, in->data[k], in->len[k], ri->n_vars, in->circuit, why);
        if (st != SP_OK) {
            snprintf(err, SP_ERR_LEN, "witness %zu: %.200s", k, why);
            code = st == SP_ERR_NOMEM ? 503 : 400;
        }
        for (size_t i = 0; !code && i < np; i++)
            d->ops->fr_to_bytes(buf + (k * np + i) * 32, w, 1 + i);
        free(w);
        inp[k] = in->data[k];
        len[k] = in->len[k];
        pub[k] = buf + k * np * 32;
    }
    if (!code) {
        farm_job j = {ri, in->circuit, in->has_rid ? in->request_id : NULL, in->priority, n, inp, len, pub, NULL, 0};
        j.client = sp_dmn_req_client(r, &j.max_queued);
        code = sp_dmn_farm_submit(d, &j, ok->id, &ok->ahead, err);
        ok->n = n;
    }
    free(inp);
    free(pub);
    free(len);
    free(buf);
    if (code == 202 || code == 200)
        return code == 202 ? 1 : 2;
    if (code == 503)
        sp_dmn_http_header(r, "Retry-After", "1");
    sp_dmn_http_error(r, code, code == 400 ? "bad_witness" : code == 404 ? "unknown_circuit" : code == 409
                      ? "duplicate_request_id" : code == 503 ? "queue_unavailable" : code == 429
                      ? "too_many_queued" : "queue_error", "%s", err);
    return 0;
}

static int farm_submit(sp_dmn *d, dreq *r, sub_in *in, farm_ok *ok)
{
    memset(in, 0, sizeof *in);
    if (atomic_load(&d->draining)) {
        sp_dmn_http_header(r, "Retry-After", "5");
        sp_dmn_http_error(r, 503, "shutting_down", "the daemon is shutting down and takes no new jobs");
        return 0;
    }
    int done = 0, code;
    char err[SP_ERR_LEN];
    if (sub_parse(r, in) == 0) {
        farm_circuit ri;
        if (!in->circuit[0])
            sp_dmn_http_error(r, 400, "bad_request", "which circuit? (circuit=ID)");
        else if ((code = sp_dmn_farm_lookup(d, in->circuit, &ri, err)) != 200) {
            if (code == 503)
                sp_dmn_http_header(r, "Retry-After", "1");
            sp_dmn_http_error(r, code, code == 404 ? "unknown_circuit" : code == 503 ? "queue_unavailable"
                              : "queue_error", "%s", err);
        } else if (sub_resolve(d->ops, r, in, ri.native ? SP_DMN_TAKES_SEEDS : SP_DMN_TAKES_WITNESS, in->circuit))
            ; /* answered */
        else if (in->n == 0 && !in->inputs)
            sp_dmn_http_error(r, 400, "bad_witness", "no witness in the request");
        else
            done = farm_put(d, r, in, &ri, ok);
    }
    if (!done)
        atomic_fetch_add(&d->rejected_submits, 1);
    return done;
}

static void farm_accepted(dreq *r, const sub_in *in, const farm_ok *ok)
{
    char loc[80];
    snprintf(loc, sizeof loc, "/v1/jobs/%s", ok->id);
    sp_dmn_http_header(r, "Location", loc);
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "job_id");
    sp_jw_string(&w, ok->id);
    if (in->has_rid) {
        sp_jw_key(&w, "request_id");
        sp_jw_string(&w, in->request_id);
    }
    sp_jw_key(&w, "circuit");
    sp_jw_string(&w, in->circuit);
    sp_jw_key(&w, "partitions");
    sp_jw_u64(&w, ok->n);
    sp_jw_key(&w, "queue_position");
    sp_jw_u64(&w, ok->ahead);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, "pending");
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, 202, &w);
}

static void accepted(dreq *r, const djob *j)
{
    char loc[80];
    snprintf(loc, sizeof loc, "/v1/jobs/%s", j->id);
    sp_dmn_http_header(r, "Location", loc);
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_dmn_jobs_json_head(&w, j);
    sp_jw_key(&w, "partitions");
    sp_jw_u64(&w, j->n_parts);
    sp_jw_key(&w, "queue_position");
    sp_jw_u64(&w, j->queue_pos);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, "pending");
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, 202, &w);
}

static void answer_job(sp_dmn *d, dreq *r, djob *j, int finished, int strict);

void sp_dmn_api_jobs_submit(sp_dmn *d, dreq *r)
{
    if (sp_dmn_farm_on(d)) {
        sub_in in;
        farm_ok ok;
        int done = farm_submit(d, r, &in, &ok);
        if (done == 2) /* a retry of a submit, perhaps through another node: its job as GET shows it */
            sp_dmn_farm_api_get(d, r, ok.id, 0, 0);
        else if (done)
            farm_accepted(r, &in, &ok);
        sub_free(&in);
        return;
    }
    int again;
    djob *j = submit(d, r, &again);
    if (j && again) /* a retry of a submit: its job as GET /v1/jobs/ID shows it */
        answer_job(d, r, j, sp_dmn_jobs_wait(d, j, 0), 0);
    else if (j)
        accepted(r, j);
    if (j)
        sp_dmn_jobs_put(d, j);
}

/* wait_ms argument: default def, capped at server.max_wait; -1 when bad (answered). */
static long wait_arg(sp_dmn *d, dreq *r, long def)
{
    const char *v = sp_dmn_req_arg(r, "wait_ms");
    long max = sp_dmn_max_wait(d), w = def;
    if (v) {
        char *end;
        errno = 0;
        w = strtol(v, &end, 10);
        if (errno || end == v || *end || w < 0) {
            sp_dmn_http_error(r, 400, "bad_request", "wait_ms must be a non-negative integer");
            return -1;
        }
    }
    return w < max ? w : max;
}

/* Answers with a finished job's result (HTTP code by its status when
 * strict) or its pending state. */
static void answer_job(sp_dmn *d, dreq *r, djob *j, int finished, int strict)
{
    if (finished && j->result) {
        int code = 200;
        if (strict && j->status != SP_OK)
            code = j->status == SP_ERR_CANCELLED ? 409
                 : j->status == SP_ERR_UNSATISFIED || j->status == SP_ERR_BAD_ENCODING ? 422 : 500;
        char *copy = malloc(j->result_len + 1);
        if (copy) {
            memcpy(copy, j->result, j->result_len + 1);
            sp_dmn_http_send(r, code, "application/json", copy, j->result_len);
            return;
        }
    } else if (finished) {
        sp_dmn_http_error(r, 500, "internal", "job %s finished but its result is lost: %s", j->id, j->err);
        return;
    } else {
        size_t len = 0;
        char *text = sp_dmn_jobs_pending_json(d, j, &len);
        if (text) {
            if (strict)
                accepted(r, j);
            else
                sp_dmn_http_send(r, 200, "application/json", text, len);
            if (strict)
                free(text);
            return;
        }
    }
    sp_dmn_http_error(r, 503, "out_of_memory", "out of memory");
}


void sp_dmn_api_jobs_get(sp_dmn *d, dreq *r)
{
    long wait = wait_arg(d, r, 0);
    if (wait < 0)
        return;
    if (sp_dmn_farm_on(d)) {
        sp_dmn_farm_api_get(d, r, sp_dmn_req_last_segment(r), wait, 0);
        return;
    }
    djob *j = sp_dmn_jobs_get(d, sp_dmn_req_last_segment(r));
    if (!j) {
        sp_dmn_http_error(r, 404, "unknown_job", "no job '%.100s' (finished jobs are kept for server.result_ttl)",
                          sp_dmn_req_last_segment(r));
        return;
    }
    int done = sp_dmn_jobs_wait(d, j, wait);
    answer_job(d, r, j, done, 0);
    sp_dmn_jobs_put(d, j);
}

void sp_dmn_api_jobs_cancel(sp_dmn *d, dreq *r)
{
    if (sp_dmn_farm_on(d)) {
        sp_dmn_farm_api_cancel(d, r, sp_dmn_req_last_segment(r));
        return;
    }
    djob *j = sp_dmn_jobs_get(d, sp_dmn_req_last_segment(r));
    if (!j) {
        sp_dmn_http_error(r, 404, "unknown_job", "no job '%.100s'", sp_dmn_req_last_segment(r));
        return;
    }
    int was_running = 0, live = sp_dmn_jobs_cancel(d, j, &was_running);
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "job_id");
    sp_jw_string(&w, j->id);
    sp_jw_key(&w, "cancelled");
    sp_jw_bool(&w, live);
    sp_jw_key(&w, "was_running");
    sp_jw_bool(&w, was_running);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, live ? "cancelling" : j->status == SP_OK ? "completed"
                                         : j->status == SP_ERR_CANCELLED ? "cancelled" : "failed");
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, 200, &w);
    sp_dmn_jobs_put(d, j);
}

void sp_dmn_api_prove(sp_dmn *d, dreq *r)
{
    long wait = wait_arg(d, r, sp_dmn_max_wait(d));
    if (wait < 0)
        return;
    if (sp_dmn_farm_on(d)) {
        sub_in in;
        farm_ok ok;
        if (farm_submit(d, r, &in, &ok))
            sp_dmn_farm_api_get(d, r, ok.id, wait, 1);
        sub_free(&in);
        return;
    }
    int again; /* a retry waits for the job its request id names, like the first request */
    djob *j = submit(d, r, &again);
    if (!j)
        return;
    int done = sp_dmn_jobs_wait(d, j, wait);
    answer_job(d, r, j, done, 1);
    sp_dmn_jobs_put(d, j);
}

void sp_dmn_api_pause(sp_dmn *d, dreq *r)
{
    int resume = !strcmp(sp_dmn_req_path(r), "/v1/resume");
    char err[SP_ERR_LEN];
    pthread_mutex_lock(&d->submit_mu); /* the file and the engine agree, whatever the order of two requests */
    sp_status st = sp_dmn_state_set_paused(d, !resume, err); /* kept for a restart, or nothing changes */
    if (st == SP_OK) {
        sp_engine_pause(d->eng, !resume);
        atomic_store(&d->paused, !resume);
    }
    pthread_mutex_unlock(&d->submit_mu);
    if (st != SP_OK) {
        sp_dmn_http_error(r, 500, "state_write_failed", "%s", err);
        return;
    }
    if (resume && d->farm)
        sp_dmn_farm_nudge(d); /* claims again now */
    SP_DMN_LOGI("dispatch %s", resume ? "resumed" : "paused");
    static const char on[] = "{\"paused\":true}", off[] = "{\"paused\":false}";
    sp_dmn_http_send_static(r, 200, "application/json", resume ? off : on, resume ? sizeof off - 1 : sizeof on - 1);
}

void sp_dmn_api_resume(sp_dmn *d, dreq *r) { sp_dmn_api_pause(d, r); }
