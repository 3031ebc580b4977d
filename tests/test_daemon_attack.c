/*
 * The daemon under attack and faults: each test replays one
 * attack or fault of the review, bounded and on loopback or a unix socket
 * only, and checks the fixed behaviour: a clear error and a daemon that
 * keeps answering. On the code before the fix each of them fails.
 *   fifo       registering a FIFO (API and config + SIGHUP) blocked in open()
 *   oracle     registration by path read any file and quoted its first bytes
 *   race       two uploads under one id deleted each other's key
 *   slowloris  connections trickling header lines kept /healthz unanswered
 *   per-address one client address taking every connection slot
 *   csrf       text/plain cross-origin POSTs, Host of a rebinding name
 *   demote     a failed registration demoted the idle hot keys first
 *   never-fit  jobs that can never run got 503 + Retry-After, bodies read first
 *   sighup     a failed or changed [circuit.*] section was never retried
 *   state      a state write that failed was only logged (201, then undone)
 *   cap        one file per circuit, keys.max_circuits
 *   crash      accepted jobs were lost on kill -9 (and a job a shutdown
 *              cancelled runs after the restart)
 *   minor      two Content-Length headers, Content-Length with chunked,
 *              \u0000 in JSON, an r1cs of another circuit
 * The daemon binary is ../snarkpipe next to this program (make test builds it).
 */
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include "r1cs/r1cs.h"
#include "test_daemon.h"

static char keys_[400]; /* keys.key_dirs of the daemons here */

/* ---- raw connections ---- */

/* Sends req as it is and returns the status of the answer (-1: none
 * within timeout_ms); the start of the answer into resp. */
static int raw_call(const sp_dmn_addr *a, const char *req, char *resp, size_t n, int timeout_ms)
{
    int fd = raw_dial(a);
    if (fd < 0)
        return -1;
    send(fd, req, strlen(req), MSG_NOSIGNAL);
    size_t got = raw_read(fd, resp, n, timeout_ms);
    close(fd);
    int st = -1;
    return got > 12 && sscanf(resp, "HTTP/1.1 %d", &st) == 1 ? st : -1;
}

/* 1 when fd is closed by the peer within ms (EOF or reset). */
static int closed_within(int fd, int ms)
{
    struct pollfd pf = {fd, POLLIN, 0};
    char b[256];
    if (poll(&pf, 1, ms) != 1)
        return 0;
    return recv(fd, b, sizeof b, MSG_DONTWAIT) <= 0;
}

