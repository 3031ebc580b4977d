/*
 * MSM tests: Pippenger (both accumulation methods, every window size,
 * several thread counts) and the split 0/1 MSM, against the naive sum
 * sum_i [s_i] P_i of the curve layer's scalar multiplication, which shares
 * no code with the MSM. The scalar recoding is checked against GMP.
 *
 * This file includes itself once per group: the first pass (without
 * MSM_TEST_GROUP) holds the shared code and main(), the second and third
 * passes the per-group tests, with G and FIELD naming the group and field.
 */
#ifndef MSM_TEST_GROUP
#include <gmp.h>
#include <string.h>
#include <sys/resource.h>
#include "curve/curve.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"
#include "test.h"

#define CAT2_(a, b) a##b
#define CAT_(a, b) CAT2_(a, b)
#define STR2_(x) #x
#define STR_(x) STR2_(x)

/* Sizes shrink under AddressSanitizer (about 3-5x slower). */
#if defined(__SANITIZE_ADDRESS__)
#define SCALE 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCALE 4
#endif
#endif
#ifndef SCALE
#define SCALE 1
#endif

static mpz_t RMOD;

static void scalar_to_mpz(mpz_t out, const sp_scalar *s) { mpz_import(out, 4, -1, 8, 0, 0, s->l); }

static void scalar_from_mpz(sp_scalar *s, const mpz_t v)
{
    size_t cnt = 0;
    memset(s->l, 0, sizeof s->l);
    mpz_export(s->l, &cnt, -1, 8, 0, 0, v);
}

static void rand_scalar(sp_scalar *s, sp_rng *rng)
{
    sp_fr f;
    sp_fr_random(&f, rng);
    sp_scalar_from_fr(s, &f);
}

/* A scalar from a mix meant to hit the edges: 0, 1, small, near r, around
 * (r - 1) / 2 (where the recoding switches to r - s), powers of two below
 * r (up to 2^254 for BLS12-381, 2^253 for BN254), and uniform values. */
static void rand_scalar_mixed(sp_scalar *s, sp_rng *rng)
{
    mpz_t v;
    mpz_init(v);
    uint64_t u = sp_rng_u64(rng);
    switch (u % 9) {
    case 0: mpz_set_ui(v, 0); break;
    case 1: mpz_set_ui(v, 1); break;
    case 2: mpz_set_ui(v, (unsigned long)(u >> 20) % 1000); break;
    case 3: mpz_sub_ui(v, RMOD, 1 + (unsigned long)(u >> 20) % 4); break;
    case 4: /* (r - 1) / 2 + {-1, 0, 1, 2} */
        mpz_sub_ui(v, RMOD, 1);
        mpz_fdiv_q_2exp(v, v, 1);
        mpz_add_ui(v, v, (unsigned long)(u >> 20) % 4);
        mpz_sub_ui(v, v, 1);
        break;
    case 5: mpz_setbit(v, (mp_bitcnt_t)((u >> 20) % (mpz_sizeinbase(RMOD, 2) - 1))); break;
    default: {
        sp_scalar t;
        rand_scalar(&t, rng);
        scalar_to_mpz(v, &t);
    }
    }
    scalar_from_mpz(s, v);
    mpz_clear(v);
}

/* A witness-like scalar: 0 or 1 with probability pct / 100, else uniform. */
static void rand_scalar_witness(sp_scalar *s, sp_rng *rng, unsigned pct)
{
    uint64_t u = sp_rng_u64(rng);
    if (u % 100 < pct) {
        memset(s, 0, sizeof *s);
        s->l[0] = (u >> 32) & 1;
    } else {
        rand_scalar(s, rng);
    }
}

/* The endomorphism split goes on and off in pairs of calls (0, 0, 1, 1,
 * ...), independently of the other choices; NULL configs keep it on. */
static sp_msm_config cfg_make(int window, int threads, int accum)
{
    static unsigned calls;
    sp_msm_config c = sp_msm_config_default();
    c.window_bits = window;
    c.threads = threads;
    c.accum = accum;
    c.no_endo = (int)((calls++ >> 1) & 1);
    return c;
}

/* Booth recoding: sum_j 2^(jc) d_j = recode(s), |d_j| <= 2^(c-1), and
 * recode(s) = s or r - s below 2^254, for every window size, via GMP. */
