/*
 * MSM timings: bases and scalars resident on the device, random scalars
 * below r unless stated, every timed configuration's warm-up call checked
 * against the discrete-log oracle (tests/gpu/gpu_check.h).
 *
 * The accumulation table times each configuration of chk_msm_cfgs (but
 * the check-only one of few threads) at G1 2^22, 2^24, 2^26 (not with
 * --quick) and G2 2^22, side by side. Large base sets are a progression of period
 * 2^20 (G1) or 2^18 (G2) made on the host once and tiled on the device, so
 * 2^26 G1 bases cost one 2^20 progression; the oracle reads the logs
 * modulo the period, so it stays exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"

void bench_in_free(chk_env *env, bench_in *in)
{
    sp_cuda_dev_free(env->cu, in->db);
    sp_cuda_dev_free(env->cu, in->ds);
    free(in->aff), free(in->sc);
    memset(in, 0, sizeof *in);
}

int bench_in_make(chk_env *env, bench_in *in, const chk_grp *g, unsigned max_log, unsigned period_log)
{
    memset(in, 0, sizeof *in);
    in->g = g;
    in->nmax = (size_t)1 << max_log;
    in->period = (size_t)1 << (period_log < max_log ? period_log : max_log);
    in->aff = malloc(in->period * g->aff_sz);
    in->sc = malloc(in->nmax * 32);
    if (!in->aff || !in->sc) {
        CHECKF(0, "out of host memory for the %s benchmark (2^%u)", g->name, max_log);
        return 0;
    }
    double t0 = chk_now();
    chk_bases(env, g, in->aff, in->period, &in->b0, &in->d);
    chk_random_scalars(env, in->sc, in->nmax);
    size_t pb = in->period * g->aff_sz;
    if (!chk_ok(env, sp_cuda_malloc(env->cu, &in->db, in->nmax * g->aff_sz), "bench malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &in->ds, in->nmax * 32), "bench malloc") ||
        !chk_ok(env, sp_cuda_copy(env->cu, in->db, in->aff, pb), "bench copy") ||
        !chk_ok(env, sp_cuda_copy(env->cu, in->ds, in->sc, in->nmax * 32), "bench copy"))
        return 0;
    for (size_t i = in->period; i < in->nmax; i += in->period) /* tile on the device */
        if (!chk_ok(env, sp_cuda_copy(env->cu, (char *)in->db + i * g->aff_sz, in->db, pb),
                    "bench tile"))
            return 0;
    printf("  %s bench inputs: 2^%u points (period 2^%u) on the device in %.1f s\n", g->name,
           max_log, period_log < max_log ? period_log : max_log, chk_now() - t0);
    fflush(stdout);
    return 1;
}

double bench_time_msm(chk_env *env, const bench_in *in, size_t n, const void *want, int reps, const char *what)
{
    const chk_grp *g = in->g;
    unsigned char got[sizeof(sp_g2_jac)];
    double t[7];
    for (int rep = -1; rep < reps; rep++) {
        memset(got, 0xa5, sizeof got);
        double s = chk_now();
        if (!chk_ok(env, g->msm(env->cu, got, in->db, in->ds, n, 0), what))
            return -1;
        if (rep >= 0)
            t[rep] = chk_now() - s;
        else
            CHECKF(g->eq(got, want), "%s differs from the oracle", what);
    }
    sp_cuda_set_profile(env->cu, 1);
    if (chk_ok(env, g->msm(env->cu, got, in->db, in->ds, n, 0), what))
        printf("  %s: %s\n", what, sp_cuda_profile(env->cu));
    sp_cuda_set_profile(env->cu, 0);
    fflush(stdout);
    return bench_median(t, reps) * 1e3;
}

/* Timing rows for forced window sizes (the model behind window = 0 is
 * checked against these). */
static const unsigned sweep_all[4] = {16, 18, 20, 22};

