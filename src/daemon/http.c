/*
 * HTTP on libmicrohttpd (transport.h): one MHD daemon per listener, one
 * thread per connection (handlers may block: a key load, an await), the
 * request body collected in memory up to server.max_body, all bodies
 * together up to server.body_memory (taken out of the engine's budget),
 * the bearer token checked before the body is read, and the requests
 * dispatched by the route table the daemon starts it with (routes.c).
 *
 * Early answers. A request whose Content-Length is over the limit, or
 * whose token is missing or wrong, is answered in the first call, before
 * its body: a client that sent "Expect: 100-continue" then never sends
 * it, and MHD closes the connection after the answer. A body without a
 * Content-Length (chunked) that grows over the limit is drained and
 * answered 413 at its end. Also answered before the body:
 *   - ambiguous framing: two Content-Length headers, or Content-Length
 *     with Transfer-Encoding (request smuggling): 400;
 *   - a state change (POST, DELETE) with a body type a browser may send
 *     cross-origin without asking (text/plain, form-urlencoded): 415;
 *   - without a token, on TCP: a Host that is not a loopback name on a
 *     loopback listener (DNS rebinding: evil.example resolving to
 *     127.0.0.1 makes a browser send "Host: evil.example"), and an Origin
 *     or Sec-Fetch-Site that is not this daemon's own (CSRF): 403;
 *   - a job whose Content-Length is over what its circuit can take, or
 *     whose partitions can never fit the engine (api.c): 413, 422;
 *   - a URL whose path or arguments hold a control byte (%00 .. %1f,
 *     %7f, escaped or not): 400;
 *   - a body larger than server.body_memory: 413; one that does not fit
 *     in what the other bodies leave of it: 503 with Retry-After (its
 *     memory is reserved whole before it is read; a chunked body's as
 *     it grows, answered 503 at its end when it runs out).
 *
 * Slow clients. MHD's connection_timeout is an idle timeout: a client
 * that sends one header line every few seconds resets it for ever, and
 * max_connections such clients keep everyone else out. Every connection
 * is therefore tracked (conns, conn_mu) with a deadline that activity
 * does not move: its headers must be in header_timeout after the request
 * began, its body body_timeout after the headers. sp_dmn_http_tick (the main
 * loop, every 250 ms) shuts the socket of a late one down; MHD then
 * closes it. While a request is being answered (a handler may block on
 * purpose: an await) there is no deadline. TCP listeners also cap the
 * connections of one client address (max_connections_per_address).
 */
#include <microhttpd.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "daemon/transport.h"
#include "daemon/log.h"

#define MAX_RESP_HEADERS 4

struct dreq {
    sp_dmn *d;
    struct MHD_Connection *con;
    const char *url, *method;
    char *body;
    size_t len, cap;
    int too_large;    /* the body went over max_body */
    int no_memory;    /* a chunked body went over server.body_memory */
    size_t reserved;  /* bytes of server.body_memory this request holds */
    int answered;     /* a response is queued */
    char client[SP_DMN_CLIENT_LEN]; /* who the bearer token names (sp_dmn_auth) */
    int max_queued;   /* and its limit on queued jobs */
    int n_hdr;
    char hdr[MAX_RESP_HEADERS][2][128];
};

const char *sp_dmn_req_path(const dreq *r) { return r->url; }
const char *sp_dmn_req_method(const dreq *r) { return r->method; }

const char *sp_dmn_req_arg(const dreq *r, const char *name)
{
    return MHD_lookup_connection_value(r->con, MHD_GET_ARGUMENT_KIND, name);
}

const char *sp_dmn_req_header(const dreq *r, const char *name)
{
    return MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, name);
}

const uint8_t *sp_dmn_req_body(const dreq *r, size_t *len)
{
    *len = r->len;
    return (const uint8_t *)(r->body ? r->body : "");
}

/* ---- responses ---- */

