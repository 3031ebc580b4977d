/* Poseidon (circuit/poseidon.h) and Poseidon Merkle inclusion
 * (circuit/merkle.h): neptune's and rust-fil-proofs' known answers, the
 * fast permutation against the plain one and against the slow rounds
 * written out here, and the gadgets in every mode against the native
 * hashes and the recorded matrices. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/cs.h"
#include "circuit/merkle.h"
#include "circuit/poseidon.h"
#include "circuit/rec.h"
#include "test.h"

#define VECTORS "tests/vectors/poseidon_neptune.txt"

/* ---- parameters and native hashing ---- */

/* neptune src/round_numbers.rs, test_round_numbers_against_known_values:
 * (t, R_P), with R_F = 8 for all. */
static void test_round_numbers(void)
{
    static const unsigned cases[][2] = {{2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
                                        {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57},
                                        {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned rf, rp;
        sp_poseidon_round_numbers(&rf, &rp, cases[i][0]);
        CHECKF(rf == 8 && rp == cases[i][1], "t %u: R_F %u R_P %u", cases[i][0], rf, rp);
    }
}

static int parse_fr_(sp_fr *r, const char *s) { return sp_fr_from_str(r, s) == SP_OK; }

/* Splits line into at most max whitespace-separated tokens. */
static int tokens_(char *line, char **tok, int max)
{
    int n = 0;
    for (char *s = strtok(line, " \t\r\n"); s && n < max; s = strtok(NULL, " \t\r\n"))
        tok[n++] = s;
    return n;
}

static void check_hash_line_(char **tok, int n)
{
    unsigned arity = (unsigned)atoi(tok[1]);
    const sp_poseidon *p = sp_poseidon_params(arity);
    CHECK(p && n == (int)arity + 3);
    if (!p || n != (int)arity + 3)
        return;
    sp_fr in[SP_POSEIDON_MAX_ARITY], want, got, ref;
    for (unsigned i = 0; i < arity; i++)
        CHECK(parse_fr_(&in[i], tok[2 + i]));
    CHECK(parse_fr_(&want, tok[2 + arity]));
    sp_poseidon_hash(&got, p, in);
    sp_poseidon_hash_ref(&ref, p, in);
    CHECKF(sp_fr_eq(&got, &want), "arity %u (fast)", arity);
    CHECKF(sp_fr_eq(&ref, &want), "arity %u (plain)", arity);
}

/* merkle <arity> <arity^2 leaves> <root>: every leaf's path gives the root. */
static void check_merkle_line_(char **tok, int n)
{
    unsigned a = (unsigned)atoi(tok[1]);
    const sp_poseidon *p = sp_poseidon_params(a);
    CHECK(p && a <= 4 && n == (int)(a * a) + 3);
    if (!p || a > 4 || n != (int)(a * a) + 3)
        return;
    sp_fr leaf[16], mid[4], root, got, sib[2 * 3];
    for (unsigned i = 0; i < a * a; i++)
        CHECK(parse_fr_(&leaf[i], tok[2 + i]));
    CHECK(parse_fr_(&root, tok[2 + a * a]));
    for (unsigned i = 0; i < a; i++)
        sp_poseidon_hash(&mid[i], p, leaf + i * a);
    for (unsigned idx = 0; idx < a * a; idx++) {
        unsigned g = idx / a, j = 0;
        for (unsigned i = 0; i < a; i++)
            if (i != idx % a)
                sib[j++] = leaf[g * a + i];
        for (unsigned i = 0; i < a; i++)
            if (i != g)
                sib[j++] = mid[i];
        CHECK(sp_merkle_root(&got, &leaf[idx], sib, idx, 2, a) == SP_OK);
        CHECKF(sp_fr_eq(&got, &root), "leaf %u", idx);
    }
}

static void test_vectors(void)
{
    size_t len;
    char *text = (char *)sp_test_load(VECTORS, &len);
    int hashes = 0, trees = 0, rcs = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (*line == '#' || *line == 0)
            continue;
        char *tok[64];
        int n = tokens_(line, tok, 64);
        if (n >= 3 && !strcmp(tok[0], "hash")) {
            check_hash_line_(tok, n);
            hashes++;
        } else if (n >= 3 && !strcmp(tok[0], "merkle")) {
            check_merkle_line_(tok, n);
            trees++;
        } else if (n == 4 && !strcmp(tok[0], "rc")) {
            const sp_poseidon *p = sp_poseidon_params((unsigned)atoi(tok[1]));
            unsigned i = (unsigned)atoi(tok[2]);
            sp_fr want;
            CHECK(p && parse_fr_(&want, tok[3]) && i < (p->rf + p->rp) * p->t);
            if (p && i < (p->rf + p->rp) * p->t)
                CHECKF(sp_fr_eq(&p->rc[i], &want), "round constant %u", i);
            rcs++;
        } else {
            CHECKF(0, "bad line in " VECTORS ": %s", line);
        }
    }
    CHECK(hashes == 8 && trees == 1 && rcs == 33);
    free(text);
}

static void test_params(void)
{
    static const unsigned rp_of[] = {[2] = 55, [4] = 56, [8] = 57, [11] = 57};
    for (unsigned a = 2; a <= 11; a++) {
        const sp_poseidon *p = sp_poseidon_params(a);
        CHECK(p && p == sp_poseidon_params(a));
        if (!p)
            continue;
        CHECK(p->t == a + 1 && p->rf == 8 && p->n_sbox == p->t * 8 + p->rp);
        if (a < sizeof rp_of / sizeof rp_of[0] && rp_of[a])
            CHECK(p->rp == rp_of[a]);
        sp_fr tag;
        sp_fr_set_u64(&tag, (1ull << a) - 1);
        CHECK(sp_fr_eq(&tag, &p->tag));
        int ok = 1;
        for (unsigned i = 0; i < p->t; i++)
            for (unsigned j = 0; j < p->t; j++) {
                sp_fr d, prod;
                sp_fr_set_u64(&d, i + j + p->t); /* M[i][j] (x_i + y_j) = 1 */
                sp_fr_mul(&prod, &p->mds[i * p->t + j], &d);
                ok &= sp_fr_is_one(&prod) && sp_fr_eq(&p->mds[i * p->t + j], &p->mds[j * p->t + i]);
            }
        CHECK(ok);
    }
    CHECK(sp_poseidon_params(1) == NULL && sp_poseidon_params(37) == NULL);
}

/* The rounds written out the slow obvious way, recording S-box inputs. */
static void slow_hash_(sp_fr *out, sp_fr *trace, const sp_poseidon *p, const sp_fr *in)
{
    unsigned t = p->t;
    sp_fr s[SP_POSEIDON_MAX_WIDTH], n[SP_POSEIDON_MAX_WIDTH];
    s[0] = p->tag;
    for (unsigned i = 0; i < p->arity; i++)
        s[i + 1] = in[i];
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        int full = r < p->rf / 2 || r >= p->rf / 2 + p->rp;
        for (unsigned i = 0; i < t; i++) {
            sp_fr_add(&s[i], &s[i], &p->rc[r * t + i]);
            if (full || i == 0) {
                *trace++ = s[i];
                uint64_t five = 5;
                sp_fr_pow(&s[i], &s[i], &five, 1);
            }
        }
        for (unsigned i = 0; i < t; i++) {
            sp_fr_set_zero(&n[i]);
            for (unsigned j = 0; j < t; j++) {
                sp_fr x;
                sp_fr_mul(&x, &p->mds[i * t + j], &s[j]);
                sp_fr_add(&n[i], &n[i], &x);
            }
        }
        memcpy(s, n, t * sizeof *s);
    }
    *out = s[1];
}

