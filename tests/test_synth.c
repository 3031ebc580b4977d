/*
 * Synthesis, the H step and the circuit generator:
 *  - a, b evaluations and H scalars byte for byte against the snarkjs
 *    vectors (qap_a_eval.bin, qap_b_eval.bin, h_scalars.bin);
 *  - the zkey's section 4 (snarkjs' own A and B, with the input rows)
 *    against our r1cs matrices;
 *  - the snarkjs H scalars against P = AB - C evaluated at the odd coset
 *    points by barycentric interpolation, and the bellperson H against the
 *    identity A(z)B(z) - C(z) = H(z) Z(z) at a random z;
 *  - mat-vec against a naive all-multiplications dot product, thread
 *    counts, the first failing constraint of a broken witness;
 *  - generated circuits read back, satisfied, with the asked 0/1 share.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ntt/hstep.h"
#include "ntt/ntt.h"
#include "r1cs/r1cs.h"
#include "synth/gen.h"
#include "synth/synth.h"
#include "test.h"

#define VEC "tests/vectors/"


/* vec[0..n) as 32-byte little-endian canonical values equals the file. */
static int same_as_file(const sp_fr *v, size_t n, const char *path)
{
    size_t len;
    uint8_t *p = sp_test_load(path, &len), b[32];
    int ok = len == n * 32;
    for (size_t i = 0; ok && i < n; i++) {
        sp_fr_to_bytes_le(b, &v[i]);
        ok = memcmp(b, p + 32 * i, 32) == 0;
        if (!ok)
            fprintf(stderr, "%s: first difference at entry %zu\n", path, i);
    }
    free(p);
    return ok;
}

