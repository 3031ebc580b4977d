/* G1 = E(Fp)[r]: instantiation of curve_tmpl.h plus the G1 subgroup test. */
#include "curve/curve.h"

#define G g1
#define FIELD fp

#if SP_CURVE_BN254
/* BN254: b = 3 and the generator (1, 2), in Montgomery form
 * (tools/gen_frobenius.py bn254). */
#define CURVE_B {{0x7a17caa950ad28d7ULL, 0x1f6ac17ae15521b9ULL, 0x334bea4e696bd284ULL, 0x2a1f6744ce179d8eULL}}
#define GEN_X {{0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL}}
#define GEN_Y {{0xa6ba871b8b1e1b3aULL, 0x14f1d651eb8e167bULL, 0xccdd46def0f28c58ULL, 0x1c14ef83340fbe5eULL}}
#include "curve/curve_tmpl.h"

/* A primitive cube root of unity in Fp (Montgomery form, tools/gen_glv.py bn254). */
static const sp_fp endo_beta = {{0x3350c88e13e80b9cULL, 0x7dce557cdb5e56b9ULL, 0x6001b4b8b615564aULL,
                                 0x2682e617020217e0ULL}};

int sp_g1_in_subgroup(const sp_g1_affine *p)
{
    /* #E(Fp) = p + 1 - t = r: the cofactor is 1, so every point of the
     * curve is in G1, the whole group. Checking the equation makes
     * the answer exact even off the curve. */
    return sp_g1_affine_is_on_curve(p);
}

#else
/* BLS12-381: b = 4 and the generator (x, y), in Montgomery form. */
#define CURVE_B {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, \
                  0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}}
#define GEN_X {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL, \
                0xf0ae6acdf3d0e747ULL, 0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}}
#define GEN_Y {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL, \
                0x51ac582950405194ULL, 0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}}
#include "curve/curve_tmpl.h"

/* beta, a primitive cube root of unity in Fp (Montgomery form; tools/gen_glv.py
 * bls12-381 prints it): sigma(x, y) = (beta x, y) acts on G1 as [-z^2]. */
static const sp_fp endo_beta = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                                 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};

int sp_g1_in_subgroup(const sp_g1_affine *p)
{
    /*
     * Test: [z^2]P + sigma(P) = O, with sigma(x, y) = (beta x, y) (Scott
     * 2021). Why it is exact on the whole of E(Fp), not only on G1: sigma^2
     * + sigma + 1 = 0, so alpha = [z^2] + sigma has degree z^4 - z^2 + 1 = r
     * and its dual gives dual(alpha) o alpha = [r]. alpha(P) = O therefore
     * implies [r]P = O, i.e. P in E(Fp)[r] = G1 (r^2 does not divide
     * #E(Fp) = h r, as h < r). Conversely sigma acts on G1 as a cube root
     * of unity mod r, -z^2 for this beta (the tests compare with [r]P = O),
     * so alpha is zero on G1.
     * Cost: 126 doublings. No test alpha(P) = O with alpha = A + B sigma
     * needs fewer: alpha must vanish on G1, so its degree A^2 - AB + B^2 is a
     * nonzero multiple of r ~ 2^255, so max(|A|, |B|) >= sqrt(r / 3) ~ 2^127,
     * and a chain of d doublings from P and sigma(P) only reaches
     * coefficients below ~2^(d+1). (The tests with one 64-bit multiplication
     * are for G2, where Z[psi] has rank 4.) Batches: msm.h.
     */
    sp_g1_affine s;
    sp_g1_jac t, sj;
    sp_fp_mul(&s.x, &p->x, &endo_beta);
    sp_fp_neg(&s.y, &p->y);
    sp_g1_mul_by_z_affine_(&t, p);
    sp_g1_mul_by_z_(&t, &t);
    sp_g1_jac_from_affine(&sj, &s);
    return sp_g1_jac_eq(&t, &sj); /* [z^2]P = -sigma(P) */
}
#endif

void sp_g1_endo(sp_g1_affine *r, const sp_g1_affine *p)
{
    sp_fp_mul(&r->x, &p->x, &endo_beta); /* infinity (0, 0) stays (0, 0) */
    r->y = p->y;
}