static void test_fast_vs_slow(sp_rng *rng)
{
    for (unsigned a = 2; a <= SP_POSEIDON_MAX_ARITY; a++) {
        const sp_poseidon *p = sp_poseidon_params(a);
        CHECK(p != NULL);
        if (!p)
            continue;
        int reps = (a == 2 || a == 4 || a == 8 || a == 11) ? sp_test_iters(20) : 2;
        for (int it = 0; it < reps; it++) {
            sp_fr s1[SP_POSEIDON_MAX_WIDTH], s2[SP_POSEIDON_MAX_WIDTH];
            for (unsigned i = 0; i < p->t; i++)
                sp_fr_random(&s1[i], rng), s2[i] = s1[i];
            sp_poseidon_permute(p, s1);
            sp_poseidon_permute_ref(p, s2);
            CHECKF(!memcmp(s1, s2, p->t * sizeof *s1), "arity %u permutation", a);
            sp_fr in[SP_POSEIDON_MAX_ARITY], d1, d2, t1[400], t2[400];
            for (unsigned i = 0; i < a; i++)
                sp_fr_random(&in[i], rng);
            sp_poseidon_hash_trace(&d1, t1, p, in);
            slow_hash_(&d2, t2, p, in);
            CHECKF(sp_fr_eq(&d1, &d2) && !memcmp(t1, t2, p->n_sbox * sizeof *t1), "arity %u trace", a);
            sp_poseidon_hash(&d2, p, in);
            CHECK(sp_fr_eq(&d1, &d2));
        }
    }
}

