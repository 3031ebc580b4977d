/*
 * Multi-scalar multiplication on the CPU: sum_i [s_i] P_i for G1 and G2
 * (multi-threaded Pippenger), and the "split" MSM for witness vectors,
 * whose scalars are mostly 0 or 1 (docs/algorithms.md §4).
 *
 * Algorithm (msm_tmpl.h): signed c-bit windows (Booth recoding, digits in
 * [-2^(c-1), 2^(c-1)]; a scalar above (r-1)/2 is replaced by r - s with
 * the point negated, so ceil(255/c) windows cover it), 2^(c-1) buckets
 * per window, accumulated either in XYZZ coordinates (mixed additions) or
 * in affine coordinates with batched inversions (Montgomery's trick),
 * bucket reduction by the running sum, windows combined by doubling. The
 * window and method come from a table measured on the development machine
 * (msm.c; `bench_msm sweep` remeasures it). Where the CPU has AVX-512
 * IFMA, each batch of affine additions runs on eight lanes
 * (msm/affine_ifma.c; sp_field_ifma_active), with the same results.
 * Endomorphism split (GLV for G1, GLS for G2; msm/glv.c): each scalar k
 * becomes k1 + k2 lambda with halves below 2^128 and each base P gets a
 * partner endo(P) = [lambda]P (G1: (beta x, y); G2: psi on BN254, psi^2
 * on BLS12-381), so the Pippenger runs over 2n points with half as many
 * windows: the same bucket additions, half the bucket reductions. Used
 * unless cfg->no_endo, when its scratch (the partner points and the
 * halves, ~100-230 bytes a point) stays within SP_MSM_ENDO_SCRATCH; a
 * window_bits given then applies to the split scalars.
 * Work is cut into (window, point chunk) tasks handed out to threads.
 * Every function here is variable time: public data only (proving-key
 * bases with witness scalars are fine, the result is blinded by r and s).
 *
 * This is also the reference that the GPU MSM is tested against.
 */
#ifndef SP_MSM_MSM_H
#define SP_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "curve/curve.h"
#include "field/field.h"
#include "util/par.h"

/* A scalar as the MSM takes it: the canonical value (NOT Montgomery form)
 * as little-endian 64-bit limbs, < r. .wtns files and the H coefficients
 * come this way. */
typedef struct { uint64_t l[4]; } sp_scalar;

/* Bucket accumulation method. */
enum {
    SP_MSM_ACCUM_AUTO = 0,    /* the faster one for this n (measured table) */
    SP_MSM_ACCUM_XYZZ = 1,    /* bucket += point, XYZZ mixed addition */
    SP_MSM_ACCUM_AFFINE = 2   /* affine buckets, one inversion per batch */
};

/* The most scratch memory the endomorphism split of one MSM may take. */
#define SP_MSM_ENDO_SCRATCH ((size_t)128 << 20)

/* The largest window_bits accepted. */
#define SP_MSM_MAX_WINDOW 20
/* The most threads one call uses. */
#define SP_MSM_MAX_THREADS 256

typedef struct {
    int window_bits; /* 0 = chosen from n; else 1 .. SP_MSM_MAX_WINDOW */
    int threads;     /* 0 = all online cores; else 1 .. (capped at SP_MSM_MAX_THREADS) */
    int accum;       /* SP_MSM_ACCUM_* */
    int no_endo;     /* 0: the endomorphism split where it fits (below); 1: never (measurement) */
    /* NULL, or called every few thousand points by each worker (util/par.h):
     * the MSM may be suspended there, and keeps its scratch meanwhile. */
    const sp_pause *pause;
} sp_msm_config;

/* Returns {0, 0, SP_MSM_ACCUM_AUTO, 0, NULL}: everything chosen
 * automatically, no pause points. */
sp_msm_config sp_msm_config_default(void);

/*
 * out = sum_{i < n} [scalars[i]] bases[i].
 * On input: bases[i] on the curve (not checked: the caller validated the
 *   key); a base (0, 0) is the point at infinity and is skipped; every
 *   scalar < r; cfg may be NULL (= sp_msm_config_default()). n = 0 gives
 *   infinity. bases and scalars may be NULL when n = 0.
 * On output: *out is the sum (Jacobian), untouched on error.
 * Returns SP_OK; SP_ERR_NOT_CANONICAL when a scalar is >= r;
 *   SP_ERR_INVALID_ARG for a config out of range (window_bits, threads,
 *   accum, no_endo) or NULL arrays with n > 0; SP_ERR_NOMEM when scratch memory
 *   cannot be allocated. Threads that cannot be started are not an error:
 *   the work runs on those that did start.
 * Scratch memory: per thread, 2^(c-1) buckets of about 290 bytes (G1)
 *   or 580 bytes (G2), and with the IFMA lanes up to 256 KiB for the
 *   lanes' running products; an automatic window is lowered when all threads'
 *   buckets would pass 1 GiB (a window_bits given is used as is: G2 at
 *   c = 20 takes 300 MiB a thread).
 * The call blocks until done; it starts up to cfg->threads - 1 threads.
 */
sp_status sp_msm_g1_var(sp_g1_jac *out, const sp_g1_affine *bases, const sp_scalar *scalars,
                        size_t n, const sp_msm_config *cfg) SP_WARN_UNUSED;
