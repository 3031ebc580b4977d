/*
 * .r1cs / .wtns readers and writers: the circom/snarkjs vectors (header
 * values and first constraints from the vectors' inspect.json, written by
 * snarkjs' own parser), byte-exact round trips against the circom files,
 * BN254 rejection, a table of damaged files, every truncation of small
 * files and random byte flips (run under ASan in CI: nothing may crash).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "r1cs/r1cs.h"
#include "test.h"

#define VEC "tests/vectors/"


static int fr_is_dec(const sp_fr *a, const char *dec)
{
    sp_fr b;
    return sp_fr_from_str(&b, dec) == SP_OK && sp_fr_eq(a, &b);
}

/* Row i of m is exactly the (wire, decimal) pairs given. */
static int row_is(const sp_csr *m, size_t i, size_t k, const uint32_t *wires, const char *const *vals)
{
    if (m->row[i + 1] - m->row[i] != k)
        return 0;
    for (size_t t = 0; t < k; t++) {
        uint64_t at = m->row[i] + t;
        if (m->col[at] != wires[t] || !fr_is_dec(&m->val[at], vals[t]))
            return 0;
    }
    return 1;
}

/* Known answers of this build's curve (the vectors' inspect.json). */
#if SP_CURVE_BN254
#define RM1 "21888242871839275222246405745257275088548364400416034343698204186575808495616" /* r - 1 */
#define RM5 "21888242871839275222246405745257275088548364400416034343698204186575808495612" /* r - 5 */
#define CHAIN_OUT "17028411422294746335568980908094159650493577140420364907932007766120257758530"
#define OTHER_MSG "is for bls12-381 but this is the bn254 (bn128) prover"
#else
#define RM1 "52435875175126190479447740508185965837690552500527637822603658699938581184512" /* r - 1 */
#define RM5 "52435875175126190479447740508185965837690552500527637822603658699938581184508" /* r - 5 */
#define CHAIN_OUT "16409172060276479591238499158918160616708594217908630460599815669518174984415"
#define OTHER_MSG "is for bn254 (bn128) but this is the bls12-381 prover"
#endif
#define MUL VEC SP_TEST_VEC_DIR("multiplier") "/"
#define CHAIN VEC SP_TEST_VEC_DIR("chain1021") "/"

