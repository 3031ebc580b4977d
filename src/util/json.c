#include "util/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define DEPTH_CAP 1000 /* recursion guard whatever the caller asks */

/* A value while parsing: text and keys are pool offsets and children are
 * indices, because both arrays move as they grow; sp_json_parse turns them
 * into pointers once the input is consumed. */
typedef struct {
    sp_json_val v;
    size_t text_off, key_off, key_len, key_at, kid_start;
} node;

struct sp_json_doc {
    node *nodes;
    size_t n_nodes, cap_nodes;
    size_t *kids; /* children of every container, one run per container */
    size_t n_kids, cap_kids;
    const sp_json_val **items; /* kids as pointers (final form) */
    char *pool;
    size_t pool_len, pool_cap;
};

typedef struct {
    const unsigned char *s;
    size_t len, pos;
    unsigned max_depth;
    int last_key_wins;
    sp_json_doc *doc;
    size_t *stack; /* children of the open containers */
    size_t n_stack, cap_stack;
    char *err;
    size_t err_len;
    sp_status st;
} parser;

static void fail(parser *p, sp_status st, size_t at, const char *fmt, ...)
{
    if (p->st != SP_OK)
        return;
    p->st = st;
    if (!p->err || !p->err_len)
        return;
    int k = snprintf(p->err, p->err_len, "json: byte %zu: ", at);
    if (k < 0 || (size_t)k >= p->err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + k, p->err_len - (size_t)k, fmt, ap);
    va_end(ap);
}

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 1;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *nb = realloc(*buf, c * elem);
    if (!nb)
        return 0;
    *buf = nb;
    *cap = c;
    return 1;
}

static int oom(parser *p)
{
    fail(p, SP_ERR_NOMEM, p->pos, "out of memory");
    return 0;
}

static int pool_put(parser *p, const void *src, size_t n)
{
    sp_json_doc *d = p->doc;
    if (!grow((void **)&d->pool, &d->pool_cap, d->pool_len + n, 1))
        return oom(p);
    memcpy(d->pool + d->pool_len, src, n);
    d->pool_len += n;
    return 1;
}

static size_t new_node(parser *p, sp_json_type t, size_t at)
{
    sp_json_doc *d = p->doc;
    if (!grow((void **)&d->nodes, &d->cap_nodes, d->n_nodes + 1, sizeof(node))) {
        oom(p);
        return NONE;
    }
    node *nd = &d->nodes[d->n_nodes];
    memset(nd, 0, sizeof *nd);
    nd->v.type = t;
    nd->v.offset = at;
    nd->text_off = nd->key_off = nd->kid_start = NONE;
    return d->n_nodes++;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        unsigned char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        p->pos++;
    }
}

static int at_end(parser *p, const char *what)
{
    if (p->pos < p->len)
        return 0;
    fail(p, SP_ERR_TRUNCATED, p->pos, "input ends inside %s", what);
    return 1;
}

static void unexpected(parser *p, const char *expected)
{
    unsigned char c = p->s[p->pos];
    if (c >= 0x20 && c < 0x7f)
        fail(p, SP_ERR_BAD_ENCODING, p->pos, "expected %s, found '%c'", expected, c);
    else
        fail(p, SP_ERR_BAD_ENCODING, p->pos, "expected %s, found byte 0x%02x", expected, c);
}

/* ---- strings ---- */

static int hex4(parser *p, size_t at, unsigned *out)
{
    if (p->len - at < 4) {
        p->pos = p->len;
        at_end(p, "a \\u escape");
        return 0;
    }
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p->s[at + i];
        unsigned d = (c >= '0' && c <= '9') ? c - '0'
                     : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                     : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                              : 16;
        if (d == 16) {
            fail(p, SP_ERR_BAD_ENCODING, at + i, "bad hex digit in \\u escape");
            return 0;
        }
        v = v * 16 + d;
    }
    *out = v;
    return 1;
}

static int put_utf8(parser *p, unsigned cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xc0 | (cp >> 6));
        b[1] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xe0 | (cp >> 12));
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xf0 | (cp >> 18));
        b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
        b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        b[3] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    return pool_put(p, b, n);
}

