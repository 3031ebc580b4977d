/*
 * The strict JSON reader and the snarkjs-layout writer (src/util/json.h).
 *
 * Known answers come from files snarkjs 0.7.6 wrote (the .json files under tests/vectors:
 * parsing them and writing them back must give the same bytes) and from
 * hand-checked RFC 8259 cases; the rest is robustness (every truncation,
 * random byte flips, random trees through write -> parse).
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "util/json.h"

static char *reserialize(const sp_json_doc *doc, unsigned indent, size_t *len)
{
    sp_json_writer w;
    char *out;
    sp_jw_init(&w, indent);
    sp_json_emit(&w, sp_json_root(doc));
    if (sp_jw_finish(&out, len, &w) != SP_OK)
        return NULL;
    return out;
}

static void test_vector_files(void)
{
    static const char *files[] = {
        "tests/vectors/multiplier_bls12381/verification_key.json",
        "tests/vectors/multiplier_bls12381/proof.json",
        "tests/vectors/multiplier_bls12381/public.json",
        "tests/vectors/chain1021_bls12381/verification_key.json",
        "tests/vectors/chain1021_bls12381/proof_fixed_rs.json",
        "tests/vectors/chain1021_bls12381/public.json",
        "tests/vectors/multiplier_bn128/verification_key.json",
        "tests/vectors/chain1021_bn128/verification_key.json",
        "tests/vectors/chain1021_bn128/proof_fixed_rs.json",
        "tests/vectors/chain1021_bn128/public.json",
    };
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        size_t len, olen;
        char *text = (char *)sp_test_slurp(files[f], &len), err[200];
        CHECKF(text != NULL, "cannot read %s", files[f]);
        if (!text)
            continue;
        sp_json_doc *doc;
        sp_status st = sp_json_parse(&doc, text, len, NULL, err, sizeof err);
        CHECKF(st == SP_OK, "%s: %s", files[f], err);
        if (st == SP_OK) {
            char *out = reserialize(doc, 1, &olen);
            CHECKF(out && olen == len && memcmp(out, text, len) == 0,
                   "%s: re-serialised text differs from snarkjs' bytes", files[f]);
            free(out);
            sp_json_free(doc);
        }
        free(text);
    }
}

/* Parses s (NUL-terminated) and returns the status; the doc is freed. */
static sp_status parse_str(const char *s, char *err, size_t err_len)
{
    sp_json_doc *doc;
    sp_status st = sp_json_parse(&doc, s, strlen(s), NULL, err, err_len);
    sp_json_free(doc);
    return st;
}

