/* Addresses, base64, the HTTP/1.1 client and JSON re-emission (wire.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "daemon/wire.h"
#include "util/file.h"

double sp_dmn_wire_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- addresses ---- */

static int valid_port(const char *p)
{
    size_t n = strlen(p);
    if (n == 0 || n > 5 || strspn(p, "0123456789") != n)
        return 0;
    return atol(p) <= 65535;
}

sp_status sp_dmn_addr_parse(sp_dmn_addr *a, const char *s, char err[SP_ERR_LEN])
{
    memset(a, 0, sizeof *a);
    if (strncmp(s, "unix:", 5) == 0) {
        size_t n = strlen(s + 5);
        if (n == 0 || n > SP_DMN_UNIX_PATH_MAX) {
            snprintf(err, SP_ERR_LEN, "'%.200s': a unix socket path of 1 to %d bytes is needed", s,
                     SP_DMN_UNIX_PATH_MAX);
            return SP_ERR_INVALID_ARG;
        }
        a->is_unix = 1;
        memcpy(a->path, s + 5, n + 1);
        return SP_OK;
    }
    const char *colon = strrchr(s, ':');
    size_t hl = colon ? (size_t)(colon - s) : 0;
    const char *h = s;
    if (hl >= 2 && s[0] == '[' && s[hl - 1] == ']') { /* [v6]:port */
        h = s + 1;
        hl -= 2;
    } else if (colon && memchr(s, ':', hl)) {
        hl = 0; /* a bare IPv6 address needs brackets */
    }
    /* a host name (letters, digits, '.', '-', '_'), an IPv4 literal, or in
     * brackets an IPv6 literal (hex digits, ':', '.', '%' and a zone name) */
    static const char name_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_";
    static const char v6_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_:%";
    size_t good = 0;
    while (good < hl && strchr(h == s ? name_chars : v6_chars, h[good]) && h[good])
        good++;
    int v6_ok = h == s || memchr(h, ':', hl); /* brackets hold an IPv6 literal, which has a ':' */
    if (!colon || hl == 0 || hl >= sizeof a->host || good != hl || !v6_ok || !valid_port(colon + 1)) {
        snprintf(err, SP_ERR_LEN, "'%.200s': expected host:port, [v6addr]:port or unix:/path", s);
        memset(a, 0, sizeof *a);
        return SP_ERR_INVALID_ARG;
    }
    memcpy(a->host, h, hl);
    snprintf(a->port, sizeof a->port, "%s", colon + 1);
    return SP_OK;
}

void sp_dmn_addr_format(char *out, size_t out_len, const sp_dmn_addr *a)
{
    if (a->is_unix)
        snprintf(out, out_len, "unix:%s", a->path);
    else if (strchr(a->host, ':'))
        snprintf(out, out_len, "[%s]:%s", a->host, a->port);
    else
        snprintf(out, out_len, "%s:%s", a->host, a->port);
}

static int sockaddr_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
        return (ntohl(s4->sin_addr.s_addr) >> 24) == 127;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a6))
            return 1;
        return IN6_IS_ADDR_V4MAPPED(a6) && a6->s6_addr[12] == 127;
    }
    return 0;
}

int sp_dmn_addr_is_loopback(const sp_dmn_addr *a)
{
    if (a->is_unix)
        return 1;
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    if (getaddrinfo(a->host, a->port, &hints, &res) != 0 || !res)
        return 0;
    int all = 1;
    for (struct addrinfo *p = res; p; p = p->ai_next)
        all &= sockaddr_loopback(p->ai_addr);
    freeaddrinfo(res);
    return all;
}

/* ---- Host and Origin ---- */

/* 1 when s[0..n) is a decimal port 0..65535. */
static int port_ok(const char *s, size_t n)
{
    if (n == 0 || n > 5)
        return 0;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    return v <= 65535;
}

