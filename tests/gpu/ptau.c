/*
 * The setup from a .ptau on the GPU (gpu/curve/ptau_g1.cu, ptau_g2.cu) against the CPU
 * functions (src/groth16/ptau_comb.h), byte for byte, in both groups:
 *   - sparse sums: random columns of 0 to 6 entries, empty columns, one
 *     column far longer than a piece (a constant wire) and one just one
 *     piece long; scalars 0, 1, r - 1, small either side of r and random;
 *     bases random with some at infinity; one term and three terms over
 *     different bases; a matrix whose entries start past 0;
 *   - inverse DFTs over points: sizes 2^0 .. 2^12 (2^9 with --quick)
 *     with snarkjs' twiddles (plain and the H points' odd form) and with
 *     random twiddles and factors; inputs random, some at infinity.
 * Sizes are small: every point goes through the CPU reference too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/ptau_comb.h"
#include "gpu/sp_cuda_backend.h"
#include "gpu_check.h"

/* A scalar of kind k % 6: 0, 1, r - 1, small, r - small, random. */
static void pc_scalar(sp_scalar *s, chk_env *env, unsigned k)
{
    sp_fr x;
    memset(s, 0, sizeof *s);
    switch (k % 6) {
    case 0: return;
    case 1: s->l[0] = 1; return;
    case 2: sp_fr_set_one(&x), sp_fr_neg(&x, &x); break;
    case 3: s->l[0] = 2 + sp_rng_u64(&env->rng) % 1000; return;
    case 4: sp_fr_set_u64(&x, 2 + sp_rng_u64(&env->rng) % 1000), sp_fr_neg(&x, &x); break;
    default: chk_random_scalar(s->l, &env->rng); return;
    }
    sp_fr_to_canonical(s->l, &x);
}

/* One random matrix over n columns and nb bases: start, row, s (malloc'd,
 * freed by pc_term_free); entries start at offset `skip`. */
static int pc_term(sp_ptau_sparse *t, chk_env *env, size_t n, size_t nb, uint64_t skip, const void *bases)
{
    uint64_t *start = malloc((n + 1) * sizeof *start), k = skip;
    size_t cap = skip + 8 * n + 3000;
    uint32_t *row = malloc(cap * sizeof *row);
    sp_scalar *s = malloc(cap * sizeof *s);
    if (!start || !row || !s) {
        free(start), free(row), free(s);
        return 0;
    }
    for (size_t w = 0; w < n; w++) {
        size_t len = w == 0 ? 2500 : w == 1 ? 16 : sp_rng_u64(&env->rng) % 7;
        start[w] = k;
        for (size_t e = 0; e < len; e++, k++) {
            row[k] = (uint32_t)(sp_rng_u64(&env->rng) % nb);
            pc_scalar(&s[k], env, (unsigned)sp_rng_u64(&env->rng));
        }
    }
    start[n] = k;
    *t = (sp_ptau_sparse){start, row, s, bases, nb};
    return 1;
}

static void pc_term_free(sp_ptau_sparse *t)
{
    free((void *)t->start), free((void *)t->row), free((void *)t->s);
}

static size_t pc_first_diff(const unsigned char *a, const unsigned char *b, size_t n, size_t sz)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(a + i * sz, b + i * sz, sz))
            return i;
    return n;
}