static void test_valid_and_invalid(void)
{
    static const char *good[] = {
        "0", "-0", "1.5", "-12.5e-3", "1E+2", "1e10", "\"\"", "true", "false", "null", "[]", "{}",
        " [ 1 , 2 ] ", "{\"a\":{\"b\":[null]}}", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u00e9\xc3\xa9\"",
        "\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\"", "{\"a\":1,\"b\":2}", "\t\r\n[]\n",
    };
    static const struct { const char *s; sp_status st; size_t at; } bad[] = {
        {"", SP_ERR_TRUNCATED, 0},
        {"   ", SP_ERR_TRUNCATED, 3},
        {"01", SP_ERR_BAD_ENCODING, 0},
        {"1.", SP_ERR_TRUNCATED, 2},
        {".5", SP_ERR_BAD_ENCODING, 0},
        {"-", SP_ERR_TRUNCATED, 1},
        {"+1", SP_ERR_BAD_ENCODING, 0},
        {"1e", SP_ERR_TRUNCATED, 2},
        {"1ex", SP_ERR_BAD_ENCODING, 2},
        {"0x10", SP_ERR_BAD_ENCODING, 1},
        {"NaN", SP_ERR_BAD_ENCODING, 0},
        {"tru", SP_ERR_TRUNCATED, 3},
        {"trux", SP_ERR_BAD_ENCODING, 0},
        {"[1,]", SP_ERR_BAD_ENCODING, 3},
        {"[1 2]", SP_ERR_BAD_ENCODING, 3},
        {"{\"a\" 1}", SP_ERR_BAD_ENCODING, 5},
        {"{\"a\":1,}", SP_ERR_BAD_ENCODING, 7},
        {"{a:1}", SP_ERR_BAD_ENCODING, 1},
        {"{\"a\":1,\"a\":2}", SP_ERR_BAD_ENCODING, 7},
        {"[1]x", SP_ERR_BAD_ENCODING, 3},
        {"\"abc", SP_ERR_TRUNCATED, 4},
        {"\"a\nb\"", SP_ERR_BAD_ENCODING, 2},
        {"\"\\x\"", SP_ERR_BAD_ENCODING, 1},
        {"\"\\u12g4\"", SP_ERR_BAD_ENCODING, 5},
        {"\"\\udc00\"", SP_ERR_BAD_ENCODING, 1},
        {"\"\\ud800\"", SP_ERR_BAD_ENCODING, 1},
        {"\"\\ud800\\u0041\"", SP_ERR_BAD_ENCODING, 1},
        {"\"\xc0\x80\"", SP_ERR_BAD_ENCODING, 1},       /* overlong */
        {"\"\xed\xa0\x80\"", SP_ERR_BAD_ENCODING, 1},   /* surrogate in UTF-8 */
        {"\"\xf5\x80\x80\x80\"", SP_ERR_BAD_ENCODING, 1},
        {"\"\xe2\x82\"", SP_ERR_BAD_ENCODING, 1},       /* cut sequence */
        {"[\x01]", SP_ERR_BAD_ENCODING, 1},
        {"// c\n1", SP_ERR_BAD_ENCODING, 0},
    };
    char err[200];
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        sp_status st = parse_str(good[i], err, sizeof err);
        CHECKF(st == SP_OK, "good[%zu] rejected: %s", i, err);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sp_status st = parse_str(bad[i].s, err, sizeof err);
        char want[40];
        snprintf(want, sizeof want, "json: byte %zu: ", bad[i].at);
        CHECKF(st == bad[i].st, "bad[%zu] status %d, want %d (%s)", i, st, bad[i].st, err);
        CHECKF(strncmp(err, want, strlen(want)) == 0, "bad[%zu]: message \"%s\", want prefix \"%s\"", i,
               err, want);
    }
    /* A NUL byte inside the buffer is an error, not an end. */
    sp_json_doc *doc;
    CHECK(sp_json_parse(&doc, "[1]\0", 4, NULL, err, sizeof err) == SP_ERR_BAD_ENCODING);
    CHECK(doc == NULL);
    /* \u0000 would cut every C string made of the value ("mult\u0000x" read as "mult"): refused, in
     * values and keys alike; other control characters escaped are fine */
    static const char *nul[] = {"\"mult\\u0000x\"", "{\"a\\u0000\":1}", "[\"\\u0000\"]"};
    for (int i = 0; i < 3; i++) {
        CHECKF(sp_json_parse(&doc, nul[i], strlen(nul[i]), NULL, err, sizeof err) == SP_ERR_BAD_ENCODING &&
               strstr(err, "u0000"), "%s accepted (%s)", nul[i], err);
        CHECK(doc == NULL);
    }
    CHECK(sp_json_parse(&doc, "\"\\u0001\"", 8, NULL, err, sizeof err) == SP_OK && doc &&
          sp_json_root(doc)->n == 1 && sp_json_root(doc)->text[0] == 1);
    sp_json_free(doc);
}

static void test_decoding(void)
{
    sp_json_doc *doc;
    const char *s = "{\"k\\u00e9y\": [\"\\ud83d\\ude00\", -1.25e+3, true, null], \"z\": \"\\u0001x\"}";
    CHECK(sp_json_parse(&doc, s, strlen(s), NULL, NULL, 0) == SP_OK);
    const sp_json_val *root = sp_json_root(doc);
    CHECK(root->type == SP_JSON_OBJECT && root->n == 2);
    const sp_json_val *arr = sp_json_get(root, "k\xc3\xa9y");
    CHECK(arr && arr->type == SP_JSON_ARRAY && arr->n == 4 && arr->offset == 13);
    CHECK(strcmp(sp_json_at(arr, 0)->text, "\xf0\x9f\x98\x80") == 0);
    CHECK(sp_json_at(arr, 1)->type == SP_JSON_NUMBER && strcmp(sp_json_at(arr, 1)->text, "-1.25e+3") == 0);
    CHECK(sp_json_at(arr, 2)->type == SP_JSON_TRUE && sp_json_at(arr, 3)->type == SP_JSON_NULL);
    CHECK(sp_json_at(arr, 4) == NULL && sp_json_get(arr, "x") == NULL);
    const sp_json_val *z = sp_json_get(root, "z");
    CHECK(z && z->n == 2 && z->text[0] == 1 && z->text[1] == 'x');
    CHECK(sp_json_get(root, "missing") == NULL);
    sp_json_free(doc);

    static const struct { const char *s; int ok; uint64_t v; } nums[] = {
        {"0", 1, 0}, {"18446744073709551615", 1, UINT64_MAX}, {"18446744073709551616", 0, 0},
        {"-1", 0, 0}, {"1.0", 0, 0}, {"1e3", 0, 0}, {"\"5\"", 0, 0}, {"42", 1, 42}};
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
        uint64_t v = 7;
        CHECK(sp_json_parse(&doc, nums[i].s, strlen(nums[i].s), NULL, NULL, 0) == SP_OK);
        int ok = sp_json_u64(&v, sp_json_root(doc));
        CHECKF(ok == nums[i].ok && (!ok || v == nums[i].v), "u64 of %s", nums[i].s);
        sp_json_free(doc);
    }
}

