/*
 * `snarkpipe client`: talks to a running daemon over its HTTP/JSON API
 * (src/daemon; README.md, "The daemon"). Plain sockets, HTTP/1.1, one
 * request per connection (daemon/wire.h), so it builds and runs even
 * where the daemon's libraries are missing.
 *
 * Exit codes: 0 success; 2 an error (connection, HTTP error answer, a
 * failed or cancelled job); 64 usage; 75 the job is still pending when
 * the wait ran out (await it again).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "daemon/wire.h"
#include "groth16/json_io.h"
#include "util/json.h"
#include "util/progress.h"
#include "util/rng.h"

#define EXIT_PENDING 75 /* sysexits' EX_TEMPFAIL */
#define MAX_FILE ((size_t)4 << 30)

int sp_cli_client(int argc, char **argv);

static const char USAGE[] =
    "usage: snarkpipe client [--addr ADDR] [--token-file FILE] [--timeout-ms N] COMMAND ...\n"
    "  prove    --circuit ID [--priority N] [--request-id R] [--wait-ms N] OUT WTNS...\n"
    "  submit   --circuit ID [--priority N] [--request-id R] WTNS...   (prints the job id)\n"
    "  prove | submit --circuit ID --input SEED:PARTITION...   a native circuit's job: one input\n"
    "           per partition (SEED 0..2^64-1, PARTITION 0..2^32-1), the witness made by the daemon\n"
    "  prove | submit --circuit ID --input-json FILE...   a job of a circuit registered with its\n"
    "           .wasm: one input.json per partition, the witness made by the daemon\n"
    "  await    [--wait-ms N] [OUT] JOB\n"
    "  cancel   JOB\n"
    "  status | metrics | circuits | healthz\n"
    "  register --id ID (--zkey PATH | --params PATH --r1cs PATH) [--r1cs PATH] [--no-preload] [--upload]\n"
    "           [--wasm PATH]   a circom circuit's .wasm (with its zkey): its jobs carry input.json\n"
    "           [--native porep-like [--preset NAME] [--challenges N] [--layers N] [--nodes N]\n"
    "            [--drg-parents N] [--exp-parents N] [--label-parents N]]   a native circuit (zkey only)\n"
    "           [--native window-post-like [--preset NAME] [--sectors N] [--challenges N] [--nodes N]]\n"
    "  evict    ID\n"
    "  pause | resume\n"
    "OUT: --proof FILE.json --public FILE.json --bin FILE.bin (one partition), or --out-dir DIR\n"
    "     (DIR/proof_K.json, public_K.json, proof_K.bin for every partition K); prove needs one\n"
    "     of them, or --json (the whole answer on stdout).\n"
    "While prove and await wait: a progress line on a terminal, else a line on stderr when the\n"
    "job moves (none with --quiet or --json).\n"
    "ADDR: host:port or unix:/path (default $SNARKPIPE_ADDR, else 127.0.0.1:7420); the token file\n"
    "defaults to $SNARKPIPE_TOKEN_FILE. --wait-ms bounds the whole wait (default 600000).\n"
    "Exit: 0 done, 2 error or failed job, 64 usage, 75 still pending when the wait ran out.\n";

#define N_NATIVE 8

typedef struct {
    sp_dmn_addr addr;
    char token[4096];
    long timeout_ms;
    /* command options */
    const char *circuit, *request_id, *priority, *proof, *pub, *bin, *out_dir, *id, *zkey, *params, *r1cs, *wasm;
    long wait_ms;
    int no_preload, upload;
    const char *args[4096];
    int n_args;
    /* native circuits: a job's inputs (as given, SEED:PARTITION) and a registration's kind and parameters */
    const char *inputs[4096];
    int n_inputs;
    const char *json_inputs[4096]; /* --input-json files (a .wasm circuit's job) */
    int n_json_inputs;
    const char *native, *nparam[N_NATIVE]; /* NATIVE_PARAMS order */
} client;

/* The daemon's names of a native circuit's parameters (daemon/native.h:
 * each kind takes some of them), and the client's options that give them. */
static const char *const NATIVE_PARAMS[N_NATIVE] = {"preset", "challenges", "layers", "nodes", "drg_parents",
                                                    "exp_parents", "label_parents", "sectors"};
static const char *const NATIVE_OPTS[N_NATIVE] = {"--preset", "--challenges", "--layers", "--nodes", "--drg-parents",
                                                  "--exp-parents", "--label-parents", "--sectors"};

/* ---- HTTP ---- */

static int fail_http(const sp_dmn_http_resp *r)
{
    sp_json_doc *doc = NULL;
    const sp_json_val *e = NULL, *dt = NULL;
    if (sp_json_parse(&doc, r->body, r->body_len, NULL, NULL, 0) == SP_OK) {
        e = sp_json_get(sp_json_root(doc), "error");
        dt = sp_json_get(sp_json_root(doc), "detail");
    }
    fprintf(stderr, "snarkpipe client: HTTP %d %s: %s\n", r->status, e && e->type == SP_JSON_STRING ? e->text : "",
            dt && dt->type == SP_JSON_STRING ? dt->text : r->body);
    sp_json_free(doc);
    return SP_EXIT_RUNTIME;
}