static int start_with(proc *p, const char *name, const char *const *extra)
{
    const char *args[40];
    int n = 0;
    args[n++] = "--key-dirs";
    args[n++] = keys_;
    for (int i = 0; extra && extra[i] && n < 38; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    return start(p, name, args);
}

static int log_has(const proc *p, const char *text)
{
    size_t n = 0;
    uint8_t *b = sp_test_slurp(p->log, &n);
    int r = b && memmem(b, n, text, strlen(text)) != NULL;
    free(b);
    return r;
}

/* n_vars of circuit id from GET /v1/circuits (0 when absent); its key path into zkey. */
static unsigned circuit_vars(const sp_dmn_addr *a, const char *id, char *zkey, size_t zn)
{
    sp_dmn_http_resp r;
    unsigned v = 0;
    if (zkey)
        zkey[0] = 0;
    if (call(a, "GET", "/v1/circuits", NULL, NULL, 0, &r) == 200) {
        sp_json_doc *doc = parse_resp(&r);
        const sp_json_val *cs = doc ? sp_json_get(sp_json_root(doc), "circuits") : NULL;
        for (size_t i = 0; cs && i < cs->n; i++)
            if (!strcmp(jstr(cs->items[i], "id"), id)) {
                const sp_json_val *nv = sp_json_get(cs->items[i], "n_vars");
                v = nv ? (unsigned)atoi(nv->text) : 0;
                if (zkey)
                    snprintf(zkey, zn, "%s", jstr(cs->items[i], "zkey"));
            }
        sp_json_free(doc);
    }
    sp_dmn_http_resp_free(&r);
    return v;
}

static int healthy(const sp_dmn_addr *a)
{
    char code[64];
    return call_err(a, "GET", "/healthz", NULL, NULL, 0, code, sizeof code) == 200;
}

/* ---- 1. FIFO ---- */

static void test_fifo(const circ *a)
{
    char fifo[500], conf[500], body[700], code[64];
    snprintf(fifo, sizeof fifo, "%s/fifo.zkey", keys_);
    CHECK(mkfifo(fifo, 0600) == 0);
    snprintf(conf, sizeof conf, "%s/fifo.conf", dir_);
    char text[1200];
    snprintf(text, sizeof text, "[circuit.cfgfifo]\nzkey = %s\n", fifo);
    write_file(conf, text);
    const char *extra[] = {"--config", conf, NULL};
    proc p = {0};
    if (start_with(&p, "fifo", extra)) { /* a FIFO in the config at start must not block it either */
        CHECK(0);
        return;
    }
    snprintf(body, sizeof body, "{\"id\":\"F\",\"zkey\":\"%s\"}", fifo);
    for (int i = 0; i < 5; i++) { /* used to take a connection slot each, for ever */
        sp_dmn_http_resp r;
        char err[SP_ERR_LEN];
        sp_dmn_http_req q = {
            "POST", "/v1/circuits", "application/json", (const uint8_t *)body, strlen(body), NULL, 10000, 0};
        int ok = sp_dmn_http_call(&r, &p.tcp, &q, err) == SP_OK;
        CHECKF(ok && r.status == 400 && strstr(r.body, "not a regular file"), "FIFO registration: %s",
               ok ? r.body : err);
        if (ok)
            sp_dmn_http_resp_free(&r);
    }
    CHECK(healthy(&p.tcp) && log_has(&p, "cfgfifo"));
    /* SIGHUP with the section still there: retried, refused again, the daemon answers */
    kill(p.pid, SIGHUP);
    for (int i = 0; i < 100 && !log_has(&p, "reload done"); i++)
        usleep(20000);
    CHECK(log_has(&p, "reload done") && healthy(&p.ux));
    CHECK(register_zkey(&p.ux, "A", a->zkey, 0) == 201);
    CHECK(call_err(&p.ux, "GET", "/v1/circuits", NULL, NULL, 0, code, sizeof code) == 200);
    CHECK(stop(&p, SIGTERM) == 0); /* SIGTERM stops it (a blocked open() held it) */
    unlink(fifo);
}

/* ---- 2. file oracle ---- */

static void test_oracle(void)
{
    char secret[500], inside[500], link[500], body[1200], missing[500];
    proc p = {0};
    if (start_with(&p, "oracle", NULL)) {
        CHECK(0);
        return;
    }
    snprintf(secret, sizeof secret, "%s/secret.txt", dir_); /* outside keys_ */
    write_file(secret, "root:$6$saltsalt$hash:19000:0:99999:7:::\n");
    snprintf(missing, sizeof missing, "%s/no-such-file", dir_);
    char d1[SP_ERR_LEN + 64] = "", d2[SP_ERR_LEN + 64] = "";
    const char *targets[] = {"/etc/shadow", secret, missing};
    for (int i = 0; i < 3; i++) {
        snprintf(body, sizeof body, "{\"id\":\"O\",\"zkey\":\"%s\"}", targets[i]);
        sp_dmn_http_resp r;
        CHECK(call(&p.tcp, "POST", "/v1/circuits", "application/json", body, strlen(body), &r) == 403);
        CHECKF(r.body && strstr(r.body, "forbidden_path") && !strstr(r.body, "root"), "%s", r.body ? r.body : "");
        snprintf(i == 0 ? d1 : d2, sizeof d1, "%s", r.body ? r.body : "");
        if (i > 0) /* existing or not, readable or not: one answer */
            CHECKF(!strcmp(d1, d2), "answers differ:\n%s\n%s", d1, d2);
        sp_dmn_http_resp_free(&r);
    }
    /* inside the key directory: a file that is not a key is refused without quoting it */
    snprintf(inside, sizeof inside, "%s/notakey.zkey", keys_);
    write_file(inside, "root:secret-bytes\n");
    snprintf(body, sizeof body, "{\"id\":\"O\",\"zkey\":\"%s\"}", inside);
    sp_dmn_http_resp r;
    CHECK(call(&p.tcp, "POST", "/v1/circuits", "application/json", body, strlen(body), &r) == 422);
    CHECKF(r.body && strstr(r.body, "wrong magic number") && !strstr(r.body, "root"), "%s", r.body ? r.body : "");
    sp_dmn_http_resp_free(&r);
    /* a link inside pointing outside; a path climbing out with .. */
    snprintf(link, sizeof link, "%s/link.zkey", keys_);
    CHECK(symlink(secret, link) == 0);
    snprintf(body, sizeof body, "{\"id\":\"O\",\"zkey\":\"%s\"}", link);
    char code[64];
    CHECK(call_err(&p.tcp, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) == 403);
    snprintf(body, sizeof body, "{\"id\":\"O\",\"zkey\":\"%s/../secret.txt\"}", keys_);
    CHECK(call_err(&p.tcp, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) == 403 &&
          !strcmp(code, "forbidden_path"));
    CHECK(healthy(&p.tcp));
    CHECK(stop(&p, SIGTERM) == 0);
    /* no key_dirs: registration by path is off altogether */
    const char *off[] = {"--key-dirs", "", NULL};
    if (start(&p, "oracle-off", off) == 0) {
        snprintf(body, sizeof body, "{\"id\":\"O\",\"zkey\":\"%s\"}", inside);
        CHECK(call_err(&p.ux, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) ==
              403);
        CHECK(stop(&p, SIGTERM) == 0);
    } else {
        CHECK(0);
    }
}

/* ---- 3. two uploads under one id ---- */

typedef struct {
    const sp_dmn_addr *a;
    const circ *c;
    int status;
    pthread_barrier_t *go;
} uploader;

static void *upload_fn(void *arg)
{
    uploader *u = arg;
    size_t klen = 0, len = 0;
    uint8_t *key = sp_test_slurp(u->c->zkey, &klen);
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, "--BoUnDaRy7\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\nR\r\n"
               "--BoUnDaRy7\r\nContent-Disposition: form-data; name=\"preload\"\r\n\r\nno\r\n"
               "--BoUnDaRy7\r\nContent-Disposition: form-data; name=\"zkey\"; filename=\"k.zkey\"\r\n\r\n");
    fwrite(key, 1, klen, f);
    fprintf(f, "\r\n--BoUnDaRy7--\r\n");
    fclose(f);
    char code[64];
    pthread_barrier_wait(u->go);
    u->status = call_err(u->a, "POST", "/v1/circuits", MP_CT, buf, len, code, sizeof code);
    free(buf);
    free(key);
    return NULL;
}