static void count_code(sp_dmn *d, int code)
{
    int k = code < 300 ? 0 : code == 400 ? 1 : code == 401 ? 2 : code == 404 ? 3 : code == 409 ? 4
          : code == 413 ? 5 : code < 500 ? 6 : 7;
    atomic_fetch_add(&d->http_codes[k], 1);
}

static void send_resp(dreq *r, int code, const char *ct, char *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
    count_code(r->d, code);
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, mode);
    if (!resp) {
        if (mode == MHD_RESPMEM_MUST_FREE)
            free(body);
        r->answered = 1;
        return;
    }
    MHD_add_response_header(resp, "Content-Type", ct);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    for (int i = 0; i < r->n_hdr; i++)
        MHD_add_response_header(resp, r->hdr[i][0], r->hdr[i][1]);
    MHD_queue_response(r->con, (unsigned)code, resp);
    MHD_destroy_response(resp);
    r->answered = 1;
}

void sp_dmn_http_send(dreq *r, int code, const char *ct, char *body, size_t len)
{
    send_resp(r, code, ct, body, len, MHD_RESPMEM_MUST_FREE);
}

void sp_dmn_http_send_static(dreq *r, int code, const char *ct, const char *body, size_t len)
{
    send_resp(r, code, ct, (char *)body, len, MHD_RESPMEM_PERSISTENT);
}

void sp_dmn_http_header(dreq *r, const char *name, const char *value)
{
    if (r->n_hdr == MAX_RESP_HEADERS)
        return;
    snprintf(r->hdr[r->n_hdr][0], sizeof r->hdr[0][0], "%s", name);
    snprintf(r->hdr[r->n_hdr][1], sizeof r->hdr[0][1], "%s", value);
    r->n_hdr++;
}

void sp_dmn_http_send_json(dreq *r, int code, sp_json_writer *w)
{
    char *out = NULL;
    size_t len = 0;
    if (sp_jw_finish(&out, &len, w) != SP_OK) {
        static const char oom[] = "{\"error\":\"out_of_memory\",\"detail\":\"out of memory\"}";
        sp_dmn_http_send_static(r, 500, "application/json", oom, sizeof oom - 1);
        return;
    }
    sp_dmn_http_send(r, code, "application/json", out, len);
}

void sp_dmn_http_error(dreq *r, int code, const char *error, const char *fmt, ...)
{
    char detail[SP_ERR_LEN + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    for (char *p = detail; *p; p++) /* details quote file names: keep the JSON plain ASCII */
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
            *p = '?';
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "error");
    sp_jw_string(&w, error);
    sp_jw_key(&w, "detail");
    sp_jw_string(&w, detail);
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, code, &w);
}

/* ---- what handlers read of a request ---- */

int sp_dmn_req_is_type(const dreq *r, const char *type)
{
    const char *ct = sp_dmn_req_header(r, "Content-Type");
    return ct && !strncasecmp(ct, type, strlen(type));
}

const char *sp_dmn_json_str(const sp_json_val *o, const char *k)
{
    const sp_json_val *v = sp_json_get(o, k);
    return v && v->type == SP_JSON_STRING ? v->text : NULL;
}

sp_json_doc *sp_dmn_req_json(dreq *r)
{
    size_t len;
    const uint8_t *b = sp_dmn_req_body(r, &len);
    char err[SP_ERR_LEN];
    sp_json_doc *doc = NULL;
    sp_json_limits lim = {.max_bytes = len + 1, .max_depth = 32};
    if (sp_json_parse(&doc, (const char *)b, len, &lim, err, sizeof err) != SP_OK) {
        sp_dmn_http_error(r, 400, "malformed_json", "%s", err);
        return NULL;
    }
    if (sp_json_root(doc)->type != SP_JSON_OBJECT) {
        sp_dmn_http_error(r, 400, "malformed_json", "the body must be a JSON object");
        sp_json_free(doc);
        return NULL;
    }
    return doc;
}

const char *sp_dmn_req_last_segment(const dreq *r) { return strrchr(sp_dmn_req_path(r), '/') + 1; }

/* ---- routing ---- */