static void test_recoding(sp_rng *rng)
{
    mpz_t s, want, sum, d;
    mpz_inits(s, want, sum, d, NULL);
    for (int it = 0; it < sp_test_iters(300); it++) {
        sp_scalar sc;
        uint64_t rec[4];
        rand_scalar_mixed(&sc, rng);
        int neg = sp_msm_recode(rec, &sc);
        scalar_to_mpz(s, &sc);
        if (neg)
            mpz_sub(want, RMOD, s);
        else
            mpz_set(want, s);
        mpz_t half;
        mpz_init(half);
        mpz_sub_ui(half, RMOD, 1);
        mpz_fdiv_q_2exp(half, half, 1);
        CHECK(neg == (mpz_cmp(s, half) > 0));
        mpz_clear(half);
        CHECK(mpz_sizeinbase(want, 2) <= 254);
        for (unsigned c = 1; c <= SP_MSM_MAX_WINDOW; c++) {
            unsigned w = (255 + c - 1) / c;
            int ok = 1;
            mpz_set_ui(sum, 0);
            for (unsigned j = w; j-- > 0;) {
                int dj = sp_msm_digit(rec, c, j);
                ok &= dj <= (1 << (c - 1)) && dj >= -(1 << (c - 1));
                mpz_mul_2exp(sum, sum, c);
                mpz_set_si(d, dj);
                mpz_add(sum, sum, d);
            }
            CHECKF(ok && mpz_cmp(sum, want) == 0, "c = %u", c);
        }
    }
    mpz_clears(s, want, sum, d, NULL);
}

/* Conversions and sp_msm_split_count on a vector with known counts. */
static void test_helpers(sp_rng *rng)
{
    for (int i = 0; i < 50; i++) {
        sp_fr f, g;
        sp_scalar s;
        sp_fr_random(&f, rng);
        sp_scalar_from_fr(&s, &f);
        CHECK(sp_scalar_to_fr(&g, &s) == SP_OK && sp_fr_eq(&f, &g));
    }
    sp_scalar bad;
    memcpy(bad.l, SP_FR_MODULUS, sizeof bad.l);
    sp_fr g;
    CHECK(sp_scalar_to_fr(&g, &bad) == SP_ERR_NOT_CANONICAL);
    sp_fr fv[7];
    sp_scalar sv[7];
    for (int i = 0; i < 7; i++)
        sp_fr_set_u64(&fv[i], (uint64_t)i * 3);
    sp_msm_scalars_from_fr(sv, fv, 7);
    for (int i = 0; i < 7; i++)
        CHECK(sv[i].l[0] == (uint64_t)i * 3 && !sv[i].l[1] && !sv[i].l[2] && !sv[i].l[3]);
    /* the threaded conversion equals the serial one, at sizes around its split */
    static const size_t pn[] = {0, 1, 16383, 16384, 40001};
    for (size_t k = 0; k < sizeof pn / sizeof pn[0]; k++) {
        sp_fr *pf = malloc((pn[k] + 1) * sizeof *pf);
        sp_scalar *ps = malloc((pn[k] + 1) * sizeof *ps), *pw = malloc((pn[k] + 1) * sizeof *pw);
        for (size_t i = 0; i < pn[k]; i++)
            sp_fr_random(&pf[i], rng);
        sp_msm_scalars_from_fr(pw, pf, pn[k]);
        for (int t = 0; t <= 3; t++) {
            memset(ps, 0xa5, (pn[k] + 1) * sizeof *ps);
            sp_msm_scalars_from_fr_par(ps, pf, pn[k], t);
            CHECKF(!memcmp(ps, pw, pn[k] * sizeof *ps), "scalars_from_fr_par n=%zu threads=%d", pn[k], t);
            CHECK(ps[pn[k]].l[0] == 0xa5a5a5a5a5a5a5a5ull); /* nothing written past n */
        }
        free(pf), free(ps), free(pw);
    }

    size_t n = 100000 / SCALE, z = 0, o = 0;
    sp_scalar *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        rand_scalar_witness(&s[i], rng, 70);
        z += sp_msm_kind(&s[i]) == 1;
        o += sp_msm_kind(&s[i]) == 2;
    }
    sp_msm_split_stats st;
    CHECK(sp_msm_split_count(&st, s, n) == SP_OK);
    CHECK(st.zeros == z && st.ones == o && st.others == n - z - o);
    CHECK(z > n / 4 && o > n / 4); /* the counts are not trivially equal */
    s[n / 2] = bad;
    CHECK(sp_msm_split_count(&st, s, n) == SP_ERR_NOT_CANONICAL);
    CHECK(sp_msm_split_count(&st, NULL, 0) == SP_OK && st.zeros == 0 && st.ones == 0);
    CHECK(sp_msm_split_count(NULL, s, n) == SP_ERR_INVALID_ARG);
    free(s);
}

#define MSM_TEST_GROUP
/* The groups' numbers for glv.c and their endomorphisms (msm_g1.c, msm_g2.c). */
#define MSM_GROUP_g1 1
#define MSM_GROUP_g2 2
#define ENDO_OF_g1 sp_g1_endo
static void ENDO_OF_g2(sp_g2_affine *r, const sp_g2_affine *p)
{
    sp_g2_psi(r, p);
#if !SP_CURVE_BN254
    sp_g2_psi(r, r); /* psi^2 on BLS12-381 */
#endif
}
/*
 * Sizes per group (G2 is about 3x slower and its naive reference more so).
 * SMALL_STRIDE: windows 10..16, whose bucket reduction dominates at tiny
 * n, are run for every n when 1, else for n = c mod SMALL_STRIDE (windows
 * 1..9 always for every n). THREADS_N > 2 * 4096 makes 64 threads cut
 * each window into point chunks.
 */