static void test_upload_race(const circ *a, const circ *b)
{
    proc p = {0};
    if (start_with(&p, "race", NULL)) {
        CHECK(0);
        return;
    }
    int good = 0, rounds = 10;
    for (int round = 0; round < rounds; round++) {
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, 2);
        uploader u[2] = {{&p.ux, a, 0, &go}, {&p.tcp, b, 0, &go}};
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&th[i], NULL, upload_fn, &u[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&go);
        char zkey[600], code[64];
        unsigned nv = circuit_vars(&p.ux, "R", zkey, sizeof zkey);
        int winner = u[0].status == 201 ? 0 : 1;
        const circ *w = winner ? b : a;
        struct stat st;
        /* one wins, one hears 409; the circuit describes the winner's key, whose file is there */
        int ok = (u[0].status == 201) + (u[1].status == 201) == 1 && u[1 - winner].status == 409 &&
                 nv == w->fx.pk.n_vars && stat(zkey, &st) == 0;
        CHECKF(ok, "round %d: %d / %d, n_vars %u (winner's %u), key file %s", round, u[0].status, u[1].status, nv,
               w->fx.pk.n_vars, zkey);
        good += ok;
        CHECK(call_err(&p.ux, "DELETE", "/v1/circuits/R", NULL, NULL, 0, code, sizeof code) == 200);
        CHECKF(stat(zkey, &st) != 0, "eviction leaves %s", zkey);
    }
    printf("  upload race: %d of %d rounds clean\n", good, rounds);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- 4. slow clients ---- */

typedef struct {
    const sp_dmn_addr *a;
    int n, every_ms, for_ms;
    int closed_early; /* connections the daemon closed before the trickle ended */
} trickle;

static void *trickle_fn(void *arg)
{
    trickle *t = arg;
    int fd[64], n = t->n < 64 ? t->n : 64;
    for (int i = 0; i < n; i++) {
        fd[i] = raw_dial(t->a);
        if (fd[i] >= 0)
            send(fd[i], "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", 40, MSG_NOSIGNAL);
    }
    double t0 = sp_dmn_wire_now_ms();
    int k = 0;
    while (sp_dmn_wire_now_ms() - t0 < t->for_ms) {
        usleep((useconds_t)t->every_ms * 1000);
        char line[32];
        int l = snprintf(line, sizeof line, "X-Slow-%d: 1\r\n", k++);
        for (int i = 0; i < n; i++)
            if (fd[i] >= 0 && send(fd[i], line, (size_t)l, MSG_NOSIGNAL) < 0) {
                close(fd[i]);
                fd[i] = -1;
                t->closed_early++;
            }
    }
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0) {
            t->closed_early += closed_within(fd[i], 0);
            close(fd[i]);
        }
    return NULL;
}

