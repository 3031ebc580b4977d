/*
 * The daemon's second hostile and fault review: each test replays one
 * finding, on a unix socket or loopback only, and checks the fixed
 * behaviour. On the code before the fix each of them fails.
 *   bodies     concurrent large bodies were all held in memory (no cap
 *              over connections): now server.body_memory, 503 with
 *              Retry-After before the body, 413 for a body larger than it
 *   lock       two daemons on one state_dir both ran its jobs: the second
 *              now exits 2 naming the first one's pid
 *   nul        %00 (and other control bytes) in a URL cut it short
 *              silently: "A%00zzz" acted on circuit A
 *   leak       a file registered as a key came back in the error as
 *              numbers ("ic claims 1397048146 points")
 *   paused     a paused daemon forgot it on restart
 *   request-id a reused request id got 409 without its payload compared
 *   symlink    a link in key_dirs told whether its target outside exists
 *   clients    one bearer token per daemon: now [client.NAME] sections,
 *              each token with its own limit on unfinished jobs (429)
 *   framing    "Content-Length: 5, 5" is refused by libmicrohttpd itself;
 *              what the client receives is checked (its 0.9.x sends the
 *              header block of that 400 twice: see test_framing)
 * The daemon binary is ../snarkpipe next to this program (make test builds it).
 */
#include <ctype.h>
#include <dirent.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <poll.h>
#include <sys/stat.h>
#include "r1cs/r1cs.h"
#include "test_daemon.h"

static char keys_[400]; /* keys.key_dirs of the daemons here */

