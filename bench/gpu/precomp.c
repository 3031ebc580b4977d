/*
 * Plain vs precomputed-table MSMs (sp_cuda_msm_table_add), side by side:
 * G1 at 2^22, 2^24, 2^26 (as far as --g1 allows), G2 at 2^22, 2^24 (as far
 * as --g2 allows; below 2^22 only --g2 itself) with each of its two Fp2
 * multiplications (sp_cuda_set_fp2_mul); bases and scalars resident,
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

/* ms of one size: [0] plain, [1] the model's table; per Fp2 form (G1: [0]) */
typedef struct {
    double ms[2][2];
} precomp_ms;

static const char *const fp2_name[2] = {"Fp2 Karatsuba", "Fp2 sums of products"};

/* The plain call and the table's (over the kept table) for each Fp2 form
 * of forms[0..nf); the model's table times go to r. */
static void precomp_time(chk_env *env, const bench_in *in, size_t n, const void *want, const char *what,
                         const char *size, const char *note, const int *forms, int nf, int table, precomp_ms *r)
{
    for (int f = 0; f < nf; f++) {
        char w[160];
        if (forms[f] >= 0)
            sp_cuda_set_fp2_mul(env->cu, forms[f]);
        snprintf(w, sizeof w, "%s%s%s", what, forms[f] >= 0 ? ", " : "", forms[f] >= 0 ? fp2_name[forms[f]] : "");
        double ms = bench_time_msm(env, in, n, want, 3, w);
        if (ms >= 0)
            bench_table_row(w, size, ms, "ms", note);
        if (r)
            r->ms[table][f] = ms;
    }
    chk_msm_use(env, &chk_msm_cfgs[0]);
}

/* Rows for one size: the plain call, then a table per window of cs. */
static void precomp_size(chk_env *env, const bench_in *in, unsigned k, const unsigned *cs, int ncs,
                         const int *forms, int nf, precomp_ms *r)
{
    const chk_grp *g = in->g;
    size_t n = (size_t)1 << k;
    unsigned char want[sizeof(sp_g2_jac)];
    char what[128], size[16], note[96];
    chk_oracle(env, g, want, in->sc, n, NULL, &in->b0, &in->d, in->period);
    snprintf(size, sizeof size, "2^%u", k);
    chk_msm_use(env, &chk_msm_cfgs[0]);
    snprintf(what, sizeof what, "%s MSM, plain (c=%u)", g->name, sp_cuda_msm_window(n, g->group));
    precomp_time(env, in, n, want, what, size, "bases+scalars on device", forms, nf, 0, r);
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
        precomp_time(env, in, n, want, what, size, note, forms, nf, 1, cs[i] == pick ? r : NULL);
        sp_cuda_msm_table_drop(env->cu, in->db);
        if (!chk_ok(env, sp_cuda_scratch_trim(env->cu), "trim"))
            return;
    }
}

/* G2 over G1 where both sizes ran. */
static void precomp_ratios(const precomp_ms *g1, const precomp_ms *g2, unsigned max1, unsigned max2)
{
    printf("\nG2 / G1, ms (median of 3; plain: each group's default window; table: the model's):\n"
           "| size | G1 plain | G2 plain, %s | %s | G1 table | G2 table, %s | %s |\n"
           "|---|--:|--:|--:|--:|--:|--:|\n",
           fp2_name[0], fp2_name[1], fp2_name[0], fp2_name[1]);
    for (unsigned k = 22; k <= max1 && k <= max2; k += 2) {
        const precomp_ms *a = &g1[(k - 22) / 2], *b = &g2[(k - 22) / 2];
        printf("| 2^%u |", k);
        for (int t = 0; t < 2; t++) {
            printf(" %.2f |", a->ms[t][0]);
            for (int f = 0; f < 2; f++)
                printf(" %.2f = %.2fx |", b->ms[t][f], b->ms[t][f] / a->ms[t][0]);
        }
        printf("\n");
    }
}