#define SMALL_N (SCALE > 1 ? 24 : 64)
#define G g1
#define FIELD fp
#define SMALL_STRIDE 1
#define RANDOM_N (4000 / SCALE)
#define EDGE_N (2000 / SCALE)
#define SPLIT_N (6000 / SCALE)
#define THREADS_N (3 * 4096 / SCALE + 5)
#define THREADS_VARIANTS 4
#define SUB_BIG (10000 / SCALE) /* c = 10 at one thread: affine buckets */
#if SP_CURVE_BN254
#define COFACTOR_ONE 1 /* G1 is the whole curve: no point outside it */
#else
#define COFACTOR_ONE 0
#define COFACTOR_HEX "396c8c005555e1568c00aaab0000aaab"
#define COFACTOR_L 3 /* its least prime factor */
#endif
#include "test_msm.c"
#undef SUB_BIG
#undef COFACTOR_ONE
#undef COFACTOR_HEX
#undef COFACTOR_L
#undef G
#undef FIELD
#undef SMALL_STRIDE
#undef RANDOM_N
#undef EDGE_N
#undef SPLIT_N
#undef THREADS_N
#undef THREADS_VARIANTS
#define G g2
#define FIELD fp2
#define SMALL_STRIDE 8
#define RANDOM_N (800 / SCALE)
#define EDGE_N (600 / SCALE)
#define SPLIT_N (3000 / SCALE)
#define THREADS_N (2 * 4096 / SCALE + 5)
#define THREADS_VARIANTS 2
#define SUB_BIG (2000 / SCALE) /* c = 7: affine buckets */
#define COFACTOR_ONE 0
#if SP_CURVE_BN254
#define COFACTOR_HEX "30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d" /* 2p - r */
#define COFACTOR_L 10069
#else
#define COFACTOR_HEX                                                                         \
    "5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e29" \
    "3a6691ae1616ec6e786f0c70cf1c38e31c7238e5"