static void test_limits(void)
{
    char buf[300], err[200];
    sp_json_limits lim = {.max_depth = 10};
    for (int depth = 1; depth <= 140; depth++) {
        int k = 0;
        for (int i = 0; i < depth; i++)
            buf[k++] = '[';
        for (int i = 0; i < depth; i++)
            buf[k++] = ']';
        sp_json_doc *doc;
        sp_status st = sp_json_parse(&doc, buf, (size_t)k, NULL, err, sizeof err);
        CHECKF((st == SP_OK) == (depth <= SP_JSON_DEFAULT_MAX_DEPTH), "depth %d: %s", depth, err);
        sp_json_free(doc);
        st = sp_json_parse(&doc, buf, (size_t)k, &lim, err, sizeof err);
        CHECKF((st == SP_OK) == (depth <= 10), "depth %d limit 10", depth);
        sp_json_free(doc);
    }
    sp_json_limits small = {.max_bytes = 5};
    sp_json_doc *doc;
    CHECK(sp_json_parse(&doc, "[1,2]", 5, &small, err, sizeof err) == SP_OK);
    sp_json_free(doc);
    CHECK(sp_json_parse(&doc, "[1,22]", 6, &small, err, sizeof err) == SP_ERR_BAD_ENCODING);
    CHECK(strstr(err, "exceeds the limit") != NULL);
}

static void test_truncations_and_flips(sp_rng *rng)
{
    size_t len;
    char *text = (char *)sp_test_slurp("tests/vectors/multiplier_bls12381/verification_key.json", &len), err[200];
    CHECK(text != NULL);
    if (!text)
        return;
    for (size_t cut = 0; cut < len; cut++) {
        sp_json_doc *doc;
        sp_status st = sp_json_parse(&doc, text, cut, NULL, err, sizeof err);
        CHECKF(st == SP_ERR_TRUNCATED && doc == NULL, "prefix of %zu bytes: status %d", cut, st);
        CHECKF(strncmp(err, "json: byte ", 11) == 0, "prefix %zu: message \"%s\"", cut, err);
    }
    char *m = malloc(len);
    int iters = sp_test_iters(3000), accepted = 0;
    for (int it = 0; it < iters && m; it++) {
        memcpy(m, text, len);
        int flips = 1 + (int)(sp_rng_u64(rng) % 4);
        for (int k = 0; k < flips; k++)
            m[sp_rng_u64(rng) % len] ^= (char)(1u << (sp_rng_u64(rng) % 8));
        sp_json_doc *doc;
        sp_status st = sp_json_parse(&doc, m, len, NULL, err, sizeof err);
        if (st != SP_OK) {
            CHECKF(strncmp(err, "json: byte ", 11) == 0, "flip: message \"%s\"", err);
            continue;
        }
        /* Still valid JSON (e.g. a digit changed): writing it back and
         * parsing again must give the same text. */
        accepted++;
        size_t l1, l2;
        char *a = reserialize(doc, 0, &l1);
        sp_json_free(doc);
        CHECK(a && sp_json_parse(&doc, a, l1, NULL, err, sizeof err) == SP_OK);
        char *b = a ? reserialize(doc, 0, &l2) : NULL;
        CHECK(b && l1 == l2 && memcmp(a, b, l1) == 0);
        free(a);
        free(b);
        sp_json_free(doc);
    }
    printf("json: %d of %d flipped files still parse\n", accepted, iters);
    free(m);
    free(text);
}