static void window_sweep(chk_env *env, const chk_grp *g, const void *db, const void *ds, size_t n,
                         unsigned k, const void *want, const char *label, const unsigned *cs,
                         int ncs)
{
    unsigned char got[sizeof(sp_g2_jac)];
    for (int i = 0; i < ncs; i++) {
        double t[3];
        memset(got, 0xa5, sizeof got);
        int ok = chk_ok(env, g->msm(env->cu, got, db, ds, n, cs[i]), "sweep msm"); /* warm */
        if (ok)
            CHECKF(g->eq(got, want), "%s 2^%u window %u differs from the oracle", g->name, k, cs[i]);
        for (int rep = 0; rep < 3 && ok; rep++) {
            double s = chk_now();
            ok = chk_ok(env, g->msm(env->cu, got, db, ds, n, cs[i]), "sweep msm");
            t[rep] = chk_now() - s;
        }
        if (!ok)
            return;
        char what[80], size[16];
        snprintf(what, sizeof what, "%s MSM%s, window sweep: c=%u", g->name, label, cs[i]);
        snprintf(size, sizeof size, "2^%u", k);
        bench_table_row(what, size, bench_median(t, 3) * 1e3, "ms", "");
    }
}

/* Rows for the default configuration at 2^min_log .. 2^max_log (step 2);
 * the window sweep at 2^22 and up when sweep. */
static void default_rows(chk_env *env, const bench_in *in, unsigned min_log, unsigned max_log, int sweep)
{
    const chk_grp *g = in->g;
    chk_msm_use(env, &chk_msm_cfgs[0]);
    for (unsigned k = min_log; k <= max_log; k += 2) {
        size_t n = (size_t)1 << k;
        unsigned char want[sizeof(sp_g2_jac)];
        chk_oracle(env, g, want, in->sc, n, NULL, &in->b0, &in->d, in->period);
        char what[96], size[16];
        snprintf(what, sizeof what, "%s MSM, bases+scalars on device (c=%u)", g->name,
                 sp_cuda_msm_window(n, g == &chk_grp_g1 ? 1 : 2));
        snprintf(size, sizeof size, "2^%u", k);
        double ms = bench_time_msm(env, in, n, want, k <= 20 ? 7 : 3, what);
        if (ms < 0)
            return;
        bench_table_row(what, size, ms, "ms", "");
        if (sweep && k >= 22)
            window_sweep(env, g, in->db, in->ds, n, k, want, "", sweep_all, 4);
    }
}

/* The accumulation table: ms[k][c] for the sizes 2^logs[k] and every
 * configuration c with the device's count of threads; rows go to the main
 * table too. */
#define BENCH_MAX_SIZES 4
static void variant_rows(chk_env *env, const bench_in *in, const unsigned *logs, int nlogs,
                         double ms[][CHK_MSM_NCFG])
{
    const chk_grp *g = in->g;
    for (int k = 0; k < nlogs; k++) {
        size_t n = (size_t)1 << logs[k];
        unsigned char want[sizeof(sp_g2_jac)];
        chk_oracle(env, g, want, in->sc, n, NULL, &in->b0, &in->d, in->period);
        for (int c = 0; c < CHK_MSM_NCFG; c++) {
            ms[k][c] = -1;
            if (chk_msm_cfgs[c].ba_threads)
                continue; /* a check's shape, not a product's */
            chk_msm_use(env, &chk_msm_cfgs[c]);
            char what[96], size[16];
            snprintf(what, sizeof what, "%s MSM, %s", g->name, chk_msm_cfgs[c].name);
            snprintf(size, sizeof size, "2^%u", logs[k]);
            ms[k][c] = bench_time_msm(env, in, n, want, 3, what);
            if (ms[k][c] >= 0)
                bench_table_row(what, size, ms[k][c], "ms", "");
        }
    }
    chk_msm_use(env, &chk_msm_cfgs[0]);
}