#define COFACTOR_L 13
#endif
#include "test_msm.c"

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_msm", &rng);
#if SP_CURVE_BN254
    mpz_init_set_str(RMOD, "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 16);
#else
    mpz_init_set_str(RMOD, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
#endif
    uint64_t rl[4] = {0};
    mpz_export(rl, NULL, -1, 8, 0, 0, RMOD);
    CHECK(memcmp(rl, SP_FR_MODULUS, sizeof rl) == 0); /* the library's r is the spec's */
    test_recoding(&rng);
    test_helpers(&rng);
    run_g1(&rng);
    run_g2(&rng);
#if SP_MSM_IFMA
    /* the runs above took the IFMA flush where the CPU has it: the scalar one too */
    if (sp_field_ifma_active()) {
        sp_field_use_ifma(0);
        test_random_g1(&rng, 4000 / SCALE, 3);
        test_edges_points_g1(&rng);
        test_threads_g1(&rng);
        test_random_g2(&rng, 800 / SCALE, 3);
        test_edges_points_g2(&rng);
        sp_field_use_ifma(1);
    } else {
        printf("test_msm: this CPU has no AVX-512 IFMA: the MSM ran its scalar flush only\n");
    }
#endif
    mpz_clear(RMOD);
    return sp_test_done();
}

#else /* ---- per-group tests (G, FIELD) ---- */

#define CV(name) CAT_(CAT_(sp_, G), CAT_(_, name))
#define MSM(name) CAT_(CAT_(sp_msm_, G), CAT_(_, name))
#define TN(name) CAT_(name, CAT_(_, G))
#define AFF CAT_(CAT_(sp_, G), _affine)
#define JAC CAT_(CAT_(sp_, G), _jac)
#define GNAME STR_(G)

/* n random subgroup points (curve.h's generator for tests). */
static void TN(rand_points)(AFF *out, size_t n, sp_rng *rng)
{
    CHECK(CV(random_batch_var)(out, n, rng) == SP_OK);
}

/* The reference: sum_i [s_i] P_i by one scalar multiplication each. */
static void TN(naive)(JAC *r, const AFF *b, const sp_scalar *s, size_t n)
{
    CV(jac_set_inf)(r);
    for (size_t i = 0; i < n; i++) {
        JAC p;
        CV(jac_from_affine)(&p, &b[i]);
        CV(mul_var)(&p, &p, s[i].l, 4);
        CV(jac_add_var)(r, r, &p);
    }
}

static sp_status TN(msm)(JAC *r, const AFF *b, const sp_scalar *s, size_t n, int split,
                         const sp_msm_config *cfg)
{
    return split ? MSM(split_var)(r, b, s, n, cfg) : MSM(var)(r, b, s, n, cfg);
}

/* Every n <= 64 and every window 1..16 (but see SMALL_STRIDE) against
 * prefix sums of the naive reference; accumulation method, thread count
 * and plain/split vary with n and c. */
static void TN(test_small)(sp_rng *rng)
{
    enum { N = 64 };
    AFF b[N];
    sp_scalar s[N];
    JAC ref[N + 1], r;
    TN(rand_points)(b, N, rng);
    for (int i = 0; i < N; i++)
        rand_scalar_mixed(&s[i], rng);
    CV(affine_set_inf)(&b[5]);   /* a base at infinity */
    b[9] = b[8];                 /* the same point twice */
    CV(affine_neg)(&b[13], &b[12]); /* P and -P */
    s[13] = s[12];
    CV(jac_set_inf)(&ref[0]);
    for (int i = 0; i < N; i++) {
        TN(naive)(&r, &b[i], &s[i], 1);
        CV(jac_add_var)(&ref[i + 1], &ref[i], &r);
    }
    for (size_t n = 0; n <= SMALL_N; n++) {
        for (unsigned c = 1; c <= 16; c++) {
            if (c >= 10 && n % SMALL_STRIDE != c % SMALL_STRIDE)
                continue;
            int accum = (n + c) & 1 ? SP_MSM_ACCUM_XYZZ : SP_MSM_ACCUM_AFFINE;
            sp_msm_config cfg = cfg_make((int)c, 1 + (int)(c % 3), accum);
            CV(jac_set_inf)(&r);
            sp_status st = TN(msm)(&r, b, s, n, (int)(c & 1), &cfg);
            CHECKF(st == SP_OK && CV(jac_eq)(&r, &ref[n]), "%s n=%zu c=%u accum=%d", GNAME, n,
                   c, accum);
        }
        sp_msm_config cfg = sp_msm_config_default();
        CHECK(TN(msm)(&r, b, s, n, 0, &cfg) == SP_OK && CV(jac_eq)(&r, &ref[n]));
        CHECK(TN(msm)(&r, b, s, n, 1, NULL) == SP_OK && CV(jac_eq)(&r, &ref[n]));
    }
}

/* Random n up to a few thousand, random and mixed scalars, against the
 * naive sum; each size through several configurations. */
static void TN(test_random)(sp_rng *rng, size_t nmax, int rounds)
{
    if (nmax < 100)
        nmax = 100;
    AFF *b = malloc(nmax * sizeof *b);
    sp_scalar *s = malloc(nmax * sizeof *s);
    TN(rand_points)(b, nmax, rng);
    for (int it = 0; it < rounds; it++) {
        size_t n = it == 0 ? nmax : 65 + sp_rng_u64(rng) % (nmax - 64);
        for (size_t i = 0; i < n; i++) {
            if (it & 1)
                rand_scalar_mixed(&s[i], rng);
            else
                rand_scalar(&s[i], rng);
        }
        JAC ref, r;
        TN(naive)(&ref, b, s, n);
        static const int win[] = {0, 0, 5, 9, 12, 16};
        for (int v = 0; v < 6; v++) {
            sp_msm_config cfg = cfg_make(win[v], 1 + v % 2, 1 + (v + it) % 2);
            if (v == 0)
                cfg.accum = SP_MSM_ACCUM_AUTO;
            CV(jac_set_inf)(&r);
            CHECKF(TN(msm)(&r, b, s, n, v & 1, &cfg) == SP_OK && CV(jac_eq)(&r, &ref),
                   "%s n=%zu window=%d accum=%d", GNAME, n, cfg.window_bits, cfg.accum);
        }
    }
    free(b);
    free(s);
}

/* Checks plain and split, both accumulations, against want. */
static void TN(check_all)(const AFF *b, const sp_scalar *s, size_t n, const JAC *want,
                          const char *what)
{
    for (int v = 0; v < 6; v++) {
        JAC r;
        sp_msm_config cfg = cfg_make(v < 4 ? 0 : 6, 2, v % 3);
        CV(jac_set_inf)(&r);
        sp_status st = TN(msm)(&r, b, s, n, v & 1, &cfg);
        CHECKF(st == SP_OK && CV(jac_eq)(&r, want), "%s %s variant %d", GNAME, what, v);
    }
}

/* n = 0, all scalars 0, all 1, all r - 1. */
static void TN(test_edges_scalars)(sp_rng *rng)
{
    const size_t n = EDGE_N;
    AFF *b = malloc(n * sizeof *b);
    sp_scalar *s = malloc(n * sizeof *s);
    JAC want, sum, t;
    TN(rand_points)(b, n, rng);

    CV(jac_set_inf)(&want);
    CV(jac_from_affine)(&t, &b[0]);
    for (int split = 0; split < 2; split++) { /* n = 0: infinity, NULL arrays allowed */
        JAC r = t;
        CHECK(TN(msm)(&r, NULL, NULL, 0, split, NULL) == SP_OK && CV(jac_is_inf)(&r));
    }
    memset(s, 0, n * sizeof *s);
    TN(check_all)(b, s, n, &want, "all zero");

    CV(jac_set_inf)(&sum); /* all ones: the plain sum */
    for (size_t i = 0; i < n; i++) {
        s[i].l[0] = 1;
        CV(jac_from_affine)(&t, &b[i]);
        CV(jac_add_var)(&sum, &sum, &t);
    }
    TN(check_all)(b, s, n, &sum, "all one");

    sp_fr m1;
    sp_fr_set_one(&m1);
    sp_fr_neg(&m1, &m1);
    for (size_t i = 0; i < n; i++)
        sp_scalar_from_fr(&s[i], &m1);
    CV(jac_neg)(&want, &sum);
    TN(check_all)(b, s, n, &want, "all r-1");
    free(b);
    free(s);
}

/* Repeated points, P and -P, bases at infinity, scalars near the top. */
static void TN(test_edges_points)(sp_rng *rng)
{
    const size_t n = EDGE_N;
    AFF *b = malloc(n * sizeof *b);
    sp_scalar *s = malloc(n * sizeof *s);
    JAC want;
    TN(rand_points)(b, n, rng);

    /* One point repeated with random scalars: [sum s_i] P (doublings in
     * the buckets, and the affine batch's equal-x fallback). */
    sp_fr acc, f;
    sp_fr_set_zero(&acc);
    for (size_t i = 0; i < n; i++) {
        b[i] = b[0];
        if (i % 3 == 0)
            rand_scalar(&s[i], rng);
        else
            s[i] = s[i - i % 3]; /* equal scalars: equal digits */
        CHECK(sp_scalar_to_fr(&f, &s[i]) == SP_OK);
        sp_fr_add(&acc, &acc, &f);
    }
    sp_scalar k;
    sp_scalar_from_fr(&k, &acc);
    CV(jac_from_affine)(&want, &b[0]);
    CV(mul_var)(&want, &want, k.l, 4);
    TN(check_all)(b, s, n, &want, "repeated point");

    /* P and -P with equal scalars cancel; half the bases at infinity. */
    TN(rand_points)(b, n, rng);
    for (size_t i = 0; i + 1 < n; i += 2) {
        rand_scalar_mixed(&s[i], rng);
        s[i + 1] = s[i];
        CV(affine_neg)(&b[i + 1], &b[i]);
    }
    if (n & 1)
        CV(affine_set_inf)(&b[n - 1]);
    CV(jac_set_inf)(&want);
    TN(check_all)(b, s, n, &want, "P and -P");

    TN(rand_points)(b, n, rng);
    for (size_t i = 0; i < n; i++) {
        rand_scalar_mixed(&s[i], rng);
        if (sp_rng_u64(rng) & 1)
            CV(affine_set_inf)(&b[i]);
    }
    TN(naive)(&want, b, s, n);
    TN(check_all)(b, s, n, &want, "bases at infinity");

    for (size_t i = 0; i < n; i++) { /* top bits set: r - small and 2^(bits(r) - 1) + small */
        mpz_t v;
        mpz_init(v);
        if (i & 1) {
            mpz_sub_ui(v, RMOD, 1 + i);
        } else {
            mpz_setbit(v, mpz_sizeinbase(RMOD, 2) - 1);
            mpz_add_ui(v, v, i);
        }
        scalar_from_mpz(&s[i], v);
        mpz_clear(v);
    }
    TN(naive)(&want, b, s, n);
    TN(check_all)(b, s, n, &want, "top bits");
    free(b);
    free(s);
}

/* The split MSM equals the plain one on witnesses with 0..100% of 0/1. */
static void TN(test_split)(sp_rng *rng)
{
    const size_t n = SPLIT_N;
    AFF *b = malloc(n * sizeof *b);
    sp_scalar *s = malloc(n * sizeof *s);
    TN(rand_points)(b, n, rng);
    static const unsigned pct[] = {0, 50, 90, 100};
    for (int p = 0; p < 4; p++) {
        for (size_t i = 0; i < n; i++)
            rand_scalar_witness(&s[i], rng, pct[p]);
        JAC plain, split;
        sp_msm_config cfg = cfg_make(0, 2, SP_MSM_ACCUM_XYZZ);
        CHECK(MSM(var)(&plain, b, s, n, &cfg) == SP_OK);
        for (int accum = 0; accum < 3; accum++) {
            cfg = cfg_make(0, 1 + accum, accum);
            CHECK(MSM(split_var)(&split, b, s, n, &cfg) == SP_OK);
            CHECKF(CV(jac_eq)(&split, &plain), "%s split %u%% accum %d", GNAME, pct[p], accum);
        }
    }
    free(b);
    free(s);
}

/* 1, 2, 3, 7 and 64 threads give the same point (64 also cuts every
 * window into point chunks; for G1 the split's sum of ones, over 4096
 * points, runs in 2 parts). */
static void TN(test_threads)(sp_rng *rng)
{
    const size_t n = THREADS_N;
    AFF *b = malloc(n * sizeof *b);
    sp_scalar *s = malloc(n * sizeof *s);
    TN(rand_points)(b, n, rng);
    for (size_t i = 0; i < n; i++)
        rand_scalar_witness(&s[i], rng, 80);
    JAC ref, r;
    sp_msm_config cfg = cfg_make(0, 1, SP_MSM_ACCUM_AUTO);
    CHECK(MSM(var)(&ref, b, s, n, &cfg) == SP_OK);
    static const int thr[] = {2, 3, 7, 64};
    for (int t = 0; t < 4; t++) {
        for (int v = 0; v < 4; v++) {
            if (THREADS_VARIANTS == 2 && (v + t) % 2)
                continue;
            cfg = cfg_make(v < 2 ? 0 : 13, thr[t], 1 + v % 2);
            CV(jac_set_inf)(&r);
            CHECK(TN(msm)(&r, b, s, n, v >= 2, &cfg) == SP_OK);
            CHECKF(CV(jac_eq)(&r, &ref), "%s threads %d variant %d", GNAME, thr[t], v);
        }
    }
    free(b);
    free(s);
}

/* Bad input: a clear status, the output untouched. */
static void TN(test_errors)(sp_rng *rng)
{
    AFF b[4];
    sp_scalar s[4];
    TN(rand_points)(b, 4, rng);
    for (int i = 0; i < 4; i++)
        rand_scalar(&s[i], rng);
    JAC r, keep;
    CV(jac_from_affine)(&keep, &b[0]);
    for (int split = 0; split < 2; split++) {
        sp_msm_config bad[5] = {cfg_make(SP_MSM_MAX_WINDOW + 1, 1, 0), cfg_make(-1, 1, 0),
                                cfg_make(0, -1, 0), cfg_make(0, 1, 3), cfg_make(0, 1, 0)};
        bad[4].no_endo = 2;
        for (int i = 0; i < 5; i++) {
            r = keep;
            CHECK(TN(msm)(&r, b, s, 4, split, &bad[i]) == SP_ERR_INVALID_ARG);
            CHECK(CV(jac_eq)(&r, &keep) && !CV(jac_is_inf)(&r));
        }
        CHECK(TN(msm)(&r, NULL, s, 4, split, NULL) == SP_ERR_INVALID_ARG);
        CHECK(TN(msm)(&r, b, NULL, 4, split, NULL) == SP_ERR_INVALID_ARG);
        CHECK(TN(msm)(NULL, b, s, 4, split, NULL) == SP_ERR_INVALID_ARG);
        sp_scalar save = s[2];
        memcpy(s[2].l, SP_FR_MODULUS, sizeof s[2].l); /* r itself */
        r = keep;
        CHECK(TN(msm)(&r, b, s, 4, split, NULL) == SP_ERR_NOT_CANONICAL);
        memset(s[2].l, 0xff, sizeof s[2].l); /* 2^256 - 1 */
        CHECK(TN(msm)(&r, b, s, 4, split, NULL) == SP_ERR_NOT_CANONICAL);
        CHECK(CV(jac_eq)(&r, &keep));
        s[2] = save;
    }
    /* the split's scratch as the engine budgets it: grows with n, bounded, 0 past the limit */
    size_t e1 = CAT_(CAT_(sp_msm_, G), _endo_bytes)(1), e1k = CAT_(CAT_(sp_msm_, G), _endo_bytes)(1000);
    size_t big = CAT_(CAT_(sp_msm_, G), _endo_bytes)(SP_MSM_ENDO_SCRATCH);
    CHECK(e1 >= sizeof(AFF) && e1k == 1000 * e1 && big == 0);
    CHECK(CAT_(CAT_(sp_msm_, G), _endo_bytes)(SP_MSM_ENDO_SCRATCH / e1) <= SP_MSM_ENDO_SCRATCH);
}

/* Scratch that cannot be allocated gives SP_ERR_NOMEM, not a crash: the
 * address space is capped at 512 MiB while 7 or 8 threads (7 windows with
 * the endomorphism split, 13 without) ask for 2^19 buckets each (over 700
 * MiB). Not under ASan, whose shadow memory needs far more. */
static void TN(test_nomem)(sp_rng *rng)
{
#if SCALE == 1
    AFF b[64];
    sp_scalar s[64];
    TN(rand_points)(b, 64, rng);
    for (int i = 0; i < 64; i++)
        rand_scalar(&s[i], rng);
    struct rlimit old, lim;
    if (getrlimit(RLIMIT_AS, &old) != 0)
        return;
    lim = old;
    lim.rlim_cur = (rlim_t)512 << 20;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur)
        return;
    JAC r, keep;
    CV(jac_from_affine)(&keep, &b[0]);
    r = keep;
    sp_msm_config cfg = cfg_make(20, 8, SP_MSM_ACCUM_AFFINE);
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        return;
    sp_status st = MSM(var)(&r, b, s, 64, &cfg);
    setrlimit(RLIMIT_AS, &old);
    CHECKF(st == SP_ERR_NOMEM, "%s: %s", GNAME, sp_status_str(st));
    CHECK(CV(jac_eq)(&r, &keep));
#else
    (void)rng;
#endif
}

