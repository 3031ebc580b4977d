/*
 * MSM on the GPU against two independent references:
 *   - the discrete-log oracle: every base is built as P_i = [e_i]G with
 *     e_i known, so sum s_i P_i = [sum s_i e_i mod r] G, one Fr dot
 *     product and one scalar multiplication on the CPU (any size);
 *   - the naive sum of sp_gX_mul_var(P_i, s_i) (small sizes).
 * Bases for large sizes are an arithmetic progression of logs
 * e_i = b0 + i*d (distinct points, cheap to make), random b0 and d.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"

/* Runs the GPU MSM in every configuration with poisoned output and
 * compares with want; leaves the default configuration selected. */
static void run_cmp_split(chk_env *env, const chk_grp *g, int split, const void *want,
                          const void *aff, const uint64_t *sc, size_t n, unsigned window,
                          const char *what)
{
    for (int c = 0; c < CHK_MSM_NCFG; c++) {
        unsigned char got[sizeof(sp_g2_jac)];
        memset(got, 0xa5, sizeof got);
        chk_msm_use(env, &chk_msm_cfgs[c]);
        sp_status st = (split ? g->msm_split : g->msm)(env->cu, got, aff, sc, n, window);
        char w[200];
        snprintf(w, sizeof w, "%s %s n=%zu window=%u (%s; %s)", g->name,
                 split ? "split msm" : "msm", n, window, what, chk_msm_cfgs[c].name);
        if (chk_ok(env, st, w))
            CHECKF(g->eq(got, want), "%s: GPU result differs from the reference", w);
    }
    chk_msm_use(env, &chk_msm_cfgs[0]);
}

static void run_cmp(chk_env *env, const chk_grp *g, const void *want, const void *aff,
                    const uint64_t *sc, size_t n, unsigned window, const char *what)
{
    run_cmp_split(env, g, 0, want, aff, sc, n, window, what);
}

typedef enum { LOGS_RANDOM, LOGS_SAME, LOGS_SOME_INF, LOGS_PLUS_MINUS } logs_kind;
typedef enum { SC_RANDOM, SC_ZERO, SC_ONE, SC_MIXED, SC_SMALL } scal_kind;

static void make_logs(chk_env *env, sp_fr *e, size_t n, logs_kind k)
{
    for (size_t i = 0; i < n; i++) {
        sp_fr_random(&e[i], &env->rng);
        if (k == LOGS_SAME && i)
            e[i] = e[0];
        if (k == LOGS_SOME_INF && i % 7 == 3)
            sp_fr_set_zero(&e[i]);
        if (k == LOGS_PLUS_MINUS && (i & 1))
            sp_fr_neg(&e[i], &e[i - 1]);
    }
}

static void make_scalars(chk_env *env, uint64_t *sc, size_t n, scal_kind k, logs_kind lk)
{
    static const uint64_t r[4] = SP_FR_MODULUS_INIT; /* the build's curve's r (odd) */
    const uint64_t r_minus_1[4] = {r[0] - 1, r[1], r[2], r[3]};
    const unsigned r_bits = 192 + (64 - (unsigned)__builtin_clzll(r[3])); /* 255, 254 on BN254 */
    for (size_t i = 0; i < n; i++) {
        uint64_t *s = sc + 4 * i;
        chk_random_scalar(s, &env->rng);
        if (k == SC_ZERO || k == SC_ONE || k == SC_SMALL || (k == SC_MIXED && i % 5 < 3))
            s[1] = s[2] = s[3] = 0;
        if (k == SC_ZERO || (k == SC_MIXED && i % 5 == 0))
            s[0] = 0;
        if (k == SC_ONE || (k == SC_MIXED && i % 5 == 1))
            s[0] = 1;
        if (k == SC_SMALL || (k == SC_MIXED && i % 5 == 2))
            s[0] &= 0xffff;
        if (k == SC_MIXED && i % 10 == 3)
            memcpy(s, r_minus_1, sizeof r_minus_1);
        if (k == SC_MIXED && i % 10 == 8) /* a single bit below r's top one, 2^(i mod r_bits) */
            memset(s, 0, 32), s[(i % r_bits) / 64] = 1ULL << ((i % r_bits) % 64);
        if (lk == LOGS_PLUS_MINUS && (i & 1))
            memcpy(s, s - 4, 32); /* P and -P with one scalar: buckets hit P + (-P) */
    }
}