/* First use from several threads at once: one instance, right answers. */
static void *thread_(void *arg)
{
    const sp_poseidon *p = sp_poseidon_params(13);
    sp_fr in[13], d;
    for (unsigned i = 0; i < 13; i++)
        sp_fr_set_u64(&in[i], i);
    if (p)
        sp_poseidon_hash(&d, p, in);
    *(const sp_poseidon **)arg = p;
    return NULL;
}

static void test_threads(void)
{
    pthread_t th[4];
    const sp_poseidon *got[4] = {0};
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&th[i], NULL, thread_, &got[i]) == 0);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++)
        CHECK(got[i] && got[i] == sp_poseidon_params(13));
}

/* ---- the gadgets in every mode ---- */

typedef void (*circuit_fn)(sp_cs *cs, void *ctx);

typedef struct {
    uint64_t nv, nr;
    sp_fr *w;      /* WITNESS-mode witness (nv values) */
    sp_fr *abc;    /* WITNESS a, b, c then the recorded ones, n rows each */
    size_t n;
    sp_cs_rec *rec;
} runs_;

/* COUNT, RECORD (with check) and WITNESS runs of f: counts agree, every
 * constraint holds, and the recorded matrices times w give WITNESS's a, b,
 * c row by row. The caller frees r with runs_free_. */
static void run_modes_(runs_ *r, circuit_fn f, void *ctx)
{
    memset(r, 0, sizeof *r);
    sp_cs cs;
    CHECK(sp_cs_open(&cs, SP_CS_COUNT, 0) == SP_OK);
    f(&cs, ctx);
    CHECK(sp_cs_status(&cs) == SP_OK);
    r->nv = sp_cs_n_vars(&cs), r->nr = sp_cs_n_rows(&cs);
    sp_cs_close(&cs);

    CHECK(sp_cs_open(&cs, SP_CS_RECORD, 1) == SP_OK);
    f(&cs, ctx);
    CHECKF(sp_cs_status(&cs) == SP_OK, "%s", cs.err);
    CHECK(sp_cs_n_vars(&cs) == r->nv && sp_cs_n_rows(&cs) == r->nr);
    uint64_t n_public = cs.n_public;
    r->rec = sp_cs_take_rec(&cs);
    sp_cs_close(&cs);

    r->n = (size_t)(r->nr + n_public + 1);
    r->w = calloc(r->nv, sizeof *r->w);
    r->abc = calloc(6 * r->n, sizeof *r->abc);
    CHECK(r->rec && r->w && r->abc);
    if (!r->rec || !r->w || !r->abc)
        return;
    CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 0) == SP_OK);
    sp_cs_set_outputs(&cs, r->w, r->nv, r->abc, r->abc + r->n, r->abc + 2 * r->n, r->n);
    f(&cs, ctx);
    CHECKF(sp_cs_status(&cs) == SP_OK, "%s", cs.err);
    CHECK(sp_cs_n_vars(&cs) == r->nv && sp_cs_n_rows(&cs) == r->nr);
    sp_cs_close(&cs);
    CHECK(sp_cs_abc_tail(r->abc, r->abc + r->n, r->abc + 2 * r->n, r->n, r->nr, r->w, n_public) == SP_OK);
    char err[SP_ERR_LEN];
    uint64_t bad = 0;
    sp_fr *ra = r->abc + 3 * r->n;
    CHECKF(sp_cs_rec_abc(ra, ra + r->n, ra + 2 * r->n, r->n, r->rec, r->w, 1, 2, &bad, err) == SP_OK, "%s", err);
    CHECK(memcmp(r->abc, ra, 3 * r->n * sizeof *ra) == 0);
}

