/*
 * Helpers shared by the daemon's test programs (test_daemon.c,
 * test_daemon_attack.c): `snarkpipe daemon` processes on a unix socket and
 * 127.0.0.1 (port 0), HTTP calls through the daemon's own client, circuit
 * fixtures with witnesses, and the checks of a result's proofs. Each
 * program sets bin_ (the snarkpipe binary) and dir_ (its scratch
 * directory) first.
 */
#ifndef SP_TEST_DAEMON_H
#define SP_TEST_DAEMON_H

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include "daemon/config.h"
#include "daemon/form.h"
#include "daemon/native.h"
#include "daemon/ops.h"
#include "daemon/wire.h"
#include "groth16/json_io.h"
#include "groth16/params.h"
#include "groth16/zkey.h"
#include "test_engine.h"

static char bin_[600], dir_[300];
static sp_rng rng_;

/* The directory part of path ("." when it has none), in a static buffer. */
static inline const char *dirname_of(const char *path)
{
    static char d[520];
    const char *s = strrchr(path, '/');
    snprintf(d, sizeof d, "%.*s", s ? (int)(s - path) : 1, s ? path : ".");
    return d;
}

static inline int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* ---- daemon processes ---- */

typedef struct {
    pid_t pid;
    char log[400], ready[400];
    sp_dmn_addr ux, tcp;
} proc;

static inline void show_log(const proc *p)
{
    FILE *f = fopen(p->log, "r");
    char line[512];
    fprintf(stderr, "---- %s (last lines)\n", p->log);
    long n = 0;
    while (f && fgets(line, sizeof line, f))
        n++;
    if (f)
        rewind(f);
    for (long i = 0; f && fgets(line, sizeof line, f); i++)
        if (i >= n - 25)
            fputs(line, stderr);
    if (f)
        fclose(f);
}

/* Starts `snarkpipe daemon` with a unix and a TCP listener and the
 * options in extra (NULL-terminated); 0 when it serves. */
static inline int start(proc *p, const char *name, const char *const *extra)
{
    char ux[400], *argv[64];
    int argc = 0;
    snprintf(ux, sizeof ux, "unix:%s/%s.sock", dir_, name);
    snprintf(p->ready, sizeof p->ready, "%s/%s.ready", dir_, name);
    snprintf(p->log, sizeof p->log, "%s/%s.log", dir_, name);
    unlink(p->ready);
    const char *base[] = {bin_, "daemon", "--listen", ux, "--listen", "127.0.0.1:0", "--ready-file", p->ready,
                          "--log-level", "debug", "--synth-threads", "1", "--gpu-threads", "1", "--backend-threads",
                          "1", "--load-threads", "1", "--budget", "512MiB", "--key-dirs", dir_, NULL};
    for (int i = 0; base[i]; i++)
        argv[argc++] = (char *)base[i];
    for (int i = 0; extra && extra[i] && argc < 62; i++)
        argv[argc++] = (char *)extra[i];
    argv[argc] = NULL;
    p->pid = fork();
    if (p->pid == 0) {
        int fd = open(p->log, O_WRONLY | O_CREAT | O_APPEND, 0600), nul = open("/dev/null", O_WRONLY);
        dup2(fd, 2);
        dup2(nul, 1);
        execv(bin_, argv);
        _exit(127);
    }
    for (int i = 0; i < 1500; i++) { /* up to 30 s (ASan builds start slowly) */
        FILE *f = fopen(p->ready, "r");
        char a[400] = "", b[400] = "", err[SP_ERR_LEN];
        if (f) {
            int k = fscanf(f, "%399s %399s", a, b);
            fclose(f);
            if (k == 2 && sp_dmn_addr_parse(&p->ux, a, err) == SP_OK && sp_dmn_addr_parse(&p->tcp, b, err) == SP_OK)
                return 0;
        }
        int st;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            p->pid = 0;
            break;
        }
        usleep(20000);
    }
    if (p->pid > 0) { /* alive but never ready: a test must not leave it behind */
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
        p->pid = 0;
    }
    show_log(p);
    return -1;
}

/* Sends sig and waits for the exit; returns the exit status, -1 on a
 * signal death or after 60 s (then SIGKILL). */
