/*
 * Internals shared by msm.c and the per-group code (msm_tmpl.h): the
 * plan (window size, tasks, threads), the task pool, scalar recoding and
 * the scalar scan of the split MSM. Not part of the API.
 */
#ifndef SP_MSM_MSM_INTERNAL_H
#define SP_MSM_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "msm/msm.h"
#include "util/par.h"

/* How one Pippenger call is cut up. */
typedef struct {
    unsigned c;        /* window bits */
    unsigned windows;  /* ceil(bits / c): 255 for scalars < r (recoded: < 2^254) */
    size_t chunks;     /* point chunks per window; tasks = windows * chunks */
    int threads;       /* workers (<= tasks) */
    int affine;        /* 1: affine buckets with batched inversion */
    size_t batch;      /* additions per batched inversion (affine only) */
} sp_msm_plan;

/* 1 when every field of cfg is in its documented range. */
int sp_msm_config_ok(const sp_msm_config *cfg);

/*
 * Fills *p for n > 0 points of group g (1 or 2) whose recoded scalars are
 * below 2^(bits - 1) (255 for scalars < r after sp_msm_recode,
 * SP_MSM_GLV_BITS for the halves of the endomorphism split) from cfg (not
 * NULL); bucket_bytes is the memory one bucket takes (keeps an automatic
 * window within a fixed scratch budget when there are many threads).
 * Returns SP_ERR_INVALID_ARG for a config out of range, else SP_OK.
 */
sp_status sp_msm_make_plan(sp_msm_plan *p, size_t n, const sp_msm_config *cfg, int g,
                           size_t bucket_bytes, unsigned bits);

/*
 * The endomorphism split (glv.c): for group g (1 or 2), k = k1 + k2 lambda
 * mod r, lambda the eigenvalue of the group's endomorphism (G1:
 * sp_g1_endo; G2: psi on BN254, psi^2 on BLS12-381).
 * sp_msm_glv_split: on input k < r (4 limbs); on output m1 = |k1| and
 *   m2 = |k2| (2 limbs each, < 2^128); returns (k1 < 0) | (k2 < 0) << 1.
 * SP_MSM_GLV_BITS: the window plan's bits for those halves (< 2^128, so
 *   Booth digits need c * windows >= 129).
 */
#define SP_MSM_GLV_BITS 129
typedef struct sp_msm_glv sp_msm_glv;
const sp_msm_glv *sp_msm_glv_of(int g);
const uint64_t *sp_msm_glv_lambda(const sp_msm_glv *g); /* lambda, 4 limbs */
int sp_msm_glv_split(uint64_t m1[2], uint64_t m2[2], const uint64_t k[4], const sp_msm_glv *g);

/*
 * The batched affine additions on AVX-512 IFMA (affine_ifma.c), used
 * by msm_tmpl.h's flush when sp_field_ifma_active(). On input: the queue
 * of one flush (nq >= 1 additions ab[qb[i]] += (qn[i] ? -1 : 1) qp[i], the
 * buckets distinct, x(ab[qb[i]]) != x(qp[i])); scratch of
 * sp_msm_ifma_scratch_bytes(nq or more) bytes, 64-byte aligned. On output:
 * the buckets hold the sums, limb for limb as the scalar flush makes them.
 */
#include "field/fp_asm.h"
#define SP_MSM_IFMA SP_HAVE_FP_ASM
#if SP_MSM_IFMA
size_t sp_msm_ifma_scratch_bytes(size_t qcap);
void sp_msm_g1_flush_ifma(sp_g1_affine *ab, const uint32_t *qb, const sp_g1_affine *const *qp,
                          const uint8_t *qn, size_t nq, void *scratch);
void sp_msm_g2_flush_ifma(sp_g2_affine *ab, const uint32_t *qb, const sp_g2_affine *const *qp,
                          const uint8_t *qn, size_t nq, void *scratch);
#endif

/* Thread count from cfg->threads (0 = online cores), in 1..SP_MSM_MAX_THREADS. */
int sp_msm_threads(const sp_msm_config *cfg);

/* Tasks run on util/par.h's sp_par_tasks (dynamic, one shared counter). */

/* [*lo, *hi): the k-th of `parts` near-equal parts of [0, n). */
static inline void sp_msm_range(size_t *lo, size_t *hi, size_t n, size_t k, size_t parts)
{
    size_t q = n / parts, rem = n % parts;
    *lo = k * q + (k < rem ? k : rem);
    *hi = *lo + q + (k < rem);
}

__extension__ typedef unsigned __int128 sp_msm_u128;