/* One request; prints the connection error and returns an exit code, or 0. */
static int call(client *c, const char *method, const char *target, const char *ct, const uint8_t *body, size_t len,
                long wait_ms, sp_dmn_http_resp *r)
{
    char err[SP_ERR_LEN];
    sp_dmn_http_req q = {method, target, ct, body, len, c->token[0] ? c->token : NULL,
                     c->timeout_ms + (wait_ms > 0 ? wait_ms : 0), 0};
    if (sp_dmn_http_call(r, &c->addr, &q, err) != SP_OK) {
        fprintf(stderr, "snarkpipe client: %s %s: %s\n", method, target, err);
        return SP_EXIT_RUNTIME;
    }
    return 0;
}

/* GET/DELETE/POST without a body: prints the body on success. */
static int simple(client *c, const char *method, const char *target)
{
    sp_dmn_http_resp r;
    int rc = call(c, method, target, NULL, NULL, 0, 0, &r);
    if (rc)
        return rc;
    if (r.status >= 300)
        rc = fail_http(&r);
    else
        printf("%s%s", r.body, r.body_len && r.body[r.body_len - 1] == '\n' ? "" : "\n");
    sp_dmn_http_resp_free(&r);
    return rc;
}

/* ---- multipart bodies ---- */

typedef struct {
    char *buf;
    size_t len;
    FILE *f;
    char boundary[48];
} mpart;

static void mp_begin(mpart *m)
{
    uint8_t r[12] = {0};
    if (sp_os_random(r, sizeof r) != SP_OK)
        memcpy(r, "snarkpipe-mp", 12);
    int n = snprintf(m->boundary, sizeof m->boundary, "snarkpipe-");
    for (int i = 0; i < 12; i++)
        n += snprintf(m->boundary + n, sizeof m->boundary - (size_t)n, "%02x", r[i]);
    m->buf = NULL;
    m->f = open_memstream(&m->buf, &m->len);
}

static void mp_part(mpart *m, const char *name, const char *filename, const uint8_t *data, size_t len)
{
    if (!m->f)
        return;
    fprintf(m->f, "--%s\r\nContent-Disposition: form-data; name=\"%s\"", m->boundary, name);
    if (filename)
        fprintf(m->f, "; filename=\"%s\"\r\nContent-Type: application/octet-stream", filename);
    fprintf(m->f, "\r\n\r\n");
    fwrite(data, 1, len, m->f);
    fprintf(m->f, "\r\n");
}

/* Closes the body (the boundary holds 96 random bits, so it occurs in no
 * file by chance); 0 when it is whole. */
static int mp_end(mpart *m, char *ct, size_t ct_len)
{
    if (!m->f)
        return -1;
    fprintf(m->f, "--%s--\r\n", m->boundary);
    int bad = fclose(m->f) != 0;
    m->f = NULL;
    snprintf(ct, ct_len, "multipart/form-data; boundary=%s", m->boundary);
    return bad ? -1 : 0;
}

static int add_file_part(mpart *m, const char *name, const char *path)
{
    char *data = NULL, err[SP_ERR_LEN];
    size_t len = 0;
    if (sp_g16_read_text(&data, &len, path, MAX_FILE, err) != SP_OK) {
        fprintf(stderr, "snarkpipe client: %s\n", err);
        return -1;
    }
    const char *base = strrchr(path, '/');
    mp_part(m, name, base ? base + 1 : path, (const uint8_t *)data, len);
    free(data);
    return 0;
}

/* ---- results ---- */

static int write_value(const char *path, const sp_json_val *v)
{
    sp_json_writer w;
    char *text = NULL, err[SP_ERR_LEN];
    size_t len = 0;
    sp_jw_init(&w, 1); /* the layout snarkjs writes its files with */
    sp_json_emit(&w, v);
    if (sp_jw_finish(&text, &len, &w) != SP_OK || sp_g16_write_text(path, text, len, err) != SP_OK) {
        fprintf(stderr, "snarkpipe client: %s\n", text ? err : "out of memory");
        free(text);
        return -1;
    }
    free(text);
    return 0;
}

static int write_bin(const char *path, const char *b64)
{
    uint8_t *b = NULL;
    size_t n = 0;
    char err[SP_ERR_LEN];
    if (sp_dmn_b64_decode(&b, &n, b64, strlen(b64)) != SP_OK ||
        sp_g16_write_text(path, (const char *)b, n, err) != SP_OK) {
        fprintf(stderr, "snarkpipe client: %s: %s\n", path, b ? err : "the answer's bellperson proof is not base64");
        free(b);
        return -1;
    }
    free(b);
    return 0;
}

