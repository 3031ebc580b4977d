/* libFuzzer target: the daemon's strict base64 decoder (sp_dmn_b64_decode,
 * witnesses in JSON job bodies). Accepted text must decode to
 * 3 * len / 4 bytes less the padding and encode back to exactly the
 * input (strict decoding has one spelling per byte string); refused text
 * must leave *out NULL and *n 0, with SP_ERR_BAD_ENCODING. Every input is
 * also encoded and decoded back (round trip of arbitrary bytes). */
#include "fuzz.h"
#include "daemon/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1); /* exact size, no NUL: the decoder must respect len */
    if (!text)
        return 0;
    memcpy(text, data, size);
    uint8_t *out = (uint8_t *)1;
    size_t n = 7;
    sp_status st = sp_dmn_b64_decode(&out, &n, text, size);
    if (st == SP_OK) {
        size_t pad = size >= 1 && text[size - 1] == '=' ? 1 + (size >= 2 && text[size - 2] == '=') : 0;
        FUZZ_CHECK(size % 4 == 0 && n == size / 4 * 3 - pad);
        char *back = malloc(sp_dmn_b64_len(n) + 1);
        FUZZ_CHECK(back != NULL);
        sp_dmn_b64_encode(back, out, n);
        FUZZ_CHECK(strlen(back) == size && !memcmp(back, text, size));
        free(back);
        free(out);
    } else {
        FUZZ_CHECK(st == SP_ERR_BAD_ENCODING && out == NULL && n == 0);
    }
    /* arbitrary bytes survive encode + decode */
    char *enc = malloc(sp_dmn_b64_len(size) + 1);
    FUZZ_CHECK(enc != NULL);
    sp_dmn_b64_encode(enc, data, size);
    FUZZ_CHECK(strlen(enc) == sp_dmn_b64_len(size));
    uint8_t *dec = NULL;
    size_t dn = 0;
    FUZZ_CHECK(sp_dmn_b64_decode(&dec, &dn, enc, strlen(enc)) == SP_OK && dn == size &&
               (!size || !memcmp(dec, data, size)));
    free(dec);
    free(enc);
    free(text);
    return 0;
}
