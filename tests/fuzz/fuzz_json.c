/* libFuzzer target: the JSON reader (sp_json_parse). An accepted document
 * must be a well-formed tree (counts, items, keys, NUL-terminated texts
 * without a NUL inside),
 * hold numbers that match the RFC 8259 grammar and strings that are valid
 * UTF-8 without surrogates, have no duplicate keys, and come back the same
 * after going through the writer (indented and compact) and the reader
 * again. The reader with JavaScript's rule for repeated keys is held to
 * the strict one (last_key_wins below). */
#include "fuzz.h"
#include "util/json.h"

/* RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int number_ok(const char *s, size_t n)
{
    size_t i = 0;
#define DIGIT(k) ((k) < n && s[k] >= '0' && s[k] <= '9')
    if (i < n && s[i] == '-')
        i++;
    if (i < n && s[i] == '0')
        i++;
    else if (DIGIT(i))
        while (DIGIT(i))
            i++;
    else
        return 0;
    if (i < n && s[i] == '.') {
        i++;
        if (!DIGIT(i))
            return 0;
        while (DIGIT(i))
            i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (!DIGIT(i))
            return 0;
        while (DIGIT(i))
            i++;
    }
#undef DIGIT
    return i == n;
}

/* Valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF). */
static int utf8_ok(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i], len, cp;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            len = 2, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
            len = 3, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
            len = 4, cp = c & 0x07;
        else
            return 0;
        if (n - i < len)
            return 0;
        for (unsigned k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += len;
    }
    return 1;
}

static void check_tree(const sp_json_val *v, size_t len, unsigned depth, int member, int keys_plain)
{
    FUZZ_CHECK(depth <= SP_JSON_DEFAULT_MAX_DEPTH + 1);
    FUZZ_CHECK(v->offset < len);
    FUZZ_CHECK(member ? v->key != NULL : v->key == NULL);
    if (member)
        FUZZ_CHECK(utf8_ok((const unsigned char *)v->key, strlen(v->key)));
    switch (v->type) {
    case SP_JSON_NULL:
    case SP_JSON_FALSE:
    case SP_JSON_TRUE:
        FUZZ_CHECK(v->text == NULL && v->items == NULL);
        break;
    case SP_JSON_NUMBER:
        FUZZ_CHECK(v->text != NULL && v->text[v->n] == '\0' && strlen(v->text) == v->n);
        FUZZ_CHECK(number_ok(v->text, v->n));
        break;
    case SP_JSON_STRING:
        FUZZ_CHECK(v->text != NULL && v->text[v->n] == '\0');
        FUZZ_CHECK(utf8_ok((const unsigned char *)v->text, v->n));
        break;
    case SP_JSON_ARRAY:
    case SP_JSON_OBJECT:
        FUZZ_CHECK(v->text == NULL && (v->n == 0 || v->items != NULL));
        for (size_t i = 0; i < v->n; i++) {
            FUZZ_CHECK(sp_json_at(v, i) == v->items[i]);
            check_tree(v->items[i], len, depth + 1, v->type == SP_JSON_OBJECT, keys_plain);
        }
        FUZZ_CHECK(sp_json_at(v, v->n) == NULL);
        if (v->type == SP_JSON_OBJECT && keys_plain)
            for (size_t i = 0; i < v->n; i++) {
                FUZZ_CHECK(sp_json_get(v, v->items[i]->key) == v->items[i]); /* first = only */
                for (size_t j = 0; j < i; j++)
                    FUZZ_CHECK(strcmp(v->items[i]->key, v->items[j]->key) != 0);
            }
        break;
    default:
        FUZZ_CHECK(!"unknown type");
    }
}

