/* libFuzzer target: what a file says about its curve (sp_curve_of_file,
 * util/curves.h), which the dispatcher of the two-curve snarkpipe runs on
 * every input file before any reader: an iden3 section table walked with
 * reads at offsets the file gives, snarkjs JSON. The bytes go through a
 * memory-backed file, as the dispatcher reads a real one. */
#include <sys/mman.h>
#include "fuzz.h"
#include "util/curves.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_curve_sniff", 0);
    FUZZ_CHECK(fd >= 0);
    FUZZ_CHECK(size == 0 || write(fd, data, size) == (ssize_t)size);
    sp_curve_id c = sp_curve_of_file(fd, size);
    FUZZ_CHECK(c == SP_CURVE_ID_NONE || c == SP_CURVE_ID_BLS12_381 || c == SP_CURVE_ID_BN254);
    /* the size given is a claim too: a longer one than the file must not matter */
    sp_curve_id c2 = sp_curve_of_file(fd, (uint64_t)size + 4096);
    FUZZ_CHECK(c2 == SP_CURVE_ID_NONE || c2 == SP_CURVE_ID_BLS12_381 || c2 == SP_CURVE_ID_BN254);
    close(fd);
    return 0;
}