static void test_slowloris(void)
{
    /* The review's attack scaled down: 65 connections, a header line
     * every 8 s, 64 slots; here 9 connections, a line every 200 ms, for
     * 4 s, 8 slots, a 1 s header deadline (the idle timeout is 30 s). */
    proc p = {0};
    const char *extra[] = {"--max-connections", "8", "--max-connections-per-address", "0", "--header-timeout", "1s",
                           "--connection-timeout", "30s", NULL};
    if (start_with(&p, "slow", extra)) {
        CHECK(0);
        return;
    }
    trickle t = {&p.tcp, 9, 200, 4000, 0};
    pthread_t th;
    pthread_create(&th, NULL, trickle_fn, &t);
    usleep(300000);
    double t0 = sp_dmn_wire_now_ms(), answered = -1;
    while (answered < 0 && sp_dmn_wire_now_ms() - t0 < 2500) { /* the trickle goes on for 3.7 s more */
        char resp[256];
        const char *req = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        if (raw_call(&p.tcp, req, resp, sizeof resp, 300) == 200)
            answered = sp_dmn_wire_now_ms() - t0;
        else
            usleep(50000);
    }
    CHECKF(answered >= 0, "/healthz not answered while slow clients held every connection");
    pthread_join(th, NULL);
    CHECKF(t.closed_early >= 8, "only %d of 9 slow connections were cut", t.closed_early);
    printf("  slowloris: /healthz answered %.0f ms into the attack, %d slow connections cut\n", answered,
           t.closed_early);
    sp_dmn_http_resp mr;
    CHECK(call(&p.ux, "GET", "/metrics", NULL, NULL, 0, &mr) == 200); /* the operator sees it */
    const char *cm = mr.body ? strstr(mr.body, "\nsnarkpipe_http_connections_cut_total ") : NULL;
    CHECKF(cm && atoi(cm + strlen("\nsnarkpipe_http_connections_cut_total ")) >= 8, "metrics: %s", cm ? cm : "none");
    sp_dmn_http_resp_free(&mr);
    /* a body that trickles is cut too (body deadline) */
    CHECK(stop(&p, SIGTERM) == 0);
    const char *extra2[] = {"--body-timeout", "1s", "--max-connections-per-address", "3", NULL};
    if (start_with(&p, "slowbody", extra2)) {
        CHECK(0);
        return;
    }
    int fd = raw_dial(&p.tcp);
    const char *head = "POST /v1/jobs?circuit=A HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
                       "Content-Length: 100000\r\n\r\nwtns";
    send(fd, head, strlen(head), MSG_NOSIGNAL);
    int cut = 0;
    for (int i = 0; i < 30 && !cut; i++) { /* a byte every 100 ms: never idle */
        usleep(100000);
        cut = send(fd, "x", 1, MSG_NOSIGNAL) < 0 || closed_within(fd, 0);
    }
    CHECKF(cut, "a trickling body was not cut after body_timeout");
    close(fd);
    /* one address holds at most 3 connections; the 4th is closed at once */
    int held[4];
    for (int i = 0; i < 4; i++)
        held[i] = raw_dial(&p.tcp);
    CHECK(held[3] >= 0 && closed_within(held[3], 2000));
    CHECK(held[0] >= 0 && !closed_within(held[0], 100));
    for (int i = 0; i < 4; i++)
        if (held[i] >= 0)
            close(held[i]);
    CHECK(healthy(&p.ux)); /* other clients (here the unix socket) are served */
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- 5. cross-site requests without a token ---- */

static void test_csrf(const circ *a)
{
    proc p = {0};
    if (start_with(&p, "csrf", NULL)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 1) == 201);
    char req[1500], resp[2048], host[64];
    snprintf(host, sizeof host, "127.0.0.1:%s", p.tcp.port);
    struct {
        const char *what, *method, *path, *host, *extra, *ct, *body;
        int want;
        const char *err;
    } cases[] = {
        {"text/plain pause from another site", "POST", "/v1/pause", host, "Origin: http://evil.example\r\n",
         "text/plain", "x", 403, "cross_origin"},
        {"text/plain pause without Origin", "POST", "/v1/pause", host, "", "text/plain", "x", 415,
         "unsupported_media_type"},
        {"form-urlencoded registration", "POST", "/v1/circuits", host, "", "application/x-www-form-urlencoded",
         "id=x", 415, "unsupported_media_type"},
        {"JSON registration from another site", "POST", "/v1/circuits", host, "Origin: http://evil.example\r\n",
         "application/json", "{\"id\":\"X\",\"zkey\":\"/x\"}", 403, "cross_origin"},
        {"Sec-Fetch-Site cross-site", "POST", "/v1/resume", host, "Sec-Fetch-Site: cross-site\r\n", NULL, "", 403,
         "cross_origin"},
        {"DNS rebinding: a foreign Host", "GET", "/v1/status", "evil.example:7420", "", NULL, "", 403,
         "forbidden_host"},
        {"no Host at all", "GET", "/v1/circuits", NULL, "", NULL, "", 403, "forbidden_host"},
        {"rebinding to the status page", "GET", "/", "attacker.test", "", NULL, "", 403, "forbidden_host"},
        {"the page's own Origin", "GET", "/v1/status", host, "Origin: http://LOCALHOST\r\n", NULL, "", 403,
         "cross_origin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = snprintf(req, sizeof req, "%s %s HTTP/1.1\r\n", cases[i].method, cases[i].path);
        if (cases[i].host)
            n += snprintf(req + n, sizeof req - (size_t)n, "Host: %s\r\n", cases[i].host);
        if (cases[i].ct)
            n += snprintf(req + n, sizeof req - (size_t)n, "Content-Type: %s\r\n", cases[i].ct);
        snprintf(req + n, sizeof req - (size_t)n, "%sContent-Length: %zu\r\nConnection: close\r\n\r\n%s", cases[i].extra,
                 strlen(cases[i].body), cases[i].body);
        int st = raw_call(&p.tcp, req, resp, sizeof resp, 5000);
        CHECKF(st == cases[i].want && strstr(resp, cases[i].err), "%s: HTTP %d\n%s", cases[i].what, st, resp);
    }
    /* the engine was never paused: a proof goes through at once */
    sp_dmn_http_resp r;
    CHECK(call(&p.tcp, "POST", "/v1/prove?circuit=A&wait_ms=20000", "application/octet-stream", a->wtns[0],
               a->wtns_len[0], &r) == 200);
    sp_dmn_http_resp_free(&r);
    /* same-origin and non-browser clients are served */
    snprintf(req, sizeof req, "GET /v1/status HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\nSec-Fetch-Site: "
             "same-origin\r\nConnection: close\r\n\r\n", host, host);
    CHECK(raw_call(&p.tcp, req, resp, sizeof resp, 5000) == 200);
    snprintf(req, sizeof req, "GET /healthz HTTP/1.1\r\nHost: localhost:%s\r\nConnection: close\r\n\r\n", p.tcp.port);
    CHECK(raw_call(&p.tcp, req, resp, sizeof resp, 5000) == 200);
    snprintf(req, sizeof req, "GET /healthz HTTP/1.1\r\nHost: anything\r\nConnection: close\r\n\r\n");
    CHECK(raw_call(&p.ux, req, resp, sizeof resp, 5000) == 200); /* unix sockets are out of a browser's reach */
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- 6. a failed registration demotes nobody ---- */

static void test_no_demotion(const circ *a, const circ *b)
{
    proc p = {0};
    char sparse[500], t[16], body[700], code[64];
    struct stat st;
    stat(a->zkey, &st);
    char budget[32];
    snprintf(budget, sizeof budget, "%lld", (long long)st.st_size * 3);
    const char *extra[] = {"--hot-budget", budget, NULL};
    if (start_with(&p, "demote", extra)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 1) == 201);
    snprintf(sparse, sizeof sparse, "%s/sparse.zkey", keys_);
    int fd = open(sparse, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0);
    close(fd);
    snprintf(body, sizeof body, "{\"id\":\"S\",\"zkey\":\"%s\",\"preload\":true}", sparse);
    CHECK(call_err(&p.ux, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) == 422);
    tier_of(&p.ux, "A", t, sizeof t);
    CHECKF(!strcmp(t, "hot"), "A is %s after a failed registration", t);
    /* and a good key that does not fit the budget still demotes it */
    CHECK(register_zkey(&p.ux, "B", b->zkey, 1) == 201);
    unlink(sparse);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- 7. jobs that can never run ---- */

static void test_never_fits(circ *a, circ *big)
{
    proc p = {0};
    const char *extra[] = {"--max-partitions", "2", "--max-body", "64MiB", NULL};
    if (start_with(&p, "never", extra)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 1) == 201);
    size_t len;
    const char *fields[] = {"circuit", "A", NULL};
    char *body = multipart(&len, fields, a->wtns, a->wtns_len, 3);
    sp_dmn_http_resp r;
    CHECK(call(&p.ux, "POST", "/v1/jobs", MP_CT, body, len, &r) == 413 && r.retry_after < 0 &&
          strstr(r.body, "too_many_partitions"));
    sp_dmn_http_resp_free(&r);
    free(body);
    /* a 20 MB body for a circuit whose witness is a few KB: refused before it travels */
    size_t huge = (size_t)20 << 20;
    char *junk = calloc(1, huge);
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", junk, huge, &r) == 413 &&
          !r.body_sent && r.retry_after < 0);
    sp_dmn_http_resp_free(&r);
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=A", MP_CT, junk, huge, &r) == 413 && !r.body_sent);
    sp_dmn_http_resp_free(&r);
    free(junk);
    CHECK(stop(&p, SIGTERM) == 0);
    /* a partition larger than the whole budget: 422, no Retry-After, before the body (the bodies' memory
     * holds this job's witness: the engine gets what is left of the budget) */
    const char *extra2[] = {"--budget", "256KiB", "--body-memory", "160KiB", NULL};
    if (start_with(&p, "never2", extra2)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "C", big->zkey, 0) == 201);
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=C", "application/octet-stream", big->wtns[0], big->wtns_len[0], &r) ==
              422 && r.retry_after < 0 && !r.body_sent && strstr(r.body, "job_too_large"));
    sp_dmn_http_resp_free(&r);
    const char *f2[] = {"circuit", "C", NULL};
    body = multipart(&len, f2, big->wtns, big->wtns_len, 1);
    CHECK(call(&p.ux, "POST", "/v1/prove", MP_CT, body, len, &r) == 422 && r.retry_after < 0);
    sp_dmn_http_resp_free(&r);
    free(body);
    CHECK(healthy(&p.ux));
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- 8. SIGHUP retries and replaces [circuit.*] sections ---- */

