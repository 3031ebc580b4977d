/* libFuzzer target: the WebAssembly loader and interpreter behind `wtns
 * calculate` (sp_circom_open: parsing, validation, instantiation, the
 * runtime's constants; then a witness for the multiplier's inputs). A
 * refusal or a trap must come with a message; a module that loads must
 * run to a witness or to an error within the limits; a witness has the
 * size of its header. Small limits keep each input fast (memory 16 MiB,
 * 1 s, 1000 nested calls). */
#include "fuzz.h"
#include "wasm/circom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN] = "";
    sp_circom *c = (sp_circom *)1; /* the loader must set it either way */
    sp_circom_opts o = sp_circom_opts_default();
    o.lim.max_pages = 256;
    o.lim.max_seconds = 1;
    o.lim.max_call_depth = 1000;
    o.lim.max_stack = 1u << 16;
    o.log_to_stderr = 0;
    o.natives = (int)(fuzz_hash(data, size) & 1);
    sp_status st = sp_circom_open(&c, data, size, &o, err);
    if (st != SP_OK) {
        FUZZ_CHECK(c == NULL && err[0] && memchr(err, 0, sizeof err));
        return 0;
    }
    static const char input[] = "{\"a\": \"3\", \"b\": [\"11\"]}";
    uint8_t *w = NULL;
    size_t n = 0;
    st = sp_circom_witness(c, input, sizeof input - 1, &w, &n, err);
    if (st == SP_OK) {
        uint32_t n32 = sp_circom_n32(c), ws = sp_circom_witness_size(c);
        FUZZ_CHECK(n == 4 * ((size_t)ws * n32 + n32 + 11) && !memcmp(w, "wtns", 4));
        sp_huge_free(w);
    } else {
        FUZZ_CHECK(w == NULL && err[0] && memchr(err, 0, sizeof err));
    }
    sp_circom_close(c);
    return 0;
}