/* Small-n cases: explicit logs, both references. */
static void check_case(chk_env *env, const chk_grp *g, size_t n, logs_kind lk, scal_kind sk,
                       const unsigned *windows, int nwin, int naive)
{
    sp_fr *e = malloc((n ? n : 1) * sizeof *e);
    uint64_t *sc = malloc((n ? n : 1) * 32);
    unsigned char *aff = malloc((n ? n : 1) * g->aff_sz);
    unsigned char want[sizeof(sp_g2_jac)], want2[sizeof(sp_g2_jac)];
    make_logs(env, e, n, lk);
    make_scalars(env, sc, n, sk, lk);
    for (size_t i = 0; i < n; i++)
        g->from_log(aff + i * g->aff_sz, &e[i]);
    chk_oracle(env, g, want, sc, n, e, NULL, NULL, 0);
    if (naive) {
        g->naive(want2, aff, sc, n);
        CHECKF(g->eq(want, want2), "%s n=%zu: the naive sum and the oracle disagree", g->name, n);
    }
    if (g->cpu_msm(want2, aff, sc, n) == SP_OK)
        CHECKF(g->eq(want, want2), "%s n=%zu: CPU MSM and the oracle disagree", g->name, n);
    else
        CHECKF(0, "%s n=%zu: CPU MSM failed", g->name, n);
    if (sk == SC_ZERO || n == 0)
        CHECKF(g->is_inf(want), "%s: zero scalars must give infinity", g->name);
    char what[64];
    snprintf(what, sizeof what, "logs %d scalars %d", (int)lk, (int)sk);
    for (int w = 0; w < nwin; w++)
        run_cmp(env, g, want, aff, sc, n, windows[w], what);
    free(e), free(sc), free(aff);
}

/* Bad inputs are refused with a status and leave the output alone. */
static void check_refusals(chk_env *env, const chk_grp *g)
{
    uint64_t sc[8] = {0};
    static const uint64_t r[4] = SP_FR_MODULUS_INIT;
    unsigned char aff[2 * sizeof(sp_g2_affine)], got[sizeof(sp_g2_jac)], poison[sizeof got];
    sp_fr e;
    sp_fr_set_u64(&e, 5);
    g->from_log(aff, &e);
    g->from_log(aff + g->aff_sz, &e);
    memcpy(sc + 4, r, sizeof r); /* second scalar = r: not canonical */
    sc[0] = 3;
    memset(got, 0xa5, sizeof got);
    memcpy(poison, got, sizeof got);
    CHECK(g->msm(env->cu, got, aff, sc, 2, 0) == SP_ERR_NOT_CANONICAL);
    CHECK(memcmp(got, poison, sizeof got) == 0);
    CHECK(g->msm(env->cu, got, aff, sc, 1, 7) == SP_ERR_INVALID_ARG);
    CHECK(g->msm(env->cu, got, aff, sc, 1, 25) == SP_ERR_INVALID_ARG);
    CHECK(g->msm(env->cu, got, aff, sc, (size_t)1 << 31, 0) == SP_ERR_INVALID_ARG);
}

/* 2^k points of a progression and random scalars (host), with the
 * oracle's sum. */
typedef struct {
    size_t n;
    void *aff;
    uint64_t *sc;
    unsigned char want[sizeof(sp_g2_jac)];
} pow2_in;

static void pow2_make(chk_env *env, const chk_grp *g, unsigned k, pow2_in *p)
{
    sp_fr b0, d;
    p->n = (size_t)1 << k;
    p->aff = malloc(p->n * g->aff_sz);
    p->sc = malloc(p->n * 32);
    chk_bases(env, g, p->aff, p->n, &b0, &d);
    chk_random_scalars(env, p->sc, p->n);
    chk_oracle(env, g, p->want, p->sc, p->n, NULL, &b0, &d, p->n);
}

static void pow2_free(pow2_in *p) { free(p->aff), free(p->sc); }