/* (r - 1) / 2, the largest scalar used without negation. */
extern const uint64_t SP_MSM_HALF_R[4];

/*
 * Recodes s (< r) for the windows: out = s when s <= (r-1)/2, else r - s;
 * returns 1 in the second case (the point must be negated). out < 2^254.
 */
static inline int sp_msm_recode(uint64_t out[4], const sp_scalar *s)
{
    const uint64_t *h = SP_MSM_HALF_R;
    int gt = 0;
    for (int i = 3; i >= 0; i--) {
        if (s->l[i] != h[i]) {
            gt = s->l[i] > h[i];
            break;
        }
    }
    if (!gt) {
        for (int i = 0; i < 4; i++)
            out[i] = s->l[i];
        return 0;
    }
    sp_msm_u128 borrow = 0;
    for (int i = 0; i < 4; i++) {
        sp_msm_u128 d = (sp_msm_u128)SP_FR_MODULUS[i] - s->l[i] - (uint64_t)borrow;
        out[i] = (uint64_t)d;
        borrow = (d >> 64) & 1;
    }
    return 1;
}

/*
 * The Booth digit of window j of s (s < 2^254, c in 1..20): with
 * v = bits [jc - 1, jc + c - 1] of s (bit -1 = 0), the digit is
 * floor((v + 1) / 2) - 2^c [bit c of v], in [-2^(c-1), 2^(c-1)].
 * sum_j 2^(jc) digit_j = s for ceil(255 / c) windows (the top bit
 * read, bit c*windows - 1 >= 254, is 0).
 */
static inline int sp_msm_digit(const uint64_t s[4], unsigned c, unsigned j)
{
    unsigned pos = j * c; /* bit jc of s is bit 1 of v */
    uint64_t v;
    if (pos == 0) {
        v = (s[0] << 1) & ((2ULL << c) - 1);
    } else {
        unsigned p = pos - 1, li = p >> 6, sh = p & 63;
        v = li < 4 ? s[li] >> sh : 0;
        if (sh + c + 1 > 64 && li + 1 < 4)
            v |= s[li + 1] << (64 - sh);
        v &= (2ULL << c) - 1;
    }
    return (int)((v + 1) >> 1) - (int)((v >> c) << c);
}

/* 1 when s = 0, 2 when s = 1, 0 otherwise. */
static inline int sp_msm_kind(const sp_scalar *s)
{
    uint64_t hi = s->l[1] | s->l[2] | s->l[3];
    if (hi)
        return 0;
    return s->l[0] == 0 ? 1 : s->l[0] == 1 ? 2 : 0;
}

/* SP_OK when every scalar is < r, else SP_ERR_NOT_CANONICAL. */
sp_status sp_msm_check_scalars(const sp_scalar *scalars, size_t n, int threads);

/*
 * The split of a scalar vector: on output *ones lists (in increasing
 * order) the indices whose scalar is 1 and *others those neither 0 nor 1
 * (both malloc'ed; free them; NULL when the count is 0).
 * Returns SP_OK, SP_ERR_NOT_CANONICAL (a scalar >= r), or SP_ERR_NOMEM;
 * nothing is allocated on error.
 */
sp_status sp_msm_split_index(size_t **ones, size_t *n_ones, size_t **others, size_t *n_others,
                             const sp_scalar *scalars, size_t n, int threads);

/*
 * The random-subset subgroup test alone (subgroup_tmpl.h), for msm.h's
 * sp_msm_G_in_subgroup_var and the tests: `rounds` >= 1 rounds on up to
 * `threads` threads (1 .. SP_MSM_MAX_THREADS).
 * Returns 1 when every round's sum is in the subgroup (so a point outside
 *   passed with probability <= 2^-rounds), 0 when one is not (some point
 *   is outside, certainly), -1 when memory or getrandom failed.
 */
int sp_msm_g1_subgroup_batch_var(const sp_g1_affine *p, size_t n, int threads, unsigned rounds);
int sp_msm_g2_subgroup_batch_var(const sp_g2_affine *p, size_t n, int threads, unsigned rounds);

/*
 * The shape of one random-subset test of n points in group g (1 or 2):
 * c rounds a block (2^c buckets), points cut into `chunks` parts, affine
 * (1) or XYZZ (0) buckets. Chosen for the least work with enough tasks
 * (blocks * chunks) for the threads.
 */
void sp_msm_subgroup_plan(unsigned *c, size_t *chunks, int *affine, size_t n, int threads,
                          unsigned rounds, int g);

#endif