void bench_msm_precomp(chk_env *env)
{
    /* windows of distinct layouts around the model's picks (20, 22, 24) */
    static const unsigned c22[3] = {18, 20, 22}, c24[3] = {20, 22, 24}, c26[2] = {22, 24};
    static const unsigned *const cs[3] = {c22, c24, c26};
    static const int ncs[3] = {3, 3, 2}, g1_form[1] = {-1}, g2_forms[2] = {0, 1};
    precomp_ms r1[3], r2[2];
    memset(r1, 0, sizeof r1), memset(r2, 0, sizeof r2);
    unsigned max = env->max_g1 > 26 ? 26 : env->max_g1, max2 = env->max_g2 > 24 ? 24 : env->max_g2;
    bench_in in;
    memset(&in, 0, sizeof in);
    if (max >= 22 && bench_in_make(env, &in, &chk_grp_g1, max, 20))
        for (unsigned k = 22; k <= max; k += 2)
            precomp_size(env, &in, k, cs[(k - 22) / 2], ncs[(k - 22) / 2], g1_form, 1, &r1[(k - 22) / 2]);
    bench_in_free(env, &in);
    if (env->max_g2 >= 16 && bench_in_make(env, &in, &chk_grp_g2, env->max_g2, 18)) {
        for (unsigned k = max2 >= 22 ? 22 : env->max_g2; k <= env->max_g2 && k <= 24; k += 2) {
            unsigned c = sp_cuda_msm_table_window((size_t)1 << k, 2);
            precomp_size(env, &in, k, &c, 1, g2_forms, 2, k >= 22 ? &r2[(k - 22) / 2] : NULL);
        }
    }
    bench_in_free(env, &in);
    chk_msm_use(env, &chk_msm_cfgs[0]);
    if (max >= 22 && max2 >= 22)
        precomp_ratios(r1, r2, max, max2);
    chk_tally();
}

/* ---- the batch-affine kernel forms (sp_cuda_set_ba_form) ---- */

/* 77 (binary inversion, paired denominators, 128 items a thread, G2
 * inverting the norms), 77 with the split bucket reduction (333), 333
 * with the filled lists (845), 845 with the split's parts at 3 blocks per
 * SM (1869), 845 in two chains (2893) and 845 with the sums' loads
 * pipelined (4941). Left out (measured
 * before, slower; see bench/NOTES.md): 0, 13 (77 without the norms), the
 * pipelined denominators (128), the lean sums and their two lanes (2,
 * 32), whose re-reads look cheaper over gpu_bench's G2 bases (a
 * 2^18-point period that fits in the L2) than over a key's distinct
 * bases. */
#define BA_F77 (SP_BA_INV_VAR | SP_BA_DENS_PAIR | SP_BA_WIDE_ITEMS | SP_BA_G2_NORM)
static const int ba_forms[] = {BA_F77, BA_F77 | SP_BA_REDUCE_SPLIT,
                               BA_F77 | SP_BA_REDUCE_SPLIT | SP_BA_LISTS_FILL,
                               BA_F77 | SP_BA_REDUCE_SPLIT | SP_BA_LISTS_FILL | SP_BA_PARTS_3,
                               BA_F77 | SP_BA_REDUCE_SPLIT | SP_BA_LISTS_FILL | SP_BA_CHAINS,
                               BA_F77 | SP_BA_REDUCE_SPLIT | SP_BA_LISTS_FILL | SP_BA_APPLY_PIPE};
#define BA_NFORMS ((int)(sizeof ba_forms / sizeof ba_forms[0]))

/* ms[kind][form] of one size: kind 0 plain, 1 the model's table */
typedef struct {
    double ms[2][BA_NFORMS];
} ba_forms_ms;

static void ba_forms_time(chk_env *env, const bench_in *in, size_t n, const void *want, const char *what,
                          const char *size, double *ms)
{
    for (int f = 0; f < BA_NFORMS; f++) {
        char w[160], note[32];
        sp_cuda_set_ba_form(env->cu, ba_forms[f]);
        snprintf(w, sizeof w, "%s, form %d", what, ba_forms[f]);
        snprintf(note, sizeof note, "batch-affine form %d", ba_forms[f]);
        ms[f] = bench_time_msm(env, in, n, want, 3, w);
        if (ms[f] >= 0)
            bench_table_row(w, size, ms[f], "ms", note);
    }
    chk_msm_use(env, &chk_msm_cfgs[0]);
}