sp_status sp_msm_g2_var(sp_g2_jac *out, const sp_g2_affine *bases, const sp_scalar *scalars,
                        size_t n, const sp_msm_config *cfg) SP_WARN_UNUSED;

/*
 * The scratch the endomorphism split takes in one MSM of n points with
 * no_endo = 0 (the partner points, the halves and the signs).
 * Returns bytes; 0 when n is too large for the split (SP_MSM_ENDO_SCRATCH),
 * so at most SP_MSM_ENDO_SCRATCH. Callers that budget memory (the engine)
 * add it to the buckets above.
 */
size_t sp_msm_g1_endo_bytes(size_t n);
size_t sp_msm_g2_endo_bytes(size_t n);

/*
 * The split MSM: same contract and result as sp_msm_G_var, computed as
 * (sum of the bases whose scalar is 1, by plain additions) + (Pippenger
 * over the bases whose scalar is neither 0 nor 1, addressed through an
 * index list, window chosen from their count). Zero scalars cost one
 * comparison. Extra scratch: one size_t per base whose scalar is not 0.
 * cfg->window_bits, if set, applies to the Pippenger part.
 */
sp_status sp_msm_g1_split_var(sp_g1_jac *out, const sp_g1_affine *bases, const sp_scalar *scalars,
                              size_t n, const sp_msm_config *cfg) SP_WARN_UNUSED;
sp_status sp_msm_g2_split_var(sp_g2_jac *out, const sp_g2_affine *bases, const sp_scalar *scalars,
                              size_t n, const sp_msm_config *cfg) SP_WARN_UNUSED;

/* How a scalar vector splits, for logs and benchmarks. */
typedef struct {
    size_t zeros, ones, others;
} sp_msm_split_stats;

/*
 * On output: *st counts the scalars equal to 0, equal to 1, and the rest.
 * Returns SP_OK, SP_ERR_NOT_CANONICAL when a scalar is >= r (st then
 * unspecified), SP_ERR_INVALID_ARG for NULL arguments with n > 0.
 */
sp_status sp_msm_split_count(sp_msm_split_stats *st, const sp_scalar *scalars, size_t n);

/* The window size and accumulation method the automatic choice makes for
 * n points in group 1 or 2 (one thread), for logs and benchmarks. */
int sp_msm_auto_window(size_t n, int group);
int sp_msm_auto_accum(size_t n, int group);

/*
 * Subgroup membership of many points (key validation).
 * On input: p[0..n) on the curve (not checked here); (0, 0) is infinity,
 *   which is in the subgroup; threads >= 1 (values < 1 mean 1).
 * On output: *bad = the lowest index of a point outside the order-r
 *   subgroup, or n when every point is in it.
 * Method: where the group is the whole curve (BN254's G1, cofactor 1:
 *   SP_G1_COFACTOR_ONE), every point on the curve is in it: *bad = n at
 *   once, no arithmetic (the curve check made when a point is decoded is
 *   the subgroup check there). Otherwise, below SP_MSM_SUBGROUP_BATCH_MIN
 *   points, sp_G_in_subgroup on each
 *   (exact). From there, the random-subset test of subgroup_tmpl.h first:
 *   SP_MSM_SUBGROUP_ROUNDS sums of random subsets (bits from getrandom),
 *   each checked exactly; a set with a point outside passes it with
 *   probability at most 2^-SP_MSM_SUBGROUP_ROUNDS = 2^-100, for any input.
 *   When it rejects (or memory or getrandom fail), every point is checked
 *   exactly, so *bad is always exact when < n, and a set of subgroup
 *   points is never rejected.
 * Cost: about 10 bucket additions a point plus 100 exact checks, against
 *   126 (G1) or 63 (G2) doublings a point one by one. Scratch: per thread
 *   2^c buckets (c <= 16, ~10 for large n) of about 290 (G1) or 580 (G2)
 *   bytes. Never fails.
 */
#define SP_MSM_SUBGROUP_ROUNDS 100
#define SP_MSM_SUBGROUP_BATCH_MIN 256
void sp_msm_g1_in_subgroup_var(size_t *bad, const sp_g1_affine *p, size_t n, int threads);
void sp_msm_g2_in_subgroup_var(size_t *bad, const sp_g2_affine *p, size_t n, int threads);

/* Conversions between Montgomery-form sp_fr and canonical sp_scalar. */
void sp_scalar_from_fr(sp_scalar *r, const sp_fr *a);
/* Returns SP_ERR_NOT_CANONICAL (r untouched) when s >= r, else SP_OK. */
sp_status sp_scalar_to_fr(sp_fr *r, const sp_scalar *s);
/* out[i] = canonical(in[i]) for i < n; out and in must not overlap. */
void sp_msm_scalars_from_fr(sp_scalar *out, const sp_fr *in, size_t n);
/* The same on up to `threads` threads (0 = all online cores): a witness
 * of 2^24 values is ~0.2 s on one core, on the prover's critical path. */
void sp_msm_scalars_from_fr_par(sp_scalar *out, const sp_fr *in, size_t n, int threads);

/* Scalars for tests and benchmarks, one generator for every program that
 * times or checks an MSM: s[0..n) gets a share bool_fraction (0..1) of 0s
 * and 1s (half each, as in a witness), the rest uniform below r, from the
 * seeded rng (never for secrets). */
void sp_msm_random_scalars(sp_scalar *s, size_t n, double bool_fraction, sp_rng *rng);

#endif
