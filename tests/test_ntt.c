/*
 * NTT over the build's curve's Fr: roots of unity against published
 * constants and GMP, every transform against a naive O(n^2) evaluation for
 * every 2^k <= 2^12 (small cache blocks so that every code path runs at
 * these sizes), thread counts and block sizes against each other, round
 * trips up to 2^16, and the snarkjs H step against the H scalars snarkjs
 * computed for the chain1021 circuit of the curve (which holds only if the
 * domain's roots and odd coset are snarkjs' own).
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "ntt/hstep.h"
#include "ntt/ntt.h"
#include "test.h"

/* ffjavascript's w[k] (docs/algorithms.md §3; k = 2, 3 for BLS12-381 also
 * from the vectors' inspect.json), the zkcrypto-family root 7^t and r. */
#if SP_CURVE_BN254
#define R_HEX "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
#define ROOT7 "0x03ddb9f5166d18b798865ea93dd31f743215cf6dd39329c8d34f1ed960c37c9c" /* bellman_ce, halo2curves */
#define CHAIN "tests/vectors/chain1021_bn128/"
static const struct { unsigned k; const char *hex; } SNARKJS_W[] = {
    {28, "0x2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0"},
    {10, "0x06fd19c17017a420ebbebc2bb08771e339ba79c0a8d2d7ab11f995e1bc2e5912"},
    {11, "0x027a358499c5042bb4027fd7a5355d71b8c12c177494f0cad00a58f9769a2ee2"},
    {14, "0x2d965651cdd9e4811f4e51b80ddca8a8b4a93ee17420aae6adaa01c2617c6e85"},
    {15, "0x2d1ba66f5941dc91017171fa69ec2bd0022a2a2d4115a009a93458fd4e26ecfb"},
    {16, "0x00eeb2cb5981ed45649abebde081dcff16c8601de4347e7dd1628ba2daac43b7"},
    {17, "0x1bf82deba7d74902c3708cc6e70e61f30512eca95655210e276e5858ce8f58e5"},
};
#else
#define R_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define ROOT7 "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b" /* zkcrypto */
#define CHAIN "tests/vectors/chain1021_bls12381/"
static const struct { unsigned k; const char *hex; } SNARKJS_W[] = {
    {32, "0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"},
    {2, "0x8d51ccce760304d0ec030002760300000001000000000000"},
    {3, "0x3f96405d25a31660a733b23a98ca5b22a032824078eaa4fe8dd702cb688bc087"},
    {10, "0x2f27b09858f43cef3ed6d55a6350721d79efd6b0570bf109d58a5af42d010ff9"},
    {11, "0x43527a8bca252472eb674a1a620890d7a534af14b61e0abe74a1f6718c130477"},
    {14, "0x50646ac81fe1959577e48bf529ca9f2a82c057275306243d13e96ade69583404"},
    {15, "0x42c22911f5f07f43a22ba63dd6e7b1c839929d2e88fbbc57e6a354dda97eccd4"},
    {16, "0x6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a"},
    {17, "0x05deb333f8727901ebe905bd4fb9ac5c77d85a937ff858ec10251f7d8831e03e"},
};
#endif
#define S SP_NTT_TWO_ADICITY

static void fr_from_hex(sp_fr *r, const char *hex)
{
    sp_status st = sp_fr_from_str(r, hex);
    CHECK(st == SP_OK);
}

static void fr_to_mpz(mpz_t out, const sp_fr *a)
{
    uint64_t l[SP_FR_LIMBS];
    sp_fr_to_canonical(l, a);
    mpz_import(out, SP_FR_LIMBS, -1, 8, 0, 0, l);
}

/* Roots: ffjavascript's w[k] table and the zkcrypto family's root, g^t
 * recomputed with GMP, primitivity. */
