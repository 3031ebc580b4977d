/*
 * Radix-2 number-theoretic transforms over Fr (the scalar field of the
 * build's curve) for sizes n = 2^k, k <= SP_NTT_MAX_LOG.
 *
 * Conventions (all transforms are in place, natural order in and out):
 *   forward:        out[j] = sum_i in[i] * omega^(i*j)         (coefficients -> evaluations)
 *   inverse:        out[i] = (1/n) sum_j in[j] * omega^(-i*j)  (evaluations -> coefficients)
 *   coset_forward:  out[j] = sum_i in[i] * (g*omega^j)^i       (coefficients -> values on g*D)
 *   coset_inverse:  the inverse of coset_forward for the same g
 *   evals_to_coset: values on D -> values on g*D (= inverse, then coset_forward, fused)
 * where D = {omega^j} is the size-n subgroup and omega the domain's root.
 *
 * Two families of roots exist in the wild and give different polynomials
 * for the same evaluation vector (docs/algorithms.md §3). With
 * S = SP_NTT_TWO_ADICITY (32 for BLS12-381, 28 for BN254) and r - 1 = 2^S t:
 *   SP_NTT_ROOTS_SNARKJS:  omega_(2^S) = 5^t (ffjavascript: 5 is the
 *                          smallest quadratic non-residue mod r on both
 *                          curves; needed for snarkjs/circom zkeys);
 *   SP_NTT_ROOTS_ZKCRYPTO: omega_(2^S) = 7^t (zkcrypto bls12_381, bellman,
 *                          bellperson; for BN254 bellman_ce and halo2curves:
 *                          7 is their multiplicative generator).
 * In both, omega_n = omega_(2^S)^(2^(S-k)).
 *
 * Threads: every transform takes a thread count; small sizes run on fewer
 * threads than asked. Transforms never fail once a domain exists.
 */
#ifndef SP_NTT_NTT_H
#define SP_NTT_NTT_H

#include <stddef.h>
#include "field/field.h"
#include "snarkpipe.h"

#if SP_CURVE_BN254
#define SP_NTT_TWO_ADICITY 28 /* r - 1 = 2^28 * t, t odd */
/* A domain also needs its 2n-th root (omega_2n, the snarkjs odd-coset
 * shift), so the largest is 2^27 here. (snarkjs itself shifts by 25 instead
 * at 2^28; that size is refused rather than handled differently.) */
#define SP_NTT_MAX_LOG 27
#else
#define SP_NTT_TWO_ADICITY 32 /* r - 1 = 2^32 * t, t odd */
#define SP_NTT_MAX_LOG 28     /* largest domain a sp_ntt_domain is built for */
#endif

/* The value of each enumerator is the generator g whose g^t is the root. */
typedef enum { SP_NTT_ROOTS_SNARKJS = 5, SP_NTT_ROOTS_ZKCRYPTO = 7 } sp_ntt_roots;

/*
 * A transform domain of size n = 2^log_n with its twiddle table.
 * Owner: whoever called sp_ntt_domain_create; release with
 * sp_ntt_domain_free. Read-only after creation, so one domain may serve
 * any number of concurrent transforms. Fields are for reading only.
 */
typedef struct {
    unsigned log_n;
    size_t n;
    sp_ntt_roots roots;
    sp_fr omega;     /* primitive n-th root of unity */
    sp_fr omega_inv; /* omega^-1 */
    sp_fr omega_2n;  /* primitive 2n-th root with omega_2n^2 = omega (the
                        snarkjs odd-coset shift) */
    sp_fr n_inv;     /* 1/n */
    sp_fr gen;       /* the family's generator g (5 or 7) */
    sp_fr *tw;       /* per-stage twiddles: tw[m + j] = omega_(2m)^j for
                        each stage half-size m = 1, 2, .., n/2 and j < m
                        (n entries, tw[0] unused; NULL when n == 1), so
                        every stage reads its twiddles contiguously */
    size_t block;    /* size of the cache blocks, <= n */
} sp_ntt_domain;

/*
 * Returns in *out the primitive 2^log_n-th root of unity of the family.
 * SP_ERR_INVALID_ARG when log_n > SP_NTT_TWO_ADICITY.
 */
sp_status sp_ntt_root_of_unity(sp_fr *out, unsigned log_n, sp_ntt_roots roots) SP_WARN_UNUSED;

/*
 * On output: *out is a new domain of size 2^log_n (twiddles computed with
 * nthreads threads). Returns SP_ERR_INVALID_ARG when log_n >
 * SP_NTT_MAX_LOG or roots is not a family above, SP_ERR_NOMEM when the
 * twiddle table (32 * n bytes) cannot be allocated; *out is NULL then.
 */
sp_status sp_ntt_domain_create(sp_ntt_domain **out, unsigned log_n, sp_ntt_roots roots,
                               int nthreads) SP_WARN_UNUSED;
/* As sp_ntt_domain_create with the cache block set to 2^log_block
 * (clamped to [1, n]) instead of the tuned default: for tests, which use
 * small blocks to reach every code path at small n, and for tuning. */
sp_status sp_ntt_domain_create_blocked(sp_ntt_domain **out, unsigned log_n, sp_ntt_roots roots,
                                       unsigned log_block, int nthreads) SP_WARN_UNUSED;
/* Frees d and its tables; NULL is allowed. */
void sp_ntt_domain_free(sp_ntt_domain *d);

/* a[0..d->n) is transformed in place, as described at the top. */
void sp_ntt_forward(const sp_ntt_domain *d, sp_fr *a, int nthreads);
void sp_ntt_inverse(const sp_ntt_domain *d, sp_fr *a, int nthreads);
/* shift must be nonzero. */
void sp_ntt_coset_forward(const sp_ntt_domain *d, sp_fr *a, const sp_fr *shift, int nthreads);
void sp_ntt_coset_inverse(const sp_ntt_domain *d, sp_fr *a, const sp_fr *shift, int nthreads);
void sp_ntt_evals_to_coset(const sp_ntt_domain *d, sp_fr *a, const sp_fr *shift, int nthreads);

#endif
