/*
 * Plain vs precomputed-table MSMs (sp_cuda_msm_table_add), side by side:
 * G1 at 2^22, 2^24, 2^26 (as far as --g1 allows), G2 at 2^22, 2^24 (as far
 * as --g2 allows; below 2^22 only --g2 itself); bases and scalars resident,
 * random scalars below r. Per size: the plain call in the default
 * configuration (its window and phases printed), then a table for each
 * window in the list (the table model's pick marked): its size, its build
 * time, the MSM over it (median of 3, phases printed), each timed result
 * checked against the oracle. The context's scratch is released around
 * each table, so every table starts from the same free memory (a proof's
 * key attach would make it before any MSM). Last, G2 over G1 at each size
 * both ran: plain over plain, the model's table over the model's table.
 */
#include <stdio.h>
#include <string.h>
#include "gpu_bench.h"

/* ms of one size: [0] plain, [1] the model's table */
typedef struct {
    double ms[2];
} precomp_ms;

/* The call (plain, or over the kept table); its time goes to *r when not
 * NULL. */
static void precomp_time(chk_env *env, const bench_in *in, size_t n, const void *want, const char *what,
                         const char *size, const char *note, double *r)
{
    double ms = bench_time_msm(env, in, n, want, 3, what);
    if (ms >= 0)
        bench_table_row(what, size, ms, "ms", note);
    if (r)
        *r = ms;
}

/* Rows for one size: the plain call, then a table per window of cs. */
static void precomp_size(chk_env *env, const bench_in *in, unsigned k, const unsigned *cs, int ncs,
                         precomp_ms *r)
{
    const chk_grp *g = in->g;
    size_t n = (size_t)1 << k;
    unsigned char want[sizeof(sp_g2_jac)];
    char what[128], size[16], note[96];
    chk_oracle(env, g, want, in->sc, n, NULL, &in->b0, &in->d, in->period);
    snprintf(size, sizeof size, "2^%u", k);
    chk_msm_use(env, &chk_msm_cfgs[0]);
    snprintf(what, sizeof what, "%s MSM, plain (c=%u)", g->name, sp_cuda_msm_window(n, g->group));
    precomp_time(env, in, n, want, what, size, "bases+scalars on device", r ? &r->ms[0] : NULL);
    const unsigned pick = sp_cuda_msm_table_window(n, g->group);
    for (int i = 0; i < ncs; i++) {
        double build = 0;
        if (!chk_ok(env, sp_cuda_scratch_trim(env->cu), "trim") ||
            !chk_ok(env, sp_cuda_msm_table_add(env->cu, g->group, in->db, n, cs[i], &build), "table add"))
            continue;
        size_t bytes = sp_cuda_msm_tables_bytes(env->cu);
        snprintf(what, sizeof what, "%s MSM, precomputed table (c=%u, W=%u)%s", g->name, cs[i],
                 (256 + cs[i] - 1) / cs[i], cs[i] == pick ? ", the model's" : "");
        printf("  %s: table %.2f GiB built in %.0f ms\n", what, bytes / 1073741824.0, build);
        fflush(stdout);
        snprintf(note, sizeof note, "table %.2f GiB, built in %.0f ms", bytes / 1073741824.0, build);
        precomp_time(env, in, n, want, what, size, note, cs[i] == pick && r ? &r->ms[1] : NULL);
        sp_cuda_msm_table_drop(env->cu, in->db);
        if (!chk_ok(env, sp_cuda_scratch_trim(env->cu), "trim"))
            return;
    }
}

/* G2 over G1 where both sizes ran. */
static void precomp_ratios(const precomp_ms *g1, const precomp_ms *g2, unsigned max1, unsigned max2)
{
    printf("\nG2 / G1, ms (median of 3; plain: each group's default window; table: the model's):\n"
           "| size | G1 plain | G2 plain | G1 table | G2 table |\n|---|--:|--:|--:|--:|\n");
    for (unsigned k = 22; k <= max1 && k <= max2; k += 2) {
        const precomp_ms *a = &g1[(k - 22) / 2], *b = &g2[(k - 22) / 2];
        printf("| 2^%u |", k);
        for (int t = 0; t < 2; t++)
            printf(" %.2f | %.2f = %.2fx |", a->ms[t], b->ms[t], b->ms[t] / a->ms[t]);
        printf("\n");
    }
}

void bench_msm_precomp(chk_env *env)
{
    /* windows of distinct layouts around the model's picks (20, 22, 24) */
    static const unsigned c22[3] = {18, 20, 22}, c24[3] = {20, 22, 24}, c26[2] = {22, 24};
    static const unsigned *const cs[3] = {c22, c24, c26};
    static const int ncs[3] = {3, 3, 2};
    precomp_ms r1[3], r2[2];
    memset(r1, 0, sizeof r1), memset(r2, 0, sizeof r2);
    unsigned max = env->max_g1 > 26 ? 26 : env->max_g1, max2 = env->max_g2 > 24 ? 24 : env->max_g2;
    bench_in in;
    memset(&in, 0, sizeof in);
    if (max >= 22 && bench_in_make(env, &in, &chk_grp_g1, max, 20))
        for (unsigned k = 22; k <= max; k += 2)
            precomp_size(env, &in, k, cs[(k - 22) / 2], ncs[(k - 22) / 2], &r1[(k - 22) / 2]);
    bench_in_free(env, &in);
    if (env->max_g2 >= 16 && bench_in_make(env, &in, &chk_grp_g2, env->max_g2, 18)) {
        for (unsigned k = max2 >= 22 ? 22 : env->max_g2; k <= env->max_g2 && k <= 24; k += 2) {
            unsigned c = sp_cuda_msm_table_window((size_t)1 << k, 2);
            precomp_size(env, &in, k, &c, 1, k >= 22 ? &r2[(k - 22) / 2] : NULL);
        }
    }
    bench_in_free(env, &in);
    chk_msm_use(env, &chk_msm_cfgs[0]);
    if (max >= 22 && max2 >= 22)
        precomp_ratios(r1, r2, max, max2);
    chk_tally();
}
