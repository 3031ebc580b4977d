/* libFuzzer target: the snarkjs public.json reader
 * (sp_g16_public_json_decode). Accepted values are reduced and survive
 * encode / decode. */
#include "fuzz.h"
#include "groth16/json_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    sp_fr *pub = (sp_fr *)1;
    size_t n = 7;
    if (sp_g16_public_json_decode(&pub, &n, (const char *)data, size, err) != SP_OK) {
        FUZZ_CHECK(pub == NULL && n == 0); /* "outputs are zeroed" */
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        return 0;
    }
    FUZZ_CHECK(pub != NULL);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(fuzz_limbs_lt(pub[i].l, SP_FR_MODULUS, SP_FR_LIMBS));
    char *text;
    size_t len;
    FUZZ_CHECK(sp_g16_public_json_encode(&text, &len, pub, n) == SP_OK);
    sp_fr *back;
    size_t n_back;
    FUZZ_CHECK(sp_g16_public_json_decode(&back, &n_back, text, len, err) == SP_OK);
    FUZZ_CHECK(n_back == n && !memcmp(back, pub, n * sizeof *pub));
    free(back);
    free(text);
    free(pub);
    return 0;
}