static int path_match(const char *pattern, const char *url)
{
    size_t n = strlen(pattern);
    if (pattern[n - 1] != '*')
        return !strcmp(pattern, url);
    return !strncmp(pattern, url, n - 1) && url[n - 1] && !strchr(url + n - 1, '/');
}

/* The route of d's table for (method, url); *path_known set when only
 * the method is wrong. */
static const sp_dmn_route *find_route(const sp_dmn *d, const char *method, const char *url, int *path_known,
                                      char *allow, size_t allow_len)
{
    *path_known = 0;
    allow[0] = 0;
    for (size_t i = 0; i < d->n_routes; i++) {
        const sp_dmn_route *rt = &d->routes[i];
        if (!path_match(rt->path, url))
            continue;
        if (!strcmp(rt->method, method))
            return rt;
        *path_known = 1;
        size_t l = strlen(allow);
        snprintf(allow + l, allow_len - l, "%s%s", l ? ", " : "", rt->method);
    }
    return NULL;
}

/* The bearer token checked, its client recorded in r. */
static int token_ok(sp_dmn *d, dreq *r)
{
    const char *h = MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, "Authorization");
    if (h && strncasecmp(h, "Bearer ", 7) != 0)
        h = NULL;
    return sp_dmn_auth(d, h ? h + 7 : NULL, r->client, &r->max_queued);
}

const char *sp_dmn_req_client(const dreq *r, int *max_queued)
{
    *max_queued = r->max_queued;
    return r->client;
}

typedef struct {
    int n_cl, has_te;
} framing;

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    framing *f = cls;
    if (key && !strcasecmp(key, "Content-Length"))
        f->n_cl++;
    if (key && !strcasecmp(key, "Transfer-Encoding"))
        f->has_te = 1;
    return MHD_YES;
}

static int is_ct(const char *ct, const char *type)
{
    return ct && !strncasecmp(ct, type, strlen(type));
}

/* The checks of a daemon without a token (see the top of the file).
 * Returns 1 when it answered. */
static int cross_site(sp_dmn *d, dreq *r, const dlistener *l)
{
    const char *host = MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, "Host");
    const char *origin = MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, "Origin");
    const char *site = MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, "Sec-Fetch-Site");
    if (l->loopback && !sp_dmn_http_host_is_loopback(host)) {
        sp_dmn_http_error(r, 403, "forbidden_host", "Host '%.100s' is not a loopback name; without a token this daemon "
                          "answers only localhost, 127.0.0.1 and [::1] (a DNS rebinding defence)", host ? host : "");
        return 1;
    }
    if ((origin && !sp_dmn_http_origin_is(origin, host)) ||
        (site && strcmp(site, "same-origin") && strcmp(site, "none"))) {
        sp_dmn_http_error(r, 403, "cross_origin", "a request from another site (Origin %.100s) is refused: without a "
                          "token this daemon takes requests from its own page and non-browser clients only",
                          origin ? origin : "not given");
        return 1;
    }
    return 0;
}

/* MHD decodes the URL path and its arguments through this. A decoded
 * NUL would end the C string early ("A%00zzz" read as "A"), and no name
 * here holds a control byte: one marks the connection's request, which
 * first_call refuses, and becomes '?' meanwhile. */
static size_t unescape(void *cls, struct MHD_Connection *con, char *s)
{
    size_t n = MHD_http_unescape(s);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
            s[i] = '?';
            bad = 1;
        }
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    dconn *c = ci ? ci->socket_context : NULL;
    if (bad && c)
        c->bad_url = 1;
    return n;
}

/* 1 when the request's URL held a control byte; clears the mark. */
static int take_bad_url(struct MHD_Connection *con)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    dconn *c = ci ? ci->socket_context : NULL;
    int bad = c && c->bad_url;
    if (c)
        c->bad_url = 0;
    return bad;
}

