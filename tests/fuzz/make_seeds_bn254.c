/*
 * Writes the seed corpus of the BN254-only fuzz target point_bn254
 * (tests/fuzz/corpus/point_bn254/): valid points in the three forms it
 * reads (arkworks compressed, EVM, snarkjs), infinity, a G2 point outside
 * the subgroup, and damaged copies. The other targets' seeds come from
 * make_seeds.c (BLS12-381 builds). Built by `make CURVE=bn254 fuzz`; run
 * from the repository root:
 *     build-fuzz-bn254/fuzz/make_seeds tests/fuzz/corpus
 * Deterministic: the points are fixed multiples of the generators.
 */
#include "fuzz.h"
#include "seeds.h"
#include "curve/encode.h"

/* Selector byte (bit 0 G2, bits 1-2 form, bit 3 check) and the encoding,
 * optionally with its last byte flipped in bit 0. */
static void put_point(const char *name, const void *p, int g2, int form, int chk, int tweak)
{
    uint8_t buf[1 + SP_G2_SNARKJS_BYTES];
    size_t n;
    buf[0] = (uint8_t)(g2 | form << 1 | chk << 3);
    if (form == 0) {
        n = g2 ? SP_G2_ARK_COMPRESSED_BYTES : SP_G1_ARK_COMPRESSED_BYTES;
        g2 ? sp_g2_to_ark_compressed(buf + 1, p) : sp_g1_to_ark_compressed(buf + 1, p);
    } else if (form == 1) {
        n = g2 ? SP_G2_EVM_BYTES : SP_G1_EVM_BYTES;
        g2 ? sp_g2_to_evm(buf + 1, p) : sp_g1_to_evm(buf + 1, p);
    } else {
        n = g2 ? SP_G2_SNARKJS_BYTES : SP_G1_SNARKJS_BYTES;
        g2 ? sp_g2_to_snarkjs(buf + 1, p) : sp_g1_to_snarkjs(buf + 1, p);
    }
    if (tweak)
        buf[n] ^= 1;
    put("point_bn254", name, buf, 1 + n);
}

int main(int argc, char **argv)
{
    if (seeds_start(argc, argv))
        return 2;
    sp_g1_affine g1, inf1;
    sp_g2_affine g2, inf2, bad2;
    sp_g1_jac j1;
    sp_g2_jac j2;
    uint64_t k = 12345;
    sp_g1_generator(&g1);
    sp_g2_generator(&g2);
    sp_g1_jac_from_affine(&j1, &g1);
    sp_g1_mul_var(&j1, &j1, &k, 1);
    sp_g1_jac_to_affine(&g1, &j1);
    sp_g2_jac_from_affine(&j2, &g2);
    sp_g2_mul_var(&j2, &j2, &k, 1);
    sp_g2_jac_to_affine(&g2, &j2);
    sp_g1_affine_set_inf(&inf1);
    sp_g2_affine_set_inf(&inf2);
    for (uint64_t x = 1;; x++) { /* the first x = k + u with a point outside G2 */
        sp_fp2 rhs;
        sp_fp_set_u64(&bad2.x.c0, x);
        sp_fp_set_one(&bad2.x.c1);
        sp_g2_curve_rhs(&rhs, &bad2.x);
        if (sp_fp2_sqrt(&bad2.y, &rhs) && !sp_g2_in_subgroup_slow(&bad2))
            break;
    }
    for (int form = 0; form < 3; form++) {
        char name[64];
        snprintf(name, sizeof name, "g1-f%d", form);
        put_point(name, &g1, 0, form, 1, 0);
        snprintf(name, sizeof name, "g2-f%d", form);
        put_point(name, &g2, 1, form, 1, 0);
        snprintf(name, sizeof name, "g1-inf-f%d", form);
        put_point(name, &inf1, 0, form, 1, 0);
        snprintf(name, sizeof name, "g2-inf-f%d", form);
        put_point(name, &inf2, 1, form, 0, 0);
        snprintf(name, sizeof name, "g2-cofactor-f%d", form);
        put_point(name, &bad2, 1, form, form & 1, 0);
        snprintf(name, sizeof name, "g1-tweaked-f%d", form);
        put_point(name, &g1, 0, form, 0, 1);
    }
    return 0;
}