static void test_roots(void)
{
    sp_fr w, want;
    for (size_t i = 0; i < sizeof SNARKJS_W / sizeof SNARKJS_W[0]; i++) {
        CHECK(sp_ntt_root_of_unity(&w, SNARKJS_W[i].k, SP_NTT_ROOTS_SNARKJS) == SP_OK);
        fr_from_hex(&want, SNARKJS_W[i].hex);
        CHECKF(sp_fr_eq(&w, &want), "snarkjs w[%u]", SNARKJS_W[i].k);
    }
    CHECK(sp_ntt_root_of_unity(&w, S, SP_NTT_ROOTS_ZKCRYPTO) == SP_OK);
    fr_from_hex(&want, ROOT7);
    CHECK(sp_fr_eq(&w, &want));
    CHECK(sp_ntt_root_of_unity(&w, S + 1, SP_NTT_ROOTS_SNARKJS) == SP_ERR_INVALID_ARG);

    /* GMP: r - 1 = 2^S t with t odd; g^t for both generators. */
    mpz_t r, t, g, x, y;
    mpz_inits(r, t, g, x, y, NULL);
    mpz_set_str(r, R_HEX, 16);
    uint64_t rl[SP_FR_LIMBS];
    memset(rl, 0, sizeof rl);
    mpz_export(rl, NULL, -1, 8, 0, 0, r);
    CHECK(memcmp(rl, SP_FR_MODULUS, sizeof rl) == 0); /* the library's r is the spec's */
    mpz_sub_ui(t, r, 1);
    CHECK(mpz_scan1(t, 0) == S);
    mpz_tdiv_q_2exp(t, t, S);
    /* 5 is the smallest quadratic non-residue mod r (ffjavascript's choice) */
    for (unsigned q = 2; q <= 5; q++) {
        mpz_set_ui(g, q);
        CHECKF(mpz_legendre(g, r) == (q < 5 ? 1 : -1), "legendre(%u)", q);
    }
    for (unsigned gen = 5; gen <= 7; gen += 2) {
        mpz_set_ui(g, gen);
        mpz_powm(x, g, t, r);
        CHECK(sp_ntt_root_of_unity(&w, S, (sp_ntt_roots)gen) == SP_OK);
        fr_to_mpz(y, &w);
        CHECKF(mpz_cmp(x, y) == 0, "g = %u", gen);
        /* Primitive 2^k-th roots for every k: w_k^(2^(k-1)) = -1. */
        for (unsigned k = 1; k <= S; k++) {
            CHECK(sp_ntt_root_of_unity(&w, k, (sp_ntt_roots)gen) == SP_OK);
            for (unsigned s = 1; s < k; s++)
                sp_fr_sqr(&w, &w);
            fr_to_mpz(y, &w);
            mpz_add_ui(y, y, 1);
            CHECKF(mpz_cmp(y, r) == 0, "g = %u, k = %u", gen, k);
        }
    }
    mpz_clears(r, t, g, x, y, NULL);
}

/* out[j] = sum_i in[i] * (s * w^j)^i, the slow obvious way. */
static void naive_eval(sp_fr *out, const sp_fr *in, size_t n, const sp_fr *w, const sp_fr *s)
{
    sp_fr x = *s;
    for (size_t j = 0; j < n; j++) {
        sp_fr acc, p, t;
        sp_fr_set_zero(&acc);
        sp_fr_set_one(&p);
        for (size_t i = 0; i < n; i++) {
            sp_fr_mul(&t, &in[i], &p);
            sp_fr_add(&acc, &acc, &t);
            sp_fr_mul(&p, &p, &x);
        }
        out[j] = acc;
        sp_fr_mul(&x, &x, w);
    }
}

static int vec_eq(const sp_fr *a, const sp_fr *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!sp_fr_eq(&a[i], &b[i]))
            return 0;
    return 1;
}

static void random_vec(sp_fr *a, size_t n, sp_rng *rng)
{
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&a[i], rng);
}

/* Every transform of one size against the naive evaluation. */
static void check_size_naive(unsigned k, sp_ntt_roots roots, unsigned log_block, sp_rng *rng)
{
    size_t n = (size_t)1 << k;
    sp_ntt_domain *d;
    if (sp_ntt_domain_create_blocked(&d, k, roots, log_block, 2) != SP_OK) {
        CHECK(0);
        return;
    }
    sp_fr *in = malloc(n * sizeof *in), *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
    sp_fr one, shift;
    sp_fr_set_one(&one);
    random_vec(in, n, rng);
    sp_fr_random(&shift, rng);

    memcpy(got, in, n * sizeof *in);
    sp_ntt_forward(d, got, 2);
    naive_eval(want, in, n, &d->omega, &one);
    CHECKF(vec_eq(got, want, n), "forward 2^%u roots %d block 2^%u", k, roots, log_block);

    /* inverse: naive with omega^-1, then / n */
    memcpy(got, in, n * sizeof *in);
    sp_ntt_inverse(d, got, 2);
    naive_eval(want, in, n, &d->omega_inv, &one);
    for (size_t i = 0; i < n; i++)
        sp_fr_mul(&want[i], &want[i], &d->n_inv);
    CHECKF(vec_eq(got, want, n), "inverse 2^%u", k);

    memcpy(got, in, n * sizeof *in);
    sp_ntt_coset_forward(d, got, &shift, 2);
    naive_eval(want, in, n, &d->omega, &shift);
    CHECKF(vec_eq(got, want, n), "coset forward 2^%u", k);

    /* coset inverse of the naive coset values gives the input back */
    sp_ntt_coset_inverse(d, want, &shift, 2);
    CHECKF(vec_eq(want, in, n), "coset inverse 2^%u", k);

    /* evals_to_coset: in = values on D of P; want P on shift*D */
    memcpy(got, in, n * sizeof *in);
    sp_ntt_evals_to_coset(d, got, &shift, 2);
    memcpy(want, in, n * sizeof *in);
    sp_ntt_inverse(d, want, 1);
    sp_fr *coef = malloc(n * sizeof *coef);
    memcpy(coef, want, n * sizeof *coef);
    naive_eval(want, coef, n, &d->omega, &shift);
    CHECKF(vec_eq(got, want, n), "evals_to_coset 2^%u", k);
    free(coef);
    free(in);
    free(got);
    free(want);
    sp_ntt_domain_free(d);
}

