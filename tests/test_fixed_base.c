/* Fixed-base multiplication (setup) against plain wNAF scalar multiplication. */
#include "curve/curve.h"
#include "groth16/fixed_base.h"
#include "test.h"

#define N_RANDOM 200

static void edge_scalars(sp_fr *k)
{
    sp_fr_set_zero(&k[0]);
    sp_fr_set_one(&k[1]);
    sp_fr_set_one(&k[2]);
    sp_fr_neg(&k[2], &k[2]); /* r - 1 */
    sp_fr_set_u64(&k[3], 255);
    sp_fr_set_u64(&k[4], 256);
}

#define CHECK_GROUP(G)                                                                  \
    static void check_##G(sp_rng *rng, int threads)                                     \
    {                                                                                   \
        sp_fr k[N_RANDOM];                                                              \
        sp_##G##_affine out[N_RANDOM], base;                                            \
        sp_##G##_jac gj, ref;                                                           \
        sp_##G##_generator(&base);                                                      \
        sp_##G##_jac_from_affine(&gj, &base);                                           \
        for (int i = 0; i < N_RANDOM; i++)                                              \
            sp_fr_random(&k[i], rng);                                                   \
        edge_scalars(k);                                                                \
        CHECK(sp_##G##_fixed_base_mul_var(out, &base, k, N_RANDOM, threads) == SP_OK);  \
        for (int i = 0; i < N_RANDOM; i++) {                                            \
            uint64_t l[4];                                                              \
            sp_##G##_affine r;                                                          \
            sp_fr_to_canonical(l, &k[i]);                                               \
            sp_##G##_mul_var(&ref, &gj, l, 4);                                          \
            sp_##G##_jac_to_affine(&r, &ref);                                           \
            CHECKF(sp_##G##_affine_eq(&r, &out[i]), #G " scalar %d threads %d", i, threads); \
        }                                                                               \
    }
CHECK_GROUP(g1)
CHECK_GROUP(g2)

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_fixed_base", &rng);
    check_g1(&rng, 1);
    check_g1(&rng, 3);
    check_g2(&rng, 2);
    CHECK(sp_g1_fixed_base_mul_var(NULL, NULL, NULL, 0, 1) == SP_OK);
    return sp_test_done();
}