static void runs_free_(runs_ *r)
{
    free(r->w), free(r->abc);
    sp_cs_rec_free(r->rec);
}

/* Whether the recorded matrices reject w (after a caller's tampering),
 * and at which row. */
static int rejects_at_(const runs_ *r, uint64_t *bad)
{
    char err[SP_ERR_LEN];
    sp_fr *tmp = calloc(3 * r->n, sizeof *tmp);
    int rej = tmp && sp_cs_rec_abc(tmp, tmp + r->n, tmp + 2 * r->n, r->n, r->rec, r->w, 1, 1, bad, err) ==
                         SP_ERR_UNSATISFIED;
    free(tmp);
    return rej;
}

typedef struct {
    unsigned arity;
    sp_fr in[SP_POSEIDON_MAX_ARITY];
    sp_fr out;   /* digest the circuit computed (last run) */
    sp_var out_var;
} hash_ctx_;

static void hash_circuit_(sp_cs *cs, void *arg)
{
    hash_ctx_ *h = arg;
    sp_var in[SP_POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < h->arity; i++)
        in[i] = sp_cs_alloc(cs, &h->in[i]);
    h->out_var = sp_poseidon_gadget_var(cs, &h->out, in, h->in, h->arity);
}

static void test_hash_gadget(sp_rng *rng, unsigned arity)
{
    const sp_poseidon *p = sp_poseidon_params(arity);
    hash_ctx_ h = {.arity = arity};
    for (unsigned i = 0; i < arity; i++)
        sp_fr_random(&h.in[i], rng);
    sp_fr want;
    sp_poseidon_hash(&want, p, h.in);
    runs_ r;
    run_modes_(&r, hash_circuit_, &h);
    uint64_t rows = sp_poseidon_gadget_rows(arity);
    CHECKF(r.nr == rows + 1 && r.nv == 1 + arity + rows + 1, "arity %u: %llu rows", arity,
           (unsigned long long)r.nr);
    CHECK(sp_fr_eq(&h.out, &want));
    if (!r.w || !r.rec) {
        runs_free_(&r);
        return;
    }
    CHECK(sp_fr_eq(&r.w[h.out_var], &want));
    /* a wrong x^4 in S-box k: the recorded row "x2 * x2 = x4" fails */
    unsigned k = 1 + (unsigned)(sp_rng_u64(rng) % (p->n_sbox - 1));
    uint64_t v4 = 1 + arity + 3 * (uint64_t)(k - 1) + 1, bad = 0;
    sp_fr one;
    sp_fr_set_one(&one);
    sp_fr_add(&r.w[v4], &r.w[v4], &one);
    CHECK(rejects_at_(&r, &bad) && bad == 3 * (uint64_t)(k - 1) + 1);
    runs_free_(&r);
}

/* ---- Merkle ---- */

typedef struct {
    unsigned arity, k, levels;
    sp_fr leaf, root_val; /* root_val: the public root given to the circuit */
    sp_fr sib[4 * 31];
    uint8_t bits[4 * 5];
    int enforce_bits;
    sp_fr root;           /* what the circuit computed */
} merkle_ctx_;