static void test_naive(sp_rng *rng)
{
    for (unsigned k = 0; k <= 10; k++) {
        check_size_naive(k, SP_NTT_ROOTS_SNARKJS, 10, rng);
        check_size_naive(k, SP_NTT_ROOTS_ZKCRYPTO, 2, rng);
    }
    /* past the block size, so the per-stage passes after the blocked ones run */
    check_size_naive(11, SP_NTT_ROOTS_SNARKJS, 10, rng);
    check_size_naive(12, SP_NTT_ROOTS_SNARKJS, 0, rng);
}

/* 1, 2 and 3 threads and block sizes agree; round trips up to 2^16. */
static void test_threads_roundtrip(sp_rng *rng)
{
    for (unsigned k = 11; k <= 16; k++) {
        size_t n = (size_t)1 << k;
        sp_ntt_domain *d, *d2;
        if (sp_ntt_domain_create(&d, k, SP_NTT_ROOTS_SNARKJS, 2) != SP_OK ||
            sp_ntt_domain_create_blocked(&d2, k, SP_NTT_ROOTS_SNARKJS, 3, 3) != SP_OK) {
            CHECK(0);
            return;
        }
        sp_fr *in = malloc(n * sizeof *in), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        random_vec(in, n, rng);
        memcpy(x, in, n * sizeof *x);
        memcpy(y, in, n * sizeof *y);
        sp_ntt_forward(d, x, 1);
        sp_ntt_forward(d2, y, 3);
        CHECKF(vec_eq(x, y, n), "forward 1 vs 3 threads 2^%u", k);
        sp_ntt_inverse(d, x, 2);
        CHECKF(vec_eq(x, in, n), "round trip 2^%u", k);
        sp_fr g = d->gen;
        sp_ntt_coset_forward(d, x, &g, 2);
        sp_ntt_coset_inverse(d2, x, &g, 3);
        CHECKF(vec_eq(x, in, n), "coset round trip 2^%u", k);
        free(in);
        free(x);
        free(y);
        sp_ntt_domain_free(d);
        sp_ntt_domain_free(d2);
    }
    sp_ntt_domain *d;
    CHECK(sp_ntt_domain_create(&d, SP_NTT_MAX_LOG + 1, SP_NTT_ROOTS_SNARKJS, 1) == SP_ERR_INVALID_ARG);
    CHECK(d == NULL);
    CHECK(sp_ntt_domain_create(&d, 4, (sp_ntt_roots)3, 1) == SP_ERR_INVALID_ARG);
    CHECK(d == NULL);
}

/* The H step on snarkjs' own QAP evaluations gives snarkjs' H scalars:
 * a, b from qap_a_eval.bin / qap_b_eval.bin, c = a b row by row (a
 * satisfying witness: A.w * B.w = C.w on every row, padding included). */
static void test_snarkjs_h(void)
{
    size_t la = 0, lb = 0, lh = 0;
    uint8_t *fa = sp_test_load(CHAIN "qap_a_eval.bin", &la);
    uint8_t *fb = sp_test_load(CHAIN "qap_b_eval.bin", &lb);
    uint8_t *fh = sp_test_load(CHAIN "h_scalars.bin", &lh);
    size_t n = la / 32;
    unsigned log_n = 0;
    while (((size_t)1 << log_n) < n)
        log_n++;
    CHECK(n == 1024 && lb == la && lh == la);
    sp_ntt_domain *d = NULL;
    sp_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (n != 1024 || lb != la || lh != la || !a || !b || !c ||
        sp_ntt_domain_create(&d, log_n, SP_NTT_ROOTS_SNARKJS, 2) != SP_OK) {
        CHECK(0);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        CHECK(sp_fr_from_bytes_le(&a[i], fa + 32 * i) == SP_OK);
        CHECK(sp_fr_from_bytes_le(&b[i], fb + 32 * i) == SP_OK);
        sp_fr_mul(&c[i], &a[i], &b[i]);
    }
    sp_h_snarkjs(a, a, b, c, d, 2, NULL);
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        uint8_t e[32];
        sp_fr_to_bytes_le(e, &a[i]);
        same &= memcmp(e, fh + 32 * i, 32) == 0;
    }
    CHECKF(same, "%s: H scalars differ from snarkjs'", CHAIN);
out:
    sp_ntt_domain_free(d);
    free(a), free(b), free(c), free(fa), free(fb), free(fh);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_ntt", &rng);
    test_roots();
    test_snarkjs_h();
    test_naive(&rng);
    test_threads_roundtrip(&rng);
    return sp_test_done();
}