static inline int stop(proc *p, int sig)
{
    if (p->pid <= 0)
        return -1;
    kill(p->pid, sig);
    for (int i = 0; i < 3000; i++) {
        int st;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            p->pid = 0;
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
        usleep(20000);
    }
    kill(p->pid, SIGKILL);
    waitpid(p->pid, NULL, 0);
    p->pid = 0;
    return -1;
}

/* ---- raw connections (bytes on the wire, for malformed requests) ---- */

/* A connection to a (a unix socket, or TCP on loopback); -1 when none. */
static inline int raw_dial(const sp_dmn_addr *a)
{
    int fd;
    if (a->is_unix) {
        struct sockaddr_un su = {0};
        su.sun_family = AF_UNIX;
        snprintf(su.sun_path, sizeof su.sun_path, "%s", a->path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&su, sizeof su) != 0) {
            close(fd);
            return -1;
        }
        return fd;
    }
    struct sockaddr_in si = {0};
    si.sin_family = AF_INET;
    si.sin_port = htons((uint16_t)atoi(a->port));
    si.sin_addr.s_addr = htonl(0x7f000001); /* loopback only */
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&si, sizeof si) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Reads what comes on fd until it closes or timeout_ms passes without a
 * byte; into resp (NUL-terminated). Returns the byte count. */