static int send_all(int fd, const void *b, size_t n)
{
    const char *p = b;
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int status_of(const char *resp)
{
    int st = -1;
    return sscanf(resp, "HTTP/1.1 %d", &st) == 1 ? st : -1;
}

/* Sends req on a new connection; the answer's status (-1: none), the answer into resp. */
static int raw_call(const sp_dmn_addr *a, const char *req, size_t len, char *resp, size_t n)
{
    int fd = raw_dial(a);
    if (fd < 0)
        return -1;
    send_all(fd, req, len);
    raw_read(fd, resp, n, 10000);
    close(fd);
    return status_of(resp);
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

/* A number member of GET /v1/status's object obj ("" = the root); -1 when absent. */
static long long status_num(const sp_dmn_addr *a, const char *obj, const char *key)
{
    sp_dmn_http_resp r;
    long long v = -1;
    if (call(a, "GET", "/v1/status", NULL, NULL, 0, &r) == 200) {
        sp_json_doc *doc = parse_resp(&r);
        const sp_json_val *o = doc ? sp_json_root(doc) : NULL;
        if (o && *obj)
            o = sp_json_get(o, obj);
        const sp_json_val *x = o ? sp_json_get(o, key) : NULL;
        if (x && x->type == SP_JSON_NUMBER)
            v = strtoll(x->text, NULL, 10);
        sp_json_free(doc);
    }
    sp_dmn_http_resp_free(&r);
    return v;
}

/* ---- bodies: one memory cap over every connection ---- */

static void upload_head(char *out, size_t n, size_t len, int chunked)
{
    if (chunked)
        snprintf(out, n, "POST /v1/circuits HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
                 "boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n");
    else
        snprintf(out, n, "POST /v1/circuits HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
                 "boundary=B\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n", len);
}

typedef struct {
    const sp_dmn_addr *a;
    const char *req;
    size_t len;
    int answered, busy; /* answers of 400 (the junk read whole and refused); 503 retried */
} uploader;

/* Sends its 5 MiB upload 3 times, each retried while the cap refuses it. */
static void *upload_fn(void *arg)
{
    uploader *u = arg;
    char resp[1024];
    for (int k = 0; k < 3; k++)
        for (int t = 0; t < 3000; t++) { /* up to a minute */
            int st = raw_call(u->a, u->req, u->len, resp, sizeof resp);
            if (st != 503) {
                u->answered += st == 400;
                break;
            }
            u->busy++;
            usleep(20000);
        }
    return NULL;
}

/* Eight clients upload 5 MiB bodies at once, three times each: every one
 * is answered (after 503s while the cap is taken), and the daemon's peak
 * resident size grows by about the cap, not by the bodies' sum. */
static void test_bodies_at_once(const proc *p, const char *junk)
{
    enum { MIB = 1 << 20, N = 8 };
    char head[300];
    upload_head(head, sizeof head, 5 * MIB, 0);
    size_t hl = strlen(head);
    char *req = malloc(hl + 5 * MIB);
    memcpy(req, head, hl);
    memcpy(req + hl, junk, 5 * MIB);
    long long peak0 = status_num(&p->ux, "memory", "process_rss_peak_bytes");
    uploader u[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        u[i] = (uploader){&p->ux, req, hl + 5 * MIB, 0, 0};
        pthread_create(&th[i], NULL, upload_fn, &u[i]);
    }
    int answered = 0, busy = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        answered += u[i].answered;
        busy += u[i].busy;
    }
    long long peak1 = status_num(&p->ux, "memory", "process_rss_peak_bytes");
    printf("  bodies at once: %d of %d answered, %d refused for a while (503), peak RSS +%.1f MiB\n", answered,
           3 * N, busy, (double)(peak1 - peak0) / MIB);
    CHECK(answered == 3 * N);
    CHECKF(peak0 > 0 && peak1 - peak0 < 24LL * MIB, "peak RSS grew by %lld bytes (cap 8 MiB)", peak1 - peak0);
    free(req);
}

static void test_bodies(void)
{
    enum { MIB = 1 << 20, HELD = 6 };
    const char *extra[] = {"--body-memory", "8MiB", "--max-body", "16MiB", NULL};
    proc p = {0};
    if (start_with(&p, "bodies", extra)) {
        CHECK(0);
        return;
    }
    char head[300], resp[2048];
    char *junk = malloc(9 * MIB);
    memset(junk, 'x', 9 * MIB);
    CHECK(status_num(&p.ux, "memory", "request_body_limit_bytes") == 8 * MIB);
    /* one 5 MiB body in flight: its memory is taken at its headers */
    int fd0 = raw_dial(&p.ux);
    upload_head(head, sizeof head, 5 * MIB, 0);
    CHECK(fd0 >= 0 && send_all(fd0, head, strlen(head)) == 0 && send_all(fd0, junk, 1 * MIB) == 0);
    /* others of 5 MiB now: refused at their headers, before a byte of body is sent */
    int refused = 0, retry = 0;
    for (int i = 0; i < HELD; i++) {
        int fd = raw_dial(&p.ux);
        if (fd < 0 || send_all(fd, head, strlen(head)) != 0) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        raw_read(fd, resp, sizeof resp, 10000);
        refused += status_of(resp) == 503 && strstr(resp, "server.body_memory") != NULL;
        retry += strcasestr(resp, "\r\nRetry-After: ") != NULL;
        close(fd);
    }
    CHECKF(refused == HELD && retry == HELD, "%d of %d bodies refused before they were sent (%d with Retry-After)",
           refused, HELD, retry);
    /* a body larger than all of body_memory (within max_body): 413, no retry */
    upload_head(head, sizeof head, 9 * MIB, 0);
    CHECK(raw_call(&p.ux, head, strlen(head), resp, sizeof resp) == 413 && strstr(resp, "server.body_memory") &&
          !strcasestr(resp, "Retry-After"));
    /* the first one finishes: read whole, answered (a bad upload) */
    CHECK(send_all(fd0, junk, 4 * MIB) == 0);
    raw_read(fd0, resp, sizeof resp, 30000);
    CHECKF(status_of(resp) == 400, "the held body's answer: %.200s", resp);
    close(fd0);
    /* its memory comes back: another 5 MiB body is read (answered 400, not 503) */
    long long used = -1;
    for (int i = 0; i < 500 && used != 0; i++) { /* released when its connection is done with */
        used = status_num(&p.ux, "memory", "request_body_bytes");
        if (used != 0)
            usleep(20000);
    }
    CHECK(used == 0);
    upload_head(head, sizeof head, 5 * MIB, 0);
    char *req = malloc(strlen(head) + 5 * MIB);
    memcpy(req, head, strlen(head));
    memcpy(req + strlen(head), junk, 5 * MIB);
    CHECK(raw_call(&p.ux, req, strlen(head) + 5 * MIB, resp, sizeof resp) == 400);
    free(req);
    /* a chunked body grows within the cap: past it, drained and answered 503 */
    int fd = raw_dial(&p.ux);
    upload_head(head, sizeof head, 0, 1);
    int ok = fd >= 0 && send_all(fd, head, strlen(head)) == 0;
    for (int i = 0; ok && i < 9; i++) {
        char line[32];
        snprintf(line, sizeof line, "%x\r\n", MIB);
        ok = send_all(fd, line, strlen(line)) == 0 && send_all(fd, junk, MIB) == 0 && send_all(fd, "\r\n", 2) == 0;
    }
    ok = ok && send_all(fd, "0\r\n\r\n", 5) == 0;
    if (fd >= 0) {
        raw_read(fd, resp, sizeof resp, 30000);
        close(fd);
    }
    CHECKF(ok && status_of(resp) == 503 && strcasestr(resp, "Retry-After"), "chunked past the cap: %.200s", resp);
    test_bodies_at_once(&p, junk);
    free(junk);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- lock: one daemon per state directory ---- */

/* Runs the daemon with argv (after "daemon") to its end; its exit status
 * (-1: killed after 60 s), its stderr into log. */
static int run_daemon(const char *log, const char *const *args)
{
    char *argv[40];
    int n = 0;
    argv[n++] = bin_;
    argv[n++] = "daemon";
    for (int i = 0; args[i] && n < 38; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600), nul = open("/dev/null", O_WRONLY);
        dup2(fd, 2);
        dup2(nul, 1);
        execv(bin_, argv);
        _exit(127);
    }
    for (int i = 0; i < 3000; i++) {
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        usleep(20000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

static void test_lock(void)
{
    char state[500], log[500], sock[500], want[64];
    snprintf(state, sizeof state, "%s/state-lock", dir_);
    const char *extra[] = {"--state-dir", state, NULL};
    proc p = {0};
    if (start_with(&p, "lock1", extra)) {
        CHECK(0);
        return;
    }
    snprintf(log, sizeof log, "%s/lock2.log", dir_);
    snprintf(sock, sizeof sock, "unix:%s/lock2.sock", dir_);
    const char *second[] = {"--listen", sock, "--state-dir", state, "--budget", "256MiB", NULL};
    CHECK(run_daemon(log, second) == 2);
    snprintf(want, sizeof want, "in use by another daemon (pid %d)", (int)p.pid);
    size_t n = 0;
    uint8_t *b = sp_test_slurp(log, &n);
    CHECKF(b && memmem(b, n, want, strlen(want)), "the second daemon's log does not say '%s'", want);
    free(b);
    CHECK(access(sock + 5, F_OK) != 0); /* it touched nothing: not even its socket */
    CHECK(stop(&p, SIGTERM) == 0);
    if (start_with(&p, "lock1", extra) == 0) /* the lock went with the first one */
        CHECK(stop(&p, SIGTERM) == 0);
    else
        CHECK(0);
}

/* ---- nul: control bytes in URLs ---- */

static void test_nul(const circ *a)
{
    proc p = {0};
    if (start_with(&p, "nul", NULL)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 0) == 201);
    const uint8_t *w = a->wtns[0];
    size_t wl = a->wtns_len[0];
    expect(&p.ux, "POST", "/v1/jobs?circuit=A%00zzz&request_id=abc", "application/octet-stream", w, wl, 400,
           "bad_request");
    expect(&p.ux, "POST", "/v1/jobs?circuit=A&request_id=abc%00def", "application/octet-stream", w, wl, 400,
           "bad_request");
    expect(&p.tcp, "GET", "/v1/jobs/abc%00anything", NULL, NULL, 0, 400, "bad_request");
    expect(&p.ux, "DELETE", "/v1/circuits/A%00x", NULL, NULL, 0, 400, "bad_request");
    expect(&p.ux, "GET", "/v1/circuits%01", NULL, NULL, 0, 400, "bad_request");
    expect(&p.ux, "GET", "/v1/jobs/x?wait_ms=1%7f", NULL, NULL, 0, 400, "bad_request");
    expect(&p.ux, "GET", "/v1/jobs/x%1F", NULL, NULL, 0, 400, "bad_request");
    char code[64];
    CHECK(call_err(&p.ux, "GET", "/v1/circuits", NULL, NULL, 0, code, sizeof code) == 200); /* nothing stays marked */
    expect(&p.ux, "GET", "/v1/jobs/%6Ao-such-job", NULL, NULL, 0, 404, "unknown_job"); /* escapes still decode */
    char tier[32];
    tier_of(&p.ux, "A", tier, sizeof tier);
    CHECK(tier[0] != 0); /* "A%00x" deleted nothing */
    sp_dmn_http_resp r;
    CHECK(call(&p.ux, "GET", "/v1/status", NULL, NULL, 0, &r) == 200 && r.body && !strstr(r.body, "\"abc\""));
    sp_dmn_http_resp_free(&r);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- leak: no byte of a file in an error, in any form ---- */

/* 1 when text holds a number any 1, 2, 4 or 8 bytes of secret[0..n) read
 * as (little- or big-endian, decimal or hex; values of 3 or more digits). */
static int quotes_bytes(const char *text, const uint8_t *secret, size_t n)
{
    static const int widths[] = {1, 2, 4, 8};
    for (size_t off = 0; off < n; off++)
        for (int wi = 0; wi < 4; wi++) {
            int w = widths[wi];
            if (off + (size_t)w > n)
                continue;
            uint64_t le = 0, be = 0;
            for (int i = 0; i < w; i++) {
                le |= (uint64_t)secret[off + i] << (8 * i);
                be = be << 8 | secret[off + i];
            }
            uint64_t v[2] = {le, be};
            for (int k = 0; k < 2; k++) {
                char dec[32], hex[32];
                snprintf(dec, sizeof dec, "%llu", (unsigned long long)v[k]);
                snprintf(hex, sizeof hex, "%llx", (unsigned long long)v[k]);
                const char *forms[2] = {dec, hex};
                for (int f = 0; f < 2; f++) {
                    size_t l = strlen(forms[f]);
                    if (l < 3)
                        continue;
                    for (const char *q = text; (q = strcasestr(q, forms[f])); q++)
                        if ((q == text || !isxdigit((unsigned char)q[-1])) && !isxdigit((unsigned char)q[l]))
                            return 1;
                }
            }
        }
    return 0;
}

/* Registers a file holding secret (at secret_at, after head) as what
 * ("zkey", "params", "r1cs" beside a good key); the answer must be a 4xx
 * that quotes none of the secret's bytes. */
static void register_secret(const sp_dmn_addr *a, const circ *good, const char *good_r1cs, const char *what,
                            const uint8_t *head, size_t head_len, size_t secret_at, const char *secret)
{
    char path[500], body[1500];
    static int k;
    snprintf(path, sizeof path, "%s/secret%d.%s", keys_, k++, what);
    size_t sl = strlen(secret), n = secret_at + sl + 64;
    uint8_t *f = calloc(1, n);
    memcpy(f, head, head_len);
    memcpy(f + secret_at, secret, sl);
    for (size_t i = secret_at + sl; i < n; i++) /* more secret after it: a size read past it is secret too */
        f[i] = (uint8_t)(0x41 + i % 26);
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fwrite(f, 1, n, fp) == n && fclose(fp) == 0);
    if (!strcmp(what, "zkey"))
        snprintf(body, sizeof body, "{\"id\":\"S\",\"zkey\":\"%s\",\"preload\":true}", path);
    else if (!strcmp(what, "params"))
        snprintf(body, sizeof body, "{\"id\":\"S\",\"params\":\"%s\",\"r1cs\":\"%s\"}", path, good_r1cs);
    else
        snprintf(body, sizeof body, "{\"id\":\"S\",\"zkey\":\"%s\",\"r1cs\":\"%s\"}", good->zkey, path);
    sp_dmn_http_resp r;
    int st = call(a, "POST", "/v1/circuits", "application/json", body, strlen(body), &r);
    CHECKF(st >= 400 && st < 500 && r.body && !quotes_bytes(r.body, f + secret_at, n - secret_at),
           "%s with a secret at byte %zu: HTTP %d %s", what, secret_at, st, r.body ? r.body : "");
    sp_dmn_http_resp_free(&r);
    free(f);
}

static void test_leak(const circ *a)
{
    proc p = {0};
    if (start_with(&p, "leak", NULL)) {
        CHECK(0);
        return;
    }
    char r1cs[500], err[SP_ERR_LEN];
    snprintf(r1cs, sizeof r1cs, "%s/A.r1cs", keys_); /* a good r1cs beside a params file: the params reader runs */
    CHECKF(sp_r1cs_write(r1cs, &a->fx.cs, err) == SP_OK, "%s", err);
    static const uint8_t none[1];
    static const uint8_t zk1[] = {'z', 'k', 'e', 'y', 1, 0, 0, 0};               /* then a section count */
    static const uint8_t zk2[] = {'z', 'k', 'e', 'y', 1, 0, 0, 0, 1, 0, 0, 0};   /* then an id and a size */
    static const uint8_t zk3[] = {'z', 'k', 'e', 'y', 1, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0,
                                  1, 0, 0, 0, 2, 0, 0, 0}; /* protocol 1, then section 2's size */
    static const uint8_t r1[] = {'r', '1', 'c', 's', 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0};
    register_secret(&p.ux, a, r1cs, "params", none, 0, 864, "SECRET-PASSWORD"); /* the review's "ic claims" */
    register_secret(&p.ux, a, r1cs, "zkey", zk1, sizeof zk1, 8, "SECRET-PASSWORD");
    register_secret(&p.ux, a, r1cs, "zkey", zk2, sizeof zk2, 12, "SECRET-PASSWORD");
    register_secret(&p.ux, a, r1cs, "zkey", zk3, sizeof zk3, 32, "SECRET-PASSWORD");
    register_secret(&p.ux, a, r1cs, "zkey", zk1, 4, 4, "SECRET-PASSWORD"); /* the version */
    register_secret(&p.ux, a, r1cs, "r1cs", r1, sizeof r1, 24, "SECRET-PASSWORD");
    register_secret(&p.ux, a, r1cs, "r1cs", r1, 12, 12, "SECRET-PASSWORD");
    register_secret(&p.ux, a, r1cs, "params", none, 0, 0, "SECRET-PASSWORD");
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- paused: kept across a restart ---- */

static void test_paused(circ *a)
{
    char state[500], code[64], id[64], target[200];
    snprintf(state, sizeof state, "%s/state-paused", dir_);
    const char *extra[] = {"--state-dir", state, NULL};
    proc p = {0};
    if (start_with(&p, "paused", extra)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 0) == 201);
    CHECK(call_err(&p.ux, "POST", "/v1/pause", NULL, NULL, 0, code, sizeof code) == 200);
    CHECK(stop(&p, SIGTERM) == 0);
    if (start_with(&p, "paused", extra)) {
        CHECK(0);
        return;
    }
    sp_dmn_http_resp r;
    CHECK(call(&p.ux, "GET", "/v1/status", NULL, NULL, 0, &r) == 200 && strstr(r.body, "\"state\":\"paused\""));
    sp_dmn_http_resp_free(&r);
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", a->wtns[0], a->wtns_len[0], &r) == 202);
    job_id(&r, id, sizeof id);
    sp_dmn_http_resp_free(&r);
    snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=1000", id);
    CHECK(call(&p.ux, "GET", target, NULL, NULL, 0, &r) == 200 && strstr(r.body, "\"status\":\"pending\""));
    sp_dmn_http_resp_free(&r);
    CHECK(call_err(&p.ux, "POST", "/v1/resume", NULL, NULL, 0, code, sizeof code) == 200);
    snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=60000", id);
    CHECK(call(&p.ux, "GET", target, NULL, NULL, 0, &r) == 200);
    sp_json_doc *doc = parse_resp(&r);
    CHECK(doc && check_result(a, sp_json_root(doc), (const sp_fr *const *)&a->w[0], 1) == 1);
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    CHECK(stop(&p, SIGTERM) == 0);
    if (start_with(&p, "paused", extra)) { /* resumed before the stop: serving after it */
        CHECK(0);
        return;
    }
    CHECK(call(&p.ux, "GET", "/v1/status", NULL, NULL, 0, &r) == 200 && strstr(r.body, "\"state\":\"serving\""));
    sp_dmn_http_resp_free(&r);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- request-id: a reused id is compared with its payload ---- */

static void same_job(const proc *p, const char *target, const circ *a, int k, int want_code, const char *want_id)
{
    sp_dmn_http_resp r;
    char id[64];
    int st = call(&p->ux, "POST", target, "application/octet-stream", a->wtns[k], a->wtns_len[k], &r);
    job_id(&r, id, sizeof id);
    CHECKF(st == want_code && !strcmp(id, want_id), "%s: HTTP %d job %s, expected %d and %s", target, st, id,
           want_code, want_id);
    sp_dmn_http_resp_free(&r);
}

static void test_request_id(circ *a)
{
    char state[500], id[64], target[200];
    snprintf(state, sizeof state, "%s/state-rid", dir_);
    const char *extra[] = {"--state-dir", state, NULL};
    proc p = {0};
    if (start_with(&p, "rid", extra)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 1) == 201);
    sp_dmn_http_resp r;
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=A&request_id=r1", "application/octet-stream", a->wtns[0],
               a->wtns_len[0], &r) == 202);
    job_id(&r, id, sizeof id);
    sp_dmn_http_resp_free(&r);
    CHECK(id[0]);
    same_job(&p, "/v1/jobs?circuit=A&request_id=r1", a, 0, 200, id);      /* the retry: that job */
    same_job(&p, "/v1/jobs?circuit=A&request_id=r1&priority=5", a, 0, 200, id); /* the priority is no payload */
    expect(&p.ux, "POST", "/v1/jobs?circuit=A&request_id=r1", "application/octet-stream", a->wtns[1], a->wtns_len[1],
           409, "duplicate_request_id");
    /* /v1/prove with it waits for that job and answers its proof */
    CHECK(call(&p.ux, "POST", "/v1/prove?circuit=A&request_id=r1", "application/octet-stream", a->wtns[0],
               a->wtns_len[0], &r) == 200);
    sp_json_doc *doc = parse_resp(&r);
    CHECK(doc && !strcmp(jstr(sp_json_root(doc), "job_id"), id) &&
          check_result(a, sp_json_root(doc), (const sp_fr *const *)&a->w[0], 1) == 1);
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    snprintf(target, sizeof target, "/v1/jobs?circuit=A&request_id=r1");
    CHECK(stop(&p, SIGTERM) == 0);
    if (start_with(&p, "rid", extra)) { /* the result's payload is kept with it */
        CHECK(0);
        return;
    }
    same_job(&p, target, a, 0, 200, id);
    expect(&p.ux, "POST", target, "application/octet-stream", a->wtns[2], a->wtns_len[2], 409, "duplicate_request_id");
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- symlink: a link in key_dirs to a file outside, there or not ---- */

static void test_symlink(void)
{
    char secret[500], link1[500], link2[500], dlink[500], body[1200], first[SP_ERR_LEN + 200] = "";
    proc p = {0};
    if (start_with(&p, "symlink", NULL)) {
        CHECK(0);
        return;
    }
    snprintf(secret, sizeof secret, "%s/outside-secret.txt", dir_);
    write_file(secret, "secret\n");
    snprintf(link1, sizeof link1, "%s/to-existing.zkey", keys_);
    snprintf(link2, sizeof link2, "%s/to-missing.zkey", keys_);
    snprintf(dlink, sizeof dlink, "%s/outdir", keys_);
    CHECK(symlink(secret, link1) == 0);
    CHECK(symlink("../no-such-file", link2) == 0); /* relative: resolved from keys_ */
    CHECK(symlink(dir_, dlink) == 0);
    const char *paths[] = {link1, link2, "outdir/outside-secret.txt", "outdir/no-such-file"};
    for (int i = 0; i < 4; i++) {
        char full[700];
        snprintf(full, sizeof full, "%s%s%s", paths[i][0] == '/' ? "" : keys_, paths[i][0] == '/' ? "" : "/",
                 paths[i]);
        snprintf(body, sizeof body, "{\"id\":\"L\",\"zkey\":\"%s\"}", full);
        sp_dmn_http_resp r;
        int st = call(&p.ux, "POST", "/v1/circuits", "application/json", body, strlen(body), &r);
        /* one answer whatever lies outside, up to the path it quotes */
        char *q = r.body ? strstr(r.body, " leads outside") : NULL;
        CHECKF(st == 403 && q, "%s: HTTP %d %s", full, st, r.body ? r.body : "");
        if (i == 0 && q)
            snprintf(first, sizeof first, "%s", q);
        else if (q)
            CHECKF(!strcmp(first, q), "answers differ:\n%s\n%s", first, q);
        sp_dmn_http_resp_free(&r);
    }
    /* a link inside to a missing file inside: missing, as before */
    snprintf(link1, sizeof link1, "%s/to-missing-inside.zkey", keys_);
    CHECK(symlink("nothing-here.zkey", link1) == 0);
    snprintf(body, sizeof body, "{\"id\":\"L\",\"zkey\":\"%s\"}", link1);
    char code[64];
    CHECK(call_err(&p.ux, "POST", "/v1/circuits", "application/json", body, strlen(body), code, sizeof code) == 400);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- clients: several tokens, each with its own limit on unfinished jobs ---- */

static void test_clients(const circ *a)
{
    char conf[500], tok[2][500], text[2][64];
    const char *names[2] = {"alice", "bob"};
    for (int i = 0; i < 2; i++) {
        uint8_t b[24];
        sp_rng_bytes(&rng_, b, sizeof b);
        for (size_t k = 0; k < sizeof b; k++)
            snprintf(text[i] + 2 * k, 3, "%02x", b[k]);
        snprintf(tok[i], sizeof tok[i], "%s/%s.tok", dir_, names[i]);
        write_file(tok[i], text[i]);
        chmod(tok[i], 0600);
    }
    snprintf(conf, sizeof conf, "%s/clients.conf", dir_);
    FILE *f = fopen(conf, "w");
    if (f) {
        fprintf(f, "[client.alice]\ntoken_file = %s\nmax_queued = 1\n[client.bob]\ntoken_file = %s\nmax_queued = 2\n",
                tok[0], tok[1]);
        fclose(f);
    }
    const char *extra[] = {"--config", conf, NULL};
    proc p = {0};
    if (start_with(&p, "clients", extra)) {
        CHECK(0);
        return;
    }
    const void *w = a->wtns[0];
    size_t wl = a->wtns_len[0];
    token_ = text[0];
    CHECK(register_zkey(&p.ux, "A", a->zkey, 1) == 201);
    char code[64], id[64];
    CHECK(call_err(&p.ux, "POST", "/v1/pause", NULL, NULL, 0, code, sizeof code) == 200); /* the jobs stay unfinished */
    sp_dmn_http_resp r;
    CHECK(call(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", w, wl, &r) == 202);
    job_id(&r, id, sizeof id);
    sp_dmn_http_resp_free(&r);
    expect(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", w, wl, 429, "too_many_queued");
    token_ = text[1]; /* bob: his own limit, not alice's */
    expect(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", w, wl, 202, "");
    expect(&p.tcp, "POST", "/v1/jobs?circuit=A", "application/octet-stream", w, wl, 202, "");
    expect(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", w, wl, 429, "too_many_queued");
    token_ = "0123456789abcdef0123456789abcdef"; /* nobody's */
    expect(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", w, wl, 401, "unauthorized");
    token_ = NULL;
    expect(&p.tcp, "GET", "/v1/status", NULL, NULL, 0, 401, "unauthorized");
    token_ = text[0];
    CHECK(call_err(&p.ux, "POST", "/v1/resume", NULL, NULL, 0, code, sizeof code) == 200);
    char target[200];
    snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=60000", id);
    CHECK(call(&p.ux, "GET", target, NULL, NULL, 0, &r) == 200 && r.body && strstr(r.body, "\"status\":\"completed\""));
    sp_dmn_http_resp_free(&r);
    expect(&p.ux, "POST", "/v1/jobs?circuit=A", "application/octet-stream", w, wl, 202, ""); /* her job finished */
    CHECK(stop(&p, SIGTERM) == 0);
    token_ = NULL;
}

/* ---- framing: "Content-Length: 5, 5", which libmicrohttpd refuses itself ---- */

/* 1 when libmicrohttpd is at least 1.0.0 (its version at run time). */
static int mhd_at_least_1(void)
{
    unsigned major = 0;
    return sscanf(MHD_get_version(), "%u", &major) == 1 && major >= 1;
}

static void test_framing(void)
{
    proc p = {0};
    if (start_with(&p, "framing", NULL)) {
        CHECK(0);
        return;
    }
    static const char req[] = "POST /v1/jobs?circuit=A HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5, 5\r\n"
                              "Connection: close\r\n\r\nhello";
    static char resp[16384];
    int fd = raw_dial(&p.tcp);
    CHECK(fd >= 0);
    if (fd < 0) {
        stop(&p, SIGTERM);
        return;
    }
    send_all(fd, req, sizeof req - 1);
    size_t got = raw_read(fd, resp, sizeof resp, 10000);
    char more;
    CHECK(recv(fd, &more, 1, 0) == 0); /* the daemon closed the connection */
    close(fd);
    /* what a client reads: the first header block, then Content-Length bytes */
    const char *end = strstr(resp, "\r\n\r\n"), *cl = strcasestr(resp, "\r\nContent-Length:");
    long n = cl && (!end || cl < end) ? atol(cl + 17) : -1;
    size_t blocks = 0;
    for (const char *s = resp; (s = strstr(s, "HTTP/1.1 400 ")) != NULL; s++)
        blocks++;
    CHECKF(status_of(resp) == 400 && end && n > 0 && strstr(resp, "\r\nConnection: close\r\n") < end,
           "answer: %.300s", resp);
    if (mhd_at_least_1()) {
        CHECKF(blocks == 1 && got == (size_t)(end + 4 - resp) + (size_t)n, "libmicrohttpd %s: %zu header blocks, %zu bytes",
               MHD_get_version(), blocks, got);
    } else {
        /* libmicrohttpd before 1.0: its own 400 for this request builds
         * its header twice (the state after its header parser's error is
         * overwritten, so the reply is started again), and no callback of
         * ours runs before. A client reads the first header block; the
         * Content-Length bytes it then takes as the body are the start of
         * the second copy; the connection closes. */
        CHECKF(blocks == 2 && end && !strncmp(end + 4, "HTTP/1.1 400 ", 13),
               "libmicrohttpd %s: %zu header blocks; answer: %.300s", MHD_get_version(), blocks, resp);
    }
    char code[64];
    CHECK(call_err(&p.tcp, "GET", "/healthz", NULL, NULL, 0, code, sizeof code) == 200); /* and serves on */
    CHECK(stop(&p, SIGTERM) == 0);
}

int main(int argc, char **argv)
{
    sp_test_begin("test_daemon_guard", &rng_);
#if defined(__SANITIZE_ADDRESS__)
    /* The daemons started here inherit this: without a quarantine a freed
     * body's pages go back at once, so their peak resident size measures
     * the bodies held, as in a build without the sanitizer. */
    char asan[512];
    const char *prev = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%squarantine_size_mb=0:thread_local_quarantine_size_kb=0", prev ? prev : "",
             prev && *prev ? ":" : "");
    setenv("ASAN_OPTIONS", asan, 1);
#endif
    snprintf(bin_, sizeof bin_, "%.500s/../snarkpipe", dirname_of(argv[0]));
    if (access(bin_, X_OK) != 0) {
        fprintf(stderr, "test_daemon_guard: %s not found (make builds it)\n", bin_);
        return 1;
    }
    snprintf(dir_, sizeof dir_, "%s/sp_test_guard.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir_))
        return 1;
    snprintf(keys_, sizeof keys_, "%s/keys", dir_);
    mkdir(keys_, 0700);
    circ a;
    circ_make(&a, "keys/A", 64, 2, 3);
    test_bodies();
    test_lock();
    test_nul(&a);
    test_leak(&a);
    test_paused(&a);
    test_request_id(&a);
    test_symlink();
    test_clients(&a);
    test_framing();
    if (!sp_test_failures) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir_);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir_);
    } else {
        fprintf(stderr, "test_daemon_guard: logs kept in %s\n", dir_);
    }
    circ_free(&a);
    return sp_test_done();
}