/* Writes the proofs of a completed result as the options ask. */
static int write_outputs(const client *c, const sp_json_val *res)
{
    const sp_json_val *ps = sp_json_get(res, "proofs");
    if (!ps || ps->type != SP_JSON_ARRAY) {
        fprintf(stderr, "snarkpipe client: the answer has no proofs\n");
        return -1;
    }
    if ((c->proof || c->pub || c->bin) && ps->n != 1) {
        fprintf(stderr, "snarkpipe client: %zu proofs: use --out-dir\n", ps->n);
        return -1;
    }
    for (size_t k = 0; k < ps->n; k++) {
        const sp_json_val *p = ps->items[k], *pf = sp_json_get(p, "proof"), *pb = sp_json_get(p, "public"),
                          *bp = sp_json_get(p, "bellperson");
        char a[4096], b[4096], e[4096];
        if (!pf || !pb || (bp && bp->type != SP_JSON_STRING)) {
            fprintf(stderr, "snarkpipe client: proof %zu of the answer is incomplete\n", k);
            return -1;
        }
        if (c->bin && !bp) { /* a BN254 daemon's proofs have no bellperson encoding */
            fprintf(stderr, "snarkpipe client: proof %zu has no bellperson encoding (BLS12-381 only)\n", k);
            return -1;
        }
        snprintf(a, sizeof a, "%s/proof_%zu.json", c->out_dir ? c->out_dir : ".", k);
        snprintf(b, sizeof b, "%s/public_%zu.json", c->out_dir ? c->out_dir : ".", k);
        snprintf(e, sizeof e, "%s/proof_%zu.bin", c->out_dir ? c->out_dir : ".", k);
        const char *pa = c->out_dir ? a : c->proof, *pp = c->out_dir ? b : c->pub;
        const char *pe = c->out_dir ? (bp ? e : NULL) : c->bin;
        if ((pa && write_value(pa, pf)) || (pp && write_value(pp, pb)) || (pe && write_bin(pe, bp->text)))
            return -1;
    }
    return 0;
}

/* A job answer (completed, failed, cancelled or pending): reports it and
 * returns the exit code. */
static int report_job(const client *c, const sp_dmn_http_resp *r)
{
    sp_json_doc *doc = NULL;
    if (sp_json_parse(&doc, r->body, r->body_len, NULL, NULL, 0) != SP_OK) {
        fprintf(stderr, "snarkpipe client: HTTP %d with a body that is not JSON\n", r->status);
        return SP_EXIT_RUNTIME;
    }
    const sp_json_val *o = sp_json_root(doc), *st = sp_json_get(o, "status"), *id = sp_json_get(o, "job_id");
    const char *s = st && st->type == SP_JSON_STRING ? st->text : "?";
    const char *jid = id && id->type == SP_JSON_STRING ? id->text : "?";
    int rc = SP_EXIT_OK;
    if (sp_cli_g.json)
        printf("%s\n", r->body);
    if (!strcmp(s, "completed")) {
        rc = write_outputs(c, o) ? SP_EXIT_RUNTIME : SP_EXIT_OK;
        const sp_json_val *t = sp_json_get(sp_json_get(o, "timings_ms"), "total");
        if (!sp_cli_g.quiet && !sp_cli_g.json)
            printf("%s completed (%s ms)\n", jid, t && t->type == SP_JSON_NUMBER ? t->text : "?");
    } else if (!strcmp(s, "pending")) {
        if (!sp_cli_g.json)
            printf("%s pending\n", jid);
        rc = EXIT_PENDING;
    } else {
        const sp_json_val *e = sp_json_get(o, "error"), *dt = sp_json_get(o, "detail");
        fprintf(stderr, "snarkpipe client: job %s %s: %s: %s\n", jid, s, e && e->type == SP_JSON_STRING ? e->text : "",
                dt && dt->type == SP_JSON_STRING ? dt->text : "");
        rc = SP_EXIT_RUNTIME;
    }
    sp_json_free(doc);
    return rc;
}

/* ---- progress while a job runs ---- */

/* What the wait shows of a pending job's "progress" (docs/api.md): on a
 * terminal one line rewritten in place (util/progress.h), elsewhere a
 * plain line on stderr each time a partition is proved or the job's stage
 * changes; nothing with --quiet or --json. */
typedef struct {
    int on, tty, begun;
    uint64_t shown;  /* percent added to the terminal line so far */
    char last[96];   /* what the last plain line was about */
} waitprog;

/* How long one request of a wait may block: short while progress is shown. */
static long wait_slice(const waitprog *p) { return p->on ? 1000 : 60000; }

