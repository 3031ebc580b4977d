/* Points for tests and benchmarks; contract in curve.h. */
#include <stdlib.h>
#include "curve/curve.h"

#define SP_RANDOM_STEPS 16

#define DEFINE_RANDOM_BATCH(G)                                                                  \
    sp_status sp_##G##_random_batch_var(sp_##G##_affine *out, size_t n, sp_rng *rng)            \
    {                                                                                           \
        sp_##G##_jac step[SP_RANDOM_STEPS], *acc = malloc((n ? n : 1) * sizeof *acc);           \
        sp_##G##_affine g;                                                                      \
        if (!acc)                                                                               \
            return SP_ERR_NOMEM;                                                                \
        sp_##G##_generator(&g);                                                                 \
        for (int i = 0; i < SP_RANDOM_STEPS; i++) {                                             \
            sp_fr k;                                                                            \
            uint64_t kl[SP_FR_LIMBS];                                                           \
            sp_fr_random(&k, rng);                                                              \
            sp_fr_to_canonical(kl, &k);                                                         \
            sp_##G##_jac_from_affine(&step[i], &g);                                             \
            sp_##G##_mul_var(&step[i], &step[i], kl, SP_FR_LIMBS);                              \
        }                                                                                       \
        for (size_t i = 0; i < n; i++) {                                                        \
            const sp_##G##_jac *s = &step[sp_rng_u64(rng) % SP_RANDOM_STEPS];                   \
            if (i == 0)                                                                         \
                acc[0] = *s;                                                                    \
            else                                                                                \
                sp_##G##_jac_add_var(&acc[i], &acc[i - 1], s);                                  \
        }                                                                                       \
        sp_##G##_batch_to_affine(out, acc, n);                                                  \
        free(acc);                                                                              \
        return SP_OK;                                                                           \
    }

DEFINE_RANDOM_BATCH(g1)
DEFINE_RANDOM_BATCH(g2)
