/*
 * The per-proof backend call (sp_backend.prove, groth16/backend.h) of the
 * CPU backend against a slow, obvious reference, on random inputs (seed
 * printed):
 *   - a random key whose every point is [k]G for a known random k (some
 *     k = 0: points at infinity), so the expected value of each MSM is
 *     [sum s_i k_i]G, one scalar multiplication;
 *   - the H scalars from first principles: the polynomials A, B, C through
 *     a, b, c on D by an O(n^2) inverse DFT; for snarkjs keys their values
 *     on the odd coset, h_j = A(x_j) B(x_j) - C(x_j), for bellperson keys
 *     the quotient of A B - C by X^n - 1 read off the product's top
 *     coefficients (c = a * b, so the division is exact);
 *   - witnesses mostly 0 and 1 with random values among them, as circuits
 *     make them; split on and off; the G2 MSM on and off; both key
 *     conventions; domains 2^1..2^8; random n_vars and public inputs;
 *   - the stages reported, by name and in order.
 */
#include <stdlib.h>
#include <string.h>
#include "groth16/backend.h"
#include "groth16/prove.h"
#include "groth16/fixed_base.h"
#include "test.h"
#include "test_fill.h"

typedef struct {
    sp_g16_pk pk;
    sp_fr *ka, *kb1, *kc, *kh, *kb2; /* discrete logs of the key's points */
} dl_key;

/* out[i] = [k[i]]G with k random, every 9th k zero (infinity). */
static int random_points_g1(sp_g1_affine *out, sp_fr *k, size_t n, sp_rng *rng)
{
    sp_g1_affine g;
    sp_g1_generator(&g);
    for (size_t i = 0; i < n; i++) {
        sp_fr_random(&k[i], rng);
        if (sp_rng_u64(rng) % 9 == 0)
            memset(&k[i], 0, sizeof k[i]);
    }
    return sp_g1_fixed_base_mul_var(out, &g, k, n, 2) == SP_OK;
}

static int random_points_g2(sp_g2_affine *out, sp_fr *k, size_t n, sp_rng *rng)
{
    sp_g2_affine g;
    sp_g2_generator(&g);
    for (size_t i = 0; i < n; i++) {
        sp_fr_random(&k[i], rng);
        if (sp_rng_u64(rng) % 9 == 0)
            memset(&k[i], 0, sizeof k[i]);
    }
    return sp_g2_fixed_base_mul_var(out, &g, k, n, 2) == SP_OK;
}

static void dl_key_free(dl_key *k)
{
    sp_g16_pk_free(&k->pk);
    free(k->ka), free(k->kb1), free(k->kc), free(k->kh), free(k->kb2);
}

static int dl_key_make(dl_key *k, uint32_t nv, uint32_t npub, unsigned log_n, sp_g16_h_kind kind, sp_rng *rng)
{
    memset(k, 0, sizeof *k);
    if (sp_g16_pk_alloc(&k->pk, nv, npub, 1u << log_n, kind) != SP_OK)
        return 0;
    size_t nc = nv - npub - 1, nh = k->pk.n_h;
    k->ka = malloc(nv * sizeof(sp_fr)), k->kb1 = malloc(nv * sizeof(sp_fr)), k->kc = malloc(nc * sizeof(sp_fr));
    k->kh = malloc(nh * sizeof(sp_fr)), k->kb2 = malloc(nv * sizeof(sp_fr));
    return k->ka && k->kb1 && k->kc && k->kh && k->kb2 && random_points_g1(k->pk.a, k->ka, nv, rng) &&
           random_points_g1(k->pk.b1, k->kb1, nv, rng) && random_points_g1(k->pk.c, k->kc, nc, rng) &&
           random_points_g1(k->pk.h, k->kh, nh, rng) && random_points_g2(k->pk.b2, k->kb2, nv, rng);
}

/* sum_i s[i] k[i] in Fr. */
static void dot(sp_fr *out, const sp_fr *s, const sp_fr *k, size_t n)
{
    sp_fr t;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        sp_fr_mul(&t, &s[i], &k[i]);
        sp_fr_add(out, out, &t);
    }
}