/* The slow obvious <row i of m, w>: a multiplication for every entry. */
static void naive_dot(sp_fr *out, const sp_csr *m, size_t i, const sp_fr *w)
{
    sp_fr acc, t;
    sp_fr_set_zero(&acc);
    for (uint64_t k = m->row[i]; k < m->row[i + 1]; k++) {
        sp_fr_mul(&t, &m->val[k], &w[m->col[k]]);
        sp_fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

/* First constraint the naive products say is broken, or SIZE_MAX. */
static size_t naive_first_bad(const sp_r1cs *cs, const sp_fr *w)
{
    for (size_t i = 0; i < cs->h.n_constraints; i++) {
        sp_fr x, y, z;
        naive_dot(&x, &cs->a, i, w);
        naive_dot(&y, &cs->b, i, w);
        naive_dot(&z, &cs->c, i, w);
        sp_fr_mul(&x, &x, &y);
        if (!sp_fr_eq(&x, &z))
            return i;
    }
    return SIZE_MAX;
}

/* a, b, c from synth agree with the naive products and the row layout. */
static void check_abc_naive(const sp_r1cs *cs, const sp_fr *w, const sp_fr *a, const sp_fr *b, const sp_fr *c,
                            size_t n)
{
    size_t nc = cs->h.n_constraints, npub = sp_r1cs_n_public(&cs->h);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        sp_fr x, y, z;
        if (i < nc) {
            naive_dot(&x, &cs->a, i, w);
            naive_dot(&y, &cs->b, i, w);
            naive_dot(&z, &cs->c, i, w);
        } else {
            sp_fr_set_zero(&x);
            if (i - nc <= npub)
                x = w[i - nc];
            sp_fr_set_zero(&y);
            sp_fr_set_zero(&z);
        }
        ok = sp_fr_eq(&a[i], &x) && sp_fr_eq(&b[i], &y) && sp_fr_eq(&c[i], &z);
        CHECKF(ok, "row %zu of %zu", i, n);
    }
}

/* ---- zkey section 4 ---- */

typedef struct {
    uint32_t m, row, wire;
    sp_fr val;
} coef;

static int coef_cmp(const void *x, const void *y)
{
    const coef *a = x, *b = y;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return a->wire < b->wire ? -1 : a->wire > b->wire;
}

/* snarkjs' A, B (zkey section 4, values c * R^2 with R = 2^256) equal the
 * r1cs A, B plus the input rows A[nC + s][s] = 1. */
static void check_zkey_coefs(const char *zkey, const sp_r1cs *cs)
{
    char err[SP_ERR_LEN];
    sp_binfile bf;
    const sp_bin_section *s;
    if (sp_binfile_open(&bf, zkey, "zkey", 1, 2, err) != SP_OK || sp_binfile_section(&s, &bf, 4, "coefs", 1, err)) {
        CHECKF(0, "%s", err);
        return;
    }
    sp_bin_cursor c = sp_bin_cursor_of(&bf, s);
    uint32_t nz = 0;
    CHECK(sp_bin_u32(&c, &nz) && c.left == (uint64_t)nz * 44);
    size_t npub = sp_r1cs_n_public(&cs->h), nours = cs->a.nnz + cs->b.nnz + npub + 1;
    coef *theirs = calloc(nz + 1, sizeof *theirs), *ours = calloc(nours, sizeof *ours);
    for (uint32_t i = 0; i < nz && c.left >= 44; i++) {
        const uint8_t *v;
        uint64_t l[4];
        sp_bin_u32(&c, &theirs[i].m);
        sp_bin_u32(&c, &theirs[i].row);
        sp_bin_u32(&c, &theirs[i].wire);
        sp_bin_bytes(&c, &v, 32);
        CHECK(sp_fr_from_bytes_le(&theirs[i].val, v) == SP_OK); /* < r, and now holds c*R^2*R */
        sp_fr_to_canonical(l, &theirs[i].val);                   /* l = c*R^2 */
        memcpy(theirs[i].val.l, l, sizeof l);                    /* = c*R^2 as limbs */
        sp_fr_to_canonical(l, &theirs[i].val);                   /* l = c*R: c in Montgomery form */
        memcpy(theirs[i].val.l, l, sizeof l);
    }
    size_t k = 0;
    const sp_csr *mat[2] = {&cs->a, &cs->b};
    for (uint32_t m = 0; m < 2; m++)
        for (uint32_t r = 0; r < cs->h.n_constraints; r++)
            for (uint64_t e = mat[m]->row[r]; e < mat[m]->row[r + 1]; e++)
                ours[k++] = (coef){m, r, mat[m]->col[e], mat[m]->val[e]};
    for (uint32_t s2 = 0; s2 <= npub; s2++) {
        ours[k] = (coef){0, cs->h.n_constraints + s2, s2, {{0}}};
        sp_fr_set_one(&ours[k++].val);
    }
    qsort(theirs, nz, sizeof *theirs, coef_cmp);
    qsort(ours, nours, sizeof *ours, coef_cmp);
    CHECKF(nz == nours, "%s: %u coefficients, we have %zu", zkey, nz, nours);
    for (size_t i = 0; i < nours && i < nz; i++)
        CHECKF(coef_cmp(&theirs[i], &ours[i]) == 0 && sp_fr_eq(&theirs[i].val, &ours[i].val), "coef %zu", i);
    free(theirs);
    free(ours);
    sp_binfile_close(&bf);
}

static void test_vector(const char *name)
{
    char err[SP_ERR_LEN], path[256];
    sp_r1cs cs;
    sp_fr *w;
    size_t nw;
    snprintf(path, sizeof path, VEC "%s/circuit.r1cs", name);
    CHECKF(sp_r1cs_read(&cs, path, err) == SP_OK, "%s", err);
    snprintf(path, sizeof path, VEC "%s/witness.wtns", name);
    CHECKF(sp_wtns_read(&w, &nw, path, err) == SP_OK, "%s", err);
    unsigned log_n;
    CHECK(sp_synth_domain_log(&log_n, &cs.h, err) == SP_OK);
    size_t n = (size_t)1 << log_n, qlen;
    snprintf(path, sizeof path, VEC "%s/qap_a_eval.bin", name);
    free(sp_test_load(path, &qlen));
    CHECKF(qlen == 32 * n, "%s: domain 2^%u, snarkjs used %zu", name, log_n, qlen / 32);

    sp_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    sp_fr *c2 = malloc(n * sizeof *c);
    CHECK(sp_synth_abc(a, b, c2, n, &cs, w, nw, 0, 1, NULL, NULL, err) == SP_OK);
    CHECKF(sp_synth_abc(a, b, c, n, &cs, w, nw, 1, 2, NULL, NULL, err) == SP_OK, "%s", err);
    CHECK(memcmp(c, c2, n * sizeof *c) == 0); /* a*b == C*w: the witness is satisfying */
    CHECK(same_as_file(a, n, path));
    snprintf(path, sizeof path, VEC "%s/qap_b_eval.bin", name);
    CHECK(same_as_file(b, n, path));
    check_abc_naive(&cs, w, a, b, c, n);
    snprintf(path, sizeof path, VEC "%s/circuit_final.zkey", name);
    check_zkey_coefs(path, &cs);

    sp_ntt_domain *d;
    CHECK(sp_ntt_domain_create(&d, log_n, SP_NTT_ROOTS_SNARKJS, 2) == SP_OK);
    sp_h_snarkjs(a, a, b, c, d, 2, NULL);
    snprintf(path, sizeof path, VEC "%s/h_scalars.bin", name);
    CHECKF(same_as_file(a, n, path), "%s: H scalars", name);
    sp_ntt_domain_free(d);

    /* a broken witness: the first failing constraint, as the naive scan finds it */
    size_t victim = nw > 8 ? nw / 2 : nw - 1, bad = 0, want;
    sp_fr_add(&w[victim], &w[victim], &w[0]);
    want = naive_first_bad(&cs, w);
    CHECK(want != SIZE_MAX);
    CHECK(sp_synth_check(&cs, w, nw, 2, &bad, err) == SP_ERR_UNSATISFIED && bad == want);
    char msg[64];
    snprintf(msg, sizeof msg, "constraint %zu is not satisfied", want);
    CHECKF(strstr(err, msg) != NULL, "%s", err);
    bad = 0;
    CHECK(sp_synth_abc(a, b, c, n, &cs, w, nw, 1, 3, NULL, &bad, err) == SP_ERR_UNSATISFIED && bad == want);
    CHECK(sp_synth_abc(a, b, c, n, &cs, w, nw - 1, 1, 1, NULL, &bad, err) == SP_ERR_INVALID_ARG);
    CHECK(sp_synth_abc(a, b, c, n / 2, &cs, w, nw, 1, 1, NULL, &bad, err) == SP_ERR_INVALID_ARG);
    free(a);
    free(b);
    free(c);
    free(c2);
    free(w);
    sp_r1cs_free(&cs);
}

/* ---- H against interpolation ---- */

/* P(z) from the values v[i] = P(omega^i): (z^n - 1)/n sum v_i omega^i / (z - omega^i). */
static void bary_eval(sp_fr *out, const sp_fr *v, size_t n, const sp_fr *omega, const sp_fr *z)
{
    sp_fr *den = malloc(n * sizeof *den), *pre = malloc(n * sizeof *pre), *wi = malloc(n * sizeof *wi);
    sp_fr p, acc, t, inv;
    sp_fr_set_one(&p);
    for (size_t i = 0; i < n; i++) { /* batch inversion of z - omega^i */
        wi[i] = p;
        sp_fr_sub(&den[i], z, &p);
        pre[i] = i ? pre[i - 1] : den[0];
        if (i)
            sp_fr_mul(&pre[i], &pre[i - 1], &den[i]);
        sp_fr_mul(&p, &p, omega);
    }
    sp_fr_inv(&inv, &pre[n - 1]);
    sp_fr_set_zero(&acc);
    for (size_t i = n; i-- > 0;) {
        sp_fr di = inv;
        if (i) {
            sp_fr_mul(&di, &inv, &pre[i - 1]);
            sp_fr_mul(&inv, &inv, &den[i]);
        }
        sp_fr_mul(&t, &v[i], &wi[i]);
        sp_fr_mul(&t, &t, &di);
        sp_fr_add(&acc, &acc, &t);
    }
    uint64_t e = n;
    sp_fr_pow(&t, z, &e, 1);
    sp_fr_set_one(&p);
    sp_fr_sub(&t, &t, &p);
    sp_fr_set_u64(&p, n);
    sp_fr_inv(&p, &p);
    sp_fr_mul(&t, &t, &p);
    sp_fr_mul(out, &acc, &t);
    free(den);
    free(pre);
    free(wi);
}

static void random_vec(sp_fr *a, size_t n, sp_rng *rng)
{
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&a[i], rng);
}