static void prog_init(waitprog *p)
{
    memset(p, 0, sizeof *p);
    p->on = !sp_cli_g.quiet && !sp_cli_g.json;
    p->tty = p->on && isatty(STDERR_FILENO);
    if (p->tty && !sp_progress_on()) {
        sp_progress_config cfg = sp_progress_defaults();
        const char *now = getenv("SP_TEST_PROGRESS_NOW"); /* tests: every update draws */
        if (now && !strcmp(now, "1"))
            cfg.delay_s = cfg.interval_s = 0;
        sp_progress_configure(&cfg);
    }
}

static uint64_t member_u64(const sp_json_val *o, const char *k)
{
    const sp_json_val *v = sp_json_get(o, k);
    return v && v->type == SP_JSON_NUMBER ? strtoull(v->text, NULL, 10) : 0;
}

static void prog_show(waitprog *p, const char *job, const sp_json_val *pg)
{
    const sp_json_val *sv = sp_json_get(pg, "stage");
    const char *stage = sv && sv->type == SP_JSON_STRING ? sv->text : "?";
    unsigned long long n = member_u64(pg, "partitions"), k = member_u64(pg, "partitions_done");
    uint64_t pct = member_u64(pg, "percent");
    char part[96];
    snprintf(part, sizeof part, "%llu/%llu, %s", k, n, stage);
    if (p->tty) {
        if (!p->begun) {
            char name[64];
            snprintf(name, sizeof name, "job %.50s", job);
            sp_progress_begin(name, 100);
            p->begun = 1;
        }
        sp_progress_part(part);
        if (pct > p->shown && pct <= 100) {
            sp_progress_add(pct - p->shown);
            p->shown = pct;
        }
        return;
    }
    char about[96]; /* the count and the stage without its device step */
    snprintf(about, sizeof about, "%llu/%llu, %.*s", k, n, (int)strcspn(stage, ":"), stage);
    if (strcmp(about, p->last)) {
        snprintf(p->last, sizeof p->last, "%s", about);
        fprintf(stderr, "snarkpipe client: job %s: %llu of %llu partitions proved, %s, %llu%%\n", job, k, n, stage,
                (unsigned long long)pct);
    }
}

static void prog_end(waitprog *p)
{
    if (p->begun)
        sp_progress_end();
    p->begun = 0;
}

/* 1 when r is a pending job's answer (its progress shown), else 0. */
static int prog_pending(waitprog *p, const sp_dmn_http_resp *r)
{
    sp_json_doc *doc = NULL;
    if (r->status >= 300 || sp_json_parse(&doc, r->body, r->body_len, NULL, NULL, 0) != SP_OK)
        return 0;
    const sp_json_val *o = sp_json_root(doc), *st = sp_json_get(o, "status"), *id = sp_json_get(o, "job_id"),
                      *pg = sp_json_get(o, "progress");
    int pending = st && st->type == SP_JSON_STRING && !strcmp(st->text, "pending");
    if (pending && p->on && pg && pg->type == SP_JSON_OBJECT)
        prog_show(p, id && id->type == SP_JSON_STRING ? id->text : "?", pg);
    sp_json_free(doc);
    return pending;
}

/* Awaits a job until c->wait_ms has passed, with GETs of at most a second
 * each while progress is shown (else a minute); reports the last answer. */
static int await_loop(client *c, const char *job)
{
    waitprog pg;
    prog_init(&pg);
    double end = sp_dmn_wire_now_ms() + (double)c->wait_ms;
    for (;;) {
        long left = (long)(end - sp_dmn_wire_now_ms());
        long w = left < 0 ? 0 : left > wait_slice(&pg) ? wait_slice(&pg) : left;
        char target[512];
        snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=%ld", job, w);
        sp_dmn_http_resp r;
        int rc = call(c, "GET", target, NULL, NULL, 0, w, &r);
        if (rc) {
            prog_end(&pg);
            return rc;
        }
        if (prog_pending(&pg, &r) && sp_dmn_wire_now_ms() < end) {
            sp_dmn_http_resp_free(&r);
            continue;
        }
        prog_end(&pg);
        rc = r.status >= 300 ? fail_http(&r) : report_job(c, &r);
        sp_dmn_http_resp_free(&r);
        return rc;
    }
}

/* ---- commands ---- */

static int build_jobs_body(client *c, mpart *m, char *ct, size_t ct_len)
{
    mp_begin(m);
    mp_part(m, "circuit", NULL, (const uint8_t *)c->circuit, strlen(c->circuit));
    if (c->priority)
        mp_part(m, "priority", NULL, (const uint8_t *)c->priority, strlen(c->priority));
    if (c->request_id)
        mp_part(m, "request_id", NULL, (const uint8_t *)c->request_id, strlen(c->request_id));
    for (int i = 0; i < c->n_args; i++)
        if (add_file_part(m, "witness", c->args[i]))
            return -1;
    for (int i = 0; i < c->n_json_inputs; i++)
        if (add_file_part(m, "input", c->json_inputs[i]))
            return -1;
    return mp_end(m, ct, ct_len);
}