static inline size_t raw_read(int fd, char *resp, size_t n, int timeout_ms)
{
    size_t got = 0;
    struct pollfd pf = {fd, POLLIN, 0};
    while (got + 1 < n && poll(&pf, 1, timeout_ms) == 1) {
        ssize_t k = recv(fd, resp + got, n - 1 - got, 0);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    resp[got] = 0;
    return got;
}

/* ---- HTTP helpers ---- */

static const char *token_ = NULL;

static inline int call(const sp_dmn_addr *a, const char *method, const char *target, const char *ct, const void *body,
                size_t len, sp_dmn_http_resp *r)
{
    char err[SP_ERR_LEN];
    sp_dmn_http_req q = {method, target, ct, body, len, token_, 120000, 0};
    if (sp_dmn_http_call(r, a, &q, err) != SP_OK) {
        fprintf(stderr, "%s %s: %s\n", method, target, err);
        memset(r, 0, sizeof *r);
        return -1;
    }
    return r->status;
}

/* Status of a request whose answer is only looked at for its status and
 * its "error" member (copied to err_code). */
static inline int call_err(const sp_dmn_addr *a, const char *method, const char *target, const char *ct, const void *body,
                    size_t len, char *err_code, size_t n)
{
    sp_dmn_http_resp r;
    int st = call(a, method, target, ct, body, len, &r);
    sp_json_doc *doc = NULL;
    err_code[0] = 0;
    if (st > 0 && sp_json_parse(&doc, r.body, r.body_len, NULL, NULL, 0) == SP_OK) {
        const sp_json_val *e = sp_json_get(sp_json_root(doc), "error"), *dt = sp_json_get(sp_json_root(doc), "detail");
        if (e && e->type == SP_JSON_STRING && dt && dt->type == SP_JSON_STRING)
            snprintf(err_code, n, "%s", e->text);
    }
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    return st;
}

static inline const char *jstr(const sp_json_val *o, const char *k)
{
    const sp_json_val *v = sp_json_get(o, k);
    return v && v->type == SP_JSON_STRING ? v->text : "";
}

static inline sp_json_doc *parse_resp(const sp_dmn_http_resp *r)
{
    sp_json_doc *doc = NULL;
    if (!r->body || sp_json_parse(&doc, r->body, r->body_len, NULL, NULL, 0) != SP_OK)
        return NULL;
    return doc;
}

/* The tier of circuit id in GET /v1/circuits, into out ("" when absent). */
static inline void tier_of(const sp_dmn_addr *a, const char *id, char *out, size_t n)
{
    sp_dmn_http_resp r;
    out[0] = 0;
    if (call(a, "GET", "/v1/circuits", NULL, NULL, 0, &r) == 200) {
        sp_json_doc *doc = parse_resp(&r);
        const sp_json_val *cs = doc ? sp_json_get(sp_json_root(doc), "circuits") : NULL;
        for (size_t i = 0; cs && i < cs->n; i++)
            if (!strcmp(jstr(cs->items[i], "id"), id))
                snprintf(out, n, "%s", jstr(cs->items[i], "tier"));
        sp_json_free(doc);
    }
    sp_dmn_http_resp_free(&r);
}

/* The "loads" counter of circuit id in GET /v1/circuits (-1 when absent):
 * how often its key was made hot. The tier right after a job is a race with
 * the housekeeping tick (a key over the hot budget is demoted at the next
 * one), its load count is not. */
static inline long loads_of(const sp_dmn_addr *a, const char *id)
{
    sp_dmn_http_resp r;
    long n = -1;
    if (call(a, "GET", "/v1/circuits", NULL, NULL, 0, &r) == 200) {
        sp_json_doc *doc = parse_resp(&r);
        const sp_json_val *cs = doc ? sp_json_get(sp_json_root(doc), "circuits") : NULL;
        for (size_t i = 0; cs && i < cs->n; i++) {
            const sp_json_val *v = sp_json_get(cs->items[i], "loads");
            if (!strcmp(jstr(cs->items[i], "id"), id) && v && v->type == SP_JSON_NUMBER)
                n = strtol(v->text, NULL, 10);
        }
        sp_json_free(doc);
    }
    sp_dmn_http_resp_free(&r);
    return n;
}

/* ---- fixtures ---- */

typedef struct {
    fx_circuit fx;
    char zkey[400];
    size_t nw;            /* witnesses */
    sp_fr **w;
    uint8_t **wtns;       /* their .wtns bytes */
    size_t *wtns_len;
} circ;

static inline uint8_t *wtns_bytes(const sp_fr *w, size_t n, size_t *len)
{
    char path[400], err[SP_ERR_LEN];
    snprintf(path, sizeof path, "%s/tmp.wtns", dir_);
    CHECKF(sp_wtns_write(path, w, n, err) == SP_OK, "%s", err);
    uint8_t *b = sp_test_slurp(path, len);
    CHECK(b != NULL);
    return b;
}

static inline void circ_make(circ *c, const char *name, uint64_t n, uint32_t k, size_t nw)
{
    char err[SP_ERR_LEN];
    fx_make(&c->fx, n, k, SP_G16_H_SNARKJS, sp_rng_u64(&rng_));
    snprintf(c->zkey, sizeof c->zkey, "%s/%s.zkey", dir_, name);
    CHECKF(sp_zkey_write(c->zkey, &c->fx.pk, err) == SP_OK, "%s", err);
    c->nw = nw;
    c->w = calloc(nw, sizeof *c->w);
    c->wtns = calloc(nw, sizeof *c->wtns);
    c->wtns_len = calloc(nw, sizeof *c->wtns_len);
    for (size_t i = 0; i < nw; i++) {
        c->w[i] = fx_witness(&c->fx, &rng_);
        c->wtns[i] = wtns_bytes(c->w[i], c->fx.cs.h.n_wires, &c->wtns_len[i]);
    }
}

static inline void circ_free(circ *c)
{
    for (size_t i = 0; i < c->nw; i++) {
        free(c->w[i]);
        free(c->wtns[i]);
    }
    free(c->w);
    free(c->wtns);
    free(c->wtns_len);
    fx_free(&c->fx);
}

static inline int register_zkey(const sp_dmn_addr *a, const char *id, const char *zkey, int preload)
{
    char body[1200], code[64];
    snprintf(body, sizeof body, "{\"id\":\"%s\",\"zkey\":\"%s\",\"preload\":%s}", id, zkey, preload ? "true" : "false");
    return call_err(a, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code);
}

/* Checks one completed result against witness w of c: both encodings of
 * every proof verify with w's public signals. Returns the number of
 * proofs that did (0 on any problem). */
static inline int check_result(const circ *c, const sp_json_val *res, const sp_fr *const *w, size_t n_parts)
{
    const sp_json_val *ps = sp_json_get(res, "proofs");
    if (strcmp(jstr(res, "status"), "completed") || !ps || ps->n != n_parts)
        return 0;
    int good = 0;
    uint32_t npub = c->fx.pk.vk.n_public;
    for (size_t k = 0; k < n_parts; k++) {
        sp_json_writer jw;
        char *text = NULL, err[SP_ERR_LEN];
        size_t len = 0, np = 0;
        sp_g16_proof pf, pb;
        sp_fr *pub = NULL;
        uint8_t *bp = NULL;
        sp_jw_init(&jw, 1);
        sp_json_emit(&jw, sp_json_get(ps->items[k], "proof"));
        int ok = sp_jw_finish(&text, &len, &jw) == SP_OK && sp_g16_proof_json_decode(&pf, text, len, 0, err) == SP_OK;
        free(text);
        sp_jw_init(&jw, 0);
        sp_json_emit(&jw, sp_json_get(ps->items[k], "public"));
        ok = ok && sp_jw_finish(&text, &len, &jw) == SP_OK && sp_g16_public_json_decode(&pub, &np, text, len, err) == SP_OK;
        free(text);
        ok = ok && np == npub;
        for (size_t i = 0; ok && i < npub; i++)
            ok = sp_fr_eq(&pub[i], &w[k][1 + i]);
        const char *b64 = jstr(ps->items[k], "bellperson");
        if (sp_bp_curve_check(err) == SP_OK) /* the bellperson encoding: BLS12-381 daemons only */
            ok = ok && sp_dmn_b64_decode(&bp, &len, b64, strlen(b64)) == SP_OK && len == SP_BP_PROOF_BYTES &&
                 sp_bp_proof_decode(&pb, bp, 0, err) == SP_OK && fx_verifies(&c->fx, &pb, w[k]);
        else
            ok = ok && !sp_json_get(ps->items[k], "bellperson");
        ok = ok && fx_verifies(&c->fx, &pf, w[k]);
        good += ok;
        free(pub);
        free(bp);
    }
    return good == (int)n_parts ? good : 0;
}

/* A multipart body: fields (name, value) pairs then files named "witness". */
static inline char *multipart(size_t *len, const char *const *fields, uint8_t *const *files, const size_t *file_len,
                       size_t n_files)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    for (int i = 0; fields && fields[i]; i += 2)
        fprintf(f, "--BoUnDaRy7\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n", fields[i], fields[i + 1]);
    for (size_t i = 0; i < n_files; i++) {
        fprintf(f, "--BoUnDaRy7\r\nContent-Disposition: form-data; name=\"witness\"; filename=\"w%zu.wtns\"\r\n\r\n", i);
        fwrite(files[i], 1, file_len[i], f);
        fprintf(f, "\r\n");
    }
    fprintf(f, "--BoUnDaRy7--\r\n");
    fclose(f);
    return buf;
}
#define MP_CT "multipart/form-data; boundary=BoUnDaRy7"

