/*
 * What the daemon and its clients share on the wire, with no dependency
 * beyond libc (so `snarkpipe client` builds even where the daemon's
 * libraries are missing): listen/connect addresses, base64 (RFC 4648),
 * a small HTTP/1.1 client over plain sockets, and re-emitting a parsed
 * JSON value through the util/json writer.
 *
 * Addresses are written "host:port", "[v6addr]:port" or "unix:/path".
 */
#ifndef SP_DAEMON_WIRE_H
#define SP_DAEMON_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "util/json.h"

#define SP_DMN_UNIX_PATH_MAX 107 /* sun_path holds 108 bytes with the NUL */

typedef struct {
    int is_unix;
    char host[256];                   /* TCP: host name or numeric address (no brackets) */
    char port[8];                     /* TCP: decimal port, "0" = any free port */
    char path[SP_DMN_UNIX_PATH_MAX + 1];  /* unix: socket path */
} sp_dmn_addr;

/*
 * On input: s an address as above.
 * On output: *a filled; zeroed on failure.
 * Returns SP_OK or SP_ERR_INVALID_ARG (err says what is wrong).
 */
sp_status sp_dmn_addr_parse(sp_dmn_addr *a, const char *s, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Writes a as sp_dmn_addr_parse reads it ("unix:/p", "h:p", "[::1]:p"). */
void sp_dmn_addr_format(char *out, size_t out_len, const sp_dmn_addr *a);

/* Returns 1 when every address a resolves to is loopback (127.0.0.0/8,
 * ::1, ::ffff:127.x) or a is a unix socket; 0 otherwise (also when it
 * does not resolve). */
int sp_dmn_addr_is_loopback(const sp_dmn_addr *a);

/* ---- request headers a daemon without a token checks (http.c) ---- */

/* 1 when host, a Host header value, names this machine's loopback:
 * "localhost", a dotted quad of 127.0.0.0/8 or "[::1]", each with an
 * optional ":port"; 0 for anything else (a name a DNS rebinding attack
 * points at 127.0.0.1 included) and for NULL. */
int sp_dmn_http_host_is_loopback(const char *host);

/* 1 when origin, an Origin header value, is the origin "http://" + host
 * (host as the Host header gave it; ASCII case ignored); 0 otherwise
 * ("null", another scheme, host or port). */
int sp_dmn_http_origin_is(const char *origin, const char *host);

/* ---- base64, standard alphabet with padding ---- */

/* Characters sp_dmn_b64_encode writes for n bytes (without the NUL). */
size_t sp_dmn_b64_len(size_t n);
/* On output: out[0 .. sp_dmn_b64_len(n)] the text and a NUL. */
void sp_dmn_b64_encode(char *out, const uint8_t *in, size_t n);
/*
 * Strict decoding: length a multiple of 4, only the alphabet, '=' only as
 * the last one or two characters, unused bits zero.
 * On output: *out a malloc'ed array of *n bytes (free()); NULL and 0 on
 *   failure.
 * Returns SP_OK, SP_ERR_BAD_ENCODING, SP_ERR_NOMEM.
 */
sp_status sp_dmn_b64_decode(uint8_t **out, size_t *n, const char *in, size_t len) SP_WARN_UNUSED;

/* ---- HTTP/1.1 client: one request per connection ---- */

typedef struct {
    const char *method;       /* "GET", "POST", "DELETE" */
    const char *target;       /* "/v1/jobs?x=1" */
    const char *content_type; /* NULL: no body header */
    const uint8_t *body;
    size_t body_len;
    const char *token;        /* NULL, or sent as "Authorization: Bearer <token>" */
    long timeout_ms;          /* whole exchange; <= 0: 60 s */
    /* Bodies above this size are sent with "Expect: 100-continue", so a
     * server can refuse them (413, 401) before they travel, and so that
     * such an early refusal is not lost to a reset connection; 0 = 1 KiB. */
    size_t expect_above;
} sp_dmn_http_req;

typedef struct {
    int status;              /* e.g. 200 */
    char content_type[128];
    char www_authenticate[128];
    long retry_after;        /* seconds from Retry-After, or -1 */
    char *body;              /* NUL-terminated, body_len bytes (malloc'ed) */
    size_t body_len;
    int body_sent;           /* 0 when the server answered before the body was sent */
} sp_dmn_http_resp;

/*
 * Sends one request on a new connection ("Connection: close") and reads
 * the whole response (Content-Length, or up to the close; chunked
 * responses are refused). Responses over 1 GiB are refused.
 * On output: *r filled (free with sp_dmn_http_resp_free); zeroed on failure.
 * Returns SP_OK (any HTTP status), SP_ERR_IO (cannot connect, reset,
 *   timeout: err says which), SP_ERR_FORMAT (not an HTTP response),
 *   SP_ERR_NOMEM.
 */
sp_status sp_dmn_http_call(sp_dmn_http_resp *r, const sp_dmn_addr *a, const sp_dmn_http_req *q,
                           char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_dmn_http_resp_free(sp_dmn_http_resp *r);


/* Monotonic milliseconds. */
double sp_dmn_wire_now_ms(void);

/* ---- bearer-token files (server.token_file, the client's --token-file) ---- */

/*
 * Reads a token file: a regular file (a FIFO or device is refused without
 * blocking) holding one line of 1 to out_len - 1 printable characters,
 * no blanks inside; a trailing newline and blanks are dropped.
 * On output: out the token ("" on failure); *shared 1 when the file's
 *   mode lets users other than its owner at it (group or other bits).
 * Returns SP_OK; SP_ERR_IO (cannot open, not a regular file) or
 *   SP_ERR_FORMAT, with err naming the file.
 */
sp_status sp_dmn_read_token(char *out, size_t out_len, int *shared, const char *path,
                            char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