static void print_matrix(const char *const *label, int nrows, double ms[][CHK_MSM_NCFG])
{
    printf("\nMSM accumulations, ms (median of 3; bases+scalars on device, random scalars):\n|  |");
    for (int c = 0; c < CHK_MSM_NCFG; c++)
        printf(" %s |", chk_msm_cfgs[c].name);
    printf("\n|---|");
    for (int c = 0; c < CHK_MSM_NCFG; c++)
        printf("---|");
    printf("\n");
    for (int r = 0; r < nrows; r++) {
        printf("| %s |", label[r]);
        for (int c = 0; c < CHK_MSM_NCFG; c++)
            ms[r][c] >= 0 ? printf(" %.2f |", ms[r][c]) : printf(" - |");
        printf("\n");
    }
}

/* The window sweep with the last configuration's G1 accumulation (the
 * batch-affine rounds) at 2^22 and up: the check of its cost model. */
static void acc_sweep(chk_env *env, const bench_in *in, const unsigned *logs, unsigned nlogs)
{
    static const unsigned cs[4] = {16, 18, 20, 22}; /* W = 16, 15, 13, 12 (the model: 16 at 2^22, 15 at 2^24, 13 at 2^26) */
    const chk_msm_cfg *cfg = &chk_msm_cfgs[CHK_MSM_NCFG - 1];
    char label[64];
    snprintf(label, sizeof label, " (%s)", cfg->name);
    chk_msm_use(env, cfg);
    for (unsigned k = 0; k < nlogs; k++) {
        if (logs[k] < 22)
            continue;
        unsigned char want[sizeof(sp_g2_jac)];
        size_t n = (size_t)1 << logs[k];
        chk_oracle(env, &chk_grp_g1, want, in->sc, n, NULL, &in->b0, &in->d, in->period);
        window_sweep(env, &chk_grp_g1, in->db, in->ds, n, logs[k], want, label, cs, 4);
    }
    chk_msm_use(env, &chk_msm_cfgs[0]);
}

void bench_msm(chk_env *env)
{
    unsigned g1 = env->max_g1, g2 = env->max_g2; /* --quick: 24 unless --g1 (main.c) */
    if (g1 > 26)
        g1 = 26;
    unsigned logs1[BENCH_MAX_SIZES], logs2[1] = {g2}, n1 = 0;
    for (unsigned k = 22; k <= g1 && n1 < 3; k += 2)
        logs1[n1++] = k;
    double ms[BENCH_MAX_SIZES][CHK_MSM_NCFG];
    for (int r = 0; r < BENCH_MAX_SIZES; r++)
        for (int c = 0; c < CHK_MSM_NCFG; c++)
            ms[r][c] = -1;
    const char *label[BENCH_MAX_SIZES];
    char lab[BENCH_MAX_SIZES][32];
    bench_in in;
    if (bench_in_make(env, &in, &chk_grp_g1, g1 > 22 ? g1 : 22, 20)) {
        if (!env->table)
            default_rows(env, &in, 16, env->quick ? 18 : 20, 0);
        variant_rows(env, &in, logs1, (int)n1, ms);
        if (!env->table) { /* window sweep, in the default configuration */
            chk_msm_use(env, &chk_msm_cfgs[0]);
            for (unsigned k = 0; k < n1 && logs1[k] <= 24; k++) {
                unsigned char want[sizeof(sp_g2_jac)];
                size_t n = (size_t)1 << logs1[k];
                chk_oracle(env, &chk_grp_g1, want, in.sc, n, NULL, &in.b0, &in.d,
                           in.period);
                window_sweep(env, &chk_grp_g1, in.db, in.ds, n, logs1[k], want, "", sweep_all, 4);
            }
            chk_msm_use(env, &chk_msm_cfgs[0]);
        }
        acc_sweep(env, &in, logs1, n1);
    }
    bench_in_free(env, &in);
    if (bench_in_make(env, &in, &chk_grp_g2, g2, 18)) {
        if (!env->table)
            default_rows(env, &in, 16, env->quick ? 16 : 20, 0);
        variant_rows(env, &in, logs2, 1, ms + n1);
    }
    bench_in_free(env, &in);
    for (unsigned k = 0; k < n1; k++) {
        snprintf(lab[k], sizeof lab[k], "G1 2^%u", logs1[k]);
        label[k] = lab[k];
    }
    snprintf(lab[n1], sizeof lab[n1], "G2 2^%u", g2);
    label[n1] = lab[n1];
    print_matrix(label, (int)n1 + 1, ms);
    if (n1 > 0 && logs1[0] == g2) {
        printf("| G2 / G1 at 2^%u |", g2);
        for (int c = 0; c < CHK_MSM_NCFG; c++)
            ms[0][c] > 0 && ms[n1][c] > 0 ? printf(" %.2fx |", ms[n1][c] / ms[0][c])
                                         : printf(" - |");
        printf("\n");
    }
    fflush(stdout);
    chk_tally();
}