static void g1_times(sp_g1_jac *out, const sp_fr *x)
{
    sp_g1_affine g;
    sp_g1_jac gj;
    sp_g1_generator(&g);
    sp_g1_jac_from_affine(&gj, &g);
    sp_g1_mul(out, &gj, x);
}

static void g2_times(sp_g2_jac *out, const sp_fr *x)
{
    sp_g2_affine g;
    sp_g2_jac gj;
    sp_g2_generator(&g);
    sp_g2_jac_from_affine(&gj, &g);
    sp_g2_mul(out, &gj, x);
}

/* pw[i] = x^i for i < n. */
static void powers(sp_fr *pw, const sp_fr *x, size_t n)
{
    sp_fr_set_one(&pw[0]);
    for (size_t i = 1; i < n; i++)
        sp_fr_mul(&pw[i], &pw[i - 1], x);
}

/* coef[k] = (1/n) sum_i v[i] omega^(-ik): the polynomial through v on D. */
static void interpolate(sp_fr *coef, const sp_fr *v, const sp_fr *omega_inv_pw, const sp_ntt_domain *d)
{
    size_t n = d->n;
    for (size_t k = 0; k < n; k++) {
        sp_fr acc, t;
        memset(&acc, 0, sizeof acc);
        for (size_t i = 0; i < n; i++) {
            sp_fr_mul(&t, &v[i], &omega_inv_pw[(i * k) % n]);
            sp_fr_add(&acc, &acc, &t);
        }
        sp_fr_mul(&coef[k], &acc, &d->n_inv);
    }
}

/* p(x) for coefficients p[0..n). */
static void eval(sp_fr *out, const sp_fr *p, size_t n, const sp_fr *x)
{
    memset(out, 0, sizeof *out);
    for (size_t i = n; i-- > 0;) {
        sp_fr_mul(out, out, x);
        sp_fr_add(out, out, &p[i]);
    }
}

/* The H scalars (Montgomery form) of kind from a, b, c by first principles. */
static int reference_h(sp_fr *h, const sp_fr *a, const sp_fr *b, const sp_fr *c, const sp_ntt_domain *d,
                       sp_g16_h_kind kind)
{
    size_t n = d->n;
    sp_fr *pw = malloc(n * sizeof *pw), *A = malloc(n * sizeof *A), *B = malloc(n * sizeof *B),
          *C = malloc(n * sizeof *C), *P = calloc(2 * n, sizeof *P);
    int ok = pw && A && B && C && P;
    if (ok) {
        powers(pw, &d->omega_inv, n);
        interpolate(A, a, pw, d);
        interpolate(B, b, pw, d);
        interpolate(C, c, pw, d);
    }
    if (ok && kind == SP_G16_H_SNARKJS) { /* values at x_j = omega_2n omega^j */
        sp_fr x = d->omega_2n, va, vb, vc;
        for (size_t j = 0; j < n; j++) {
            eval(&va, A, n, &x);
            eval(&vb, B, n, &x);
            eval(&vc, C, n, &x);
            sp_fr_mul(&h[j], &va, &vb);
            sp_fr_sub(&h[j], &h[j], &vc);
            sp_fr_mul(&x, &x, &d->omega);
        }
    } else if (ok) { /* P = A B - C; P = Q (X^n - 1) exactly, so Q_k = P_(n+k) */
        sp_fr t;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                sp_fr_mul(&t, &A[i], &B[j]);
                sp_fr_add(&P[i + j], &P[i + j], &t);
            }
        for (size_t i = 0; i < n; i++)
            sp_fr_sub(&P[i], &P[i], &C[i]);
        for (size_t k = 0; k + 1 < n; k++)
            h[k] = P[n + k];
    }
    free(pw), free(A), free(B), free(C), free(P);
    return ok;
}

static int stages_are(const sp_test_stage_log *l, int g2, int filled)
{
    static const char *const want[] = {"fill", "scalars", "h", "msm_h", "msm_a", "msm_b1", "msm_c", "msm_b2"};
    int n = (g2 ? 7 : 6) + filled;
    if (l->n != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(l->names[i], want[i + 1 - filled]))
            return 0;
    return 1;
}