/* Takes n bytes of server.body_memory for r; 0, or -1 when they are not there. */
static int reserve_body(sp_dmn *d, dreq *r, size_t n)
{
    size_t cur = atomic_load(&d->body_bytes);
    do {
        if (n > d->body_cap - cur)
            return -1;
    } while (!atomic_compare_exchange_weak(&d->body_bytes, &cur, cur + n));
    r->reserved += n;
    return 0;
}

/* A body of n bytes (Content-Length) is given its memory before it is
 * read: its buffer is allocated whole, so it never grows by doubling. */
static void admit_body(sp_dmn *d, dreq *r, unsigned long long n)
{
    if (n > d->body_cap) {
        sp_dmn_http_error(r, 413, "body_too_large", "the body has %llu bytes; the bodies held at once take at most "
                          "%zu (server.body_memory)", n, d->body_cap);
    } else if (reserve_body(d, r, (size_t)n + 1) != 0 || !(r->body = malloc((size_t)n + 1))) {
        sp_dmn_http_header(r, "Retry-After", "1");
        sp_dmn_http_error(r, 503, "busy", "the request bodies in memory are at their cap (server.body_memory, %zu "
                          "bytes); try again shortly", d->body_cap);
    } else {
        r->cap = (size_t)n + 1;
    }
}

/* First call of a request: checks what can be refused before the body. */
static void first_call(sp_dmn *d, dreq *r, const dlistener *l)
{
    int known;
    char allow[64];
    framing fr = {0, 0};
    if (take_bad_url(r->con)) {
        sp_dmn_http_error(r, 400, "bad_request", "the URL holds a control byte (such as %%00), escaped or not");
        return;
    }
    MHD_get_connection_values(r->con, MHD_HEADER_KIND, count_framing, &fr);
    if (fr.n_cl > 1 || (fr.n_cl && fr.has_te)) {
        sp_dmn_http_error(r, 400, "bad_request", fr.n_cl > 1 ? "two Content-Length headers" : "Content-Length together "
                          "with Transfer-Encoding");
        return;
    }
    if (!sp_dmn_auth_on(d) && !l->addr.is_unix && cross_site(d, r, l))
        return;
    const sp_dmn_route *rt = find_route(d, r->method, r->url, &known, allow, sizeof allow);
    if (rt && !rt->open && !token_ok(d, r)) {
        const char *h = MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, "Authorization");
        sp_dmn_http_header(r, "WWW-Authenticate", "Bearer realm=\"snarkpipe\"");
        sp_dmn_http_error(r, 401, "unauthorized", h ? "wrong bearer token" : "this daemon needs a bearer token "
                                                                         "(Authorization: Bearer ...)");
        return;
    }
    const char *ct = MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, "Content-Type");
    if (strcmp(r->method, "GET") && (is_ct(ct, "text/plain") || is_ct(ct, "application/x-www-form-urlencoded"))) {
        sp_dmn_http_error(r, 415, "unsupported_media_type", "%.60s bodies are not taken (a browser sends them to any "
                          "site): use application/json, multipart/form-data or application/octet-stream", ct);
        return;
    }
    const char *cl = MHD_lookup_connection_value(r->con, MHD_HEADER_KIND, "Content-Length");
    size_t max = sp_dmn_max_body(d);
    unsigned long long n = cl ? strtoull(cl, NULL, 10) : 0;
    if (cl && n > max)
        sp_dmn_http_error(r, 413, "body_too_large", "the body has %s bytes; this daemon takes at most %zu "
                          "(server.max_body)", cl, max);
    else if (rt && rt->early)
        rt->early(d, r, cl ? n : 0);
    if (!r->answered && n > 0)
        admit_body(d, r, n);
}