static void test_vectors(void)
{
    char err[SP_ERR_LEN];
    sp_r1cs cs;
    CHECKF(sp_r1cs_read(&cs, MUL "circuit.r1cs", err) == SP_OK, "%s", err);
    CHECK(cs.h.n_wires == 4 && cs.h.n_outputs == 1 && cs.h.n_pub_inputs == 0 && cs.h.n_prv_inputs == 2);
    CHECK(cs.h.n_labels == 4 && cs.h.n_constraints == 1);
    CHECK(row_is(&cs.a, 0, 1, (uint32_t[]){2}, (const char *[]){RM1}));
    CHECK(row_is(&cs.b, 0, 1, (uint32_t[]){3}, (const char *[]){"1"}));
    CHECK(row_is(&cs.c, 0, 1, (uint32_t[]){1}, (const char *[]){RM1}));
    sp_r1cs_free(&cs);

    CHECKF(sp_r1cs_read(&cs, CHAIN "circuit.r1cs", err) == SP_OK, "%s", err);
    CHECK(cs.h.n_wires == 1024 && cs.h.n_outputs == 1 && cs.h.n_pub_inputs == 1 && cs.h.n_prv_inputs == 1);
    CHECK(cs.h.n_labels == 1026 && cs.h.n_constraints == 1021);
    CHECK(row_is(&cs.a, 0, 3, (uint32_t[]){0, 2, 3}, (const char *[]){RM5, RM1, RM1}));
    CHECK(row_is(&cs.b, 0, 3, (uint32_t[]){0, 2, 3}, (const char *[]){"5", "1", "1"}));
    CHECK(row_is(&cs.c, 0, 1, (uint32_t[]){4}, (const char *[]){RM1}));
    /* zkey section 4 holds 3066 A and 2043 B coefficients, 3 and 0 of them input rows */
    CHECK(cs.a.nnz == 3066 - 3 && cs.b.nnz == 2043);

    sp_fr *w;
    size_t n;
    CHECKF(sp_wtns_read(&w, &n, CHAIN "witness.wtns", err) == SP_OK, "%s", err);
    CHECK(n == 1024 && sp_wtns_check_circuit(n, &cs.h, err) == SP_OK);
    CHECK(fr_is_dec(&w[0], "1") && fr_is_dec(&w[2], "1234567") && fr_is_dec(&w[3], "7"));
    CHECK(fr_is_dec(&w[1], CHAIN_OUT));
    CHECK(sp_wtns_check_circuit(1000, &cs.h, err) == SP_ERR_FORMAT);
    CHECKF(strcmp(err, "wtns: expected 1024 values (nVars of the circuit), file holds 1000") == 0, "%s", err);
    free(w);
    sp_r1cs_free(&cs);

    CHECKF(sp_wtns_read(&w, &n, MUL "witness.wtns", err) == SP_OK, "%s", err);
    CHECK(n == 4 && fr_is_dec(&w[1], "33") && fr_is_dec(&w[2], "3") && fr_is_dec(&w[3], "11"));
    free(w);

    /* The other curve's files: refused, and the message names both curves */
    CHECK(sp_r1cs_read(&cs, VEC SP_TEST_VEC_OTHER("multiplier") "/circuit.r1cs", err) == SP_ERR_UNSUPPORTED);
    CHECKF(!strcmp(err, "r1cs " OTHER_MSG), "%s", err);
    CHECK(sp_wtns_read(&w, &n, VEC SP_TEST_VEC_OTHER("multiplier") "/witness.wtns", err) == SP_ERR_UNSUPPORTED);
    CHECKF(!strcmp(err, "wtns " OTHER_MSG) && w == NULL && n == 0, "%s", err);
    CHECK(sp_r1cs_read(&cs, VEC "no_such_file.r1cs", err) == SP_ERR_IO);
}

/* The payload of section id in a container held in memory. */
static const uint8_t *section_of(const uint8_t *p, size_t len, uint32_t id, uint64_t *size)
{
    sp_binfile bf;
    const sp_bin_section *s;
    const uint8_t *out = NULL;
    if (sp_binfile_parse(&bf, p, len, (const char *)p, 0, 100, NULL) != SP_OK)
        return NULL;
    if (sp_binfile_section(&s, &bf, id, "x", 1, NULL) == SP_OK) {
        out = p + s->offset;
        *size = s->size;
    }
    sp_binfile_close(&bf);
    return out;
}

/* Our writers reproduce circom's bytes: whole .wtns files; .r1cs
 * sections 1 and 2 (circom orders them 2, 1, 3 and labels differ). */