/* ---- timing: the split MSM on witness-like scalars ---- */

/* Median wall time (ms) of reps calls of the plain (split = 0) or split
 * MSM, after a warm-up call checked against want; -1 on failure. */
static double time_msm(chk_env *env, const chk_grp *g, int split, const void *want, const void *db,
                       const void *ds, size_t n, int reps, const char *what)
{
    unsigned char got[sizeof(sp_g2_jac)];
    double t[7];
    for (int rep = -1; rep < reps; rep++) {
        memset(got, 0xa5, sizeof got);
        double s = chk_now();
        sp_status st = (split ? g->msm_split : g->msm)(env->cu, got, db, ds, n, 0);
        if (!chk_ok(env, st, what))
            return -1;
        if (rep >= 0)
            t[rep] = chk_now() - s;
        else
            CHECKF(g->eq(got, want), "%s (%s) differs from the oracle", what,
                   split ? "split" : "plain");
    }
    if (split) { /* one profiled call: the split's counts and the Pippenger's phases */
        sp_cuda_set_profile(env->cu, 1);
        if (chk_ok(env, g->msm_split(env->cu, got, db, ds, n, 0), what))
            printf("  %s: %s\n", what, sp_cuda_profile(env->cu));
        sp_cuda_set_profile(env->cu, 0);
    }
    return bench_median(t, reps) * 1e3;
}

/* Which rows witness_rows makes: the plain MSM; the plain and the split;
 * the split twice, its ones summed as the default picks (batch-affine
 * rounds from SP_CUDA_MSM_BATCH_AFFINE_MIN of them) and by the XYZZ
 * threads (forced), side by side. */
enum { ROWS_PLAIN, ROWS_SPLIT, ROWS_ONES };