/* ---- random trees: write, parse, compare ---- */

static void random_string(char *s, size_t cap, sp_rng *rng)
{
    static const char *pieces[] = {"a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
                                   "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "key"};
    size_t n = sp_rng_u64(rng) % 8, k = 0;
    s[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const char *p = pieces[sp_rng_u64(rng) % (sizeof pieces / sizeof *pieces)];
        if (k + strlen(p) + 1 > cap)
            break;
        strcpy(s + k, p);
        k += strlen(p);
    }
}

/* Writes a random value; each member key gets a unique prefix so no
 * object repeats a key. Returns the number of values written. */
static int random_value(sp_json_writer *w, sp_rng *rng, int depth)
{
    unsigned kind = (unsigned)(sp_rng_u64(rng) % (depth > 4 ? 5 : 7));
    char s[64];
    static const char *nums[] = {"0", "-1", "3.25", "1e-7", "-0.5E+10", "123456789012345678901234567890"};
    switch (kind) {
    case 0: sp_jw_number(w, "null"); return 1;
    case 1: sp_jw_number(w, sp_rng_u64(rng) & 1 ? "true" : "false"); return 1;
    case 2: sp_jw_number(w, nums[sp_rng_u64(rng) % 6]); return 1;
    case 3:
    case 4: random_string(s, sizeof s, rng); sp_jw_string(w, s); return 1;
    case 5: {
        int n = 1, items = (int)(sp_rng_u64(rng) % 5);
        sp_jw_begin_array(w);
        for (int i = 0; i < items; i++)
            n += random_value(w, rng, depth + 1);
        sp_jw_end_array(w);
        return n;
    }
    default: {
        int n = 1, items = (int)(sp_rng_u64(rng) % 5);
        sp_jw_begin_object(w);
        for (int i = 0; i < items; i++) {
            char key[80];
            random_string(s, sizeof s, rng);
            snprintf(key, sizeof key, "%d%s", i, s);
            sp_jw_key(w, key);
            n += random_value(w, rng, depth + 1);
        }
        sp_jw_end_object(w);
        return n;
    }
    }
}

static int count_values(const sp_json_val *v)
{
    int n = 1;
    for (size_t i = 0; v->items && i < v->n; i++)
        n += count_values(v->items[i]);
    return n;
}

static void test_random_trees(sp_rng *rng)
{
    int iters = sp_test_iters(400);
    for (int it = 0; it < iters; it++) {
        uint64_t state = rng->s[0];
        unsigned indent = (unsigned)(it % 3);
        sp_json_writer w;
        sp_jw_init(&w, indent);
        int n = random_value(&w, rng, 0);
        char *text, *again, err[200];
        size_t len, len2;
        CHECK(sp_jw_finish(&text, &len, &w) == SP_OK);
        sp_json_doc *doc;
        sp_status st = sp_json_parse(&doc, text, len, NULL, err, sizeof err);
        CHECKF(st == SP_OK, "tree %d (rng word %llx): %s\n%s", it, (unsigned long long)state, err, text);
        if (st == SP_OK) {
            CHECK(count_values(sp_json_root(doc)) == n);
            again = reserialize(doc, indent, &len2);
            CHECKF(again && len2 == len && memcmp(again, text, len) == 0, "tree %d differs", it);
            free(again);
            sp_json_free(doc);
        }
        free(text);
    }
}

static void test_writer_layout(void)
{
    /* Layouts derived by hand from bfj's streamify (snarkjs' JSON writer). */
    sp_json_writer w;
    char *out;
    size_t len;
    sp_jw_init(&w, 1);
    sp_jw_begin_array(&w);
    sp_jw_end_array(&w);
    CHECK(sp_jw_finish(&out, &len, &w) == SP_OK && strcmp(out, "[\n]") == 0 && len == 3);
    free(out);

    sp_jw_begin_object(&w);
    sp_jw_key(&w, "a");
    sp_jw_begin_array(&w);
    sp_jw_end_array(&w);
    sp_jw_key(&w, "b");
    sp_jw_u64(&w, 18446744073709551615ULL);
    sp_jw_key(&w, "c\"\n");
    sp_jw_begin_array(&w);
    sp_jw_string(&w, "x");
    sp_jw_begin_object(&w);
    sp_jw_end_object(&w);
    sp_jw_end_array(&w);
    sp_jw_end_object(&w);
    CHECK(sp_jw_finish(&out, &len, &w) == SP_OK);
    CHECK(strcmp(out, "{\n \"a\": [\n ],\n \"b\": 18446744073709551615,\n \"c\\\"\\n\": [\n  \"x\",\n  {\n  }\n ]\n}") == 0);
    free(out);

    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "a");
    sp_jw_begin_array(&w);
    sp_jw_u64(&w, 1);
    sp_jw_string(&w, "\x01");
    sp_jw_end_array(&w);
    sp_jw_end_object(&w);
    CHECK(sp_jw_finish(&out, &len, &w) == SP_OK && strcmp(out, "{\"a\":[1,\"\\u0001\"]}") == 0);
    free(out);
}

