/* libFuzzer target: the 192-byte bellperson proof decoder
 * (sp_bp_proof_decode) on the first 192 bytes of the input. An accepted
 * proof must have finite points on the curve (in the subgroup unless the
 * check was skipped, confirmed by the slow [r]P test) and re-encode to
 * exactly the input bytes. */
#include "fuzz.h"
#include "groth16/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < SP_BP_PROOF_BYTES)
        return 0;
    char err[SP_ERR_LEN];
    unsigned flags = size > SP_BP_PROOF_BYTES && (data[SP_BP_PROOF_BYTES] & 1) ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    sp_g16_proof p;
    if (sp_bp_proof_decode(&p, data, flags, err) != SP_OK) {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        return 0;
    }
    FUZZ_CHECK(!sp_g1_affine_is_inf(&p.a) && !sp_g2_affine_is_inf(&p.b) && !sp_g1_affine_is_inf(&p.c));
    FUZZ_CHECK(sp_g1_affine_is_on_curve(&p.a) && sp_g2_affine_is_on_curve(&p.b) && sp_g1_affine_is_on_curve(&p.c));
    if (!flags)
        FUZZ_CHECK(sp_g1_in_subgroup_slow(&p.a) && sp_g2_in_subgroup_slow(&p.b) && sp_g1_in_subgroup_slow(&p.c));
    uint8_t again[SP_BP_PROOF_BYTES];
    sp_bp_proof_encode(again, &p);
    FUZZ_CHECK(!memcmp(again, data, SP_BP_PROOF_BYTES));
    return 0;
}