/* The sums of nt random terms over n wires, GPU against CPU. */
static void pc_comb_case(chk_env *env, const chk_grp *g, size_t n, int nt)
{
    enum { NB = 300 };
    sp_ptau_sparse t[3];
    void *bases[3] = {NULL, NULL, NULL};
    unsigned char *want = malloc(n * g->aff_sz + 1), *got = malloc(n * g->aff_sz + 1);
    int made = 0, ok = want && got;
    for (int i = 0; ok && i < nt; i++) {
        ok = (bases[i] = malloc(NB * g->aff_sz)) != NULL;
        if (ok)
            chk_random_points(env, g, bases[i], NB, 1);
        ok = ok && pc_term(&t[i], env, n, NB, i == 2 ? 5 : 0, bases[i]);
        made += ok;
    }
    char what[96];
    snprintf(what, sizeof what, "%s ptau sums, %zu wires, %d term%s", g->name, n, nt, nt == 1 ? "" : "s");
    CHECKF(ok, "%s: out of host memory", what);
    if (ok) {
        sp_status cs = g->group == 1 ? sp_g1_ptau_comb((sp_g1_affine *)want, n, t, nt, env->threads)
                                     : sp_g2_ptau_comb((sp_g2_affine *)want, n, t, nt, env->threads);
        CHECKF(cs == SP_OK, "%s: CPU reference: %s", what, sp_status_str(cs));
        sp_status gs = g->group == 1 ? sp_cuda_ptau_comb_g1(env->cu, (sp_g1_affine *)got, n, t, nt)
                                     : sp_cuda_ptau_comb_g2(env->cu, (sp_g2_affine *)got, n, t, nt);
        if (chk_ok(env, gs, what)) {
            size_t bad = pc_first_diff(want, got, n, g->aff_sz);
            CHECKF(bad == n, "%s: wire %zu differs from the CPU's", what, bad);
        }
    }
    for (int i = 0; i < made; i++)
        pc_term_free(&t[i]);
    for (int i = 0; i < nt; i++)
        free(bases[i]);
    free(want), free(got);
}

/* kind 0: snarkjs' twiddles, 1: the odd form, 2: random twiddles and factors. */
static void pc_intt_case(chk_env *env, const chk_grp *g, unsigned log_n, int kind)
{
    size_t n = (size_t)1 << log_n, ntw = n / 2 + 1;
    unsigned char *in = malloc(n * g->aff_sz), *want = malloc(n * g->aff_sz), *got = malloc(n * g->aff_sz);
    sp_scalar *tw = malloc(ntw * sizeof *tw), *pre = malloc(n * sizeof *pre);
    char what[96];
    snprintf(what, sizeof what, "%s ptau inverse DFT 2^%u (%s)", g->name, log_n,
             kind == 0 ? "snarkjs' roots" : kind == 1 ? "odd form" : "random scalars");
    if (!in || !want || !got || !tw || !pre) {
        CHECKF(0, "%s: out of host memory", what);
        goto out;
    }
    chk_random_points(env, g, in, n, 1);
    if (kind == 2) {
        for (size_t i = 0; i < ntw; i++)
            pc_scalar(&tw[i], env, (unsigned)sp_rng_u64(&env->rng));
        for (size_t i = 0; i < n; i++)
            pc_scalar(&pre[i], env, (unsigned)sp_rng_u64(&env->rng));
    } else if (sp_ptau_intt_scalars(tw, pre, log_n, kind) != SP_OK) {
        CHECKF(0, "%s: no scalars", what);
        goto out;
    }
    sp_status cs = g->group == 1 ? sp_g1_ptau_intt((sp_g1_affine *)want, (const sp_g1_affine *)in, log_n, tw, pre,
                                                   env->threads)
                                 : sp_g2_ptau_intt((sp_g2_affine *)want, (const sp_g2_affine *)in, log_n, tw, pre,
                                                   env->threads);
    CHECKF(cs == SP_OK, "%s: CPU reference: %s", what, sp_status_str(cs));
    sp_status gs = g->group == 1 ? sp_cuda_ptau_intt_g1(env->cu, (sp_g1_affine *)got, (const sp_g1_affine *)in, log_n,
                                                        tw, pre)
                                 : sp_cuda_ptau_intt_g2(env->cu, (sp_g2_affine *)got, (const sp_g2_affine *)in, log_n,
                                                        tw, pre);
    if (chk_ok(env, gs, what)) {
        size_t bad = pc_first_diff(want, got, n, g->aff_sz);
        CHECKF(bad == n, "%s: point %zu differs from the CPU's", what, bad);
    }
out:
    free(in), free(want), free(got), free(tw), free(pre);
}

void chk_ptau(chk_env *env)
{
    const chk_grp *grp[2] = {&chk_grp_g1, &chk_grp_g2};
    unsigned max_log = env->quick ? 9 : 12;
    for (int gi = 0; gi < 2; gi++) {
        const chk_grp *g = grp[gi];
        pc_comb_case(env, g, 1, 1);
        pc_comb_case(env, g, 2000, 1);
        pc_comb_case(env, g, 2000, 3);
        for (unsigned k = 0; k <= max_log; k++)
            pc_intt_case(env, g, k, 0);
        pc_intt_case(env, g, max_log, 1);
        pc_intt_case(env, g, 6, 2);
    }
    chk_tally();
}