static void test_roundtrip(void)
{
    char err[SP_ERR_LEN], tmp[] = "/tmp/sp_test_r1cs_XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    close(fd);
    sp_r1cs cs;
    CHECK(sp_r1cs_read(&cs, CHAIN "circuit.r1cs", err) == SP_OK);
    CHECKF(sp_r1cs_write(tmp, &cs, err) == SP_OK, "%s", err);
    size_t la, lb;
    uint8_t *orig = sp_test_load(CHAIN "circuit.r1cs", &la), *ours = sp_test_load(tmp, &lb);
    for (uint32_t id = 1; id <= 2; id++) {
        uint64_t sa = 0, sb = 1;
        const uint8_t *pa = section_of(orig, la, id, &sa), *pb = section_of(ours, lb, id, &sb);
        CHECKF(pa && pb && sa == sb && memcmp(pa, pb, sa) == 0, "r1cs section %u differs", id);
    }
    sp_r1cs back;
    CHECKF(sp_r1cs_read(&back, tmp, err) == SP_OK, "%s", err);
    CHECK(memcmp(&back.h, &cs.h, sizeof cs.h) == 0 && back.c.nnz == cs.c.nnz);
    CHECK(memcmp(back.c.val, cs.c.val, cs.c.nnz * sizeof(sp_fr)) == 0);
    sp_r1cs_free(&back);
    sp_r1cs_free(&cs);
    free(orig);
    free(ours);

    sp_fr *w;
    size_t n;
    CHECK(sp_wtns_read(&w, &n, CHAIN "witness.wtns", err) == SP_OK);
    CHECKF(sp_wtns_write(tmp, w, n, err) == SP_OK, "%s", err);
    orig = sp_test_load(CHAIN "witness.wtns", &la);
    ours = sp_test_load(tmp, &lb);
    CHECK(la == lb && memcmp(orig, ours, la) == 0);
    free(orig);
    free(ours);
    free(w);
    unlink(tmp);
}

/* Parses data as r1cs or wtns; on success checks the invariants every
 * consumer relies on. Returns the status. */
static sp_status parse_any(const uint8_t *p, size_t len, int is_wtns)
{
    char err[SP_ERR_LEN] = "";
    sp_status st;
    if (is_wtns) {
        sp_fr *w;
        size_t n;
        st = sp_wtns_parse(&w, &n, p, len, err);
        if (st == SP_OK)
            CHECK(n >= 1 && sp_fr_is_one(&w[0]));
        else
            CHECK(w == NULL && n == 0);
        free(w);
    } else {
        sp_r1cs cs;
        st = sp_r1cs_parse(&cs, p, len, err);
        if (st == SP_OK) {
            const sp_csr *m[3] = {&cs.a, &cs.b, &cs.c};
            for (int k = 0; k < 3; k++) {
                CHECK(m[k]->row[0] == 0 && m[k]->row[cs.h.n_constraints] == m[k]->nnz);
                for (uint64_t e = 0; e < m[k]->nnz; e++)
                    CHECK(m[k]->col[e] < cs.h.n_wires);
            }
        }
        sp_r1cs_free(&cs);
    }
    if (st != SP_OK)
        CHECKF(err[0] != '\0', "status %d without a message", (int)st);
    return st;
}

static void test_truncation_and_flips(sp_rng *rng)
{
    const char *files[] = {MUL "circuit.r1cs", MUL "witness.wtns",
                           CHAIN "circuit.r1cs"};
    for (int f = 0; f < 3; f++) {
        size_t len;
        uint8_t *orig = sp_test_load(files[f], &len);
        int is_wtns = f == 1;
        CHECK(parse_any(orig, len, is_wtns) == SP_OK);
        size_t step = len > 4096 ? len / 1500 : 1; /* every prefix of the small files */
        for (size_t k = 0; k < len; k += step) {
            uint8_t *cut = malloc(k ? k : 1); /* exact-size copy so ASan sees overreads */
            memcpy(cut, orig, k);
            CHECKF(parse_any(cut, k, is_wtns) != SP_OK, "%s prefix %zu accepted", files[f], k);
            free(cut);
        }
        uint8_t *mut = malloc(len);
        for (int it = 0; it < sp_test_iters(len > 4096 ? 300 : 3000); it++) {
            memcpy(mut, orig, len);
            int flips = 1 + (int)(sp_rng_u64(rng) % 3);
            for (int j = 0; j < flips; j++) {
                size_t at = len > 4096 && j == 0 ? sp_rng_u64(rng) % 256 : sp_rng_u64(rng) % len;
                mut[at] ^= (uint8_t)(1u << (sp_rng_u64(rng) % 8));
            }
            parse_any(mut, len, is_wtns);
        }
        free(mut);
        free(orig);
    }
}