/* be->prove with a fill that fails, and with one that hands over a domain
 * of the wrong size: each error comes back, and fill ran once. */
static void check_fill_errors(sp_backend *be, const sp_g16_pk *pk, const sp_fr *w, sp_fr *abc, size_t n)
{
    char err[SP_ERR_LEN] = "";
    sp_backend_msms m;
    sp_ntt_domain *small = NULL;
    if (sp_ntt_domain_create(&small, pk->log2_domain - 1, sp_g16_roots_for(pk), 1) != SP_OK) {
        CHECKF(0, "domain of 2^%u", pk->log2_domain - 1);
        return;
    }
    sp_test_fill f = {abc, abc + 3 * n, n, small, 1, 0, 0};
    sp_backend_proof in = {pk, NULL, w, abc + 3 * n, abc + 4 * n, abc + 5 * n, 1, 1, sp_test_fill_copy, &f, NULL};
    sp_status st = be->prove(be, &m, &in, err);
    CHECKF(st == SP_TEST_FILL_ERR && strstr(err, SP_TEST_FILL_MSG) && f.calls == 1,
           "a failing fill: status %d, %d calls, \"%s\"", (int)st, f.calls, err);
    f.fail = 0;
    f.calls = 0;
    st = be->prove(be, &m, &in, err);
    CHECKF(st == SP_ERR_INVALID_ARG && strstr(err, "does not match the key") && f.calls == 1,
           "a fill's domain of the wrong size: status %d, %d calls, \"%s\"", (int)st, f.calls, err);
    sp_ntt_domain_free(small);
}

/* One random case: key, witness and a, b, c, then every combination of
 * split and g2 against the reference. */
