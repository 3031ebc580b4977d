/*
 * The two heavy kinds of work of a setup from a .ptau (ptau_setup.h,
 * ptau_prepare.h) on the CPU: sparse combinations of points (a key's A,
 * B1, B2, C and IC from the Lagrange points) and the inverse DFT over
 * points (Lagrange points from the powers of tau). A backend may do the
 * same on a device (groth16/backend.h: ptau_comb_g1/_g2, ptau_intt_g1/_g2,
 * which must give the same points); these functions are the reference.
 */
#ifndef SP_GROTH16_PTAU_COMB_H
#define SP_GROTH16_PTAU_COMB_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "curve/curve.h"
#include "msm/msm.h"

/* One sparse matrix by column over an array of bases: column w (w < n,
 * the n of the call) is entries start[w] .. start[w + 1] - 1, entry k
 * standing for [s[k]] bases[row[k]], s[k] a canonical scalar (< r) and
 * row[k] < n_bases. bases: sp_g1_affine or sp_g2_affine by the call
 * (infinity, as (0, 0), allowed). */
typedef struct {
    const uint64_t *start;
    const uint32_t *row;
    const sp_scalar *s;
    const void *bases;
    size_t n_bases;
} sp_ptau_sparse;

/*
 * out[w] = sum over the terms t < nt, over the entries k of column w of
 * t[k]: [s_k] bases_t[row_k], for w < n, affine (infinity as (0, 0)).
 * Long columns are one MSM each, the rest summed entry by entry, on
 * `threads` threads. Returns SP_OK or SP_ERR_NOMEM.
 */
sp_status sp_g1_ptau_comb(sp_g1_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                          int threads) SP_WARN_UNUSED;
sp_status sp_g2_ptau_comb(sp_g2_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                          int threads) SP_WARN_UNUSED;

/*
 * The inverse DFT over points, with a factor per input point:
 *   out[j] = sum_{i < n} [pre[i] tw^(ij)] in[i]   (j < n = 2^log_n)
 * with tw[j] = omega^-j for j < n / 2 (omega a primitive n-th root of
 * unity; tw holds at least one scalar) and pre[i] (1/n for the plain
 * inverse DFT) canonical scalars. With in[i] = tau^i G it gives the
 * Lagrange points L_j(tau) G. out may equal in. On `threads` threads.
 * Returns SP_OK or SP_ERR_NOMEM.
 */
sp_status sp_g1_ptau_intt(sp_g1_affine *out, const sp_g1_affine *in, unsigned log_n, const sp_scalar *tw,
                          const sp_scalar *pre, int threads) SP_WARN_UNUSED;
sp_status sp_g2_ptau_intt(sp_g2_affine *out, const sp_g2_affine *in, unsigned log_n, const sp_scalar *tw,
                          const sp_scalar *pre, int threads) SP_WARN_UNUSED;

/*
 * The scalars of an inverse DFT over a domain of n = 2^log_n with
 * snarkjs' roots of unity (SP_NTT_ROOTS_SNARKJS): tw[j] = omega_n^-j
 * (j < n/2; tw holds at least one scalar); pre[i] = 1/n for all i, or
 * with odd != 0, omega_2n^-i / 2n: then the transform of
 * tau^i G - tau^(i+n) G gives the odd points of the 2n-point Lagrange
 * basis (L^(2n)_(2j+1)(tau) G, a key's H points). Canonical.
 * Returns SP_OK, SP_ERR_INVALID_ARG (log_n, or log_n + 1 with odd, beyond
 * the field's roots of unity).
 */
sp_status sp_ptau_intt_scalars(sp_scalar *tw, sp_scalar *pre, unsigned log_n, int odd) SP_WARN_UNUSED;

/*
 * The four above through a backend: be's device functions when it has
 * them (groth16/backend.h), else the CPU ones on `threads` threads, as
 * also when the device is short of memory (said on stderr). be may be
 * NULL (the CPU). Returns as the functions above, or the device's error
 * (SP_ERR_GPU); err says why.
 */
typedef struct sp_backend sp_backend;
sp_status sp_g1_ptau_comb_be(sp_backend *be, sp_g1_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                             int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g2_ptau_comb_be(sp_backend *be, sp_g2_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                             int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g1_ptau_intt_be(sp_backend *be, sp_g1_affine *out, const sp_g1_affine *in, unsigned log_n,
                             const sp_scalar *tw, const sp_scalar *pre, int threads,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g2_ptau_intt_be(sp_backend *be, sp_g2_affine *out, const sp_g2_affine *in, unsigned log_n,
                             const sp_scalar *tw, const sp_scalar *pre, int threads,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