/* \uXXXX at p->pos (pointing at 'u'), with a surrogate pair when needed. */
static int unicode_escape(parser *p)
{
    size_t start = p->pos - 1;
    unsigned hi, lo;
    if (!hex4(p, p->pos + 1, &hi))
        return 0;
    p->pos += 5;
    if (hi == 0) { /* a NUL would end every C string made of it early ("mult\u0000x" read as "mult") */
        fail(p, SP_ERR_BAD_ENCODING, start, "\\u0000 (NUL) is not allowed in a string");
        return 0;
    }
    if (hi >= 0xdc00 && hi <= 0xdfff) {
        fail(p, SP_ERR_BAD_ENCODING, start, "lone low surrogate in \\u escape");
        return 0;
    }
    if (hi < 0xd800 || hi > 0xdbff)
        return put_utf8(p, hi);
    size_t avail = p->len - p->pos;
    if ((avail >= 1 && p->s[p->pos] != '\\') || (avail >= 2 && p->s[p->pos + 1] != 'u')) {
        fail(p, SP_ERR_BAD_ENCODING, start, "high surrogate not followed by a low one");
        return 0;
    }
    if (avail < 2) {
        p->pos = p->len;
        at_end(p, "a surrogate pair");
        return 0;
    }
    if (!hex4(p, p->pos + 2, &lo))
        return 0;
    if (lo < 0xdc00 || lo > 0xdfff) {
        fail(p, SP_ERR_BAD_ENCODING, start, "high surrogate not followed by a low one");
        return 0;
    }
    p->pos += 6;
    return put_utf8(p, 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00));
}

static int escape(parser *p)
{
    p->pos++; /* the backslash */
    if (at_end(p, "a string"))
        return 0;
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    unsigned char c = p->s[p->pos];
    if (c == 'u')
        return unicode_escape(p);
    const char *hit = c ? strchr(from, c) : NULL;
    if (!hit) {
        fail(p, SP_ERR_BAD_ENCODING, p->pos - 1, "bad escape in string");
        return 0;
    }
    p->pos++;
    return pool_put(p, &to[hit - from], 1);
}

/* Length of the valid UTF-8 sequence at p->pos (lead byte >= 0x80), or 0. */
static size_t utf8_len(parser *p)
{
    const unsigned char *s = p->s + p->pos;
    size_t avail = p->len - p->pos;
    unsigned char c = s[0], lo = 0x80, hi = 0xbf;
    size_t n;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        if (c == 0xed)
            hi = 0x9f; /* no UTF-16 surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (avail < n)
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

/* The string at p->pos (the opening quote) into the pool. */
static int parse_string(parser *p, size_t *off, size_t *len)
{
    p->pos++;
    *off = p->doc->pool_len;
    for (;;) {
        if (at_end(p, "a string"))
            return 0;
        unsigned char c = p->s[p->pos];
        if (c == '"')
            break;
        if (c == '\\') {
            if (!escape(p))
                return 0;
        } else if (c < 0x20) {
            fail(p, SP_ERR_BAD_ENCODING, p->pos, "control character 0x%02x in string", c);
            return 0;
        } else if (c < 0x80) {
            if (!pool_put(p, &c, 1))
                return 0;
            p->pos++;
        } else {
            size_t n = utf8_len(p);
            if (!n) {
                fail(p, SP_ERR_BAD_ENCODING, p->pos, "invalid UTF-8 in string");
                return 0;
            }
            if (!pool_put(p, p->s + p->pos, n))
                return 0;
            p->pos += n;
        }
    }
    p->pos++;
    *len = p->doc->pool_len - *off;
    return pool_put(p, "", 1);
}

/* ---- numbers and literals ---- */

static size_t digits(parser *p)
{
    size_t n = 0;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
        p->pos++;
        n++;
    }
    return n;
}

static int need_digits(parser *p, const char *where)
{
    if (at_end(p, "a number"))
        return 0;
    if (digits(p))
        return 1;
    fail(p, SP_ERR_BAD_ENCODING, p->pos, "expected a digit %s", where);
    return 0;
}