/* ---- subgroup membership of many points ---- */

#define FEF(name) CAT_(CAT_(sp_, FIELD), CAT_(_, name))

/* A random point of the whole curve (try-and-increment on x), almost
 * surely outside the subgroup; the caller checks. */
static void TN(curve_point)(AFF *r, sp_rng *rng)
{
    CAT_(sp_, FIELD) rhs, one;
    FEF(set_one)(&one);
    FEF(random)(&r->x, rng);
    for (;;) {
        CV(curve_rhs)(&rhs, &r->x);
        if (FEF(sqrt)(&r->y, &rhs))
            break;
        FEF(add)(&r->x, &r->x, &one);
    }
}

#if !COFACTOR_ONE
/* A point of order COFACTOR_L = l: with h r = l^e m (l not dividing m),
 * [m]C has order l^i for a random curve point C (i > 0 but for 1 in l^e
 * of them); multiply by l until the next step would give infinity. (The
 * l-part can be non-cyclic, so [h r / l]C may be infinity for every C.) */
static void TN(small_point)(AFF *r, sp_rng *rng)
{
    mpz_t m;
    uint64_t k[16] = {0}, l = COFACTOR_L;
    size_t len = 0;
    mpz_init_set_str(m, COFACTOR_HEX, 16);
    mpz_mul(m, m, RMOD);
    while (mpz_divisible_ui_p(m, COFACTOR_L))
        mpz_divexact_ui(m, m, COFACTOR_L);
    mpz_export(k, &len, -1, 8, 0, 0, m);
    JAC t, next;
    do {
        TN(curve_point)(r, rng);
        CV(jac_from_affine)(&t, r);
        CV(mul_var)(&t, &t, k, len);
    } while (CV(jac_is_inf)(&t));
    for (;;) {
        CV(mul_var)(&next, &t, &l, 1);
        if (CV(jac_is_inf)(&next))
            break;
        t = next;
    }
    CV(jac_to_affine)(r, &t);
    mpz_clear(m);
}