/* 2^k points of a progression, random scalars, host and device inputs. */
static void check_pow2(chk_env *env, const chk_grp *g, unsigned k, int device_too)
{
    pow2_in p;
    pow2_make(env, g, k, &p);
    const size_t n = p.n;
    const void *aff = p.aff, *want = p.want;
    const uint64_t *sc = p.sc;
    if (k <= 16) { /* src/msm, the CPU Pippenger, as a third opinion */
        unsigned char cpu[sizeof(sp_g2_jac)];
        CHECKF(g->cpu_msm(cpu, aff, sc, n) == SP_OK && g->eq(cpu, want),
               "%s 2^%u: CPU MSM and the oracle disagree", g->name, k);
    }
    run_cmp(env, g, want, aff, sc, n, 0, "random, host inputs");
    if (device_too) {
        void *db = NULL, *ds = NULL;
        if (chk_ok(env, sp_cuda_malloc(env->cu, &db, n * g->aff_sz), "malloc") &&
            chk_ok(env, sp_cuda_malloc(env->cu, &ds, n * 32), "malloc") &&
            chk_ok(env, sp_cuda_copy(env->cu, db, aff, n * g->aff_sz), "copy") &&
            chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy"))
            run_cmp(env, g, want, db, ds, n, 0, "random, device inputs");
        sp_cuda_dev_free(env->cu, db);
        sp_cuda_dev_free(env->cu, ds);
    }
    pow2_free(&p);
}

static void check_group(chk_env *env, const chk_grp *g, unsigned max_log)
{
    static const unsigned auto_w[1] = {0}, many_w[6] = {0, 8, 9, 11, 13, 16};
    unsigned long before = sp_test_failures;
    static const size_t small[5] = {0, 1, 2, 3, 1000};
    for (int i = 0; i < 5; i++)
        check_case(env, g, small[i], LOGS_RANDOM, SC_RANDOM, many_w, 6, 1);
    check_case(env, g, 1000, LOGS_RANDOM, SC_ZERO, auto_w, 1, 0);
    check_case(env, g, 1000, LOGS_RANDOM, SC_ONE, many_w, 3, 1);
    check_case(env, g, 1000, LOGS_RANDOM, SC_MIXED, many_w, 6, 1);
    check_case(env, g, 1000, LOGS_SAME, SC_RANDOM, many_w, 3, 0);
    check_case(env, g, 1000, LOGS_SAME, SC_MIXED, many_w, 3, 0);
    check_case(env, g, 1000, LOGS_SOME_INF, SC_MIXED, many_w, 3, 1);
    check_case(env, g, 1000, LOGS_PLUS_MINUS, SC_RANDOM, many_w, 3, 0);
    check_case(env, g, 1000, LOGS_PLUS_MINUS, SC_SMALL, many_w, 3, 0);
    check_case(env, g, 5000, LOGS_RANDOM, SC_SMALL, many_w, 6, 0);
    check_refusals(env, g);
    printf("  %s msm sizes 0,1,2,3,1000 and special cases equal to the CPU references: %s\n",
           g->name, sp_test_failures == before ? "yes" : "NO");
    before = sp_test_failures;
    for (unsigned k = 10; k <= max_log; k++)
        check_pow2(env, g, k, k == 12 || k == max_log);
    printf("  %s msm 2^10..2^%u random equal to the oracle (and to src/msm up to 2^16): %s\n",
           g->name, max_log,
           sp_test_failures == before ? "yes" : "NO");
    fflush(stdout);
}

/* The batch-affine accumulations' rounds over groups of windows (the
 * grouping that a device short of memory gets): 1 and 3 windows per group,
 * special cases and 2^12 / 2^15 random (G1), 2^12 (G2), against the
 * references (every configuration runs, so both batch-affine ones). */
static void check_ba_groups(chk_env *env)
{
    static const unsigned many_w[3] = {0, 8, 13};
    unsigned long before = sp_test_failures;
    for (unsigned grp = 1; grp <= 3; grp += 2) {
        unsigned old = sp_cuda_set_msm_ba_group(env->cu, grp);
        check_case(env, &chk_grp_g1, 1000, LOGS_SAME, SC_MIXED, many_w, 3, 0);
        check_case(env, &chk_grp_g1, 1000, LOGS_PLUS_MINUS, SC_RANDOM, many_w, 3, 0);
        check_case(env, &chk_grp_g1, 1000, LOGS_SOME_INF, SC_MIXED, many_w, 3, 0);
        check_pow2(env, &chk_grp_g1, 12, 1);
        check_pow2(env, &chk_grp_g1, 15, 0);
        check_case(env, &chk_grp_g2, 1000, LOGS_PLUS_MINUS, SC_MIXED, many_w, 3, 0);
        check_pow2(env, &chk_grp_g2, 12, 0);
        sp_cuda_set_msm_ba_group(env->cu, old);
    }
    printf("  msm, batch-affine rounds in groups of 1 and 3 windows, equal to the references: %s\n",
           sp_test_failures == before ? "yes" : "NO");
}

/* ---- precomputed tables (sp_cuda_msm_table_add) ---- */

/* One MSM call of the table checks. */
typedef enum { T_PLAIN, T_SPLIT, T_STREAM, T_STREAM_SPLIT, T_CALLS } table_call;
static const char *const table_call_name[T_CALLS] = {"plain", "split", "streamed", "streamed split"};

static sp_status table_msm(chk_env *env, const chk_grp *g, table_call k, void *got, const void *db,
                           const void *s, size_t n, unsigned window)
{
    switch (k) {
    case T_SPLIT:
        return g->msm_split(env->cu, got, db, s, n, window);
    case T_STREAM:
    case T_STREAM_SPLIT:
        return g->msm_stream(env->cu, got, db, (const sp_scalar *)s, n, 0, k == T_STREAM_SPLIT, window);
    default:
        return g->msm(env->cu, got, db, s, n, window);
    }
}

/* Calls k over device bases db with scalars s (host or device) equal to
 * want; with expect_table, the profile must show the table's run. */
static void table_one(chk_env *env, const chk_grp *g, table_call k, const void *want, const void *db,
                      const void *s, size_t n, unsigned window, int expect_table, const char *what)
{
    unsigned char got[sizeof(sp_g2_jac)];
    memset(got, 0xa5, sizeof got);
    sp_cuda_set_profile(env->cu, 1);
    sp_status st = table_msm(env, g, k, got, db, s, n, window);
    int used = strstr(sp_cuda_profile(env->cu), "table of") != NULL;
    sp_cuda_set_profile(env->cu, 0);
    char w[200];
    snprintf(w, sizeof w, "%s table %s msm n=%zu window=%u (%s)", g->name, table_call_name[k], n, window,
             what);
    if (chk_ok(env, st, w))
        CHECKF(g->eq(got, want), "%s: GPU result differs from the reference", w);
    if (expect_table >= 0)
        CHECKF(used == expect_table, "%s: the table was %s", w, used ? "used" : "not used");
}

/* The MSM of aff and sc (n points, host) over a table made with `window`
 * for a device copy of aff, against want: the plain, split and streamed
 * calls (over the table with window 0 and its own, with device and host
 * scalars, in groups of records of 1 and 3 rows and as memory allows);
 * without it for another window and with the knob off; then dropped. */
static void table_cmp(chk_env *env, const chk_grp *g, const void *want, const void *aff, const uint64_t *sc,
                      size_t n, unsigned window, int all_calls, const char *what)
{
    void *db = NULL, *ds = NULL;
    double ms = 0;
    if (!chk_ok(env, sp_cuda_malloc(env->cu, &db, n * g->aff_sz), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &ds, n * 32), "malloc") ||
        !chk_ok(env, sp_cuda_copy(env->cu, db, aff, n * g->aff_sz), "copy") ||
        !chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy") ||
        !chk_ok(env, sp_cuda_msm_table_add(env->cu, g->group, db, n, window, &ms), "table add"))
        goto out;
    unsigned tc = window ? window : sp_cuda_msm_table_window(n, g->group);
    CHECKF(sp_cuda_msm_tables_bytes(env->cu) == sp_cuda_msm_table_bytes(g->group, n, window),
           "%s table of %zu points: %zu bytes kept", g->name, n, sp_cuda_msm_tables_bytes(env->cu));
    static const unsigned groups[3] = {0, 1, 3};
    for (int gi = 0; gi < 3; gi++) {
        unsigned old = sp_cuda_set_msm_ba_group(env->cu, groups[gi]);
        for (int k = 0; k < T_CALLS; k++) {
            if (!all_calls && k != T_PLAIN)
                continue;
            /* a split call over 0/1 scalars gathers the rest: no table then */
            table_one(env, g, (table_call)k, want, db, ds, n, 0, k == T_SPLIT || k == T_STREAM_SPLIT ? -1 : 1,
                      what);
        }
        table_one(env, g, T_PLAIN, want, db, ds, n, tc, 1, what);
        if (all_calls)
            table_one(env, g, T_PLAIN, want, db, sc, n, 0, 1, what); /* host scalars */
        sp_cuda_set_msm_ba_group(env->cu, old);
    }
    table_one(env, g, T_PLAIN, want, db, ds, n, tc == 8 ? 9 : 8, 0, what); /* another layout */
    /* many items a thread (rounds of 256 threads) */
    unsigned thr = sp_cuda_set_ba_threads(env->cu, 256);
    char w[96];
    snprintf(w, sizeof w, "%s, rounds of 256 threads", what);
    table_one(env, g, T_PLAIN, want, db, ds, n, 0, 1, w);
    sp_cuda_set_ba_threads(env->cu, thr);
    int old = sp_cuda_set_msm_table(env->cu, 0);
    table_one(env, g, T_PLAIN, want, db, ds, n, 0, 0, what);
    sp_cuda_set_msm_table(env->cu, old);
out:
    sp_cuda_msm_table_drop(env->cu, db);
    CHECKF(sp_cuda_msm_tables_bytes(env->cu) == 0, "%s: tables kept after the drop", g->name);
    sp_cuda_dev_free(env->cu, db);
    sp_cuda_dev_free(env->cu, ds);
}

