/*
 * G1 (over Fp) and G2 (over Fp2, a sextic twist) of the build's curve.
 *
 *   BLS12-381  G1: y^2 = x^3 + 4 (cofactor h1 = (x-1)^2/3)
 *              G2: y^2 = x^3 + 4(1 + u), the M-type twist
 *   BN254      G1: y^2 = x^3 + 3 (cofactor 1: G1 is the whole curve)
 *              G2: y^2 = x^3 + 3/(9 + u), the D-type twist, cofactor 2p - r
 *   Generators: the standard ones (zcash/IETF for BLS12-381, EIP-197 for BN254).
 *
 * Coordinates:
 *   affine  (x, y); the point at infinity is (0, 0), which is not on
 *           either curve, so no flag word is needed (bases stay 96/192 bytes).
 *   jac     Jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3; infinity has Z = 0.
 *   xyzz    (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; infinity
 *           has ZZ = 0. Cheapest for accumulating many mixed additions
 *           (MSM buckets).
 *
 * All group laws here are complete over their inputs: they handle
 * infinity, P + P and P + (-P) correctly (the _var functions branch on
 * those cases). Outputs may alias inputs.
 */
#ifndef SP_CURVE_CURVE_H
#define SP_CURVE_CURVE_H

#include <stddef.h>
#include <stdint.h>
#include "field/field.h"
#include "field/fp2.h"

typedef struct { sp_fp x, y; } sp_g1_affine;
typedef struct { sp_fp x, y, z; } sp_g1_jac;
typedef struct { sp_fp x, y, zz, zzz; } sp_g1_xyzz;

typedef struct { sp_fp2 x, y; } sp_g2_affine;
typedef struct { sp_fp2 x, y, z; } sp_g2_jac;
typedef struct { sp_fp2 x, y, zz, zzz; } sp_g2_xyzz;

/*
 * The API, declared once for G in {g1, g2} by SP_DECLARE_CURVE, with
 * FE = sp_fp for g1 and sp_fp2 for g2. "inf" is the point at infinity.
 * Everything is constant time in the point values unless named _var (those
 * branch on inf, P == Q and P == -Q, and are meant for public data such as
 * MSM buckets); mul_var and the subgroup checks are variable time.
 *
 * Affine:
 *   void sp_G_generator(sp_G_affine *r)            the standard generator
 *   int  sp_G_affine_is_inf(const sp_G_affine *p)  1 when p = (0, 0)
 *   void sp_G_affine_set_inf(sp_G_affine *r)
 *   int  sp_G_affine_eq(a, b)                      1 when a = b
 *   void sp_G_affine_neg(r, p)                     r = -p (-inf = inf)
 *   int  sp_G_affine_is_on_curve(p)                1 when y^2 = x^3 + b or p is inf
 *   void sp_G_curve_rhs(FE *r, const FE *x)        r = x^3 + b
 *
 * Jacobian (any (X, Y, 0) is inf):
 *   void sp_G_jac_set_inf(r), int sp_G_jac_is_inf(p)
 *   void sp_G_jac_from_affine(sp_G_jac *r, const sp_G_affine *p)
 *   void sp_G_jac_to_affine(sp_G_affine *r, const sp_G_jac *p)   one inversion
 *   int  sp_G_jac_eq(a, b)       same point (compared without inversion)
 *   void sp_G_jac_neg(r, p)
 *   void sp_G_jac_cmov(r, a, c)  r = a when c is 1, unchanged when c is 0
 *   void sp_G_jac_dbl(r, p)      r = 2p ("dbl-2009-l", 2M + 5S)
 *   void sp_G_jac_add(r, p, q)   r = p + q, complete and constant time
 *   void sp_G_jac_add_var(r, p, q)          r = p + q ("add-2007-bl", 11M + 5S)
 *   void sp_G_jac_add_affine_var(r, p, q)   r = p + q with q affine ("madd-2007-bl")
 *
 * XYZZ (any (X, Y, 0, ZZZ) is inf):
 *   void sp_G_xyzz_set_inf(r), int sp_G_xyzz_is_inf(p)
 *   void sp_G_xyzz_from_affine(sp_G_xyzz *r, const sp_G_affine *p)
 *   void sp_G_xyzz_to_jac(sp_G_jac *r, const sp_G_xyzz *p)       2M, no inversion
 *   void sp_G_xyzz_to_affine(sp_G_affine *r, const sp_G_xyzz *p) one inversion
 *   void sp_G_xyzz_dbl(r, p)                 ("dbl-2008-s-1")
 *   void sp_G_xyzz_add_var(r, p, q)          ("add-2008-s", 12M + 2S)
 *   void sp_G_xyzz_add_affine_var(r, p, q)   q affine, the MSM bucket
 *                                            step ("madd-2008-s", 8M + 2S)
 *
 * Batches (one field inversion for all n points; inf maps to (0, 0);
 * out and in must not overlap; constant time in the values):
 *   void sp_G_batch_to_affine(sp_G_affine *out, const sp_G_jac *in, size_t n)
 *   void sp_G_xyzz_batch_to_affine(sp_G_affine *out, const sp_G_xyzz *in, size_t n)
 *
 * Scalar multiplication:
 *   void sp_G_mul_var(sp_G_jac *r, const sp_G_jac *p, const uint64_t *k, size_t k_len)
 *            r = [k]p, k given as k_len little-endian limbs (any length,
 *            k_len = 0 means 0; not reduced mod r, so [r]p = inf tests
 *            membership). Width-5 wNAF; variable time: public data only.
 *   void sp_G_mul(sp_G_jac *r, const sp_G_jac *p, const sp_fr *k)
 *            r = [k]p in constant time (fixed 4-bit window, constant-time
 *            table lookup, complete additions): for secret scalars.
 *
 * Subgroup membership (p must be on the curve; inf is in the subgroup):
 *   int sp_G_in_subgroup(const sp_G_affine *p)       fast test, exact:
 *            BLS12-381 g1: sigma(P) = [-z^2]P with sigma(x, y) = (beta x, y);
 *                      g2: psi(P) = [x]P (Scott, "A note on group membership
 *                      tests for G1, G2 and GT on BLS pairing-friendly
 *                      curves", 2021);
 *            BN254     g1: the curve equation (cofactor 1);
 *                      g2: psi(P) = [6x^2]P (the same paper's BN case).
 *            g1.c and g2.c prove each test exact on the whole curve.
 *   int sp_G_in_subgroup_slow(const sp_G_affine *p)  [r]p = inf, the reference
 *   (For many points at once, msm.h's sp_msm_G_in_subgroup_var is far cheaper.)
 */