/* A point outside the subgroup of one of three kinds: a random curve
 * point; a subgroup point plus one of order l (the randomized test's
 * hardest case: it passes a round with probability exactly 1/2); a point
 * of order l. Checked against the definition [r]P != O. */
static void TN(outside_point)(AFF *r, sp_rng *rng, const AFF *small)
{
    do {
        switch (sp_rng_u64(rng) % 3) {
        case 0:
            TN(curve_point)(r, rng);
            break;
        case 1: {
            JAC t;
            TN(rand_points)(r, 1, rng);
            CV(jac_from_affine)(&t, r);
            CV(jac_add_affine_var)(&t, &t, small);
            CV(jac_to_affine)(r, &t);
            break;
        }
        default:
            *r = *small;
        }
    } while (CV(in_subgroup_slow)(r));
}
#endif

/* Subgroup points with the shapes the buckets must survive: infinity, the
 * same point twice, P and -P. */
static void TN(good_points)(AFF *b, size_t n, sp_rng *rng)
{
    TN(rand_points)(b, n, rng);
    for (size_t i = 0; n > 3 && i < n / 16 + 1; i++) {
        size_t a = sp_rng_u64(rng) % (n - 1);
        switch (i % 3) {
        case 0: CV(affine_set_inf)(&b[a]); break;
        case 1: b[a + 1] = b[a]; break;
        default: CV(affine_neg)(&b[a + 1], &b[a]);
        }
    }
}