static void test_h_snarkjs_random(sp_rng *rng)
{
    for (unsigned k = 0; k <= 7; k++) {
        size_t n = (size_t)1 << k;
        sp_ntt_domain *d;
        CHECK(sp_ntt_domain_create(&d, k, SP_NTT_ROOTS_SNARKJS, 1) == SP_OK);
        sp_fr *v[3], *h = malloc(n * sizeof *h);
        for (int m = 0; m < 3; m++) {
            v[m] = malloc(n * sizeof(sp_fr));
            random_vec(v[m], n, rng);
        }
        sp_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
        memcpy(a, v[0], n * sizeof *a);
        memcpy(b, v[1], n * sizeof *b);
        memcpy(c, v[2], n * sizeof *c);
        sp_h_snarkjs(h, a, b, c, d, 2, NULL);
        sp_fr x = d->omega_2n, y;
        sp_fr_sqr(&y, &x);
        CHECK(sp_fr_eq(&y, &d->omega));
        for (size_t j = 0; j < n; j++) { /* x = omega_2n * omega^j */
            sp_fr pa, pb, pc;
            bary_eval(&pa, v[0], n, &d->omega, &x);
            bary_eval(&pb, v[1], n, &d->omega, &x);
            bary_eval(&pc, v[2], n, &d->omega, &x);
            sp_fr_mul(&pa, &pa, &pb);
            sp_fr_sub(&pa, &pa, &pc);
            CHECKF(sp_fr_eq(&pa, &h[j]), "n = %zu, j = %zu", n, j);
            sp_fr_mul(&x, &x, &d->omega);
        }
        for (int m = 0; m < 3; m++)
            free(v[m]);
        free(h);
        free(a);
        free(b);
        free(c);
        sp_ntt_domain_free(d);
    }
}

