/* G2 on the sextic twist E'(Fp2): instantiation of curve_tmpl.h plus psi
 * and the G2 subgroup test. */
#include "curve/curve.h"

#define G g2
#define FIELD fp2

#if SP_CURVE_BN254
/* BN254, D-type twist: b' = 3 / (9 + u), the generator of EIP-197, and the
 * coefficients of psi (Montgomery form, tools/gen_frobenius.py bn254). */
#define CURVE_B {{{0x3bf938e377b802a8ULL, 0x020b1b273633535dULL, 0x26b7edf049755260ULL, 0x2514c6324384a86dULL}}, \
                 {{0x38e7ecccd1dcff67ULL, 0x65f0b37d93ce0d3eULL, 0xd749d0dd22ac00aaULL, 0x0141b9ce4a688d4dULL}}}
#define GEN_X {{{0x8e83b5d102bc2026ULL, 0xdceb1935497b0172ULL, 0xfbb8264797811adfULL, 0x19573841af96503bULL}}, \
               {{0xafb4737da84c6140ULL, 0x6043dd5a5802d8c4ULL, 0x09e950fc52a02f86ULL, 0x14fef0833aea7b6bULL}}}
#define GEN_Y {{{0x619dfa9d886be9f6ULL, 0xfe7fd297f59e9b78ULL, 0xff9e1a62231b7dfeULL, 0x28fd7eebae9e4206ULL}}, \
               {{0x64095b56c71856eeULL, 0xdc57f922327d3cbbULL, 0x55f935be33351076ULL, 0x0da4a0e693fd6482ULL}}}
/* The untwist is (x, y) -> (x w^2, y w^3); the Frobenius takes w^2 to
 * w^2 xi^((p-1)/3) and w^3 to w^3 xi^((p-1)/2). */
static const sp_fp2 psi_cx = {{{0xb5773b104563ab30ULL, 0x347f91c8a9aa6454ULL, 0x7a007127242e0991ULL, 0x1956bcd8118214ecULL}},
                              {{0x6e849f1ea0aa4757ULL, 0xaa1c7b6d89f89141ULL, 0xb6e713cdfae0ca3aULL, 0x26694fbb4e82ebc3ULL}}};
static const sp_fp2 psi_cy = {{{0xe4bbdd0c2936b629ULL, 0xbb30f162e133bacbULL, 0x31a9d1b6f9645366ULL, 0x253570bea500f8ddULL}},
                              {{0xa1d77ce45ffe77c7ULL, 0x07affd117826d1dbULL, 0x6d16bd27bb7edc6bULL, 0x2c87200285defeccULL}}};
#else
#define FP4 {0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, \
             0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}
/* BLS12-381, M-type twist: b' = 4(1 + u) and the generator, in Montgomery form. */
#define CURVE_B {{FP4}, {FP4}}
#define GEN_X {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL,  \
                 0x9894999d1a3caee9ULL, 0x6f67b7631863366bULL, 0x058191924350bcd7ULL}}, \
               {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL,  \
                 0x1b1ab6cc8541b367ULL, 0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}}
#define GEN_Y {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL,  \
                 0xbbefb5e96e0d495fULL, 0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}}, \
               {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL,  \
                 0x79495c4ec93da33aULL, 0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}}
/* The untwist is (x, y) -> (x / w^2, y / w^3): cx = 1/(1+u)^((p-1)/3),
 * cy = 1/(1+u)^((p-1)/2). */
static const sp_fp2 psi_cx = {{{0}}, {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                                       0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}}};
static const sp_fp2 psi_cy = {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                                0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
                              {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                                0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}};
#endif
#include "curve/curve_tmpl.h"

void sp_g2_psi(sp_g2_affine *r, const sp_g2_affine *p)
{
    sp_fp2_conj(&r->x, &p->x);
    sp_fp2_mul(&r->x, &r->x, &psi_cx);
    sp_fp2_conj(&r->y, &p->y);
    sp_fp2_mul(&r->y, &r->y, &psi_cy);
}

#if SP_CURVE_BN254
int sp_g2_in_subgroup(const sp_g2_affine *p)
{
    /*
     * Test: psi(P) = [6x^2]P (Scott 2021). Exact on the whole of E'(Fp2):
     * psi satisfies psi^2 - t psi + p = 0 (conjugating the p-power
     * Frobenius of E, whose trace is t = 6x^2 + 1), so psi(P) = [t - 1]P
     * gives [(t-1)^2 - t(t-1) + p]P = [p + 1 - t]P = [#E(Fp)]P = [r]P = O.
     * #E'(Fp2) = h2 r with h2 = 2p - r, and r does not divide h2 (it would
     * divide 2p), so E'(Fp2)[r] is cyclic of order r: P is in G2.
     * Conversely psi acts on G2 as [p] = [6x^2 + r], so G2 passes.
     * Cost: [6x^2] is 127 bits (127 doublings, about 21 additions).
     */
    static const uint64_t six_x2[2] = {0xf83e9682e87cfd46ULL, 0x6f4d8248eeb859fbULL};
    sp_g2_affine s;
    sp_g2_jac t, sj;
    sp_g2_psi(&s, p);
    sp_g2_jac_from_affine(&t, p);
    sp_g2_mul_var(&t, &t, six_x2, 2);
    sp_g2_jac_from_affine(&sj, &s);
    return sp_g2_jac_eq(&t, &sj);
}
#else
int sp_g2_in_subgroup(const sp_g2_affine *p)
{
    /*
     * Test: psi(P) = [x]P with x = -z (Scott 2021), psi = untwist o
     * Frobenius o twist: psi(x, y) = (conj(x) cx, conj(y) cy) with
     * cx = 1/(1+u)^((p-1)/3), cy = 1/(1+u)^((p-1)/2).
     * Exact on the whole of E'(Fp2): psi^2 - t psi + p = 0 with the trace
     * t = x + 1, so psi(P) = [x]P gives [x^2 - t x + p]P = [p - x]P =
     * [h1 r]P = O (p = h1 r + x, h1 = (x - 1)^2 / 3 the G1 cofactor). The
     * order of P also divides #E'(Fp2) = h2 r, and gcd(h1, h2) = 1 with r
     * not dividing h2 (computed from the parameters), so it divides r: P is
     * in G2. On G2, psi acts as [p] = [x] mod r, so G2 passes.
     * Cost: 63 doublings, the least for such a test: Z[psi] has rank 4, so
     * its elements vanishing on G2 need coefficients of at least ~r^(1/4).
     */
    sp_g2_affine s;
    sp_g2_jac t, sj;
    sp_g2_psi(&s, p);
    sp_fp2_neg(&s.y, &s.y);
    sp_g2_mul_by_z_affine_(&t, p);
    sp_g2_jac_from_affine(&sj, &s);
    return sp_g2_jac_eq(&t, &sj); /* [z]P = -psi(P) */
}
#endif