/* A JSON body with base64 witnesses. */
static inline char *json_jobs(size_t *len, const char *circuit, uint8_t *const *files, const size_t *file_len, size_t n)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    fprintf(f, "{\"circuit\":\"%s\",\"priority\":-2,\"witnesses\":[", circuit);
    for (size_t i = 0; i < n; i++) {
        char *b = malloc(sp_dmn_b64_len(file_len[i]) + 1);
        sp_dmn_b64_encode(b, files[i], file_len[i]);
        fprintf(f, "%s\"%s\"", i ? "," : "", b);
        free(b);
    }
    fprintf(f, "]}");
    fclose(f);
    return buf;
}

/* Job id of a 202 answer, or "". */
static inline void job_id(const sp_dmn_http_resp *r, char *out, size_t n)
{
    sp_json_doc *doc = parse_resp(r);
    snprintf(out, n, "%s", doc ? jstr(sp_json_root(doc), "job_id") : "");
    sp_json_free(doc);
}

/* len (size_t)-1: strlen(body). */
static inline void expect(const sp_dmn_addr *a, const char *method, const char *target, const char *ct, const void *body,
                   size_t len, int want, const char *want_err)
{
    char code[64];
    if (len == (size_t)-1)
        len = strlen(body);
    int st = call_err(a, method, target, ct, body, len, code, sizeof code);
    CHECKF(st == want && !strcmp(code, want_err), "%s %s: HTTP %d '%s', expected %d '%s'", method, target, st, code,
           want, want_err);
}


#endif