/* A(z)B(z) - C(z) == H(z) (z^n - 1) for bellperson's H; c = a*b on D
 * (satisfied) or perturbed (then the identity must fail). */
static void check_bellperson(unsigned k, sp_ntt_roots roots, int satisfied, sp_rng *rng)
{
    size_t n = (size_t)1 << k;
    sp_ntt_domain *d;
    CHECK(sp_ntt_domain_create(&d, k, roots, 2) == SP_OK);
    sp_fr *v[3], *w[3];
    for (int m = 0; m < 3; m++) {
        v[m] = malloc(n * sizeof(sp_fr));
        w[m] = malloc(n * sizeof(sp_fr));
    }
    random_vec(v[0], n, rng);
    random_vec(v[1], n, rng);
    for (size_t i = 0; i < n; i++)
        sp_fr_mul(&v[2][i], &v[0][i], &v[1][i]);
    if (!satisfied)
        sp_fr_add(&v[2][n / 2], &v[2][n / 2], &d->gen);
    for (int m = 0; m < 3; m++)
        memcpy(w[m], v[m], n * sizeof(sp_fr));
    sp_h_bellperson(w[0], w[0], w[1], w[2], d, 3, NULL);
    sp_fr z, pa, pb, pc, hz, zn, one;
    sp_fr_random(&z, rng);
    bary_eval(&pa, v[0], n, &d->omega, &z);
    bary_eval(&pb, v[1], n, &d->omega, &z);
    bary_eval(&pc, v[2], n, &d->omega, &z);
    sp_fr_mul(&pa, &pa, &pb);
    sp_fr_sub(&pa, &pa, &pc);
    sp_fr_set_zero(&hz);
    for (size_t i = n; i-- > 0;) { /* Horner */
        sp_fr_mul(&hz, &hz, &z);
        sp_fr_add(&hz, &hz, &w[0][i]);
    }
    uint64_t e = n;
    sp_fr_pow(&zn, &z, &e, 1);
    sp_fr_set_one(&one);
    sp_fr_sub(&zn, &zn, &one);
    sp_fr_mul(&hz, &hz, &zn);
    if (satisfied) {
        CHECKF(sp_fr_eq(&pa, &hz), "bellperson identity, n = %zu, roots %d", n, roots);
        CHECKF(sp_fr_is_zero(&w[0][n - 1]), "h[n-1] != 0, n = %zu", n);
    } else {
        CHECKF(!sp_fr_eq(&pa, &hz), "unsatisfied accepted, n = %zu", n);
    }
    for (int m = 0; m < 3; m++) {
        free(v[m]);
        free(w[m]);
    }
    sp_ntt_domain_free(d);
}

static void test_h_bellperson(sp_rng *rng)
{
    for (unsigned k = 1; k <= 12; k++) {
        check_bellperson(k, SP_NTT_ROOTS_ZKCRYPTO, 1, rng);
        check_bellperson(k, SP_NTT_ROOTS_ZKCRYPTO, 0, rng);
    }
    check_bellperson(5, SP_NTT_ROOTS_SNARKJS, 1, rng);
}

/* ---- generated circuits ---- */