static void hup_and_wait(const proc *p, int nth)
{
    kill(p->pid, SIGHUP);
    for (int i = 0; i < 250; i++) {
        size_t n = 0, c = 0;
        uint8_t *b = sp_test_slurp(p->log, &n);
        for (uint8_t *q = b; q && (q = memmem(q, n - (size_t)(q - b), "reload done", 11)); q++)
            c++;
        free(b);
        if ((int)c >= nth)
            return;
        usleep(20000);
    }
}

static void copy_file(const char *from, const char *to)
{
    size_t n = 0;
    uint8_t *b = sp_test_slurp(from, &n);
    FILE *f = fopen(to, "wb");
    if (f && b)
        fwrite(b, 1, n, f);
    if (f)
        fclose(f);
    free(b);
}

static void test_sighup(const circ *a, const circ *b)
{
    char conf[500], key[500], text[1200];
    snprintf(conf, sizeof conf, "%s/hup.conf", dir_);
    snprintf(key, sizeof key, "%s/later.zkey", keys_);
    unlink(key);
    snprintf(text, sizeof text, "[circuit.h]\nzkey = %s\npreload = no\n", key);
    write_file(conf, text);
    const char *extra[] = {"--config", conf, NULL};
    proc p = {0};
    if (start_with(&p, "hup", extra)) {
        CHECK(0);
        return;
    }
    CHECK(circuit_vars(&p.ux, "h", NULL, 0) == 0 && log_has(&p, "a SIGHUP tries again"));
    copy_file(a->zkey, key); /* the operator fixes the file */
    hup_and_wait(&p, 1);
    CHECKF(circuit_vars(&p.ux, "h", NULL, 0) == a->fx.pk.n_vars, "the fixed section was not registered on SIGHUP");
    snprintf(text, sizeof text, "[circuit.h]\nzkey = %s\npreload = no\n", b->zkey); /* a new path */
    write_file(conf, text);
    hup_and_wait(&p, 2);
    CHECKF(circuit_vars(&p.ux, "h", NULL, 0) == b->fx.pk.n_vars, "a changed path was ignored on SIGHUP");
    CHECK(stop(&p, SIGTERM) == 0);
    unlink(key);
}