/* {"circuit", "priority"?, "request_id"?, "inputs": [{seed, partition}, ...]}
 * from the --input options; 0, or a usage exit code (a bad input). */
static int build_inputs_body(client *c, char **body, size_t *len)
{
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "circuit");
    sp_jw_string(&w, c->circuit);
    if (c->priority) {
        char *end;
        errno = 0;
        long v = strtol(c->priority, &end, 10);
        if (errno || end == c->priority || *end) {
            sp_jw_free(&w);
            return sp_cli_usage("client", USAGE, "--priority needs an integer");
        }
        char num[24];
        snprintf(num, sizeof num, "%ld", v);
        sp_jw_key(&w, "priority");
        sp_jw_number(&w, num);
    }
    if (c->request_id) {
        sp_jw_key(&w, "request_id");
        sp_jw_string(&w, c->request_id);
    }
    sp_jw_key(&w, "inputs");
    sp_jw_begin_array(&w);
    for (int i = 0; i < c->n_inputs; i++) {
        char s[64];
        uint64_t seed, part;
        const char *colon = strchr(c->inputs[i], ':');
        snprintf(s, sizeof s, "%.*s", colon ? (int)(colon - c->inputs[i]) : 0, c->inputs[i]);
        if (!colon || colon - c->inputs[i] >= 60 || sp_cli_u64(&seed, s) || sp_cli_u64(&part, colon + 1) ||
            part > UINT32_MAX) {
            sp_jw_free(&w);
            return sp_cli_usage("client", USAGE, "--input '%s': give SEED:PARTITION (SEED 0..2^64-1, PARTITION "
                                "0..2^32-1)", c->inputs[i]);
        }
        sp_jw_begin_object(&w);
        sp_jw_key(&w, "seed");
        sp_jw_u64(&w, seed);
        sp_jw_key(&w, "partition");
        sp_jw_u64(&w, part);
        sp_jw_end_object(&w);
    }
    sp_jw_end_array(&w);
    sp_jw_end_object(&w);
    return sp_jw_finish(body, len, &w) == SP_OK ? 0 : SP_EXIT_RUNTIME;
}

/* The string member key of a JSON answer, copied into out; 1 when there. */
static int answer_str(const sp_dmn_http_resp *r, const char *key, char *out, size_t out_len)
{
    sp_json_doc *doc = NULL;
    const sp_json_val *v = NULL;
    if (sp_json_parse(&doc, r->body, r->body_len, NULL, NULL, 0) == SP_OK)
        v = sp_json_get(sp_json_root(doc), key);
    int ok = v && v->type == SP_JSON_STRING;
    if (ok)
        snprintf(out, out_len, "%s", v->text);
    sp_json_free(doc);
    return ok;
}

/* The directory part of path ("." when none) exists and takes new files. */
static int dir_writable(const char *path, int is_dir)
{
    char dir[4096];
    const char *slash = is_dir ? NULL : strrchr(path, '/');
    if (is_dir)
        snprintf(dir, sizeof dir, "%s", path);
    else
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash == path ? 1 : slash - path) : 1, slash ? path : ".");
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
}

/* prove keeps what it proves: an output option (or --json), each one
 * writable, checked before anything is sent. 0, or an exit code. */
static int check_outputs(const client *c)
{
    if (!c->proof && !c->pub && !c->bin && !c->out_dir && !sp_cli_g.json)
        return sp_cli_usage("client", USAGE, "prove needs somewhere to put the proofs: --proof FILE --public FILE "
                            "(one partition), --out-dir DIR, or --json (the answer on stdout); submit only queues "
                            "the job");
    const char *files[3] = {c->proof, c->pub, c->bin};
    for (int k = 0; k < 3; k++)
        if (files[k] && !dir_writable(files[k], 0)) {
            fprintf(stderr, "snarkpipe client: cannot write %s: its directory is missing or not writable\n",
                    files[k]);
            return SP_EXIT_RUNTIME;
        }
    if (c->out_dir && !dir_writable(c->out_dir, 1)) {
        fprintf(stderr, "snarkpipe client: --out-dir %s: not a writable directory (make it first)\n", c->out_dir);
        return SP_EXIT_RUNTIME;
    }
    return 0;
}

