/* libFuzzer target: the snarkjs proof.json reader
 * (sp_g16_proof_json_decode). An accepted proof has its points on the
 * curve (in the subgroup unless skipped) and survives encode / decode. */
#include "fuzz.h"
#include "groth16/json_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    unsigned flags = fuzz_hash(data, size) & 1 ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    sp_g16_proof p;
    if (sp_g16_proof_json_decode(&p, (const char *)data, size, flags, err) != SP_OK) {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        return 0;
    }
    FUZZ_CHECK(sp_g1_affine_is_on_curve(&p.a) && sp_g2_affine_is_on_curve(&p.b) && sp_g1_affine_is_on_curve(&p.c));
    if (!flags)
        FUZZ_CHECK(sp_g1_in_subgroup(&p.a) && sp_g2_in_subgroup(&p.b) && sp_g1_in_subgroup(&p.c));
    char *text;
    size_t len;
    FUZZ_CHECK(sp_g16_proof_json_encode(&text, &len, &p) == SP_OK);
    sp_g16_proof q;
    FUZZ_CHECK(sp_g16_proof_json_decode(&q, text, len, flags, err) == SP_OK);
    FUZZ_CHECK(!memcmp(&p, &q, sizeof p));
    free(text);
    return 0;
}