/* Repeated keys: refused by default (at the second one), and with
 * last_key_wins read as JavaScript's JSON.parse reads them: the last
 * value, at the first one's place. Random objects over a few keys are
 * checked against that rule worked out member by member. */
static void test_repeated_keys(sp_rng *rng)
{
    char err[200];
    sp_json_doc *doc;
    const char *s = "{\"a\": 1, \"b\": {\"x\": 1, \"x\": 2}, \"a\": [3]}";
    CHECK(sp_json_parse(&doc, s, strlen(s), NULL, err, sizeof err) == SP_ERR_BAD_ENCODING && !doc);
    CHECKF(strstr(err, "byte 23: duplicate key \"x\"") != NULL, "%s", err);
    sp_json_limits js = {.last_key_wins = 1};
    CHECK(sp_json_parse(&doc, s, strlen(s), &js, err, sizeof err) == SP_OK);
    const sp_json_val *r = sp_json_root(doc);
    CHECK(r->n == 2 && !strcmp(r->items[0]->key, "a") && r->items[0]->type == SP_JSON_ARRAY);
    CHECK(!strcmp(r->items[1]->key, "b") && r->items[1]->n == 1 && !strcmp(sp_json_get(r->items[1], "x")->text, "2"));
    sp_json_free(doc);
    for (int round = 0; round < 2000; round++) {
        char text[400], keys[24];
        int vals[24], n = (int)(sp_rng_u64(rng) % 24), len = 0, uniq = 0;
        char order[24]; /* the keys in the order of their first member */
        int last[6];
        len += snprintf(text + len, sizeof text - len, "{");
        for (int i = 0; i < n; i++) {
            keys[i] = (char)('a' + sp_rng_u64(rng) % 6);
            vals[i] = i;
            len += snprintf(text + len, sizeof text - len, "%s\"%c\":%d", i ? "," : "", keys[i], vals[i]);
        }
        len += snprintf(text + len, sizeof text - len, "}");
        for (int i = 0; i < n; i++) {
            int seen = 0;
            for (int j = 0; j < uniq; j++)
                seen |= order[j] == keys[i];
            if (!seen)
                order[uniq++] = keys[i];
            last[keys[i] - 'a'] = vals[i];
        }
        if (sp_json_parse(&doc, text, (size_t)len, &js, err, sizeof err) != SP_OK) {
            CHECKF(0, "%s: %s", text, err);
            continue;
        }
        r = sp_json_root(doc);
        int ok = r->n == (size_t)uniq;
        for (int j = 0; ok && j < uniq; j++) {
            char want[8];
            snprintf(want, sizeof want, "%d", last[order[j] - 'a']);
            ok = r->items[j]->key[0] == order[j] && !r->items[j]->key[1] && !strcmp(r->items[j]->text, want) &&
                 sp_json_get(r, (char[]){order[j], 0}) == r->items[j];
        }
        CHECKF(ok, "last key wins: %s", text);
        sp_json_free(doc);
        sp_status strict = sp_json_parse(&doc, text, (size_t)len, NULL, err, sizeof err);
        CHECKF((strict == SP_OK) == (uniq == n), "strict: %s", text);
        sp_json_free(doc);
    }
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_json", &rng);
    test_vector_files();
    test_valid_and_invalid();
    test_decoding();
    test_limits();
    test_writer_layout();
    test_truncations_and_flips(&rng);
    test_random_trees(&rng);
    test_repeated_keys(&rng);
    return sp_test_done();
}