/* Explicit logs and scalars of the given kinds, every window in wins. */
static void table_case(chk_env *env, const chk_grp *g, size_t n, logs_kind lk, scal_kind sk, const unsigned *wins,
                       int nwins, int all_calls)
{
    sp_fr *e = malloc(n * sizeof *e);
    uint64_t *sc = malloc(n * 32);
    unsigned char *aff = malloc(n * g->aff_sz);
    unsigned char want[sizeof(sp_g2_jac)];
    make_logs(env, e, n, lk);
    make_scalars(env, sc, n, sk, lk);
    for (size_t i = 0; i < n; i++)
        g->from_log(aff + i * g->aff_sz, &e[i]);
    chk_oracle(env, g, want, sc, n, e, NULL, NULL, 0);
    char what[64];
    snprintf(what, sizeof what, "logs %d scalars %d", (int)lk, (int)sk);
    for (int w = 0; w < nwins; w++)
        table_cmp(env, g, want, aff, sc, n, wins[w], all_calls, what);
    free(e), free(sc), free(aff);
}

/* What the table calls refuse, the scalars they reject, and the scratch
 * model (sp_cuda_msm_table_scratch) against the scratch a call holds. */
static void table_refusals(chk_env *env, const chk_grp *g)
{
    static const uint64_t r[4] = SP_FR_MODULUS_INIT;
    const size_t n = (size_t)1 << 14;
    void *aff = malloc(n * g->aff_sz), *db = NULL, *ds = NULL;
    uint64_t *sc = malloc(n * 32);
    unsigned char got[sizeof(sp_g2_jac)], poison[sizeof got];
    chk_bases(env, g, aff, n, NULL, NULL);
    chk_random_scalars(env, sc, n);
    CHECK(sp_cuda_msm_table_add(env->cu, g->group, aff, n, 0, NULL) == SP_ERR_INVALID_ARG); /* host bases */
    if (!chk_ok(env, sp_cuda_malloc(env->cu, &db, n * g->aff_sz), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &ds, n * 32), "malloc") ||
        !chk_ok(env, sp_cuda_copy(env->cu, db, aff, n * g->aff_sz), "copy"))
        goto out;
    CHECK(sp_cuda_msm_table_add(env->cu, g->group, db, 0, 0, NULL) == SP_ERR_INVALID_ARG);
    CHECK(sp_cuda_msm_table_add(env->cu, g->group, db, n, 7, NULL) == SP_ERR_INVALID_ARG);
    CHECK(sp_cuda_msm_table_add(env->cu, g->group, db, n, 25, NULL) == SP_ERR_INVALID_ARG);
    CHECK(sp_cuda_msm_table_add(env->cu, 3, db, n, 0, NULL) == SP_ERR_INVALID_ARG);
    CHECK(sp_cuda_msm_tables_bytes(env->cu) == 0);
    if (!chk_ok(env, sp_cuda_msm_table_add(env->cu, g->group, db, n, 0, NULL), "table add"))
        goto out;
    memcpy(sc + 4 * (n / 2), r, 32); /* one scalar = r: not canonical */
    memset(got, 0xa5, sizeof got);
    memcpy(poison, got, sizeof got);
    CHECK(g->msm(env->cu, got, db, sc, n, 0) == SP_ERR_NOT_CANONICAL);
    CHECK(memcmp(got, poison, sizeof got) == 0);
    sc[4 * (n / 2) + 3] = 0; /* canonical again */
    unsigned old = sp_cuda_set_msm_ba_group(env->cu, 1);
    if (chk_ok(env, sp_cuda_scratch_trim(env->cu), "trim") &&
        chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy") &&
        chk_ok(env, g->msm(env->cu, got, db, ds, n, 0), "table msm"))
        CHECKF(sp_cuda_scratch_bytes(env->cu) <= sp_cuda_msm_table_scratch(g->group, n, 0),
               "%s table msm of 2^14 held %zu bytes of scratch, the model says %zu", g->name,
               sp_cuda_scratch_bytes(env->cu), sp_cuda_msm_table_scratch(g->group, n, 0));
    sp_cuda_set_msm_ba_group(env->cu, old);