#define SP_DECLARE_CURVE(G, FE)                                                        \
    void sp_##G##_generator(sp_##G##_affine *r);                                       \
    int sp_##G##_affine_is_inf(const sp_##G##_affine *p);                              \
    void sp_##G##_affine_set_inf(sp_##G##_affine *r);                                  \
    int sp_##G##_affine_eq(const sp_##G##_affine *a, const sp_##G##_affine *b);        \
    void sp_##G##_affine_neg(sp_##G##_affine *r, const sp_##G##_affine *p);            \
    int sp_##G##_affine_is_on_curve(const sp_##G##_affine *p);                         \
    void sp_##G##_curve_rhs(FE *r, const FE *x);                                       \
    void sp_##G##_jac_set_inf(sp_##G##_jac *r);                                        \
    int sp_##G##_jac_is_inf(const sp_##G##_jac *p);                                    \
    void sp_##G##_jac_from_affine(sp_##G##_jac *r, const sp_##G##_affine *p);          \
    void sp_##G##_jac_to_affine(sp_##G##_affine *r, const sp_##G##_jac *p);            \
    int sp_##G##_jac_eq(const sp_##G##_jac *a, const sp_##G##_jac *b);                 \
    void sp_##G##_jac_neg(sp_##G##_jac *r, const sp_##G##_jac *p);                     \
    void sp_##G##_jac_cmov(sp_##G##_jac *r, const sp_##G##_jac *a, int c);             \
    void sp_##G##_jac_dbl(sp_##G##_jac *r, const sp_##G##_jac *p);                     \
    void sp_##G##_jac_add(sp_##G##_jac *r, const sp_##G##_jac *p, const sp_##G##_jac *q); \
    void sp_##G##_jac_add_var(sp_##G##_jac *r, const sp_##G##_jac *p, const sp_##G##_jac *q); \
    void sp_##G##_jac_add_affine_var(sp_##G##_jac *r, const sp_##G##_jac *p,           \
                                     const sp_##G##_affine *q);                        \
    void sp_##G##_xyzz_set_inf(sp_##G##_xyzz *r);                                      \
    int sp_##G##_xyzz_is_inf(const sp_##G##_xyzz *p);                                  \
    void sp_##G##_xyzz_from_affine(sp_##G##_xyzz *r, const sp_##G##_affine *p);        \
    void sp_##G##_xyzz_to_jac(sp_##G##_jac *r, const sp_##G##_xyzz *p);                \
    void sp_##G##_xyzz_to_affine(sp_##G##_affine *r, const sp_##G##_xyzz *p);          \
    void sp_##G##_xyzz_dbl(sp_##G##_xyzz *r, const sp_##G##_xyzz *p);                  \
    void sp_##G##_xyzz_add_var(sp_##G##_xyzz *r, const sp_##G##_xyzz *p,               \
                               const sp_##G##_xyzz *q);                                \
    void sp_##G##_xyzz_add_affine_var(sp_##G##_xyzz *r, const sp_##G##_xyzz *p,        \
                                      const sp_##G##_affine *q);                       \
    void sp_##G##_batch_to_affine(sp_##G##_affine *out, const sp_##G##_jac *in, size_t n); \
    void sp_##G##_xyzz_batch_to_affine(sp_##G##_affine *out, const sp_##G##_xyzz *in,  \
                                       size_t n);                                      \
    void sp_##G##_mul_var(sp_##G##_jac *r, const sp_##G##_jac *p, const uint64_t *k,   \
                          size_t k_len);                                               \
    void sp_##G##_mul(sp_##G##_jac *r, const sp_##G##_jac *p, const sp_fr *k);         \
    int sp_##G##_in_subgroup(const sp_##G##_affine *p);                                \
    int sp_##G##_in_subgroup_slow(const sp_##G##_affine *p);