static size_t parse_number(parser *p)
{
    size_t start = p->pos;
    if (p->s[p->pos] == '-')
        p->pos++;
    if (at_end(p, "a number"))
        return NONE;
    if (p->s[p->pos] == '0') {
        p->pos++;
        if (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
            fail(p, SP_ERR_BAD_ENCODING, start, "leading zero in number");
            return NONE;
        }
    } else if (!need_digits(p, "in number"))
        return NONE;
    if (p->pos < p->len && p->s[p->pos] == '.') {
        p->pos++;
        if (!need_digits(p, "after the decimal point"))
            return NONE;
    }
    if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
            p->pos++;
        if (!need_digits(p, "in the exponent"))
            return NONE;
    }
    size_t id = new_node(p, SP_JSON_NUMBER, start);
    if (id == NONE)
        return NONE;
    node *nd = &p->doc->nodes[id];
    nd->text_off = p->doc->pool_len;
    nd->v.n = p->pos - start;
    if (!pool_put(p, p->s + start, p->pos - start) || !pool_put(p, "", 1))
        return NONE;
    return id;
}

static size_t parse_literal(parser *p)
{
    static const struct { const char *w; sp_json_type t; } lits[] = {
        {"true", SP_JSON_TRUE}, {"false", SP_JSON_FALSE}, {"null", SP_JSON_NULL}};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(lits[i].w);
        if (p->s[p->pos] != (unsigned char)lits[i].w[0])
            continue;
        size_t avail = p->len - p->pos;
        if (memcmp(p->s + p->pos, lits[i].w, avail < n ? avail : n) != 0)
            break;
        if (avail < n) {
            p->pos = p->len;
            at_end(p, "a literal");
            return NONE;
        }
        size_t id = new_node(p, lits[i].t, p->pos);
        p->pos += n;
        return id;
    }
    unexpected(p, "a value");
    return NONE;
}

/* ---- containers ---- */

static size_t parse_value(parser *p, unsigned depth);

static int push_kid(parser *p, size_t id)
{
    if (!grow((void **)&p->stack, &p->cap_stack, p->n_stack + 1, sizeof(size_t)))
        return oom(p);
    p->stack[p->n_stack++] = id;
    return 1;
}

/* Moves the children pushed since `mark` into the doc's kid runs. */
static int close_container(parser *p, size_t id, size_t mark)
{
    sp_json_doc *d = p->doc;
    size_t n = p->n_stack - mark;
    if (!grow((void **)&d->kids, &d->cap_kids, d->n_kids + n, sizeof(size_t)))
        return oom(p);
    if (n) /* (empty containers may have no stack or kid array yet) */
        memcpy(d->kids + d->n_kids, p->stack + mark, n * sizeof(size_t));
    d->nodes[id].kid_start = d->n_kids;
    d->nodes[id].v.n = n;
    d->n_kids += n;
    p->n_stack = mark;
    return 1;
}

typedef struct {
    const char *k;
    size_t len, at, slot; /* slot: the member's place in its object */
} keyref;

static int keycmp(const void *a, const void *b)
{
    const keyref *x = a, *y = b;
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->k, y->k, m);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->at < y->at ? -1 : 1;
}

/* An object whose members (the last run of kids) repeat a key: an error,
 * or with last_key_wins the last member of each key moved to the place of
 * the first and the others dropped. */
static int check_dup_keys(parser *p, size_t id)
{
    sp_json_doc *d = p->doc;
    node *obj = &d->nodes[id];
    size_t n = obj->v.n;
    if (n < 2)
        return 1;
    size_t *kids = d->kids + obj->kid_start;
    keyref *r = malloc(n * sizeof *r);
    if (!r)
        return oom(p);
    for (size_t i = 0; i < n; i++) {
        node *m = &d->nodes[kids[i]];
        r[i] = (keyref){d->pool + m->key_off, m->key_len, m->key_at, i};
    }
    qsort(r, n, sizeof *r, keycmp); /* by key, then by place */
    int dropped = 0;
    for (size_t i = 1, first = 0; i <= n; i++) {
        if (i < n && r[i].len == r[first].len && !memcmp(r[i].k, r[first].k, r[i].len))
            continue;
        if (i - first > 1) { /* r[first .. i) share a key */
            if (!p->last_key_wins) {
                fail(p, SP_ERR_BAD_ENCODING, r[first + 1].at, "duplicate key \"%.40s\" in object", r[first].k);
                free(r);
                return 0;
            }
            kids[r[first].slot] = kids[r[i - 1].slot];
            for (size_t j = first + 1; j < i; j++)
                kids[r[j].slot] = NONE;
            dropped = 1;
        }
        first = i;
    }
    free(r);
    if (dropped) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (kids[i] != NONE)
                kids[k++] = kids[i];
        obj->v.n = k;
        while (k < n)
            kids[k++] = NONE; /* the run's tail, unused */
    }
    return 1;
}