out:
    sp_cuda_msm_table_drop(env->cu, db);
    sp_cuda_dev_free(env->cu, db);
    sp_cuda_dev_free(env->cu, ds);
    free(aff), free(sc);
}

/* Tables with every window layout from 8 to 24 bits (and the model's),
 * the special cases, sizes 1, 2, 3, 1000 and 2^10 .. 2^max_log. */
static void check_tables(chk_env *env, const chk_grp *g, unsigned max_log)
{
    static const unsigned every[15] = {0, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22, 24};
    static const unsigned some[3] = {0, 8, 22};
    unsigned long before = sp_test_failures;
    table_case(env, g, 1000, LOGS_RANDOM, SC_MIXED, every, 15, 1);
    table_case(env, g, 1000, LOGS_SAME, SC_MIXED, some, 3, 1);
    table_case(env, g, 1000, LOGS_SOME_INF, SC_MIXED, some, 3, 0);
    table_case(env, g, 1000, LOGS_PLUS_MINUS, SC_RANDOM, some, 3, 0);
    table_case(env, g, 1000, LOGS_PLUS_MINUS, SC_SMALL, some, 3, 0);
    table_case(env, g, 1000, LOGS_RANDOM, SC_ZERO, some, 2, 0);
    table_case(env, g, 1000, LOGS_RANDOM, SC_ONE, some, 3, 1);
    for (size_t n = 1; n <= 3; n++)
        table_case(env, g, n, LOGS_RANDOM, SC_RANDOM, some, 3, 1);
    table_refusals(env, g);
    for (unsigned k = 10; k <= max_log; k += 2) {
        pow2_in p;
        pow2_make(env, g, k, &p);
        table_cmp(env, g, p.want, p.aff, p.sc, p.n, 0, k == max_log, "random");
        table_cmp(env, g, p.want, p.aff, p.sc, p.n, k == max_log ? 16 : 20, 0, "random");
        pow2_free(&p);
    }
    printf("  %s msm over precomputed tables (windows 8..24, n = 1..3, 1000 with the special cases, "
           "2^10..2^%u; plain, split, streamed; groups of records) equal to the references: %s\n",
           g->name, max_log, sp_test_failures == before ? "yes" : "NO");
    fflush(stdout);
}

