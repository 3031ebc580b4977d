/* libFuzzer target: the bellperson .vk reader (sp_bp_vk_parse). An
 * accepted key must write back to exactly the input bytes. */
#include "fuzz.h"
#include "groth16/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    unsigned flags = fuzz_hash(data, size) & 1 ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    sp_g16_vk vk;
    if (sp_bp_vk_parse(&vk, data, size, flags, err) != SP_OK) {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        return 0;
    }
    FUZZ_CHECK(vk.ic != NULL);
    for (size_t i = 0; i <= vk.n_public; i++)
        FUZZ_CHECK(sp_g1_affine_is_on_curve(&vk.ic[i]) && !sp_g1_affine_is_inf(&vk.ic[i]));
    const char *tmp = fuzz_tmp_path();
    FUZZ_CHECK(sp_bp_vk_write(tmp, &vk, err) == SP_OK);
    size_t n;
    uint8_t *back = fuzz_slurp(tmp, &n);
    FUZZ_CHECK(n == size && !memcmp(back, data, size));
    free(back);
    sp_g16_vk_free(&vk);
    return 0;
}