static void merkle_circuit_(sp_cs *cs, void *arg)
{
    merkle_ctx_ *m = arg;
    sp_var root_pub = sp_cs_public(cs, &m->root_val);
    sp_var sib[4 * 31], bits[4 * 5];
    sp_var leaf = sp_cs_alloc(cs, &m->leaf);
    for (unsigned i = 0; i < m->levels * (m->arity - 1); i++)
        sib[i] = sp_cs_alloc(cs, &m->sib[i]);
    for (unsigned i = 0; i < m->levels * m->k; i++)
        bits[i] = sp_cs_alloc_bit(cs, m->bits[i] & 1);
    sp_lc lleaf, root;
    sp_lc_init(&lleaf), sp_lc_init(&root);
    sp_lc_add_var(cs, &lleaf, leaf, &m->leaf);
    sp_merkle_poseidon_gadget(cs, &root, &lleaf, sib, m->sib, bits, m->bits, m->levels, m->arity, m->enforce_bits);
    m->root = root.val;
    sp_cs_push(cs, "inclusion");
    sp_merkle_enforce_equal(cs, &root, root_pub, &m->root_val);
    sp_cs_pop(cs);
    sp_lc_free(&lleaf), sp_lc_free(&root);
}

/* A random tree of `levels` levels built natively; m gets one leaf's path. */
static void random_tree_(merkle_ctx_ *m, sp_rng *rng, unsigned arity, unsigned levels)
{
    const sp_poseidon *p = sp_poseidon_params(arity);
    unsigned k = 0;
    while ((1u << k) < arity)
        k++;
    size_t n = 1;
    for (unsigned l = 0; l < levels; l++)
        n *= arity;
    sp_fr *layer = malloc(n * sizeof *layer);
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&layer[i], rng);
    uint64_t index = sp_rng_u64(rng) % n, pos = index;
    m->arity = arity, m->k = k, m->levels = levels, m->leaf = layer[index];
    for (unsigned l = 0; l < levels; l++, n /= arity, pos /= arity) {
        uint64_t first = pos - pos % arity;
        for (unsigned i = 0, j = 0; i < arity; i++)
            if (first + i != pos)
                m->sib[l * (arity - 1) + j++] = layer[first + i];
        for (unsigned j = 0; j < k; j++)
            m->bits[l * k + j] = (uint8_t)(pos % arity >> j & 1);
        for (size_t i = 0; i < n / arity; i++)
            sp_poseidon_hash(&layer[i], p, layer + i * arity);
    }
    m->root_val = layer[0];
    sp_fr r;
    CHECK(sp_merkle_root(&r, &m->leaf, m->sib, index, levels, arity) == SP_OK && sp_fr_eq(&r, &m->root_val));
    free(layer);
}

typedef struct {
    unsigned arity, pos;
    sp_fr node, sib[31], out[32];
} insert_ctx_;

static void insert_circuit_(sp_cs *cs, void *arg)
{
    insert_ctx_ *c = arg;
    unsigned k = 0;
    while ((1u << k) < c->arity)
        k++;
    sp_var bits[5];
    uint8_t bv[5];
    for (unsigned j = 0; j < k; j++) {
        bv[j] = (uint8_t)(c->pos >> j & 1);
        bits[j] = sp_cs_alloc_bit(cs, bv[j]);
    }
    sp_lc node, sib[31], out[32];
    sp_lc_init(&node);
    sp_lc_add_var(cs, &node, sp_cs_alloc(cs, &c->node), &c->node);
    for (unsigned i = 0; i + 1 < c->arity; i++) {
        sp_lc_init(&sib[i]);
        sp_lc_add_var(cs, &sib[i], sp_cs_alloc(cs, &c->sib[i]), &c->sib[i]);
    }
    for (unsigned i = 0; i < c->arity; i++)
        sp_lc_init(&out[i]);
    sp_merkle_insert_gadget(cs, out, &node, sib, bits, bv, c->arity);
    /* bind the outputs to variables so that the recording checks them */
    for (unsigned i = 0; i < c->arity; i++) {
        c->out[i] = out[i].val;
        sp_merkle_enforce_equal(cs, &out[i], sp_cs_alloc(cs, &out[i].val), &out[i].val);
        sp_lc_free(&out[i]);
    }
    sp_lc_free(&node);
    for (unsigned i = 0; i + 1 < c->arity; i++)
        sp_lc_free(&sib[i]);
}