void chk_msm(chk_env *env)
{
    chk_msm_use(env, &chk_msm_cfgs[0]);
    printf("  (every comparison runs each accumulation:");
    for (int c = 0; c < CHK_MSM_NCFG; c++)
        printf(" %s%s", chk_msm_cfgs[c].name, c + 1 < CHK_MSM_NCFG ? ";" : ")\n");
    check_group(env, &chk_grp_g1, env->quick ? 14 : 20);
    check_ba_groups(env);
    check_group(env, &chk_grp_g2, env->quick ? 12 : 16);
    check_tables(env, &chk_grp_g1, env->quick ? 14 : 18);
    check_tables(env, &chk_grp_g2, env->quick ? 12 : 14);
    chk_tally();
}

/* ---- the split MSM: witness-like scalar distributions ---- */

static sp_status cpu_split(const chk_grp *g, void *r, const void *aff, const uint64_t *sc, size_t n)
{
    return g == &chk_grp_g1 ? sp_msm_g1_split_var(r, aff, (const sp_scalar *)sc, n, NULL)
                        : sp_msm_g2_split_var(r, aff, (const sp_scalar *)sc, n, NULL);
}

/* One scalar vector: the CPU split MSM (when cpu), the GPU plain and split
 * MSMs (poisoned outputs) all equal to want. */