SP_DECLARE_CURVE(g1, sp_fp)
SP_DECLARE_CURVE(g2, sp_fp2)

/*
 * Points for tests and benchmarks, one generator for every program that
 * needs many (random.c): for G in {g1, g2},
 *   sp_status sp_G_random_batch_var(sp_G_affine *out, size_t n, sp_rng *rng)
 * On output: out[0..n) points of the subgroup, made as chained sums of 16
 *   random multiples of the generator (out[i] = out[i-1] + one of the 16),
 *   which is cheap (one addition per point) and as good as random for
 *   timing and for exercising code, but NOT uniformly distributed: never
 *   use it where an adversary or a secret is involved.
 * Returns SP_OK, or SP_ERR_NOMEM (out untouched).
 */
sp_status sp_g1_random_batch_var(sp_g1_affine *out, size_t n, sp_rng *rng) SP_WARN_UNUSED;
sp_status sp_g2_random_batch_var(sp_g2_affine *out, size_t n, sp_rng *rng) SP_WARN_UNUSED;

/* r = phi(p) = (beta x, y), the GLV endomorphism of E(Fp) with beta a
 * cube root of unity in Fp (g1.c; tools/gen_glv.py prints it): on G1 it
 * acts as multiplication by a cube root of unity lambda mod r (msm/glv.c
 * has lambda; BLS12-381: lambda = -z^2, the beta of the subgroup test).
 * inf maps to inf; r may alias p. Constant time. */
void sp_g1_endo(sp_g1_affine *r, const sp_g1_affine *p);

/* r = psi(p), the endomorphism untwist o p-power Frobenius o twist of
 * E'(Fp2): psi(x, y) = (conj(x) cx, conj(y) cy) with the curve's constants
 * (g2.c). On G2 it acts as multiplication by p mod r. inf maps to inf;
 * r may alias p. Constant time. */
void sp_g2_psi(sp_g2_affine *r, const sp_g2_affine *p);

/* 1 when G1 is the whole curve E(Fp) (BN254: cofactor 1), so that a point
 * on the curve is in G1 and a separate subgroup test adds nothing. */
#if SP_CURVE_BN254
#define SP_G1_COFACTOR_ONE 1
#else
#define SP_G1_COFACTOR_ONE 0
#endif

#if SP_CURVE_BN254
/* The BN parameter x (positive): p = 36x^4 + 36x^3 + 24x^2 + 6x + 1. */
#define SP_BN_X 0x44e992b44a6909f1ULL
#else
/* The BLS parameter is x = -SP_BLS_Z. */
#define SP_BLS_Z 0xd201000000010000ULL
#endif

#endif