/* One size: the plain call (default window), then the model's table. */
static void ba_forms_size(chk_env *env, const bench_in *in, unsigned k, ba_forms_ms *r)
{
    const chk_grp *g = in->g;
    const size_t n = (size_t)1 << k;
    unsigned char want[sizeof(sp_g2_jac)];
    char what[96], size[16];
    chk_oracle(env, g, want, in->sc, n, NULL, &in->b0, &in->d, in->period);
    snprintf(size, sizeof size, "2^%u", k);
    chk_msm_use(env, &chk_msm_cfgs[0]);
    snprintf(what, sizeof what, "%s MSM, plain (c=%u)", g->name, sp_cuda_msm_window(n, g->group));
    ba_forms_time(env, in, n, want, what, size, r->ms[0]);
    const unsigned c = sp_cuda_msm_table_window(n, g->group);
    double build = 0;
    if (!chk_ok(env, sp_cuda_scratch_trim(env->cu), "trim") ||
        !chk_ok(env, sp_cuda_msm_table_add(env->cu, g->group, in->db, n, c, &build), "table add"))
        return;
    snprintf(what, sizeof what, "%s MSM, table (c=%u)", g->name, c);
    printf("  %s: %.2f GiB built in %.0f ms\n", what, sp_cuda_msm_tables_bytes(env->cu) / 1073741824.0,
           build);
    ba_forms_time(env, in, n, want, what, size, r->ms[1]);
    sp_cuda_msm_table_drop(env->cu, in->db);
    chk_ok(env, sp_cuda_scratch_trim(env->cu), "trim");
}

void bench_ba_forms(chk_env *env)
{
    ba_forms_ms r1[3], r2[2];
    memset(r1, 0, sizeof r1), memset(r2, 0, sizeof r2);
    const unsigned max1 = env->max_g1 > 26 ? 26 : env->max_g1, max2 = env->max_g2 > 24 ? 24 : env->max_g2;
    bench_in in;
    memset(&in, 0, sizeof in);
    if (max1 >= 22 && bench_in_make(env, &in, &chk_grp_g1, max1, 20))
        for (unsigned k = 22; k <= max1; k += 2)
            ba_forms_size(env, &in, k, &r1[(k - 22) / 2]);
    bench_in_free(env, &in);
    if (max2 >= 22 && bench_in_make(env, &in, &chk_grp_g2, max2, 18))
        for (unsigned k = 22; k <= max2; k += 2)
            ba_forms_size(env, &in, k, &r2[(k - 22) / 2]);
    bench_in_free(env, &in);
    printf("\nBatch-affine forms, ms (median of 3; bases and scalars resident; G2 / G1 beside G2):\n"
           "| MSM | size |");
    for (int f = 0; f < BA_NFORMS; f++)
        printf(" form %d |", ba_forms[f]);
    printf("\n|---|---|");
    for (int f = 0; f < BA_NFORMS; f++)
        printf("--:|");
    printf("\n");
    for (int grp = 1; grp <= 2; grp++)
        for (unsigned k = 22; k <= (grp == 1 ? max1 : max2); k += 2)
            for (int t = 0; t < 2; t++) {
                const ba_forms_ms *a = &r1[(k - 22) / 2], *b = &r2[(k - 22) / 2];
                printf("| G%d %s | 2^%u |", grp, t ? "table" : "plain", k);
                for (int f = 0; f < BA_NFORMS; f++) {
                    if (grp == 1)
                        printf(" %.2f |", a->ms[t][f]);
                    else if (k <= max1 && a->ms[t][f] > 0)
                        printf(" %.2f = %.2fx |", b->ms[t][f], b->ms[t][f] / a->ms[t][f]);
                    else
                        printf(" %.2f |", b->ms[t][f]);
                }
                printf("\n");
            }
    chk_tally();
}