/* A tiny r1cs image with chosen header fields and one constraint a*b = c. */
static size_t build_r1cs(uint8_t *p, uint32_t n8, uint32_t version, uint32_t wire_c, int extra_section)
{
    size_t o = 0;
    memcpy(p, "r1cs", 4);
    sp_bin_put_u32(p + 4, version);
    sp_bin_put_u32(p + 8, extra_section ? 3 : 2);
    o = 12;
    sp_bin_put_u32(p + o, 1);
    sp_bin_put_u64(p + o + 4, 4 + n8 + 28);
    o += 12;
    sp_bin_put_u32(p + o, n8);
    memset(p + o + 4, 0, n8);
    for (int i = 0; i < SP_FR_LIMBS && 8 * i < (int)n8; i++)
        sp_bin_put_u64(p + o + 4 + 8 * i, SP_FR_MODULUS[i]);
    o += 4 + n8;
    uint32_t hdr[4] = {4, 1, 0, 2};
    for (int i = 0; i < 4; i++, o += 4)
        sp_bin_put_u32(p + o, hdr[i]);
    sp_bin_put_u64(p + o, 4);
    sp_bin_put_u32(p + o + 8, 1);
    o += 12;
    sp_bin_put_u32(p + o, 2);
    sp_bin_put_u64(p + o + 4, 3 * (4 + 4 + 32));
    o += 12;
    uint32_t wires[3] = {2, 3, wire_c};
    for (int m = 0; m < 3; m++, o += 40) {
        sp_bin_put_u32(p + o, 1);
        sp_bin_put_u32(p + o + 4, wires[m]);
        memset(p + o + 8, 0, 32);
        p[o + 8] = 1;
    }
    if (extra_section) {
        sp_bin_put_u32(p + o, 4);
        sp_bin_put_u64(p + o + 4, 4);
        sp_bin_put_u32(p + o + 12, 0);
        o += 16;
    }
    return o;
}

static void expect(const uint8_t *p, size_t len, sp_status want, const char *needle)
{
    char err[SP_ERR_LEN] = "";
    sp_r1cs cs;
    sp_status st = sp_r1cs_parse(&cs, p, len, err);
    CHECKF(st == want && strstr(err, needle) != NULL, "got %d \"%s\", want %d \"%s\"", (int)st, err, (int)want,
           needle);
    sp_r1cs_free(&cs);
}

static void test_damaged(void)
{
    uint8_t p[512], q[512];
    size_t len = build_r1cs(p, 32, 1, 1, 0);
    expect(p, len, SP_OK, "");
    expect(p, build_r1cs(p, 32, 1, 7, 0), SP_ERR_FORMAT, "constraint 0 (C) refers to a wire past nWires");
    expect(p, build_r1cs(p, 48, 1, 1, 0), SP_ERR_UNSUPPORTED, "another size than 32 bytes");
    expect(p, build_r1cs(p, 32, 2, 1, 0), SP_ERR_FORMAT, "version not supported");
    expect(p, build_r1cs(p, 32, 1, 1, 1), SP_ERR_UNSUPPORTED, "custom gates");
    len = build_r1cs(p, 32, 1, 1, 0);
    memcpy(q, p, len);
    q[0] = 'x';
    expect(q, len, SP_ERR_FORMAT, "wrong magic");
    memcpy(q, p, len);
    q[len] = 0;
    expect(q, len + 1, SP_ERR_FORMAT, "unexpected bytes after the last section");
    memcpy(q, p, len);
    sp_bin_put_u64(q + 16, 1000); /* header section size lies */
    expect(q, len, SP_ERR_TRUNCATED, "a section is larger than the rest of the file");
    memcpy(q, p, len);
    sp_bin_put_u32(q + 12 + 12 + 36 + 16 + 8, 2); /* nConstraints 2, one present */
    expect(q, len, SP_ERR_TRUNCATED, "section ends inside constraint 1");
    memcpy(q, p, len);
    sp_bin_put_u32(q + 12 + 12 + 36 + 16 + 8, 0);
    expect(q, len, SP_ERR_FORMAT, "bytes left after the last constraint");
    memcpy(q, p, len);
    sp_bin_put_u32(q + 12 + 12 + 36, 1); /* nWires 1 < 1 + 1 output */
    expect(q, len, SP_ERR_FORMAT, "exceed nWires");
    memcpy(q, p, len);
    memset(q + len - 32, 0xff, 32); /* last coefficient >= r */
    expect(q, len, SP_ERR_NOT_CANONICAL, "constraint 0 (C): a coefficient is not below r");
    memcpy(q, p, len);
    sp_bin_put_u32(q + 12 + 12 + 64, 1); /* section 2 renamed to 1: duplicate */
    expect(q, len, SP_ERR_FORMAT, "section 1 (header) appears more than once");
    memcpy(q, p, len);
    sp_bin_put_u32(q + 12 + 12 + 64, 9); /* section 2 renamed to 9: missing */
    expect(q, len, SP_ERR_FORMAT, "section 2 (constraints) missing");
}