static void split_compare(chk_env *env, const chk_grp *g, const void *want, const void *aff,
                          const uint64_t *sc, size_t n, int cpu, const unsigned *windows,
                          int nwin, const char *what)
{
    if (cpu) {
        unsigned char ref[sizeof(sp_g2_jac)];
        memset(ref, 0xa5, sizeof ref);
        CHECKF(cpu_split(g, ref, aff, sc, n) == SP_OK && g->eq(ref, want),
               "%s n=%zu (%s): CPU split MSM and the oracle disagree", g->name, n, what);
    }
    for (int w = 0; w < nwin; w++) {
        run_cmp_split(env, g, 0, want, aff, sc, n, windows[w], what);
        run_cmp_split(env, g, 1, want, aff, sc, n, windows[w], what);
    }
}

/* Small n with explicit logs (repeated points, infinity, P and -P). */
static void split_small(chk_env *env, const chk_grp *g, size_t n, logs_kind lk, chk_wit_kind wk)
{
    static const unsigned ws[3] = {0, 8, 13};
    sp_fr *e = malloc((n ? n : 1) * sizeof *e);
    uint64_t *sc = malloc((n ? n : 1) * 32);
    unsigned char *aff = malloc((n ? n : 1) * g->aff_sz);
    unsigned char want[sizeof(sp_g2_jac)], naive[sizeof(sp_g2_jac)];
    make_logs(env, e, n, lk);
    chk_witness_scalars(env, sc, n, wk);
    for (size_t i = 1; lk == LOGS_PLUS_MINUS && i < n; i += 2)
        memcpy(sc + 4 * i, sc + 4 * (i - 1), 32); /* P and -P with one scalar */
    for (size_t i = 0; i < n; i++)
        g->from_log(aff + i * g->aff_sz, &e[i]);
    chk_oracle(env, g, want, sc, n, e, NULL, NULL, 0);
    if (n <= 3) {
        g->naive(naive, aff, sc, n);
        CHECKF(g->eq(naive, want), "%s n=%zu: the naive sum and the oracle disagree", g->name, n);
    }
    if (wk == W_ZEROS || n == 0)
        CHECKF(g->is_inf(want), "%s: zero scalars must give infinity", g->name);
    char what[64];
    snprintf(what, sizeof what, "%s, logs %d", chk_wit_name[wk], (int)lk);
    split_compare(env, g, want, aff, sc, n, 1, ws, 3, what);
    free(e), free(sc), free(aff);
}

/* 2^k points of a progression, every distribution; the CPU reference up
 * to 2^cpu_max; device-resident inputs for the witness-like vector. */