/* ---- 9, 10. the state directory ---- */

static int count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name), sl = strlen(suffix);
        n += l > sl && !strcmp(e->d_name + l - sl, suffix);
    }
    if (d)
        closedir(d);
    return n;
}

/* Turns state_dir/sub into a regular file (writes there fail even for root), or back. */
static void break_dir(const char *state, const char *sub, int broken)
{
    char path[600], cmd[700];
    snprintf(path, sizeof path, "%s/%s", state, sub);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0)
        return;
    if (broken)
        write_file(path, "not a directory\n");
    else
        mkdir(path, 0700);
}

static void test_state_failures(const circ *a, const circ *b)
{
    char state[500], code[64], cdir[600];
    snprintf(state, sizeof state, "%s/state9", dir_);
    const char *extra[] = {"--state-dir", state, "--max-circuits", "3", NULL};
    proc p = {0};
    if (start_with(&p, "state9", extra)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 0) == 201);
    snprintf(cdir, sizeof cdir, "%s/circuits", state);
    CHECK(count_files(cdir, ".json") == 1); /* one file per circuit */
    break_dir(state, "circuits", 1);
    char body[700];
    snprintf(body, sizeof body, "{\"id\":\"B\",\"zkey\":\"%s\",\"preload\":true}", b->zkey);
    CHECK(call_err(&p.ux, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) == 500 &&
          !strcmp(code, "state_write_failed"));
    CHECK(circuit_vars(&p.ux, "B", NULL, 0) == 0); /* not registered: the client and a restart agree */
    CHECK(call_err(&p.ux, "DELETE", "/v1/circuits/A", NULL, NULL, 0, code, sizeof code) == 500);
    CHECK(circuit_vars(&p.ux, "A", NULL, 0) == a->fx.pk.n_vars); /* eviction refused: still there */
    break_dir(state, "jobs", 1);
    CHECK(call_err(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", a->wtns[0], a->wtns_len[0], code,
                   sizeof code) == 500 && !strcmp(code, "state_write_failed"));
    break_dir(state, "jobs", 0);
    break_dir(state, "circuits", 0);
    CHECK(register_zkey(&p.ux, "B", b->zkey, 0) == 201);
    CHECK(register_zkey(&p.ux, "A2", a->zkey, 0) == 201);
    CHECK(call_err(&p.ux, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) == 409);
    snprintf(body, sizeof body, "{\"id\":\"D\",\"zkey\":\"%s\"}", b->zkey);
    CHECK(call_err(&p.ux, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) == 507 &&
          !strcmp(code, "too_many_circuits"));
    CHECK(count_files(cdir, ".json") == 2); /* B and A2 (A's file went with the directory) */
    kill(p.pid, SIGKILL);
    waitpid(p.pid, NULL, 0);
    p.pid = 0;
    if (start_with(&p, "state9", extra)) {
        CHECK(0);
        return;
    }
    CHECK(circuit_vars(&p.ux, "B", NULL, 0) == b->fx.pk.n_vars && circuit_vars(&p.ux, "A2", NULL, 0) > 0);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- 11. accepted jobs survive kill -9 ---- */

