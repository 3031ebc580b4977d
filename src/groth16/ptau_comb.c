/* Sparse combinations of points and the inverse DFT over points on the
 * CPU (ptau_comb.h); the group-generic code is ptau_comb_tmpl.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/backend.h"
#include "groth16/ptau_comb.h"
#include "ntt/ntt.h"
#include "util/par.h"

#define BIG_COLUMN 128 /* entries from which a column is one MSM */
#define COMB_TASK 256  /* wires per task of the entry-by-entry sums */
#define NTT_TASK 64    /* butterflies (or points) per task of the point NTT */

static uint64_t column_len(const sp_ptau_sparse *t, int nt, size_t w)
{
    uint64_t n = 0;
    for (int i = 0; i < nt; i++)
        n += t[i].start[w + 1] - t[i].start[w];
    return n;
}

static int limbs_len(const uint64_t *l)
{
    int n = 4;
    while (n > 0 && !l[n - 1])
        n--;
    return n;
}

/* e = s or r - s, whichever is shorter; returns its limb count, negated
 * when e = r - s (the base is then negated). */
static int scalar_short(uint64_t e[4], const sp_scalar *s)
{
    uint64_t neg[4], borrow = 0;
    int ls = limbs_len(s->l);
    if (ls == 0)
        return 0;
    for (int i = 0; i < 4; i++) {
        uint64_t m = SP_FR_MODULUS[i], v = s->l[i];
        uint64_t d = m - v - borrow;
        borrow = (m < v) || (m - v < borrow);
        neg[i] = d;
    }
    int ln = limbs_len(neg);
    int neg_shorter = ln < ls || (ln == ls && neg[ln - 1] < s->l[ls - 1]);
    memcpy(e, neg_shorter ? neg : s->l, sizeof neg);
    return neg_shorter ? -ln : ls;
}

static size_t bit_reverse(size_t i, unsigned bits)
{
    size_t r = 0;
    for (unsigned b = 0; b < bits; b++)
        r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
}

#define G g1
#include "groth16/ptau_comb_tmpl.h"
#undef G
#define G g2
#include "groth16/ptau_comb_tmpl.h"
#undef G

/* ---- the inverse DFT's scalars ---- */

sp_status sp_ptau_intt_scalars(sp_scalar *tw, sp_scalar *pre, unsigned log_n, int odd)
{
    size_t n = (size_t)1 << log_n;
    sp_fr w, wi, x, f, step;
    if (sp_ntt_root_of_unity(&w, log_n, SP_NTT_ROOTS_SNARKJS) != SP_OK ||
        (odd && sp_ntt_root_of_unity(&step, log_n + 1, SP_NTT_ROOTS_SNARKJS) != SP_OK))
        return SP_ERR_INVALID_ARG;
    sp_fr_inv(&wi, &w);
    sp_fr_set_one(&x);
    for (size_t j = 0; j < n / 2; j++) {
        sp_scalar_from_fr(&tw[j], &x);
        sp_fr_mul(&x, &x, &wi);
    }
    sp_fr_set_u64(&f, odd ? 2 * (uint64_t)n : n);
    sp_fr_inv(&f, &f);
    if (odd)
        sp_fr_inv(&step, &step);
    for (size_t i = 0; i < n; i++) {
        sp_scalar_from_fr(&pre[i], &f);
        if (odd)
            sp_fr_mul(&f, &f, &step);
    }
    return SP_OK;
}

/* ---- through a backend ---- */

/* After the device's status st of `what`: 1 when the CPU is to do it
 * (no device function, or the device short of memory). */
static int on_cpu(const sp_backend *be, int has, sp_status st, const char *what, const char *err)
{
    if (!be || !has)
        return 1;
    if (st != SP_ERR_NOMEM)
        return 0;
    fprintf(stderr, "snarkpipe %s: %s on the CPU: %s\n", be->name, what, err);
    return 1;
}

sp_status sp_g1_ptau_comb_be(sp_backend *be, sp_g1_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                             int threads, char err[SP_ERR_LEN])
{
    int has = be && be->ptau_comb_g1;
    sp_status st = has ? be->ptau_comb_g1(be, out, n, t, nt, err) : SP_OK;
    if (on_cpu(be, has, st, "G1 sums of Lagrange points", err))
        st = sp_g1_ptau_comb(out, n, t, nt, threads);
    return st;
}

sp_status sp_g2_ptau_comb_be(sp_backend *be, sp_g2_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                             int threads, char err[SP_ERR_LEN])
{
    int has = be && be->ptau_comb_g2;
    sp_status st = has ? be->ptau_comb_g2(be, out, n, t, nt, err) : SP_OK;
    if (on_cpu(be, has, st, "G2 sums of Lagrange points", err))
        st = sp_g2_ptau_comb(out, n, t, nt, threads);
    return st;
}

sp_status sp_g1_ptau_intt_be(sp_backend *be, sp_g1_affine *out, const sp_g1_affine *in, unsigned log_n,
                             const sp_scalar *tw, const sp_scalar *pre, int threads, char err[SP_ERR_LEN])
{
    int has = be && be->ptau_intt_g1;
    sp_status st = has ? be->ptau_intt_g1(be, out, in, log_n, tw, pre, err) : SP_OK;
    if (on_cpu(be, has, st, "G1 inverse DFT over points", err))
        st = sp_g1_ptau_intt(out, in, log_n, tw, pre, threads);
    return st;
}

sp_status sp_g2_ptau_intt_be(sp_backend *be, sp_g2_affine *out, const sp_g2_affine *in, unsigned log_n,
                             const sp_scalar *tw, const sp_scalar *pre, int threads, char err[SP_ERR_LEN])
{
    int has = be && be->ptau_intt_g2;
    sp_status st = has ? be->ptau_intt_g2(be, out, in, log_n, tw, pre, err) : SP_OK;
    if (on_cpu(be, has, st, "G2 inverse DFT over points", err))
        st = sp_g2_ptau_intt(out, in, log_n, tw, pre, threads);
    return st;
}