static void split_pow2(chk_env *env, const chk_grp *g, unsigned k, unsigned cpu_max)
{
    static const unsigned w0[1] = {0};
    size_t n = (size_t)1 << k;
    void *aff = malloc(n * g->aff_sz);
    uint64_t *sc = malloc(n * 32);
    unsigned char want[sizeof(sp_g2_jac)];
    sp_fr b0, d;
    chk_bases(env, g, aff, n, &b0, &d);
    for (int wk = 0; wk < W_KINDS; wk++) {
        chk_witness_scalars(env, sc, n, (chk_wit_kind)wk);
        chk_oracle(env, g, want, sc, n, NULL, &b0, &d, n);
        split_compare(env, g, want, aff, sc, n, k <= cpu_max, w0, 1, chk_wit_name[wk]);
        if (wk != W_WITNESS)
            continue;
        void *db = NULL, *ds = NULL;
        if (chk_ok(env, sp_cuda_malloc(env->cu, &db, n * g->aff_sz), "malloc") &&
            chk_ok(env, sp_cuda_malloc(env->cu, &ds, n * 32), "malloc") &&
            chk_ok(env, sp_cuda_copy(env->cu, db, aff, n * g->aff_sz), "copy") &&
            chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy"))
            split_compare(env, g, want, db, ds, n, 0, w0, 1, "70% 0/1, device inputs");
        sp_cuda_dev_free(env->cu, db);
        sp_cuda_dev_free(env->cu, ds);
    }
    free(aff), free(sc);
}

/* The split MSM refuses what the plain one refuses, output untouched. */
static void split_refusals(chk_env *env, const chk_grp *g)
{
    static const uint64_t r[4] = SP_FR_MODULUS_INIT;
    uint64_t sc[12] = {1};
    unsigned char aff[3 * sizeof(sp_g2_affine)], got[sizeof(sp_g2_jac)], poison[sizeof got];
    sp_fr e;
    sp_fr_set_u64(&e, 5);
    for (int i = 0; i < 3; i++)
        g->from_log(aff + i * g->aff_sz, &e);
    memcpy(sc + 8, r, sizeof r); /* scalars 1, 0, r */
    memset(got, 0xa5, sizeof got);
    memcpy(poison, got, sizeof got);
    CHECK(g->msm_split(env->cu, got, aff, sc, 3, 0) == SP_ERR_NOT_CANONICAL);
    CHECK(memcmp(got, poison, sizeof got) == 0);
    CHECK(g->msm_split(env->cu, got, aff, sc, 1, 7) == SP_ERR_INVALID_ARG);
    CHECK(g->msm_split(env->cu, got, aff, sc, (size_t)1 << 31, 0) == SP_ERR_INVALID_ARG);
    CHECK(memcmp(got, poison, sizeof got) == 0);
}

static void split_group(chk_env *env, const chk_grp *g, unsigned max_log, unsigned cpu_max)
{
    static const size_t small[5] = {0, 1, 2, 3, 1000};
    unsigned long before = sp_test_failures;
    for (int i = 0; i < 5; i++)
        for (int wk = 0; wk < W_KINDS; wk++)
            split_small(env, g, small[i], LOGS_RANDOM, (chk_wit_kind)wk);
    static const logs_kind odd[3] = {LOGS_SAME, LOGS_SOME_INF, LOGS_PLUS_MINUS};
    for (int i = 0; i < 3; i++) { /* the ones' tree meets P + P, P + inf, P + (-P) */
        split_small(env, g, 1000, odd[i], W_WITNESS);
        split_small(env, g, 1000, odd[i], W_ONES);
    }
    split_refusals(env, g);
    for (unsigned k = 10; k <= max_log; k += 2)
        split_pow2(env, g, k, cpu_max);
    printf("  %s split and plain msm, n = 0..3, 1000, 2^10..2^%u, 0/3/50/70/90/100%% 0/1, all "
           "equal/1/0, equal to the references: %s\n",
           g->name, max_log, sp_test_failures == before ? "yes" : "NO");
    fflush(stdout);
}

void chk_msm_split(chk_env *env)
{
    chk_msm_use(env, &chk_msm_cfgs[0]); /* every comparison runs every configuration */
    split_group(env, &chk_grp_g1, env->quick ? 14 : 20, 16);
    split_group(env, &chk_grp_g2, env->quick ? 12 : 16, 14);
    chk_tally();
}
