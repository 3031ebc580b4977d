/*
 * The daemon's transport, above state.h: HTTP without routes. http.c runs
 * the listeners (libmicrohttpd), refuses what must be refused before a
 * body is read (token, size, connection deadlines) and dispatches by the
 * route table it is started with, so it names no handler; handlers
 * (api.h) read their request and answer through the functions below. It
 * reads the settings (state.h) and calls no service.
 */
#ifndef SP_DAEMON_TRANSPORT_H
#define SP_DAEMON_TRANSPORT_H

#include "daemon/state.h"
#include "util/json.h"

typedef struct dreq dreq; /* one request being answered */

/* Route handlers: each answers exactly once through sp_dmn_http_* below. */
typedef void (*route_fn)(sp_dmn *d, dreq *r);

const char *sp_dmn_req_path(const dreq *r);     /* the URL path */
const char *sp_dmn_req_method(const dreq *r);
const char *sp_dmn_req_arg(const dreq *r, const char *name);    /* query argument or NULL */
const char *sp_dmn_req_header(const dreq *r, const char *name); /* request header or NULL */
/* Who sent the request and its limit on queued jobs (sp_dmn_auth). */
const char *sp_dmn_req_client(const dreq *r, int *max_queued);
const uint8_t *sp_dmn_req_body(const dreq *r, size_t *len);

/* Answers with body (malloc'ed, taken) of content type ct. */
void sp_dmn_http_send(dreq *r, int code, const char *ct, char *body, size_t len);
/* Answers with a static body (not freed). */
void sp_dmn_http_send_static(dreq *r, int code, const char *ct, const char *body, size_t len);
/* Answers {"error": code_str, "detail": detail} with HTTP code. */
void sp_dmn_http_error(dreq *r, int code, const char *error, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Adds a header to the response about to be sent (before sp_dmn_http_send). */
void sp_dmn_http_header(dreq *r, const char *name, const char *value);
/* Finishes w and sends it (500 when out of memory). */
void sp_dmn_http_send_json(dreq *r, int code, sp_json_writer *w);

/* What handlers read of a request: whether the request's Content-Type is type (a
 * prefix, any case); a member of o that is a string, else NULL; the body
 * parsed as a JSON object (NULL after answering 400 malformed_json: free
 * the document with sp_json_free); the last segment of the path (an id). */
int sp_dmn_req_is_type(const dreq *r, const char *type);
const char *sp_dmn_json_str(const sp_json_val *o, const char *k);
sp_json_doc *sp_dmn_req_json(dreq *r);
const char *sp_dmn_req_last_segment(const dreq *r);

/* One entry of the route table the transport is started with: method and
 * path (ending in '*': any one segment after the prefix), the handler,
 * whether it is served without the token, and a check made before the
 * body is read (NULL: none), which may answer through r (413, 422) and
 * returns 1 when it did. */
typedef struct sp_dmn_route {
    const char *method, *path;
    route_fn fn;
    int open;
    int (*early)(sp_dmn *d, dreq *r, unsigned long long content_length);
} sp_dmn_route;

/* Starts the listeners, dispatching by routes (n_routes entries, which
 * outlive the daemon). */
sp_status sp_dmn_http_start(sp_dmn *d, const sp_dmn_route *routes, size_t n_routes, char err[SP_ERR_LEN]);
/* Housekeeping tick: closes connections whose headers or body are late
 * (server.header_timeout, server.body_timeout), however busy they look. */
void sp_dmn_http_tick(sp_dmn *d);
/* Stops accepting connections, then waits (at most wait_ms) until the
 * requests in progress have been answered. */
void sp_dmn_http_quiesce(sp_dmn *d, long wait_ms);
/* Stops the listeners' threads, closing what connections remain (their
 * sockets stay open: server.c closes them). */
void sp_dmn_http_stop(sp_dmn *d);

#endif