/* Every point in the subgroup: never refused, at any size or thread count;
 * one to three outside points at random places: the lowest is reported. */
static void TN(test_subgroup_many)(sp_rng *rng, const AFF *small)
{
    static const size_t sizes[] = {0, 1, 7, 255, 256, 257, 700, SUB_BIG};
    AFF *b = malloc((SUB_BIG > 700 ? SUB_BIG : 700) * sizeof *b), bad_pt;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si], got;
        TN(good_points)(b, n, rng);
        for (int t = 1; t <= 3; t += 2) {
            MSM(in_subgroup_var)(&got, b, n, t);
            CHECKF(got == n, "%s n %zu threads %d: %zu", GNAME, n, t, got);
            CHECK(n == 0 || MSM(subgroup_batch_var)(b, n, t, SP_MSM_SUBGROUP_ROUNDS) == 1);
        }
#if !COFACTOR_ONE
        if (n == 0 || n > 1000)
            continue;
        size_t want = n;
        for (int k = 0; k < 1 + (int)(sp_rng_u64(rng) % 3); k++) {
            size_t at = sp_rng_u64(rng) % n;
            TN(outside_point)(&bad_pt, rng, small);
            b[at] = bad_pt;
            want = at < want ? at : want;
        }
        for (int t = 1; t <= 3; t += 2) {
            MSM(in_subgroup_var)(&got, b, n, t);
            CHECKF(got == want, "%s n %zu threads %d: %zu, want %zu", GNAME, n, t, got, want);
            CHECK(MSM(subgroup_batch_var)(b, n, t, SP_MSM_SUBGROUP_ROUNDS) == 0);
        }
