/*
 * A small strict JSON reader (RFC 8259) and a writer that reproduces the
 * layout snarkjs gives its files. No dependencies beyond libc: the CLI
 * builds with nothing else.
 *
 * Reader. sp_json_parse builds a read-only tree in one document object:
 * objects, arrays, strings (escapes decoded, UTF-8 checked), numbers
 * (kept as their literal text), true, false, null. Strict: no comments,
 * no trailing commas, no leading zeros, no bare control characters in
 * strings, no \u0000 (so every decoded string is a plain C string), no
 * lone surrogates, no duplicate keys in one object (unless asked for
 * JavaScript's rule: sp_json_limits.last_key_wins), nothing
 * but whitespace after the top-level value. Limits (input size, nesting
 * depth) are checked before anything grows; an error message names the
 * byte offset where the problem starts, e.g.
 *     "json: byte 17: expected ',' or '}' in object".
 * Values point into the document and live until sp_json_free.
 *
 * Writer. An append-only builder with the layout of the `bfj` package
 * that snarkjs' CLI writes with ({space: n}): every member on its own line,
 * indented n spaces per level, "key": value with one space, closing
 * brackets on their own line, empty containers as "[\n<indent>]", no final
 * newline. indent = 0 writes compact JSON on one line.
 */
#ifndef SP_UTIL_JSON_H
#define SP_UTIL_JSON_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"

typedef enum {
    SP_JSON_NULL,
    SP_JSON_FALSE,
    SP_JSON_TRUE,
    SP_JSON_NUMBER,
    SP_JSON_STRING,
    SP_JSON_ARRAY,
    SP_JSON_OBJECT
} sp_json_type;

typedef struct sp_json_val sp_json_val;
struct sp_json_val {
    sp_json_type type;
    size_t n;      /* array / object: number of items; string / number: text length */
    size_t offset; /* byte offset of the value's first character in the input */
    /* string: the decoded bytes (never a NUL: \u0000 is refused);
     * number: the literal as written; both NUL-terminated. NULL otherwise. */
    const char *text;
    /* for a member of an object: its decoded, NUL-terminated key; else NULL */
    const char *key;
    /* array / object: the n items in input order; NULL otherwise */
    const sp_json_val *const *items;
};

typedef struct sp_json_doc sp_json_doc;

typedef struct {
    size_t max_bytes;   /* 0 = SP_JSON_DEFAULT_MAX_BYTES */
    unsigned max_depth; /* 0 = SP_JSON_DEFAULT_MAX_DEPTH */
    /* 0: a key repeated in one object is an error. 1: the object keeps the
     * last member of that key, at the place of the first (what JavaScript's
     * JSON.parse gives, for files snarkjs reads) */
    int last_key_wins;
} sp_json_limits;

#define SP_JSON_DEFAULT_MAX_BYTES ((size_t)1 << 28) /* 256 MiB */
#define SP_JSON_DEFAULT_MAX_DEPTH 64

/*
 * On input: text[0..len) (need not be NUL-terminated; a NUL byte inside is
 * an error), lim may be NULL for the defaults, err may be NULL.
 * On output: *doc is a new document (free with sp_json_free) on success,
 * NULL otherwise; on failure err holds a NUL-terminated message (truncated
 * to err_len).
 * Returns SP_OK, SP_ERR_BAD_ENCODING (syntax, limits, bad UTF-8),
 * SP_ERR_TRUNCATED (input ended inside a value) or SP_ERR_NOMEM.
 */
sp_status sp_json_parse(sp_json_doc **doc, const char *text, size_t len, const sp_json_limits *lim,
                        char *err, size_t err_len) SP_WARN_UNUSED;

/* Frees doc and every value in it. NULL is allowed. */
void sp_json_free(sp_json_doc *doc);

/* Returns the top-level value of doc. */
const sp_json_val *sp_json_root(const sp_json_doc *doc);

/* Returns item i of an array or object, or NULL when v is neither or i >= n. */
const sp_json_val *sp_json_at(const sp_json_val *v, size_t i);

/* Returns the member of object v named key, or NULL when v is not an
 * object or has no such member. Linear in the number of members. */
const sp_json_val *sp_json_get(const sp_json_val *v, const char *key);

/* Returns 1 and sets *out when v is a number written as a plain
 * non-negative integer (digits only) that fits in 64 bits; else 0. */
int sp_json_u64(uint64_t *out, const sp_json_val *v);

/* Returns a static name of the type ("object", "string", ...). */
const char *sp_json_type_name(sp_json_type t);

/* ---- writer ---- */

typedef struct {
    char *buf;
    size_t len, cap;
    unsigned indent;  /* spaces per level; 0 = compact */
    unsigned depth;
    int need_comma;   /* a value has been written at the current level */
    int after_key;    /* the next value follows "key": on the same line */
    int failed;       /* an allocation failed: everything after is dropped */
} sp_json_writer;

/* On output: *w is empty, writing with `indent` spaces per level. */
void sp_jw_init(sp_json_writer *w, unsigned indent);
void sp_jw_begin_object(sp_json_writer *w);
void sp_jw_end_object(sp_json_writer *w);
void sp_jw_begin_array(sp_json_writer *w);
void sp_jw_end_array(sp_json_writer *w);
/* The key of the next member (inside an object only); escaped as needed. */
void sp_jw_key(sp_json_writer *w, const char *key);
/* A string value; escaped as JSON.stringify does. */
void sp_jw_string(sp_json_writer *w, const char *s);
/* A number value from its literal (the caller guarantees valid JSON number text). */
void sp_jw_number(sp_json_writer *w, const char *literal);
void sp_jw_u64(sp_json_writer *w, uint64_t v);
/* A number with 3 decimals and no exponent ("%.3f"); NaN, infinities and
 * magnitudes of 1e300 or more are written as 0.000. */
void sp_jw_double(sp_json_writer *w, double v);
/* true or false (v != 0). */
void sp_jw_bool(sp_json_writer *w, int v);
/*
 * On output: on success *out is the NUL-terminated text (caller frees with
 * free()) and *out_len its length; w is reset (nothing to free).
 * Returns SP_OK or SP_ERR_NOMEM (then *out = NULL and w is freed).
 */
sp_status sp_jw_finish(char **out, size_t *out_len, sp_json_writer *w) SP_WARN_UNUSED;
/* Frees w's buffer without producing output. */
void sp_jw_free(sp_json_writer *w);

/* Writes a parsed value v (and everything under it) to w as the writer
 * writes its own values: numbers keep their literal text, strings are
 * re-escaped. Parse + emit is the re-serialiser of a JSON document. */
void sp_json_emit(sp_json_writer *w, const sp_json_val *v);

#endif