static void test_insert(sp_rng *rng)
{
    static const unsigned arities[] = {2, 4, 8, 16};
    static const unsigned rows[] = {1, 6, 17, 40};
    for (size_t ai = 0; ai < 4; ai++) {
        unsigned a = arities[ai];
        for (unsigned pos = 0; pos < a; pos++) {
            insert_ctx_ c = {.arity = a, .pos = pos};
            sp_fr_random(&c.node, rng);
            for (unsigned i = 0; i + 1 < a; i++)
                sp_fr_random(&c.sib[i], rng);
            runs_ r;
            run_modes_(&r, insert_circuit_, &c);
            CHECKF(r.nr == rows[ai] + a, "arity %u: %llu rows", a, (unsigned long long)r.nr);
            int ok = 1;
            for (unsigned i = 0, j = 0; i < a; i++)
                ok &= sp_fr_eq(&c.out[i], i == pos ? &c.node : &c.sib[j++]);
            CHECKF(ok, "arity %u position %u", a, pos);
            runs_free_(&r);
        }
    }
}

static void test_merkle(sp_rng *rng)
{
    static const unsigned arities[] = {2, 4, 8};
    static const unsigned levels[] = {4, 3, 3};
    for (size_t ai = 0; ai < 3; ai++) {
        for (int eb = 0; eb < 2; eb++) {
            merkle_ctx_ m;
            random_tree_(&m, rng, arities[ai], levels[ai]);
            m.enforce_bits = eb;
            runs_ r;
            run_modes_(&r, merkle_circuit_, &m);
            CHECK(sp_fr_eq(&m.root, &m.root_val));
            uint64_t rows = sp_merkle_poseidon_gadget_rows(m.levels, m.arity, eb);
            CHECKF(r.nr == rows + 1, "arity %u: %llu rows, %llu expected", m.arity, (unsigned long long)r.nr,
                   (unsigned long long)rows + 1);
            runs_free_(&r);

            /* debug mode names what a wrong value breaks */
            sp_cs cs;
            merkle_ctx_ bad = m;
            sp_fr one;
            sp_fr_set_one(&one);
            sp_fr_add(&bad.sib[m.arity], &bad.sib[m.arity], &one); /* level 1 */
            CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
            merkle_circuit_(&cs, &bad);
            CHECKF(sp_cs_status(&cs) == SP_ERR_UNSATISFIED && !strcmp(cs.bad_path, "inclusion/equal"), "%s",
                   cs.bad_path);
            sp_cs_close(&cs);
            if (!eb)
                continue;
            bad = m;
            bad.bits[2 * m.k - 1] = 2; /* level 1, its last bit */
            char want[64];
            snprintf(want, sizeof want, "merkle/level 1/bit %u", m.k - 1);
            CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
            merkle_circuit_(&cs, &bad);
            CHECKF(sp_cs_status(&cs) == SP_ERR_UNSATISFIED && !strcmp(cs.bad_path, want), "%s", cs.bad_path);
            sp_cs_close(&cs);
        }
    }
}

static void test_counts(void)
{
    CHECK(sp_poseidon_gadget_rows(2) == 234 && sp_poseidon_gadget_rows(4) == 285);
    CHECK(sp_poseidon_gadget_rows(8) == 384 && sp_poseidon_gadget_rows(11) == 456);
    CHECK(sp_merkle_poseidon_gadget_rows(1, 8, 0) == 401 && sp_merkle_poseidon_gadget_rows(1, 8, 1) == 404);
    CHECK(sp_poseidon_gadget_rows(1) == 0 && sp_merkle_poseidon_gadget_rows(1, 6, 0) == 0);
    sp_cs cs;
    CHECK(sp_cs_open(&cs, SP_CS_COUNT, 0) == SP_OK);
    sp_lc out;
    sp_lc_init(&out);
    sp_poseidon_gadget(&cs, &out, NULL, 40);
    CHECK(sp_cs_status(&cs) == SP_ERR_INVALID_ARG);
    sp_cs_close(&cs);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_poseidon", &rng);
    test_threads();
    test_round_numbers();
    test_params();
    test_vectors();
    test_fast_vs_slow(&rng);
    test_counts();
    static const unsigned arities[] = {2, 4, 8, 11, 16};
    for (int it = 0; it < sp_test_iters(2); it++)
        for (size_t i = 0; i < sizeof arities / sizeof arities[0]; i++)
            test_hash_gadget(&rng, arities[i]);
    test_insert(&rng);
    test_merkle(&rng);
    return sp_test_done();
}