static void check_generated(const sp_gen_params *p, const char *r1cs, const char *wtns)
{
    char err[SP_ERR_LEN];
    sp_gen_stats st;
    CHECKF(sp_gen_circuit(r1cs, wtns, p, &st, err) == SP_OK, "%s", err);
    sp_r1cs cs;
    sp_fr *w;
    size_t nw;
    if (sp_r1cs_read(&cs, r1cs, err) != SP_OK || sp_wtns_read(&w, &nw, wtns, err) != SP_OK) {
        CHECKF(0, "%s", err);
        return;
    }
    CHECK(cs.h.n_constraints == p->n_constraints && cs.h.n_pub_inputs == p->n_public && nw == cs.h.n_wires);
    CHECK(st.n_wires == nw && st.nnz[0] == cs.a.nnz && st.nnz[1] == cs.b.nnz && st.nnz[2] == cs.c.nnz);
    size_t bad = 0, bools = 0;
    for (int t = 1; t <= 3; t++)
        CHECKF(sp_synth_check(&cs, w, nw, t, &bad, err) == SP_OK, "%s", err);
    CHECK(naive_first_bad(&cs, w) == SIZE_MAX);
    for (size_t i = 0; i < nw; i++)
        bools += sp_fr_is_zero(&w[i]) || sp_fr_is_one(&w[i]);
    CHECK(bools == st.n_bool_values);
    /* about F*N bits among nw values: allow 5 standard deviations plus w[0] */
    double want = p->bool_fraction * (double)p->n_constraints, got = (double)bools - 1;
    double sd = 5 * __builtin_sqrt((double)p->n_constraints * 0.25) + 1;
    CHECKF(got >= want - sd && got <= want + sd, "bits %g, expected %g", got, want);

    unsigned log_n;
    CHECK(sp_synth_domain_log(&log_n, &cs.h, err) == SP_OK);
    size_t n = (size_t)1 << log_n;
    sp_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    CHECK(sp_synth_abc(a, b, c, n, &cs, w, nw, 1, 3, NULL, NULL, err) == SP_OK);
    check_abc_naive(&cs, w, a, b, c, n);
    /* break the last wire (only its defining constraint can notice); +5
     * because +1 could turn a 0 bit into a valid 1 */
    sp_fr five;
    sp_fr_set_u64(&five, 5);
    sp_fr_add(&w[nw - 1], &w[nw - 1], &five);
    CHECK(sp_synth_check(&cs, w, nw, 2, &bad, err) == SP_ERR_UNSATISFIED && bad == cs.h.n_constraints - 1);
    free(a);
    free(b);
    free(c);
    free(w);
    sp_r1cs_free(&cs);
}

static void test_gen(sp_rng *rng)
{
    char r1cs[] = "/tmp/sp_test_gen_XXXXXX", wtns[] = "/tmp/sp_test_genw_XXXXXX";
    int f1 = mkstemp(r1cs), f2 = mkstemp(wtns);
    CHECK(f1 >= 0 && f2 >= 0);
    close(f1);
    close(f2);
    const sp_gen_params cases[] = {
        {1, 0, 0.0, 1}, {1, 1, 1.0, 2}, {7, 3, 0.5, 3}, {1000, 1, 0.0, 4},
        {3000, 5, 0.5, 5}, {5000, 0, 0.9, 6}, {2000, 2, 1.0, 7}, {20000, 1, 0.25, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sp_gen_params p = cases[i];
        p.seed ^= sp_rng_u64(rng);
        check_generated(&p, r1cs, wtns);
    }
    char err[SP_ERR_LEN];
    sp_gen_params bad = {10, 0, 1.5, 1};
    CHECK(sp_gen_circuit(r1cs, wtns, &bad, NULL, err) == SP_ERR_INVALID_ARG && strstr(err, "1.5"));
    bad = (sp_gen_params){0, 0, 0.5, 1};
    CHECK(sp_gen_circuit(r1cs, wtns, &bad, NULL, err) == SP_ERR_INVALID_ARG);
    bad = (sp_gen_params){10, 0, 0.5, 1};
    CHECK(sp_gen_circuit("/nonexistent-dir/x.r1cs", wtns, &bad, NULL, err) == SP_ERR_IO);

    unlink(r1cs);
    unlink(wtns);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_synth", &rng);
    test_vector(SP_TEST_VEC_DIR("multiplier"));
    test_vector(SP_TEST_VEC_DIR("chain1021"));
    test_h_snarkjs_random(&rng);
    test_h_bellperson(&rng);
    test_gen(&rng);
    return sp_test_done();
}