static int object_member(parser *p, unsigned depth)
{
    skip_ws(p);
    if (at_end(p, "an object"))
        return 0;
    if (p->s[p->pos] != '"') {
        unexpected(p, "a string key");
        return 0;
    }
    size_t key_off, key_len, key_at = p->pos;
    if (!parse_string(p, &key_off, &key_len))
        return 0;
    skip_ws(p);
    if (at_end(p, "an object"))
        return 0;
    if (p->s[p->pos] != ':') {
        unexpected(p, "':' after the key");
        return 0;
    }
    p->pos++;
    size_t kid = parse_value(p, depth + 1);
    if (kid == NONE)
        return 0;
    p->doc->nodes[kid].key_off = key_off;
    p->doc->nodes[kid].key_len = key_len;
    p->doc->nodes[kid].key_at = key_at;
    return push_kid(p, kid);
}

static int array_item(parser *p, unsigned depth)
{
    size_t kid = parse_value(p, depth + 1);
    return kid != NONE && push_kid(p, kid);
}

/* Parses '{' ... '}' or '[' ... ']' at p->pos. */
static size_t parse_container(parser *p, unsigned depth)
{
    int is_obj = p->s[p->pos] == '{';
    char close = is_obj ? '}' : ']';
    const char *what = is_obj ? "an object" : "an array";
    if (depth >= p->max_depth) {
        fail(p, SP_ERR_BAD_ENCODING, p->pos, "nesting deeper than %u levels", p->max_depth);
        return NONE;
    }
    size_t id = new_node(p, is_obj ? SP_JSON_OBJECT : SP_JSON_ARRAY, p->pos);
    size_t mark = p->n_stack;
    if (id == NONE)
        return NONE;
    p->pos++;
    skip_ws(p);
    if (at_end(p, what))
        return NONE;
    if (p->s[p->pos] != close) {
        for (;;) {
            if (is_obj ? !object_member(p, depth) : !array_item(p, depth))
                return NONE;
            skip_ws(p);
            if (at_end(p, what))
                return NONE;
            if (p->s[p->pos] == close)
                break;
            if (p->s[p->pos] != ',') {
                unexpected(p, is_obj ? "',' or '}' in object" : "',' or ']' in array");
                return NONE;
            }
            p->pos++;
        }
    }
    p->pos++;
    if (!close_container(p, id, mark))
        return NONE;
    if (is_obj && !check_dup_keys(p, id))
        return NONE;
    return id;
}

static size_t parse_value(parser *p, unsigned depth)
{
    skip_ws(p);
    if (at_end(p, "a value"))
        return NONE;
    unsigned char c = p->s[p->pos];
    if (c == '{' || c == '[')
        return parse_container(p, depth);
    if (c == '-' || (c >= '0' && c <= '9'))
        return parse_number(p);
    if (c == '"') {
        size_t id = new_node(p, SP_JSON_STRING, p->pos);
        size_t off, len;
        if (id == NONE || !parse_string(p, &off, &len))
            return NONE;
        p->doc->nodes[id].text_off = off;
        p->doc->nodes[id].v.n = len;
        return id;
    }
    return parse_literal(p);
}