static int same_tree(const sp_json_val *x, const sp_json_val *y)
{
    if (x->type != y->type || x->n != y->n || (x->key == NULL) != (y->key == NULL))
        return 0;
    if (x->key && strcmp(x->key, y->key))
        return 0;
    if (x->text && memcmp(x->text, y->text, x->n))
        return 0;
    for (size_t i = 0; (x->type == SP_JSON_ARRAY || x->type == SP_JSON_OBJECT) && i < x->n; i++)
        if (!same_tree(x->items[i], y->items[i]))
            return 0;
    return 1;
}

/* 1 when some string holds a NUL: the reader refuses \u0000, so never. */
static int has_nul_string(const sp_json_val *v)
{
    if (v->type == SP_JSON_STRING && strlen(v->text) != v->n)
        return 1;
    for (size_t i = 0; (v->type == SP_JSON_ARRAY || v->type == SP_JSON_OBJECT) && i < v->n; i++)
        if (has_nul_string(v->items[i]))
            return 1;
    return 0;
}

static void round_trip(const sp_json_val *root, unsigned indent)
{
    sp_json_writer w;
    sp_jw_init(&w, indent);
    sp_json_emit(&w, root);
    char *text;
    size_t len;
    FUZZ_CHECK(sp_jw_finish(&text, &len, &w) == SP_OK);
    FUZZ_CHECK(strlen(text) == len);
    char err[160];
    sp_json_doc *doc;
    sp_status st = sp_json_parse(&doc, text, len, NULL, err, sizeof err);
    if (st != SP_OK)
        fprintf(stderr, "re-reading the writer's output failed: %s\n%s\n", err, text);
    FUZZ_CHECK(st == SP_OK);
    FUZZ_CHECK(same_tree(sp_json_root(doc), root));
    sp_json_free(doc);
    free(text);
}

/* JavaScript's rule for repeated keys (last_key_wins): where the strict
 * reader accepts, the same tree; where it refuses for another reason than
 * a repeated key, the same error (both read alike up to it); where it
 * refuses a repeated key, a tree whose keys are unique (which the strict
 * reader reads back the same) or an error found further on. */
static void last_key_wins(const uint8_t *data, size_t size, sp_status strict, const char *strict_err,
                          const sp_json_val *strict_root)
{
    char err[160];
    sp_json_limits js = {.last_key_wins = 1};
    sp_json_doc *doc = (sp_json_doc *)1;
    sp_status st = sp_json_parse(&doc, (const char *)data, size, &js, err, sizeof err);
    int repeated = strict != SP_OK && strstr(strict_err, "duplicate key") != NULL;
    if (strict == SP_OK)
        FUZZ_CHECK(st == SP_OK);
    if (st != SP_OK) {
        FUZZ_CHECK(doc == NULL && strstr(err, "duplicate key") == NULL);
        if (!repeated && strict != SP_ERR_NOMEM && st != SP_ERR_NOMEM)
            FUZZ_CHECK(st == strict && !strcmp(err, strict_err));
        return;
    }
    const sp_json_val *root = sp_json_root(doc);
    check_tree(root, size, 0, 0, 1);
    if (strict_root)
        FUZZ_CHECK(same_tree(root, strict_root));
    round_trip(root, 0);
    sp_json_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[160];
    sp_json_doc *doc = (sp_json_doc *)1;
    sp_status st = sp_json_parse(&doc, (const char *)data, size, NULL, err, sizeof err);
    if (st != SP_OK) {
        FUZZ_CHECK(doc == NULL && memchr(err, 0, sizeof err) && err[0]);
        FUZZ_CHECK(st == SP_ERR_BAD_ENCODING || st == SP_ERR_TRUNCATED || st == SP_ERR_NOMEM);
        last_key_wins(data, size, st, err, NULL);
        return 0;
    }
    const sp_json_val *root = sp_json_root(doc);
    check_tree(root, size, 0, 0, 1);
    FUZZ_CHECK(!has_nul_string(root));
    round_trip(root, 0);
    round_trip(root, 1 + (unsigned)(size % 4));
    last_key_wins(data, size, st, err, root);
    sp_json_free(doc);
    return 0;
}
