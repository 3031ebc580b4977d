/* libFuzzer target: the circom .wtns reader (sp_wtns_parse). An accepted
 * witness starts with 1, holds reduced values and survives a write / read
 * round trip unchanged. */
#include "fuzz.h"
#include "r1cs/r1cs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    sp_fr *w = (sp_fr *)1; /* the reader must set it either way */
    size_t n = 7;
    sp_status st = sp_wtns_parse(&w, &n, data, size, err);
    if (st != SP_OK) {
        FUZZ_CHECK(w == NULL && n == 0);
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        return 0;
    }
    FUZZ_CHECK(w != NULL && n >= 1 && sp_fr_is_one(&w[0]));
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(fuzz_limbs_lt(w[i].l, SP_FR_MODULUS, SP_FR_LIMBS));

    const char *tmp = fuzz_tmp_path();
    FUZZ_CHECK(sp_wtns_write(tmp, w, n, err) == SP_OK);
    sp_fr *back;
    size_t n_back;
    FUZZ_CHECK(sp_wtns_read(&back, &n_back, tmp, err) == SP_OK);
    FUZZ_CHECK(n_back == n && !memcmp(back, w, n * sizeof *w));
    free(back);
    free(w);
    return 0;
}