static int cmd_submit(client *c, int prove)
{
    if (!c->circuit || (c->n_args > 0) + (c->n_inputs > 0) + (c->n_json_inputs > 0) != 1)
        return sp_cli_usage("client", USAGE, "%s needs --circuit ID and at least one .wtns file, or (a native "
                            "circuit) --input SEED:PARTITION options, or (a circuit with its .wasm) --input-json "
                            "FILE options: one of the three", prove ? "prove" : "submit");
    int orc = prove ? check_outputs(c) : 0;
    if (orc)
        return orc;
    mpart m = {0};
    char ct[128] = "application/json", target[64], id[256], st[32];
    int rc = SP_EXIT_RUNTIME;
    sp_dmn_http_resp r;
    waitprog pg;
    prog_init(&pg);
    long first = c->wait_ms < wait_slice(&pg) ? c->wait_ms : wait_slice(&pg);
    snprintf(target, sizeof target, prove ? "/v1/prove?wait_ms=%ld" : "/v1/jobs", first);
    if (c->n_inputs) {
        char *body = NULL;
        size_t len = 0;
        if ((rc = build_inputs_body(c, &body, &len)) == 0)
            rc = call(c, "POST", target, ct, (const uint8_t *)body, len, prove ? first : 0, &r);
        free(body);
    } else if (build_jobs_body(c, &m, ct, sizeof ct) == 0) {
        rc = call(c, "POST", target, ct, (const uint8_t *)m.buf, m.len, prove ? first : 0, &r);
    }
    free(m.buf);
    if (rc)
        return rc;
    /* 200 to a submit: its request id names a job that proves the same (a retry) */
    if ((r.status == 202 || (!prove && r.status == 200)) && answer_str(&r, "job_id", id, sizeof id)) {
        if (prove) {
            c->wait_ms -= first;
            rc = await_loop(c, id);
        } else {
            printf("%s\n", sp_cli_g.json ? r.body : id);
        }
    } else if (prove && (r.status == 200 || answer_str(&r, "status", st, sizeof st))) {
        rc = report_job(c, &r); /* a result: completed, or failed / cancelled with its own HTTP code */
    } else {
        rc = fail_http(&r);
    }
    sp_dmn_http_resp_free(&r);
    return rc;
}

/* The native parameters given, checked as integers (the preset as it is);
 * v[k] their decimal text. 0, or a usage exit code. */
static int native_values(const client *c, char v[N_NATIVE][24])
{
    int any = 0;
    for (int k = 0; k < N_NATIVE; k++) {
        uint64_t x;
        v[k][0] = 0;
        if (!c->nparam[k])
            continue;
        any = 1;
        if (k == 0)
            snprintf(v[k], sizeof v[k], "%.23s", c->nparam[k]);
        else if (sp_cli_u64(&x, c->nparam[k]))
            return sp_cli_usage("client", USAGE, "%s needs a non-negative integer", NATIVE_OPTS[k]);
        else
            snprintf(v[k], sizeof v[k], "%llu", (unsigned long long)x);
    }
    if (any && !c->native)
        return sp_cli_usage("client", USAGE, "the circuit parameters (--preset, --nodes, ...) go with --native");
    return 0;
}

/* The native members of a JSON registration. */
static void native_json(sp_json_writer *w, const client *c, char v[N_NATIVE][24])
{
    sp_jw_key(w, "native");
    sp_jw_string(w, c->native);
    sp_jw_key(w, "native_params");
    sp_jw_begin_object(w);
    for (int k = 0; k < N_NATIVE; k++)
        if (v[k][0]) {
            sp_jw_key(w, NATIVE_PARAMS[k]);
            if (k == 0)
                sp_jw_string(w, v[k]);
            else
                sp_jw_number(w, v[k]);
        }
    sp_jw_end_object(w);
}

static int cmd_register(client *c)
{
    char nv[N_NATIVE][24];
    int urc;
    if (!c->id || (!c->zkey == !c->params) || (c->params && !c->r1cs))
        return sp_cli_usage("client", USAGE, "register needs --id and --zkey, or --params with --r1cs");
    if (c->wasm && !c->zkey)
        return sp_cli_usage("client", USAGE, "--wasm goes with the circuit's --zkey");
    if ((urc = native_values(c, nv)) != 0)
        return urc;
    char ct[128];
    char *body = NULL;
    size_t len = 0;
    mpart m = {0};
    if (c->upload) {
        mp_begin(&m);
        mp_part(&m, "id", NULL, (const uint8_t *)c->id, strlen(c->id));
        mp_part(&m, "preload", NULL, (const uint8_t *)(c->no_preload ? "no" : "yes"), c->no_preload ? 2 : 3);
        if (c->native)
            mp_part(&m, "native", NULL, (const uint8_t *)c->native, strlen(c->native));
        for (int k = 0; k < N_NATIVE && c->native; k++)
            if (nv[k][0])
                mp_part(&m, NATIVE_PARAMS[k], NULL, (const uint8_t *)nv[k], strlen(nv[k]));
        if (add_file_part(&m, c->zkey ? "zkey" : "params", c->zkey ? c->zkey : c->params) ||
            (c->r1cs && add_file_part(&m, "r1cs", c->r1cs)) || (c->wasm && add_file_part(&m, "wasm", c->wasm)) ||
            mp_end(&m, ct, sizeof ct)) {
            free(m.buf);
            return SP_EXIT_RUNTIME;
        }
        body = m.buf;
        len = m.len;
    } else {
        sp_json_writer w;
        sp_jw_init(&w, 0);
        sp_jw_begin_object(&w);
        const char *kv[5][2] = {{"id", c->id}, {"zkey", c->zkey}, {"params", c->params}, {"r1cs", c->r1cs},
                                {"wasm", c->wasm}};
        for (int i = 0; i < 5; i++)
            if (kv[i][1]) {
                sp_jw_key(&w, kv[i][0]);
                sp_jw_string(&w, kv[i][1]);
            }
        sp_jw_key(&w, "preload");
        sp_jw_number(&w, c->no_preload ? "false" : "true");
        if (c->native)
            native_json(&w, c, nv);
        sp_jw_end_object(&w);
        if (sp_jw_finish(&body, &len, &w) != SP_OK)
            return SP_EXIT_RUNTIME;
        snprintf(ct, sizeof ct, "application/json");
    }
    sp_dmn_http_resp r;
    int rc = call(c, "POST", "/v1/circuits", ct, (const uint8_t *)body, len, 0, &r);
    free(body);
    if (rc)
        return rc;
    rc = r.status >= 300 ? fail_http(&r) : (printf("%s\n", r.body), SP_EXIT_OK);
    sp_dmn_http_resp_free(&r);
    return rc;
}