/* Turns pool offsets and kid indices into the public pointers. */
static int finalize(parser *p)
{
    sp_json_doc *d = p->doc;
    d->items = malloc((d->n_kids ? d->n_kids : 1) * sizeof *d->items);
    if (!d->items)
        return oom(p);
    for (size_t i = 0; i < d->n_kids; i++)
        d->items[i] = d->kids[i] == NONE ? NULL : &d->nodes[d->kids[i]].v;
    for (size_t i = 0; i < d->n_nodes; i++) {
        node *nd = &d->nodes[i];
        nd->v.text = nd->text_off == NONE ? NULL : d->pool + nd->text_off;
        nd->v.key = nd->key_off == NONE ? NULL : d->pool + nd->key_off;
        nd->v.items = nd->kid_start == NONE ? NULL : d->items + nd->kid_start;
    }
    return 1;
}

sp_status sp_json_parse(sp_json_doc **doc, const char *text, size_t len, const sp_json_limits *lim,
                        char *err, size_t err_len)
{
    size_t max_bytes = lim && lim->max_bytes ? lim->max_bytes : SP_JSON_DEFAULT_MAX_BYTES;
    unsigned max_depth = lim && lim->max_depth ? lim->max_depth : SP_JSON_DEFAULT_MAX_DEPTH;
    parser p = {.s = (const unsigned char *)text, .len = len, .err = err, .err_len = err_len,
                .max_depth = max_depth > DEPTH_CAP ? DEPTH_CAP : max_depth,
                .last_key_wins = lim && lim->last_key_wins, .st = SP_OK};
    *doc = NULL;
    if (err && err_len)
        err[0] = 0;
    if (len > max_bytes) {
        fail(&p, SP_ERR_BAD_ENCODING, 0, "input of %zu bytes exceeds the limit of %zu", len,
             max_bytes);
        return p.st;
    }
    p.doc = calloc(1, sizeof *p.doc);
    if (!p.doc) {
        fail(&p, SP_ERR_NOMEM, 0, "out of memory");
        return p.st;
    }
    size_t root = parse_value(&p, 0);
    if (root != NONE) {
        skip_ws(&p);
        if (p.pos < p.len)
            unexpected(&p, "the end of input after the value");
    }
    if (p.st == SP_OK)
        finalize(&p);
    free(p.stack);
    if (p.st != SP_OK) {
        sp_json_free(p.doc);
        return p.st;
    }
    *doc = p.doc;
    return SP_OK;
}

void sp_json_free(sp_json_doc *doc)
{
    if (!doc)
        return;
    free(doc->nodes);
    free(doc->kids);
    free(doc->items);
    free(doc->pool);
    free(doc);
}

const sp_json_val *sp_json_root(const sp_json_doc *doc)
{
    return &doc->nodes[0].v; /* parse_value creates the root first */
}

const sp_json_val *sp_json_at(const sp_json_val *v, size_t i)
{
    if (!v || (v->type != SP_JSON_ARRAY && v->type != SP_JSON_OBJECT) || i >= v->n)
        return NULL;
    return v->items[i];
}

const sp_json_val *sp_json_get(const sp_json_val *v, const char *key)
{
    if (!v || v->type != SP_JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->items[i]->key, key) == 0)
            return v->items[i];
    return NULL;
}

int sp_json_u64(uint64_t *out, const sp_json_val *v)
{
    if (!v || v->type != SP_JSON_NUMBER || v->text[0] == '-')
        return 0;
    uint64_t x = 0;
    for (size_t i = 0; i < v->n; i++) {
        unsigned char c = (unsigned char)v->text[i];
        if (c < '0' || c > '9')
            return 0;
        if (x > (UINT64_MAX - (c - '0')) / 10)
            return 0;
        x = x * 10 + (c - '0');
    }
    *out = x;
    return 1;
}

const char *sp_json_type_name(sp_json_type t)
{
    static const char *names[] = {"null", "false", "true", "number", "string", "array", "object"};
    return (unsigned)t < 7 ? names[t] : "?";
}

/* ---- writer ---- */