static void check_case(sp_backend *be, unsigned log_n, sp_g16_h_kind kind, sp_rng *rng)
{
    uint32_t npub = (uint32_t)(sp_rng_u64(rng) % 4);
    uint32_t nv = npub + 2 + (uint32_t)(sp_rng_u64(rng) % 200);
    size_t n = (size_t)1 << log_n, nc = nv - npub - 1;
    char err[SP_ERR_LEN] = "";
    dl_key k;
    memset(&k, 0, sizeof k);
    sp_ntt_domain *d = NULL;
    sp_fr *w = malloc(nv * sizeof *w), *abc = malloc(6 * n * sizeof *abc), *h = malloc(n * sizeof *h);
    if (!w || !abc || !h || !dl_key_make(&k, nv, npub, log_n, kind, rng) ||
        sp_ntt_domain_create(&d, log_n, kind == SP_G16_H_SNARKJS ? SP_NTT_ROOTS_SNARKJS : SP_NTT_ROOTS_ZKCRYPTO,
                             2) != SP_OK) {
        CHECKF(0, "setup of the case 2^%u kind %d", log_n, (int)kind);
        goto out;
    }
    sp_fr_set_one(&w[0]);
    for (size_t i = 1; i < nv; i++) { /* 40% 0, 40% 1, 20% random */
        unsigned r = (unsigned)(sp_rng_u64(rng) % 10);
        if (r < 4)
            memset(&w[i], 0, sizeof w[i]);
        else if (r < 8)
            sp_fr_set_one(&w[i]);
        else
            sp_fr_random(&w[i], rng);
    }
    sp_fr *a = abc, *b = a + n, *c = b + n;
    for (size_t i = 0; i < n; i++) {
        sp_fr_random(&a[i], rng);
        sp_fr_random(&b[i], rng);
        sp_fr_mul(&c[i], &a[i], &b[i]);
        /* snarkjs' H needs no exact division: there the CPU backend must
         * also read a c that is not a * b (it is the reference) */
        if (kind == SP_G16_H_SNARKJS && sp_rng_u64(rng) % 4 == 0)
            sp_fr_random(&c[i], rng);
    }
    if (!reference_h(h, a, b, c, d, kind)) {
        CHECKF(0, "reference H 2^%u", log_n);
        goto out;
    }
    sp_fr x;
    sp_g1_jac want_a, want_b1, want_c, want_h;
    sp_g2_jac want_b2;
    dot(&x, w, k.ka, nv), g1_times(&want_a, &x);
    dot(&x, w, k.kb1, nv), g1_times(&want_b1, &x);
    dot(&x, w + npub + 1, k.kc, nc), g1_times(&want_c, &x);
    dot(&x, h, k.kh, k.pk.n_h), g1_times(&want_h, &x);
    dot(&x, w, k.kb2, nv), g2_times(&want_b2, &x);
    /* split, g2, and a, b, c ready at the call or made by a fill */
    for (int v = 0; v < 8; v++) {
        int split = v & 1, g2 = (v >> 1) & 1, filled = v >> 2;
        sp_test_fill f = {abc, abc + 3 * n, n, d, 0, 0, 0};
        sp_backend_proof in = {&k.pk, d, w, abc + 3 * n, abc + 4 * n, abc + 5 * n, split, g2, NULL, NULL, NULL};
        if (filled) { /* a, b, c are scratch: a fresh copy each time */
            memset(abc + 3 * n, 0xa5, 3 * n * sizeof *abc);
            in.d = NULL;
            in.fill = sp_test_fill_copy;
            in.fill_ctx = &f;
        } else {
            memcpy(abc + 3 * n, abc, 3 * n * sizeof *abc);
        }
        sp_backend_msms m;
        sp_test_stage_log log = {.n = 0};
        memset(&m, 0xa5, sizeof m);
        be->stage_hook = sp_test_log_stage;
        be->stage_ctx = &log;
        sp_status st = be->prove(be, &m, &in, err);
        be->stage_hook = NULL;
        CHECKF(st == SP_OK, "prove 2^%u: %s", log_n, err);
        CHECKF(sp_g1_jac_eq(&m.a, &want_a) && sp_g1_jac_eq(&m.b1, &want_b1) && sp_g1_jac_eq(&m.c, &want_c),
               "2^%u kind %d nv %u npub %u split %d: a witness MSM differs from the reference", log_n,
               (int)kind, nv, npub, split);
        CHECKF(sp_g1_jac_eq(&m.h, &want_h), "2^%u kind %d: the H MSM differs from the reference", log_n,
               (int)kind);
        CHECKF(!g2 || sp_g2_jac_eq(&m.b2, &want_b2), "2^%u kind %d split %d: the B2 MSM differs", log_n,
               (int)kind, split);
        CHECKF(stages_are(&log, g2, filled), "2^%u: %d stages reported, not the documented ones", log_n,
               log.n);
        CHECKF(f.calls == filled && f.domains == filled, "2^%u: fill called %d times, %d for a domain", log_n,
               f.calls, f.domains);
    }
    if (log_n > 1)
        check_fill_errors(be, &k.pk, w, abc, n);
out:
    dl_key_free(&k);
    sp_ntt_domain_free(d);
    free(w), free(abc), free(h);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_backend", &rng);
    /* the stages beside others, and names near them that are not */
    CHECK(sp_backend_side_stage("wit_up") && sp_backend_side_stage("fill") && sp_backend_side_stage("ab_up"));
    CHECK(!sp_backend_side_stage("fill_wait") && !sp_backend_side_stage("wit_ready") &&
          !sp_backend_side_stage("wit") && !sp_backend_side_stage("msm_h") && !sp_backend_side_stage(""));
    static const int threads[] = {2, 1, 3}; /* the MSM plans differ with the thread count */
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        sp_backend *be = NULL;
        CHECK(sp_backend_cpu_open(&be, threads[t]) == SP_OK && be && be->prove);
        if (!be)
            return sp_test_done();
        for (unsigned log_n = 1; log_n <= (t ? 5u : 8u); log_n++) {
            check_case(be, log_n, SP_G16_H_SNARKJS, &rng);
            check_case(be, log_n, SP_G16_H_BELLPERSON, &rng);
        }
        sp_backend_close(be);
    }
    return sp_test_done();
}