/* ---- options ---- */

static int parse_long(long *out, const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0)
        return -1;
    *out = v;
    return 0;
}

/* Global client options (before the command). Returns the index of the
 * command, or -1 after a usage message. */
static int client_globals(client *c, int argc, char **argv)
{
    const char *addr = getenv("SNARKPIPE_ADDR"), *tf = getenv("SNARKPIPE_TOKEN_FILE");
    int i = 1, missing = 0;
    c->timeout_ms = 60000;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        int h = sp_cli_arg("client", USAGE, argc, argv, &i);
        if (h == SP_CLI_NEXT)
            continue;
        if (h != SP_CLI_OWN)
            return h == SP_EXIT_OK ? -2 : -1; /* --help answered; bad --threads */
        if ((v = sp_cli_opt(argc, argv, &i, "--addr", &missing)))
            addr = v;
        else if ((v = sp_cli_opt(argc, argv, &i, "--token-file", &missing)))
            tf = v;
        else if ((v = sp_cli_opt(argc, argv, &i, "--timeout-ms", &missing))) {
            if (parse_long(&c->timeout_ms, v))
                return sp_cli_usage("client", USAGE, "--timeout-ms needs a non-negative number"), -1;
        } else if (missing)
            return sp_cli_usage("client", USAGE, "%s needs a value", argv[i]), -1;
        else
            return sp_cli_unknown_opt("client", USAGE, argv[i]), -1;
    }
    char err[SP_ERR_LEN];
    if (sp_dmn_addr_parse(&c->addr, addr && *addr ? addr : "127.0.0.1:7420", err) != SP_OK)
        return sp_cli_usage("client", USAGE, "%s", err), -1;
    int shared = 0;
    if (tf && *tf && sp_dmn_read_token(c->token, sizeof c->token, &shared, tf, err) != SP_OK) {
        fprintf(stderr, "snarkpipe client: %s\n", err);
        return -3;
    }
    if (shared)
        fprintf(stderr, "snarkpipe client: warning: token file %s can be read by other users (chmod 600 it)\n", tf);
    return i < argc ? i : (sp_cli_usage("client", USAGE, "which command?"), -1);
}

/* Options of a command (after its name); the rest are its arguments.
 * The global options (--json, --quiet, --threads) are taken here too.
 * Returns 0, an exit code, or -1 after --help. */