#else
        (void)bad_pt, (void)small;
#endif
    }
    free(b);
}

/* The randomized test alone with 2 rounds, one point of subgroup + order-l
 * form among 300: each round passes iff that point's bit is 0, so the
 * whole test passes with probability 1/4 exactly. 200 runs must pass
 * 20..85 times (a 5-sigma band): bits reused across rounds (1/2) or not
 * random at all (0 or 1) fall outside. */
#if !COFACTOR_ONE
static void TN(test_subgroup_rate)(sp_rng *rng, const AFF *small)
{
    enum { N = 300, RUNS = 200 };
    AFF b[N];
    JAC t;
    TN(rand_points)(b, N, rng);
    size_t at = sp_rng_u64(rng) % N;
    CV(jac_from_affine)(&t, &b[at]);
    CV(jac_add_affine_var)(&t, &t, small);
    CV(jac_to_affine)(&b[at], &t);
    int pass = 0;
    for (int i = 0; i < RUNS; i++)
        pass += MSM(subgroup_batch_var)(b, N, 1 + i % 2, 2) == 1;
    CHECKF(pass >= 20 && pass <= 85, "%s: %d of %d passed, expected ~50", GNAME, pass, RUNS);
}
#endif

#undef FEF

/* The split of glv.c: endo(P) = [lambda]P on random points, and for edge
 * and random k, k = +-m1 +- m2 lambda mod r with m1, m2 < 2^128 (GMP). */
static void TN(test_glv)(sp_rng *rng)
{
    const sp_msm_glv *g = sp_msm_glv_of(CAT_(MSM_GROUP_, G));
    const uint64_t *lam = sp_msm_glv_lambda(g);
    AFF p[4], e;
    TN(rand_points)(p, 4, rng);
    for (int i = 0; i < 4; i++) {
        JAC want, got;
        CV(jac_from_affine)(&want, &p[i]);
        CV(mul_var)(&want, &want, lam, 4);
        CAT_(ENDO_OF_, G)(&e, &p[i]);
        CV(jac_from_affine)(&got, &e);
        CHECKF(CV(jac_eq)(&got, &want), "%s: endo(P) != [lambda]P", GNAME);
    }
    mpz_t k, l, a, b, t;
    mpz_inits(k, l, a, b, t, NULL);
    mpz_import(l, 4, -1, 8, 0, 0, lam);
    for (int it = 0; it < 3000; it++) {
        sp_scalar s;
        switch (it) {
        case 0: mpz_set_ui(k, 0); break;
        case 1: mpz_set_ui(k, 1); break;
        case 2: mpz_sub_ui(k, RMOD, 1); break;
        case 3: mpz_set(k, l); break;
        case 4: mpz_sub(k, RMOD, l); break;
        case 5: mpz_fdiv_q_2exp(k, RMOD, 1); break;
        default:
            rand_scalar_mixed(&s, rng);
            scalar_to_mpz(k, &s);
        }
        scalar_from_mpz(&s, k);
        uint64_t m1[2], m2[2];
        int sg = sp_msm_glv_split(m1, m2, s.l, g);
        mpz_import(a, 2, -1, 8, 0, 0, m1);
        mpz_import(b, 2, -1, 8, 0, 0, m2);
        if (sg & 1)
            mpz_neg(a, a);
        if (sg & 2)
            mpz_neg(b, b);
        mpz_mul(t, b, l);
        mpz_add(t, t, a);
        mpz_sub(t, t, k);
        CHECKF(mpz_divisible_p(t, RMOD), "%s: split of k (case %d) is not k", GNAME, it);
    }
    mpz_clears(k, l, a, b, t, NULL);
}

static void TN(run)(sp_rng *rng)
{
    TN(test_glv)(rng);
    TN(test_small)(rng);
    TN(test_random)(rng, RANDOM_N, 3);
    TN(test_edges_scalars)(rng);
    TN(test_edges_points)(rng);
    TN(test_split)(rng);
    TN(test_threads)(rng);
    TN(test_errors)(rng);
    TN(test_nomem)(rng);
#if COFACTOR_ONE
    /* Cofactor 1: no point is outside; random curve points must all pass. */
    AFF small;
    TN(curve_point)(&small, rng);
    TN(test_subgroup_many)(rng, &small);
    AFF c[64];
    size_t got;
    for (int i = 0; i < 64; i++)
        TN(curve_point)(&c[i], rng);
    MSM(in_subgroup_var)(&got, c, 64, 2);
    CHECK(got == 64);
#else
    AFF small;
    TN(small_point)(&small, rng);
    TN(test_subgroup_many)(rng, &small);
    TN(test_subgroup_rate)(rng, &small);
#endif
}

#undef CV
#undef MSM
#undef TN
#undef AFF
#undef JAC
#undef GNAME
#endif