static void test_crash(circ *a)
{
    char state[500], ids[4][64], code[64];
    snprintf(state, sizeof state, "%s/state11", dir_);
    const char *extra[] = {"--state-dir", state, NULL};
    proc p = {0};
    if (start_with(&p, "crash", extra)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 1) == 201);
    sp_dmn_http_resp r;
    /* one job finished before the crash, three still queued (paused) at it */
    CHECK(call(&p.ux, "POST", "/v1/prove?circuit=A&request_id=done-1", "application/octet-stream", a->wtns[0],
               a->wtns_len[0], &r) == 200);
    job_id(&r, ids[0], sizeof ids[0]);
    sp_dmn_http_resp_free(&r);
    CHECK(call_err(&p.ux, "POST", "/v1/pause", NULL, NULL, 0, code, sizeof code) == 200);
    for (int k = 1; k < 4; k++) {
        char target[100];
        snprintf(target, sizeof target, "/v1/jobs?circuit=A&request_id=q-%d", k);
        CHECK(call(&p.tcp, "POST", target, "application/octet-stream", a->wtns[k], a->wtns_len[k], &r) == 202);
        job_id(&r, ids[k], sizeof ids[k]);
        sp_dmn_http_resp_free(&r);
    }
    kill(p.pid, SIGKILL);
    waitpid(p.pid, NULL, 0);
    p.pid = 0;
    if (start_with(&p, "crash", extra)) {
        CHECK(0);
        return;
    }
    CHECK(call_err(&p.ux, "POST", "/v1/resume", NULL, NULL, 0, code, sizeof code) == 200); /* paused as it was */
    for (int k = 0; k < 4; k++) { /* every id answers, with a verified proof of its own witness */
        char target[400];
        snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=30000", ids[k]);
        CHECK(call(&p.ux, "GET", target, NULL, NULL, 0, &r) == 200);
        sp_json_doc *doc = parse_resp(&r);
        CHECKF(doc && check_result(a, sp_json_root(doc), (const sp_fr *const *)&a->w[k], 1) == 1,
               "job %s after kill -9: %.300s", ids[k], r.body ? r.body : "");
        sp_json_free(doc);
        sp_dmn_http_resp_free(&r);
    }
    /* a client that lost its 202 retries with its request id: answered with its job, no second job */
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=A&request_id=q-2", "application/octet-stream", a->wtns[2],
               a->wtns_len[2], &r) == 200 && strstr(r.body, ids[2]));
    sp_dmn_http_resp_free(&r);
    CHECK(stop(&p, SIGTERM) == 0);
    char jdir[600];
    snprintf(jdir, sizeof jdir, "%s/jobs", state);
    CHECK(count_files(jdir, ".job") == 0 && count_files(jdir, ".result") == 4);
    /* a job stopped by a shutdown (server.shutdown = cancel), not by its client, runs after the restart */
    const char *cancel[] = {"--state-dir", state, "--shutdown", "cancel", NULL};
    char sid[64];
    if (start_with(&p, "crash", cancel)) {
        CHECK(0);
        return;
    }
    CHECK(call_err(&p.ux, "POST", "/v1/pause", NULL, NULL, 0, code, sizeof code) == 200);
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", a->wtns[1], a->wtns_len[1], &r) == 202);
    job_id(&r, sid, sizeof sid);
    sp_dmn_http_resp_free(&r);
    CHECK(stop(&p, SIGTERM) == 0 && count_files(jdir, ".job") == 1);
    if (start_with(&p, "crash", extra)) {
        CHECK(0);
        return;
    }
    char target[400];
    CHECK(call_err(&p.ux, "POST", "/v1/resume", NULL, NULL, 0, code, sizeof code) == 200);
    snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=30000", sid);
    CHECK(call(&p.ux, "GET", target, NULL, NULL, 0, &r) == 200);
    sp_json_doc *doc = parse_resp(&r);
    CHECKF(doc && check_result(a, sp_json_root(doc), (const sp_fr *const *)&a->w[1], 1) == 1,
           "job %s stopped by the shutdown: %.300s", sid, r.body ? r.body : "");
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- minor ---- */