static void test_wtns_damaged(void)
{
    char err[SP_ERR_LEN], tmp[] = "/tmp/sp_test_wtns_XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    close(fd);
    sp_fr v[3];
    sp_fr_set_u64(&v[0], 2);
    sp_fr_set_u64(&v[1], 5);
    sp_fr_set_u64(&v[2], 6);
    CHECK(sp_wtns_write(tmp, v, 3, err) == SP_OK);
    sp_fr *w;
    size_t n;
    CHECK(sp_wtns_read(&w, &n, tmp, err) == SP_ERR_FORMAT);
    CHECKF(strstr(err, "w[0] must be 1") != NULL, "%s", err);
    size_t len;
    uint8_t *p = sp_test_load(tmp, &len);
    sp_bin_put_u32(p + 12 + 12 + 36, 4); /* nWitness 4, 3 stored */
    CHECK(sp_wtns_parse(&w, &n, p, len, err) == SP_ERR_FORMAT);
    CHECKF(strstr(err, "wtns section 2: 96 bytes, expected 4 values") != NULL, "%s", err);
    free(p);

    sp_wtns_writer *ww;
    CHECK(sp_wtns_writer_open(&ww, tmp, 2, err) == SP_OK);
    CHECK(sp_wtns_writer_put(ww, v, 3, err) == SP_ERR_INVALID_ARG);
    CHECK(sp_wtns_writer_put(ww, v, 1, err) == SP_OK);
    CHECK(sp_wtns_writer_close(ww, err) == SP_ERR_INVALID_ARG);
    CHECKF(strstr(err, "1 values written, 2 announced") != NULL, "%s", err);

    sp_r1cs_header h = {.n_wires = 3, .n_pub_inputs = 1, .n_labels = 3, .n_constraints = 2};
    sp_r1cs_writer *rw;
    CHECK(sp_r1cs_writer_open(&rw, tmp, &h, err) == SP_OK);
    uint32_t wire = 3;
    sp_r1cs_lc bad = {1, &wire, v}, empty = {0, NULL, NULL};
    CHECK(sp_r1cs_writer_add(rw, &bad, &empty, &empty, err) == SP_ERR_INVALID_ARG);
    CHECKF(strstr(err, "refers to wire 3, nWires is 3") != NULL, "%s", err);
    CHECK(sp_r1cs_writer_add(rw, &empty, &empty, &empty, err) == SP_OK);
    CHECK(sp_r1cs_writer_close(rw, err) == SP_ERR_INVALID_ARG);
    h.n_labels = 2;
    CHECK(sp_r1cs_writer_open(&rw, tmp, &h, err) == SP_ERR_INVALID_ARG && rw == NULL);
    unlink(tmp);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_r1cs", &rng);
    test_vectors();
    test_roundtrip();
    test_truncation_and_flips(&rng);
    test_damaged();
    test_wtns_damaged();
    return sp_test_done();
}
