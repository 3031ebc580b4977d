/* G2 on the M-twist E'(Fp2): instantiation of curve_tmpl.h plus the G2 subgroup test. */
#include "curve/curve.h"

#define G g2
#define FIELD fp2
#define FP4 {0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, \
             0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}
/* b = 4(1 + u) and the generator, in Montgomery form. */
#define CURVE_B {{FP4}, {FP4}}
#define GEN_X {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL,  \
                 0x9894999d1a3caee9ULL, 0x6f67b7631863366bULL, 0x058191924350bcd7ULL}}, \
               {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL,  \
                 0x1b1ab6cc8541b367ULL, 0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}}
#define GEN_Y {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL,  \
                 0xbbefb5e96e0d495fULL, 0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}}, \
               {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL,  \
                 0x79495c4ec93da33aULL, 0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}}
#include "curve/curve_tmpl.h"

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
    static const sp_fp2 cx = {{{0}}, {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                                       0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}}};
    static const sp_fp2 cy = {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                                0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
                              {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                                0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}};
    sp_g2_affine s;
    sp_g2_jac t, sj;
    sp_fp2_conj(&s.x, &p->x);
    sp_fp2_mul(&s.x, &s.x, &cx);
    sp_fp2_conj(&s.y, &p->y);
    sp_fp2_mul(&s.y, &s.y, &cy);
    sp_fp2_neg(&s.y, &s.y);
    sp_g2_mul_by_z_affine_(&t, p);
    sp_g2_jac_from_affine(&sj, &s);
    return sp_g2_jac_eq(&t, &sj); /* [z]P = -psi(P) */
}