/* Rows for one scalar distribution at 2^k. */
static void witness_rows(chk_env *env, const chk_grp *g, const sp_fr *b0, const sp_fr *d, size_t period,
                         uint64_t *sc, void *ds, const void *db, unsigned k, chk_wit_kind wk, int rows)
{
    size_t n = (size_t)1 << k;
    unsigned char want[sizeof(sp_g2_jac)];
    chk_witness_scalars(env, sc, n, wk);
    chk_oracle(env, g, want, sc, n, NULL, b0, d, period);
    if (!chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy"))
        return;
    char what[96], size[16];
    snprintf(size, sizeof size, "2^%u", k);
    int reps = k <= 20 ? 7 : 3;
    for (int i = 0; i < (rows == ROWS_PLAIN ? 1 : 2); i++) {
        int split = rows == ROWS_ONES || i == 1;
        if (rows == ROWS_ONES) {
            chk_msm_use(env, &chk_msm_cfgs[i]); /* 0: by size, 1: XYZZ */
            snprintf(what, sizeof what, "%s MSM, %s scalars, split, ones %s", g->name,
                     chk_wit_name[wk], i ? "by XYZZ threads" : "by size");
        } else {
            snprintf(what, sizeof what, "%s MSM, %s scalars, %s", g->name, chk_wit_name[wk],
                     split ? "split" : "plain");
        }
        double ms = time_msm(env, g, split, want, db, ds, n, reps, what);
        if (ms >= 0)
            bench_table_row(what, size, ms, "ms", split ? "" : "bases+scalars on device");
    }
    chk_msm_use(env, &chk_msm_cfgs[0]);
    fflush(stdout);
}

static void witness_group(chk_env *env, const chk_grp *g, unsigned min_log, unsigned max_log,
                          unsigned period_log, unsigned ones_log)
{
    size_t nmax = (size_t)1 << (ones_log > max_log ? ones_log : max_log), period = (size_t)1 << period_log;
    if (period > nmax)
        period = nmax;
    void *aff = malloc(nmax * g->aff_sz);
    uint64_t *sc = malloc(nmax * 32);
    void *db = NULL, *ds = NULL;
    sp_fr b0, d;
    if (!aff || !sc) {
        CHECKF(0, "out of host memory for the %s witness benchmark", g->name);
        goto out;
    }
    chk_bases(env, g, aff, period, &b0, &d);
    for (size_t i = period; i < nmax; i += period) /* tile: logs repeat with the period */
        memcpy((char *)aff + i * g->aff_sz, aff, period * g->aff_sz);
    if (!chk_ok(env, sp_cuda_malloc(env->cu, &db, nmax * g->aff_sz), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &ds, nmax * 32), "malloc") ||
        !chk_ok(env, sp_cuda_copy(env->cu, db, aff, nmax * g->aff_sz), "copy"))
        goto out;
    for (unsigned k = min_log; k <= max_log; k += 2)
        witness_rows(env, g, &b0, &d, period, sc, ds, db, k, W_WITNESS, ROWS_SPLIT);
    if (min_log <= 20 && 20 <= max_log) { /* crowded buckets (tree fix-up), random (no change) */
        witness_rows(env, g, &b0, &d, period, sc, ds, db, 20, W_EQUAL, ROWS_PLAIN);
        witness_rows(env, g, &b0, &d, period, sc, ds, db, 20, W_RANDOM, ROWS_SPLIT);
    }
    if (ones_log) /* G2 only: G1's ones always take the XYZZ threads */
        witness_rows(env, g, &b0, &d, period, sc, ds, db, ones_log, W_ALL01, ROWS_ONES);
out:
    sp_cuda_dev_free(env->cu, db);
    sp_cuda_dev_free(env->cu, ds);
    free(aff), free(sc);
}

void bench_msm_witness(chk_env *env)
{
    chk_msm_use(env, &chk_msm_cfgs[0]);
    witness_group(env, &chk_grp_g1, 16, env->quick ? 18 : 22, 20, 0);
    witness_group(env, &chk_grp_g2, 16, env->quick ? 16 : 20, 18, env->quick ? 16 : 24);
    chk_tally();
}

/* G1, random scalars, bases and scalars on the device: the default
 * configuration (by size: batch-affine here) and the XYZZ accumulation
 * side by side at 2^24 .. max_g1 (step 2), each call's phases printed (the
 * batch-affine rounds' kernels too). */
void bench_msm_acc(chk_env *env)
{
    const chk_msm_cfg *cfgs[2] = {&chk_msm_cfgs[0], &chk_msm_cfgs[1]};
    unsigned max = env->max_g1 > 26 ? 26 : env->max_g1;
    bench_in in;
    if (max >= 24 && bench_in_make(env, &in, &chk_grp_g1, max, 20)) {
        for (unsigned k = 24; k <= max; k += 2) {
            size_t n = (size_t)1 << k;
            unsigned char want[sizeof(sp_g2_jac)];
            chk_oracle(env, &chk_grp_g1, want, in.sc, n, NULL, &in.b0, &in.d, in.period);
            for (int c = 0; c < 2; c++) {
                chk_msm_use(env, cfgs[c]);
                char what[96], size[16];
                snprintf(what, sizeof what, "g1 MSM, %s", cfgs[c]->name);
                snprintf(size, sizeof size, "2^%u", k);
                double ms = bench_time_msm(env, &in, n, want, 3, what);
                if (ms >= 0)
                    bench_table_row(what, size, ms, "ms", "");
            }
        }
    }
    bench_in_free(env, &in);
    chk_msm_use(env, &chk_msm_cfgs[0]);
    chk_tally();
}