static int command_opts(client *c, int argc, char **argv, int i)
{
    c->wait_ms = 600000;
    for (; i < argc; i++) {
        int missing = 0, h = sp_cli_arg("client", USAGE, argc, argv, &i);
        const char *v;
        if (h == SP_CLI_NEXT)
            continue;
        if (h != SP_CLI_OWN)
            return h == SP_EXIT_OK ? -1 : h;
        struct { const char *name; const char **dst; } str[] = {
            {"--circuit", &c->circuit}, {"--request-id", &c->request_id}, {"--priority", &c->priority},
            {"--proof", &c->proof}, {"--public", &c->pub}, {"--bin", &c->bin}, {"--out-dir", &c->out_dir},
            {"--id", &c->id}, {"--zkey", &c->zkey}, {"--params", &c->params}, {"--r1cs", &c->r1cs},
            {"--native", &c->native}, {"--wasm", &c->wasm}};
        int hit = 0;
        for (size_t k = 0; k < sizeof str / sizeof str[0] && !hit && !missing; k++)
            if ((v = sp_cli_opt(argc, argv, &i, str[k].name, &missing)))
                *str[k].dst = v, hit = 1;
        for (int k = 0; k < N_NATIVE && !hit && !missing; k++)
            if ((v = sp_cli_opt(argc, argv, &i, NATIVE_OPTS[k], &missing)))
                c->nparam[k] = v, hit = 1;
        if (hit)
            continue;
        if (!missing && (v = sp_cli_opt(argc, argv, &i, "--input", &missing))) {
            if (c->n_inputs == (int)(sizeof c->inputs / sizeof c->inputs[0]))
                return sp_cli_usage("client", USAGE, "more than %zu --input options",
                                    sizeof c->inputs / sizeof c->inputs[0]);
            c->inputs[c->n_inputs++] = v;
            continue;
        }
        if (!missing && (v = sp_cli_opt(argc, argv, &i, "--input-json", &missing))) {
            if (c->n_json_inputs == (int)(sizeof c->json_inputs / sizeof c->json_inputs[0]))
                return sp_cli_usage("client", USAGE, "more than %zu --input-json options",
                                    sizeof c->json_inputs / sizeof c->json_inputs[0]);
            c->json_inputs[c->n_json_inputs++] = v;
            continue;
        }
        if (!missing && (v = sp_cli_opt(argc, argv, &i, "--wait-ms", &missing))) {
            if (parse_long(&c->wait_ms, v))
                return sp_cli_usage("client", USAGE, "--wait-ms needs a non-negative number");
            continue;
        }
        if (!strcmp(argv[i], "--no-preload"))
            c->no_preload = 1;
        else if (!strcmp(argv[i], "--upload"))
            c->upload = 1;
        else if (missing)
            return sp_cli_usage("client", USAGE, "%s needs a value", argv[i]);
        else if (argv[i][0] == '-' && argv[i][1])
            return sp_cli_unknown_opt("client", USAGE, argv[i]);
        else if (c->n_args < (int)(sizeof c->args / sizeof c->args[0]))
            c->args[c->n_args++] = argv[i];
    }
    return 0;
}

static int one_arg(client *c, const char *cmd)
{
    if (c->n_args != 1)
        return sp_cli_usage("client", USAGE, "%s takes exactly one argument", cmd);
    if (strlen(c->args[0]) > 200 || strchr(c->args[0], '/') || strchr(c->args[0], '?'))
        return sp_cli_usage("client", USAGE, "'%s' is not an id", c->args[0]);
    return 0;
}

int sp_cli_client(int argc, char **argv)
{
    client *c = calloc(1, sizeof *c);
    if (!c)
        return SP_EXIT_RUNTIME;
    int i = client_globals(c, argc, argv), rc;
    if (i < 0) {
        free(c);
        return i == -2 ? SP_EXIT_OK : i == -3 ? SP_EXIT_RUNTIME : SP_EXIT_USAGE;
    }
    const char *cmd = argv[i];
    char target[300];
    if ((rc = command_opts(c, argc, argv, i + 1)) != 0) {
        free(c);
        return rc < 0 ? SP_EXIT_OK : rc;
    }
    if (!strcmp(cmd, "prove") || !strcmp(cmd, "submit"))
        rc = cmd_submit(c, !strcmp(cmd, "prove"));
    else if (!strcmp(cmd, "await"))
        rc = one_arg(c, cmd) ? SP_EXIT_USAGE : await_loop(c, c->args[0]);
    else if (!strcmp(cmd, "cancel") || !strcmp(cmd, "evict")) {
        snprintf(target, sizeof target, "/v1/%s/%s", cmd[0] == 'c' ? "jobs" : "circuits", c->n_args ? c->args[0] : "");
        rc = one_arg(c, cmd) ? SP_EXIT_USAGE : simple(c, "DELETE", target);
    } else if (!strcmp(cmd, "status") || !strcmp(cmd, "metrics") || !strcmp(cmd, "circuits") ||
               !strcmp(cmd, "healthz")) {
        snprintf(target, sizeof target, "%s%s", cmd[0] == 'm' || cmd[0] == 'h' ? "/" : "/v1/", cmd);
        rc = c->n_args ? sp_cli_usage("client", USAGE, "%s takes no argument", cmd) : simple(c, "GET", target);
    } else if (!strcmp(cmd, "pause") || !strcmp(cmd, "resume")) {
        snprintf(target, sizeof target, "/v1/%s", cmd);
        rc = simple(c, "POST", target);
    } else if (!strcmp(cmd, "register"))
        rc = cmd_register(c);
    else {
        static const char *const known[] = {"prove", "submit", "await", "cancel", "evict", "status", "metrics",
                                            "circuits", "healthz", "pause", "resume", "register"};
        const char *near = sp_cli_suggest(cmd, known, (int)(sizeof known / sizeof known[0]));
        rc = sp_cli_usage("client", USAGE, "unknown command '%s'%s%s%s", cmd, near ? " (did you mean " : "",
                          near ? near : "", near ? "?)" : "");
    }
    free(c);
    return rc;
}
