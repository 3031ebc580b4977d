/* libFuzzer target: the snarkjs verification_key.json reader
 * (sp_g16_vk_json_decode). An accepted key has its points on the curve,
 * IC finite-sized as announced, and survives encode / decode. */
#include "fuzz.h"
#include "groth16/json_io.h"

static int vk_equal(const sp_g16_vk *x, const sp_g16_vk *y)
{
    return !memcmp(&x->alpha1, &y->alpha1, sizeof x->alpha1) && !memcmp(&x->beta2, &y->beta2, sizeof x->beta2) &&
           !memcmp(&x->gamma2, &y->gamma2, sizeof x->gamma2) && !memcmp(&x->delta2, &y->delta2, sizeof x->delta2) &&
           x->n_public == y->n_public && !memcmp(x->ic, y->ic, ((size_t)x->n_public + 1) * sizeof *x->ic);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    unsigned flags = fuzz_hash(data, size) & 1 ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    sp_g16_vk vk;
    if (sp_g16_vk_json_decode(&vk, (const char *)data, size, flags, err) != SP_OK) {
        FUZZ_CHECK(vk.ic == NULL); /* "outputs are zeroed" */
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        return 0;
    }
    FUZZ_CHECK(vk.ic != NULL);
    FUZZ_CHECK(sp_g1_affine_is_on_curve(&vk.alpha1) && sp_g2_affine_is_on_curve(&vk.beta2) &&
               sp_g2_affine_is_on_curve(&vk.gamma2) && sp_g2_affine_is_on_curve(&vk.delta2));
    for (size_t i = 0; i <= vk.n_public; i++)
        FUZZ_CHECK(sp_g1_affine_is_on_curve(&vk.ic[i]));
    char *text;
    size_t len;
    FUZZ_CHECK(sp_g16_vk_json_encode(&text, &len, &vk) == SP_OK);
    sp_g16_vk back;
    FUZZ_CHECK(sp_g16_vk_json_decode(&back, text, len, flags, err) == SP_OK);
    FUZZ_CHECK(vk_equal(&back, &vk));
    sp_g16_vk_free(&back);
    free(text);
    sp_g16_vk_free(&vk);
    return 0;
}