static void test_minor(const circ *a, const circ *b)
{
    proc p = {0};
    if (start_with(&p, "minor", NULL)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 0) == 201);
    char resp[1024], host[64], code[64], req[600];
    snprintf(host, sizeof host, "127.0.0.1:%s", p.tcp.port);
    snprintf(req, sizeof req, "POST /v1/jobs?circuit=A HTTP/1.1\r\nHost: %s\r\nContent-Type: application/octet-stream"
             "\r\nContent-Length: 4\r\nContent-Length: 40\r\nConnection: close\r\n\r\nwtns", host);
    CHECK(raw_call(&p.tcp, req, resp, sizeof resp, 5000) == 400);
    snprintf(req, sizeof req, "POST /v1/jobs?circuit=A HTTP/1.1\r\nHost: %s\r\nContent-Type: application/octet-stream"
             "\r\nContent-Length: 9\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n4\r\nwtns\r\n0\r\n\r\n", host);
    CHECK(raw_call(&p.tcp, req, resp, sizeof resp, 5000) == 400);
    /* "A\u0000x" used to be read as "A" */
    size_t len = 0;
    char *body = json_jobs(&len, "A\\u0000x", a->wtns, a->wtns_len, 1);
    CHECK(call_err(&p.ux, "POST", "/v1/jobs", "application/json", body, len, code, sizeof code) == 400 &&
          !strcmp(code, "malformed_json"));
    free(body);
    /* an r1cs of another circuit */
    char r1cs[500], jb[1200], err[SP_ERR_LEN];
    snprintf(r1cs, sizeof r1cs, "%s/other.r1cs", keys_);
    CHECKF(sp_r1cs_write(r1cs, &b->fx.cs, err) == SP_OK, "%s", err);
    snprintf(jb, sizeof jb, "{\"id\":\"M\",\"zkey\":\"%s\",\"r1cs\":\"%s\",\"preload\":false}", a->zkey, r1cs);
    sp_dmn_http_resp r;
    CHECK(call(&p.ux, "POST", "/v1/circuits", "application/json", jb, strlen(jb), &r) == 422 &&
          strstr(r.body, "does not match"));
    sp_dmn_http_resp_free(&r);
    CHECK(healthy(&p.tcp));
    CHECK(stop(&p, SIGTERM) == 0);
}

static void test_wire_checks(void)
{
    static const char *yes[] = {"localhost", "LocalHost:7420", "127.0.0.1", "127.1.2.3:80", "[::1]", "[::1]:7420"};
    static const char *no[] = {"evil.example", "127.0.0.1.evil.example", "localhost.evil", "[::2]:1", "127.0.0.1:",
                               "127.0.0.1:99999", "0x7f.0.0.1", "", "[::1]x", "128.0.0.1", "127.0.0.1 :80"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        CHECKF(sp_dmn_http_host_is_loopback(yes[i]), "%s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        CHECKF(!sp_dmn_http_host_is_loopback(no[i]), "%s", no[i]);
    CHECK(!sp_dmn_http_host_is_loopback(NULL));
    CHECK(sp_dmn_http_origin_is("http://127.0.0.1:7420", "127.0.0.1:7420") &&
          sp_dmn_http_origin_is("HTTP://LocalHost", "localhost"));
    CHECK(!sp_dmn_http_origin_is("null", "localhost") && !sp_dmn_http_origin_is("https://localhost", "localhost") &&
          !sp_dmn_http_origin_is("http://localhost:1", "localhost") && !sp_dmn_http_origin_is(NULL, "x"));
    sp_dmn_addr ad;
    char err[SP_ERR_LEN];
    CHECK(sp_dmn_addr_parse(&ad, "ev[il.example:80", err) != SP_OK && sp_dmn_addr_parse(&ad, "a b:80", err) != SP_OK);
    CHECK(sp_dmn_addr_parse(&ad, "[z%1]:0", err) != SP_OK); /* brackets hold IPv6 only (fuzz_addr found it) */
    CHECK(sp_dmn_addr_parse(&ad, "[fe80::1%eth0]:80", err) == SP_OK &&
          sp_dmn_addr_parse(&ad, "my-host_1.lan:80", err) == SP_OK);
}

int main(int argc, char **argv)
{
    sp_test_begin("test_daemon_attack", &rng_);
    snprintf(bin_, sizeof bin_, "%.500s/../snarkpipe", dirname_of(argv[0]));
    if (access(bin_, X_OK) != 0) {
        fprintf(stderr, "test_daemon_attack: %s not found (make builds it)\n", bin_);
        return 1;
    }
    snprintf(dir_, sizeof dir_, "%s/sp_test_attack.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir_))
        return 1;
    snprintf(keys_, sizeof keys_, "%s/keys", dir_);
    mkdir(keys_, 0700);
    test_wire_checks();
    circ a, b, big;
    circ_make(&a, "keys/A", 64, 2, 4);
    circ_make(&b, "keys/B", 40, 1, 1);
    circ_make(&big, "keys/C", 4096, 1, 1);
    test_fifo(&a);
    test_oracle();
    test_upload_race(&a, &b);
    test_slowloris();
    test_csrf(&a);
    test_no_demotion(&a, &b);
    test_never_fits(&a, &big);
    test_sighup(&a, &b);
    test_state_failures(&a, &b);
    test_crash(&a);
    test_minor(&a, &b);
    if (!sp_test_failures) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir_);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir_);
    } else {
        fprintf(stderr, "test_daemon_attack: logs kept in %s\n", dir_);
    }
    circ_free(&a);
    circ_free(&b);
    circ_free(&big);
    return sp_test_done();
}
