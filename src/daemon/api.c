/*
 * The /v1 routes: circuits (register, evict, list), jobs (submit, await,
 * cancel), prove (submit and wait), pause and resume (internal.h).
 *
 * Witnesses come in one of three bodies:
 *   application/octet-stream (or any other type): the body is one .wtns
 *       file; circuit, priority and request_id are query arguments;
 *   multipart/form-data: fields circuit, priority, request_id and one file
 *       part "witness" per partition, in order;
 *   application/json: {"circuit", "priority", "request_id",
 *       "witnesses": [base64 .wtns, ...]}.
 * Query arguments fill in what a body does not say.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "daemon/form.h"
#include "daemon/internal.h"
#include "daemon/log.h"
#include "r1cs/r1cs.h"

/* ---- small helpers ---- */

static int is_type(const dreq *r, const char *type)
{
    const char *ct = sp_req_header(r, "Content-Type");
    return ct && !strncasecmp(ct, type, strlen(type));
}

static const char *jstr(const sp_json_val *o, const char *k)
{
    const sp_json_val *v = sp_json_get(o, k);
    return v && v->type == SP_JSON_STRING ? v->text : NULL;
}

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

/* Parses a JSON body, answering 400 itself when it is not JSON. */
static sp_json_doc *json_body(dreq *r)
{
    size_t len;
    const uint8_t *b = sp_req_body(r, &len);
    char err[SP_ERR_LEN];
    sp_json_doc *doc = NULL;
    sp_json_limits lim = {len + 1, 32};
    if (sp_json_parse(&doc, (const char *)b, len, &lim, err, sizeof err) != SP_OK) {
        sp_http_error(r, 400, "malformed_json", "%s", err);
        return NULL;
    }
    if (sp_json_root(doc)->type != SP_JSON_OBJECT) {
        sp_http_error(r, 400, "malformed_json", "the body must be a JSON object");
        sp_json_free(doc);
        return NULL;
    }
    return doc;
}

/* ---- witness input ---- */

typedef struct {
    char circuit[64];
    char request_id[130];
    int has_rid;
    int priority;
    size_t n;
    const uint8_t **data;
    size_t *len;
    uint8_t **decoded;      /* base64 bodies, freed with the input */
    sp_form_part *parts;
    sp_json_doc *doc;
} sub_in;

static void sub_free(sub_in *in)
{
    for (size_t i = 0; in->decoded && i < in->n; i++)
        free(in->decoded[i]);
    free(in->decoded);
    free(in->data);
    free(in->len);
    free(in->parts);
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
            sp_http_error(r, 400, "bad_request", "priority must be an integer from -1000000 to 1000000");
            return -1;
        }
    } else if (!strcmp(name, "circuit") || !strcmp(name, "request_id")) {
        sp_http_error(r, 400, "bad_request", "%s is too long", name);
        return -1;
    }
    return 0;
}

static int sub_from_query(dreq *r, sub_in *in)
{
    static const char *names[] = {"circuit", "request_id", "priority"};
    for (int i = 0; i < 3; i++) {
        const char *v = sp_req_arg(r, names[i]);
        if (v && sub_field(r, in, names[i], v, strlen(v)))
            return -1;
    }
    return 0;
}

static int sub_from_form(dreq *r, sub_in *in)
{
    size_t len, np;
    const uint8_t *b = sp_req_body(r, &len);
    char err[SP_ERR_LEN];
    if (sp_form_parse(&in->parts, &np, sp_req_header(r, "Content-Type"), b, len, err) != SP_OK) {
        sp_http_error(r, 400, "bad_request", "%s", err);
        return -1;
    }
    size_t nw = 0;
    for (size_t i = 0; i < np; i++)
        nw += !strcmp(in->parts[i].name, "witness");
    if (sub_alloc(in, nw)) {
        sp_http_error(r, 503, "out_of_memory", "out of memory");
        return -1;
    }
    for (size_t i = 0; i < np; i++) {
        const sp_form_part *p = &in->parts[i];
        if (!strcmp(p->name, "witness")) {
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
    if (!(in->doc = json_body(r)))
        return -1;
    const sp_json_val *o = sp_json_root(in->doc), *ws = sp_json_get(o, "witnesses"), *pr = sp_json_get(o, "priority");
    const char *c = jstr(o, "circuit"), *rid = jstr(o, "request_id");
    if ((c && sub_field(r, in, "circuit", c, strlen(c))) || (rid && sub_field(r, in, "request_id", rid, strlen(rid))))
        return -1;
    if (pr && (pr->type != SP_JSON_NUMBER || sub_field(r, in, "priority", pr->text, pr->n))) {
        if (!r->answered_placeholder)
            ;
        return -1;
    }
    if (!ws || ws->type != SP_JSON_ARRAY) {
        sp_http_error(r, 400, "bad_request", "\"witnesses\" must be an array of base64 .wtns files");
        return -1;
    }
    if (sub_alloc(in, ws->n)) {
        sp_http_error(r, 503, "out_of_memory", "out of memory");
        return -1;
    }
    for (size_t i = 0; i < ws->n; i++) {
        const sp_json_val *v = ws->items[i];
        if (v->type != SP_JSON_STRING || sp_b64_decode(&in->decoded[i], &in->len[i], v->text, v->n) != SP_OK) {
            sp_http_error(r, 400, "bad_witness", "witnesses[%zu] is not base64", i);
            return -1;
        }
        in->data[i] = in->decoded[i];
        in->n = i + 1;
    }
    return 0;
}