static void dispatch(sp_dmn *d, dreq *r)
{
    int known;
    char allow[64];
    if (r->too_large) {
        sp_dmn_http_error(r, 413, "body_too_large", "the body is over %zu bytes (server.max_body)", sp_dmn_max_body(d));
        return;
    }
    if (r->no_memory) {
        sp_dmn_http_header(r, "Retry-After", "1");
        sp_dmn_http_error(r, 503, "busy", "the request bodies in memory reached their cap (server.body_memory, %zu "
                          "bytes) while this one came; try again shortly", d->body_cap);
        return;
    }
    const sp_dmn_route *rt = find_route(d, r->method, r->url, &known, allow, sizeof allow);
    if (rt) {
        rt->fn(d, r);
        if (!r->answered) /* a handler bug; never leave the client hanging */
            sp_dmn_http_error(r, 500, "internal", "no answer");
    } else if (known) {
        sp_dmn_http_header(r, "Allow", allow);
        sp_dmn_http_error(r, 405, "method_not_allowed", "%s %s: allowed: %s", r->method, r->url, allow);
    } else {
        sp_dmn_http_error(r, 404, "not_found", "no endpoint %.200s", r->url);
    }
}

static int append_body(sp_dmn *d, dreq *r, const char *data, size_t n)
{
    size_t max = sp_dmn_max_body(d);
    if (r->too_large || r->no_memory)
        return 0;
    if (r->len + n > max) {
        r->too_large = 1;
        return 0;
    }
    if (r->len + n + 1 > r->cap) { /* a chunked body: grows within server.body_memory */
        size_t nc = r->cap ? r->cap : 65536;
        while (nc < r->len + n + 1)
            nc *= 2;
        char *nb = reserve_body(d, r, nc - r->cap) == 0 ? realloc(r->body, nc) : NULL;
        if (!nb) {
            r->no_memory = 1; /* answered 503 at its end: the memory for it is not there now */
            return 0;
        }
        r->body = nb;
        r->cap = nc;
    }
    memcpy(r->body + r->len, data, n);
    r->len += n;
    r->body[r->len] = 0;
    return 0;
}

/* Moves the deadline of con's tracked connection: now + ms, or none (ms < 0). */
static void set_deadline(sp_dmn *d, struct MHD_Connection *con, long ms)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    dconn *c = ci ? ci->socket_context : NULL;
    if (!c)
        return;
    pthread_mutex_lock(&d->conn_mu);
    c->deadline = ms < 0 ? 0 : sp_dmn_wire_now_ms() + (double)ms;
    pthread_mutex_unlock(&d->conn_mu);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    const dlistener *l = cls;
    sp_dmn *d = l->d;
    dreq *r = *con_cls;
    long header_ms, body_ms;
    if (!r) {
        sp_dmn_deadlines(d, &header_ms, &body_ms);
        set_deadline(d, con, body_ms); /* the headers are in: now the body has its time */
        if (!(r = calloc(1, sizeof *r)))
            return MHD_NO;
        *con_cls = r;
        r->d = d;
        r->con = con;
        r->url = url;
        r->method = method;
        atomic_fetch_add(&d->requests, 1);
        atomic_fetch_add(&d->active_requests, 1);
        first_call(d, r, l);
        return MHD_YES;
    }
    if (*upload_size) {
        if (!r->answered)
            append_body(d, r, upload, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    set_deadline(d, con, -1); /* being answered: an await may take its time */
    if (!r->answered)
        dispatch(d, r);
    return MHD_YES;
}

static void on_completed(void *cls, struct MHD_Connection *con, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    dreq *r = *con_cls;
    if (r) {
        long header_ms, body_ms;
        sp_dmn_deadlines(r->d, &header_ms, &body_ms);
        set_deadline(r->d, con, header_ms); /* a kept-alive connection's next request */
        atomic_fetch_sub(&r->d->active_requests, 1);
        atomic_fetch_sub(&r->d->body_bytes, r->reserved);
        free(r->body);
        free(r);
    }
    take_bad_url(con); /* a request MHD refused itself leaves no mark for the next one */
    *con_cls = NULL;
}

static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    SP_DMN_LOGD("http: %s", msg);
}

/* Connection opened / closed (MHD calls CLOSED before it closes the
 * socket, so the watchdog never shuts down a descriptor reused since). */