static void put(sp_json_writer *w, const char *s, size_t n)
{
    if (w->failed)
        return;
    if (!grow((void **)&w->buf, &w->cap, w->len + n + 1, 1)) {
        w->failed = 1;
        return;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = 0;
}

static void newline(sp_json_writer *w)
{
    put(w, "\n", 1);
    for (unsigned i = 0; i < w->depth * w->indent; i++)
        put(w, " ", 1);
}

/* What goes before any value or key: the separator and the line break. */
static void before(sp_json_writer *w)
{
    if (w->after_key) {
        w->after_key = 0;
        if (w->indent)
            put(w, " ", 1);
        return;
    }
    if (w->need_comma)
        put(w, ",", 1);
    if (w->indent && w->depth)
        newline(w);
}

void sp_jw_init(sp_json_writer *w, unsigned indent)
{
    memset(w, 0, sizeof *w);
    w->indent = indent;
}

static void open_scope(sp_json_writer *w, const char *c)
{
    before(w);
    put(w, c, 1);
    w->depth++;
    w->need_comma = 0;
}

static void close_scope(sp_json_writer *w, const char *c)
{
    if (w->depth)
        w->depth--;
    if (w->indent)
        newline(w);
    put(w, c, 1);
    w->need_comma = 1;
}

void sp_jw_begin_object(sp_json_writer *w) { open_scope(w, "{"); }
void sp_jw_end_object(sp_json_writer *w) { close_scope(w, "}"); }
void sp_jw_begin_array(sp_json_writer *w) { open_scope(w, "["); }
void sp_jw_end_array(sp_json_writer *w) { close_scope(w, "]"); }

static void put_escaped(sp_json_writer *w, const char *s)
{
    put(w, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        static const char hex[] = "0123456789abcdef";
        const char *e = NULL;
        switch (*c) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        default: break;
        }
        if (e)
            put(w, e, 2);
        else if (*c < 0x20) {
            char u[6] = {'\\', 'u', '0', '0', hex[*c >> 4], hex[*c & 15]};
            put(w, u, 6);
        } else
            put(w, (const char *)c, 1);
    }
    put(w, "\"", 1);
}

void sp_jw_key(sp_json_writer *w, const char *key)
{
    before(w);
    put_escaped(w, key);
    put(w, ":", 1);
    w->need_comma = 1;
    w->after_key = 1;
}

void sp_jw_string(sp_json_writer *w, const char *s)
{
    before(w);
    put_escaped(w, s);
    w->need_comma = 1;
}

void sp_jw_number(sp_json_writer *w, const char *literal)
{
    before(w);
    put(w, literal, strlen(literal));
    w->need_comma = 1;
}

void sp_jw_u64(sp_json_writer *w, uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    sp_jw_number(w, b);
}

void sp_jw_double(sp_json_writer *w, double v)
{
    char b[64];
    snprintf(b, sizeof b, "%.3f", v == v && v < 1e300 && v > -1e300 ? v : 0.0);
    sp_jw_number(w, b);
}

void sp_jw_bool(sp_json_writer *w, int v) { sp_jw_number(w, v ? "true" : "false"); }

sp_status sp_jw_finish(char **out, size_t *out_len, sp_json_writer *w)
{
    *out = NULL;
    *out_len = 0;
    if (!w->failed && !w->buf)
        put(w, "", 0);
    if (w->failed) {
        sp_jw_free(w);
        return SP_ERR_NOMEM;
    }
    *out = w->buf;
    *out_len = w->len;
    sp_jw_init(w, w->indent);
    return SP_OK;
}

void sp_jw_free(sp_json_writer *w)
{
    free(w->buf);
    sp_jw_init(w, w->indent);
}

void sp_json_emit(sp_json_writer *w, const sp_json_val *v)
{
    switch (v->type) {
    case SP_JSON_NULL: sp_jw_number(w, "null"); break;
    case SP_JSON_FALSE: sp_jw_number(w, "false"); break;
    case SP_JSON_TRUE: sp_jw_number(w, "true"); break;
    case SP_JSON_NUMBER: sp_jw_number(w, v->text); break;
    case SP_JSON_STRING: sp_jw_string(w, v->text); break;
    case SP_JSON_ARRAY:
        sp_jw_begin_array(w);
        for (size_t i = 0; i < v->n; i++)
            sp_json_emit(w, v->items[i]);
        sp_jw_end_array(w);
        break;
    case SP_JSON_OBJECT:
        sp_jw_begin_object(w);
        for (size_t i = 0; i < v->n; i++) {
            sp_jw_key(w, v->items[i]->key);
            sp_json_emit(w, v->items[i]);
        }
        sp_jw_end_object(w);
        break;
    }
}