int sp_dmn_http_host_is_loopback(const char *host)
{
    if (!host)
        return 0;
    size_t n = strlen(host), hl;
    const char *port = NULL;
    if (host[0] == '[') {
        const char *e = strchr(host, ']');
        if (!e)
            return 0;
        hl = (size_t)(e - host) + 1;
        if (e[1] == ':')
            port = e + 2;
        else if (e[1])
            return 0;
    } else {
        const char *c = strchr(host, ':');
        hl = c ? (size_t)(c - host) : n;
        if (c)
            port = c + 1;
    }
    if (port && !port_ok(port, strlen(port)))
        return 0;
    char h[64];
    if (hl == 0 || hl >= sizeof h)
        return 0;
    memcpy(h, host, hl);
    h[hl] = 0;
    if (!strcasecmp(h, "localhost") || !strcmp(h, "[::1]"))
        return 1;
    struct in_addr a4;
    /* inet_pton takes only the plain dotted quad (no octal, no short forms) */
    return inet_pton(AF_INET, h, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127;
}

int sp_dmn_http_origin_is(const char *origin, const char *host)
{
    if (!origin || !host || strncasecmp(origin, "http://", 7) != 0)
        return 0;
    return *host && !strcasecmp(origin + 7, host);
}

/* ---- base64 ---- */

static const char b64_alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t sp_dmn_b64_len(size_t n) { return (n + 2) / 3 * 4; }

void sp_dmn_b64_encode(char *out, const uint8_t *in, size_t n)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64_alpha[v >> 18];
        out[o++] = b64_alpha[(v >> 12) & 63];
        out[o++] = b64_alpha[(v >> 6) & 63];
        out[o++] = b64_alpha[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = b64_alpha[v >> 18];
        out[o++] = b64_alpha[(v >> 12) & 63];
        out[o++] = i + 1 < n ? b64_alpha[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    out[o] = 0;
}

static int b64_val(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

sp_status sp_dmn_b64_decode(uint8_t **out, size_t *n, const char *in, size_t len)
{
    *out = NULL;
    *n = 0;
    if (len % 4)
        return SP_ERR_BAD_ENCODING;
    size_t pad = len && in[len - 1] == '=' ? (in[len - 2] == '=' ? 2 : 1) : 0;
    size_t bytes = len / 4 * 3 - pad;
    uint8_t *b = malloc(bytes + 1);
    if (!b)
        return SP_ERR_NOMEM;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4];
        for (int k = 0; k < 4; k++) {
            int last = i + 4 == len;
            v[k] = (last && k >= 4 - (int)pad) ? 0 : b64_val(in[i + k]);
            if (v[k] < 0) {
                free(b);
                return SP_ERR_BAD_ENCODING;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        uint8_t t[3] = {(uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w};
        size_t take = i + 4 == len ? 3 - pad : 3;
        if (take < 3 && t[take] != 0) { /* unused bits must be zero */
            free(b);
            return SP_ERR_BAD_ENCODING;
        }
        memcpy(b + o, t, take);
        o += take;
    }
    *out = b;
    *n = bytes;
    return SP_OK;
}

/* ---- HTTP client ---- */

#define RESP_MAX ((size_t)1 << 30)

typedef struct {
    int fd;
    double deadline;
    char *buf;
    size_t len, cap;
    char *err;
} conn;

static long remaining(const conn *c)
{
    double r = c->deadline - sp_dmn_wire_now_ms();
    return r > 0 ? (long)r + 1 : 0;
}

static sp_status conn_open(conn *c, const sp_dmn_addr *a)
{
    if (a->is_unix) {
        struct sockaddr_un su = {0};
        su.sun_family = AF_UNIX;
        memcpy(su.sun_path, a->path, strlen(a->path) + 1);
        c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (c->fd >= 0 && connect(c->fd, (struct sockaddr *)&su, sizeof su) == 0)
            return SP_OK;
    } else {
        struct addrinfo hints = {0}, *res = NULL;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICSERV;
        int g = getaddrinfo(a->host, a->port, &hints, &res);
        if (g != 0) {
            snprintf(c->err, SP_ERR_LEN, "%.120s: %.100s", a->host, gai_strerror(g));
            return SP_ERR_IO;
        }
        errno = ECONNREFUSED;
        for (struct addrinfo *p = res; p; p = p->ai_next) {
            c->fd = socket(p->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (c->fd >= 0 && connect(c->fd, p->ai_addr, p->ai_addrlen) == 0)
                break;
            if (c->fd >= 0)
                close(c->fd);
            c->fd = -1;
        }
        freeaddrinfo(res);
        if (c->fd >= 0)
            return SP_OK;
    }
    char as[300];
    sp_dmn_addr_format(as, sizeof as, a);
    snprintf(c->err, SP_ERR_LEN, "cannot connect to %.150s: %.80s", as, strerror(errno));
    return SP_ERR_IO;
}

static sp_status conn_send(conn *c, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        struct pollfd pf = {c->fd, POLLOUT, 0};
        long ms = remaining(c);
        if (ms == 0 || poll(&pf, 1, (int)(ms > 1 << 30 ? 1 << 30 : ms)) <= 0) {
            snprintf(c->err, SP_ERR_LEN, "timed out sending the request");
            return SP_ERR_IO;
        }
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (k <= 0) {
            snprintf(c->err, SP_ERR_LEN, "sending the request: %s", strerror(errno));
            return SP_ERR_IO;
        }
        p += k;
        n -= (size_t)k;
    }
    return SP_OK;
}

/* Reads more bytes; 1 read, 0 end of stream, -1 error/timeout (err set).
 * wait_ms >= 0 bounds this wait (then a timeout returns -2, no error). */
static int conn_recv(conn *c, long wait_ms)
{
    if (c->cap - c->len < 65536) {
        size_t nc = c->cap ? c->cap * 2 : 131072;
        if (nc > RESP_MAX + 65536) {
            snprintf(c->err, SP_ERR_LEN, "response larger than %zu bytes", RESP_MAX);
            return -1;
        }
        char *nb = realloc(c->buf, nc);
        if (!nb) {
            snprintf(c->err, SP_ERR_LEN, "out of memory");
            return -1;
        }
        c->buf = nb;
        c->cap = nc;
    }
    for (;;) {
        struct pollfd pf = {c->fd, POLLIN, 0};
        long ms = remaining(c);
        if (wait_ms >= 0 && wait_ms < ms)
            ms = wait_ms;
        int pr = ms > 0 ? poll(&pf, 1, (int)(ms > 1 << 30 ? 1 << 30 : ms)) : 0;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0) {
            if (wait_ms >= 0 && remaining(c) > 0)
                return -2;
            snprintf(c->err, SP_ERR_LEN, "timed out waiting for the response");
            return -1;
        }
        ssize_t k = recv(c->fd, c->buf + c->len, c->cap - c->len - 1, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            snprintf(c->err, SP_ERR_LEN, "reading the response: %s", strerror(errno));
            return -1;
        }
        c->len += (size_t)k;
        c->buf[c->len] = 0;
        return k > 0;
    }
}

/* Length of the head (through the blank line), or 0 when incomplete. */
static size_t head_len(const conn *c)
{
    for (size_t i = 3; i < c->len; i++)
        if (c->buf[i] == '\n' && c->buf[i - 1] == '\r' && c->buf[i - 2] == '\n' && c->buf[i - 3] == '\r')
            return i + 1;
    return 0;
}

/* Value of header `name` in head[0..n) copied to out, 1 when present. */
static int header(const char *head, size_t n, const char *name, char *out, size_t out_len)
{
    size_t nl = strlen(name);
    for (const char *p = memchr(head, '\n', n); p && p + 1 < head + n; p = memchr(p + 1, '\n', (size_t)(head + n - p - 1))) {
        const char *l = p + 1;
        if ((size_t)(head + n - l) > nl && strncasecmp(l, name, nl) == 0 && l[nl] == ':') {
            const char *v = l + nl + 1, *e = v;
            while (*v == ' ' || *v == '\t')
                v++;
            for (e = v; e < head + n && *e != '\r' && *e != '\n'; e++)
                ;
            snprintf(out, out_len, "%.*s", (int)(e - v), v);
            return 1;
        }
    }
    return 0;
}

/* Reads one response head; drops interim 1xx heads unless stop_at_100.
 * Returns the head length (status in r->status) or 0 (err set). With
 * wait_ms >= 0, returns 0 with r->status = 0 and no error on timeout. */
static size_t read_head(conn *c, sp_dmn_http_resp *r, int stop_at_100, long wait_ms)
{
    for (;;) {
        size_t h;
        while (!(h = head_len(c))) {
            int k = conn_recv(c, wait_ms);
            if (k == -2) {
                r->status = 0;
                return 0;
            }
            if (k <= 0) {
                if (k == 0)
                    snprintf(c->err, SP_ERR_LEN, "connection closed %s", c->len ? "inside the response head" : "without a response");
                return 0;
            }
        }
        int major, minor, st;
        if (sscanf(c->buf, "HTTP/%d.%d %3d", &major, &minor, &st) != 3 || st < 100 || st > 599) {
            snprintf(c->err, SP_ERR_LEN, "not an HTTP response: '%.40s'", c->buf);
            r->status = -1;
            return 0;
        }
        r->status = st;
        if (st >= 200 || stop_at_100)
            return h;
        memmove(c->buf, c->buf + h, c->len - h); /* 1xx: skip it */
        c->len -= h;
    }
}

static sp_status read_body(conn *c, sp_dmn_http_resp *r, size_t h)
{
    char v[64];
    if (header(c->buf, h, "Transfer-Encoding", v, sizeof v) && strcasecmp(v, "identity") != 0) {
        snprintf(c->err, SP_ERR_LEN, "chunked responses are not supported");
        return SP_ERR_FORMAT;
    }
    header(c->buf, h, "Content-Type", r->content_type, sizeof r->content_type);
    header(c->buf, h, "WWW-Authenticate", r->www_authenticate, sizeof r->www_authenticate);
    r->retry_after = header(c->buf, h, "Retry-After", v, sizeof v) ? atol(v) : -1;
    long long want = -1;
    if (header(c->buf, h, "Content-Length", v, sizeof v)) {
        char *end;
        want = strtoll(v, &end, 10);
        if (*end || want < 0 || (unsigned long long)want > RESP_MAX) {
            snprintf(c->err, SP_ERR_LEN, "bad Content-Length '%s'", v);
            return SP_ERR_FORMAT;
        }
    }
    while (want < 0 || c->len - h < (size_t)want) {
        int k = conn_recv(c, -1);
        if (k < 0)
            return SP_ERR_IO;
        if (k == 0) {
            if (want < 0)
                break;
            snprintf(c->err, SP_ERR_LEN, "connection closed after %zu of %lld body bytes", c->len - h, want);
            return SP_ERR_IO;
        }
    }
    size_t n = want < 0 ? c->len - h : (size_t)want;
    if (!(r->body = malloc(n + 1))) {
        snprintf(c->err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    memcpy(r->body, c->buf + h, n);
    r->body[n] = 0;
    r->body_len = n;
    return SP_OK;
}

static sp_status send_head(conn *c, const sp_dmn_addr *a, const sp_dmn_http_req *q, int expect)
{
    char head[2048];
    char host[300];
    if (a->is_unix)
        snprintf(host, sizeof host, "localhost");
    else /* "host:port", IPv6 in brackets (RFC 7230 5.4) */
        sp_dmn_addr_format(host, sizeof host, a);
    int n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nUser-Agent: snarkpipe/%s\r\n",
                     q->method, q->target, host, SP_VERSION_STRING);
    if (q->token)
        n += snprintf(head + n, sizeof head - (size_t)n, "Authorization: Bearer %s\r\n", q->token);
    if (q->content_type)
        n += snprintf(head + n, sizeof head - (size_t)n, "Content-Type: %s\r\n", q->content_type);
    if (q->body || q->content_type || !strcmp(q->method, "POST"))
        n += snprintf(head + n, sizeof head - (size_t)n, "Content-Length: %zu\r\n", q->body_len);
    if (expect)
        n += snprintf(head + n, sizeof head - (size_t)n, "Expect: 100-continue\r\n");
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    if ((size_t)n >= sizeof head) {
        snprintf(c->err, SP_ERR_LEN, "request head too long");
        return SP_ERR_INVALID_ARG;
    }
    return conn_send(c, head, (size_t)n);
}

/* With "Expect: 100-continue": waits up to 1 s for the server's verdict,
 * then sends the body unless a final answer came. Returns the head length
 * of a final answer already read, 0 otherwise (or on error, st set). */
static size_t send_body(conn *c, sp_dmn_http_resp *r, const sp_dmn_http_req *q, int expect, sp_status *st)
{
    *st = SP_OK;
    if (expect) {
        size_t h = read_head(c, r, 1, 1000);
        if (!h && r->status != 0) {
            *st = SP_ERR_IO;
            return 0;
        }
        if (h && r->status >= 200)
            return h; /* refused (or answered) before the body */
        if (h) {
            memmove(c->buf, c->buf + h, c->len - h);
            c->len -= h;
        }
    }
    r->body_sent = 1;
    if (q->body_len)
        *st = conn_send(c, q->body, q->body_len);
    return 0;
}

sp_status sp_dmn_http_call(sp_dmn_http_resp *r, const sp_dmn_addr *a, const sp_dmn_http_req *q, char err[SP_ERR_LEN])
{
    memset(r, 0, sizeof *r);
    r->retry_after = -1;
    conn c = {.fd = -1, .err = err};
    c.deadline = sp_dmn_wire_now_ms() + (double)(q->timeout_ms > 0 ? q->timeout_ms : 60000);
    sp_status st = conn_open(&c, a);
    int expect = q->body_len > (q->expect_above ? q->expect_above : 1024);
    size_t h = 0;
    if (st == SP_OK)
        st = send_head(&c, a, q, expect);
    if (st == SP_OK)
        h = send_body(&c, r, q, expect, &st);
    if (st != SP_OK && c.fd >= 0 && r->body_sent) {
        /* The server may have answered and closed while we were sending
         * (413, 401): its answer is worth more than our send error. */
        char e2[SP_ERR_LEN];
        c.err = e2;
        h = read_head(&c, r, 0, -1);
        c.err = err;
        if (h)
            st = SP_OK;
    } else if (st == SP_OK && !h) {
        h = read_head(&c, r, 0, -1);
        if (!h)
            st = r->status == -1 ? SP_ERR_FORMAT : SP_ERR_IO;
    }
    if (st == SP_OK)
        st = read_body(&c, r, h);
    if (c.fd >= 0)
        close(c.fd);
    free(c.buf);
    if (st != SP_OK) {
        free(r->body);
        memset(r, 0, sizeof *r);
    }
    return st;
}

void sp_dmn_http_resp_free(sp_dmn_http_resp *r)
{
    free(r->body);
    memset(r, 0, sizeof *r);
}

/* ---- bearer-token files ---- */

sp_status sp_dmn_read_token(char *out, size_t out_len, int *shared, const char *path, char err[SP_ERR_LEN])
{
    out[0] = 0;
    *shared = 0;
    FILE *f = sp_file_fopen_regular(path, "r", "token file", err); /* a FIFO would block */
    if (!f)
        return SP_ERR_IO;
    struct stat st;
    *shared = fstat(fileno(f), &st) == 0 && (st.st_mode & 077);
    size_t n = fread(out, 1, out_len - 1, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    out[n] = 0;
    while (n && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' ' || out[n - 1] == '\t'))
        out[--n] = 0;
    size_t printable = 0;
    while (printable < n && out[printable] > 0x20 && out[printable] < 0x7f)
        printable++;
    if (more || n == 0 || printable != n) {
        snprintf(err, SP_ERR_LEN, "token file %.150s: expected one line of 1 to %zu printable characters", path,
                 out_len - 1);
        out[0] = 0;
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}