static void on_connection(void *cls, struct MHD_Connection *con, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    sp_dmn *d = cls;
    dconn *c = *socket_context;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
        long header_ms, body_ms;
        sp_dmn_deadlines(d, &header_ms, &body_ms);
        if (!ci || !(c = calloc(1, sizeof *c)))
            return; /* untracked: only MHD's idle timeout applies to it */
        c->fd = ci->connect_fd;
        c->deadline = sp_dmn_wire_now_ms() + (double)header_ms;
        pthread_mutex_lock(&d->conn_mu);
        c->next = d->conns;
        if (d->conns)
            d->conns->prev = c;
        d->conns = c;
        pthread_mutex_unlock(&d->conn_mu);
        *socket_context = c;
    } else if (c) {
        pthread_mutex_lock(&d->conn_mu);
        if (c->prev)
            c->prev->next = c->next;
        else
            d->conns = c->next;
        if (c->next)
            c->next->prev = c->prev;
        pthread_mutex_unlock(&d->conn_mu);
        free(c);
        *socket_context = NULL;
    }
}

void sp_dmn_http_tick(sp_dmn *d)
{
    double now = sp_dmn_wire_now_ms();
    pthread_mutex_lock(&d->conn_mu);
    for (dconn *c = d->conns; c; c = c->next)
        if (c->deadline > 0 && now > c->deadline) {
            shutdown(c->fd, SHUT_RDWR); /* its thread sees the end of the stream and closes it */
            c->deadline = 0;
            atomic_fetch_add(&d->conns_cut, 1);
            SP_DMN_LOGD("http: closed a connection whose request was late (header or body deadline)");
        }
    pthread_mutex_unlock(&d->conn_mu);
}

sp_status sp_dmn_http_start(sp_dmn *d, const sp_dmn_route *routes, size_t n_routes, char err[SP_ERR_LEN])
{
    d->routes = routes;
    d->n_routes = n_routes;
    unsigned timeout_s = (unsigned)((d->cfg.connection_timeout_ms + 999) / 1000);
    for (int i = 0; i < d->n_ls; i++) {
        dlistener *l = &d->ls[i];
        l->d = d;
        l->loopback = !l->addr.is_unix && sp_dmn_addr_is_loopback(&l->addr);
        /* MHD counts per address on TCP only; on a unix socket every peer is one "address" */
        unsigned per_ip = l->addr.is_unix ? 0 : (unsigned)d->cfg.max_connections_per_address;
        struct MHD_Daemon *m = MHD_start_daemon(
            MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG, 0,
            NULL, NULL, on_request, l, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, d, /* first: MHD logs the rest */
            MHD_OPTION_LISTEN_SOCKET, l->fd, MHD_OPTION_CONNECTION_LIMIT, (unsigned)d->cfg.max_connections,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip, MHD_OPTION_CONNECTION_TIMEOUT, timeout_s,
            MHD_OPTION_NOTIFY_COMPLETED, on_completed, d, MHD_OPTION_NOTIFY_CONNECTION, on_connection, d,
            MHD_OPTION_UNESCAPE_CALLBACK, unescape, d, MHD_OPTION_END);
        if (!m) {
            snprintf(err, SP_ERR_LEN, "cannot start the HTTP server on %.200s", d->ls[i].text);
            return SP_ERR_IO;
        }
        d->ls[i].mhd = m;
    }
    return SP_OK;
}

void sp_dmn_http_quiesce(sp_dmn *d, long wait_ms)
{
    for (int i = 0; i < d->n_ls; i++)
        if (d->ls[i].mhd)
            MHD_quiesce_daemon(d->ls[i].mhd); /* stops accepting; the socket stays ours (closed in server.c) */
    /* Answers being written (an await that just returned) get to finish
     * before MHD_stop_daemon closes their connections. */
    for (long t = 0; t < wait_ms && atomic_load(&d->active_requests) > 0; t += 10)
        usleep(10000);
}

void sp_dmn_http_stop(sp_dmn *d)
{
    for (int i = 0; i < d->n_ls; i++) {
        if (d->ls[i].mhd)
            MHD_stop_daemon(d->ls[i].mhd);
        d->ls[i].mhd = NULL;
    }
}
