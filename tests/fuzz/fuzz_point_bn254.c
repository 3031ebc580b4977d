/* libFuzzer target (BN254 builds): the point decoders of curve/encode.h.
 * Byte 0 picks the group (bit 0), the form (bits 1-2: arkworks compressed,
 * EVM, snarkjs LE-Montgomery) and whether the subgroup is checked (bit 3);
 * the rest is the encoding (a wrong length is skipped: every decoder takes
 * a fixed size). The status must be what the contract in encode.h implies,
 * worked out here from the field decoders, the curve equation and the
 * slow [r]P = O test; an accepted point must equal the one worked out here,
 * re-encode to the input, and its fast subgroup test must agree with the
 * slow one. */
#include "fuzz.h"
#include "curve/encode.h"

typedef union {
    sp_g1_affine g1;
    sp_g2_affine g2;
} any_point;

static const size_t SIZES[3][2] = {
    {SP_G1_ARK_COMPRESSED_BYTES, SP_G2_ARK_COMPRESSED_BYTES},
    {SP_G1_EVM_BYTES, SP_G2_EVM_BYTES},
    {SP_G1_SNARKJS_BYTES, SP_G2_SNARKJS_BYTES},
};

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++)
        any |= p[i];
    return any == 0;
}

/* Reads the nc Fp components of one coordinate into c[0..nc) in c0, c1
 * order: big-endian with the highest component first (EVM), little-endian
 * canonical (arkworks) or little-endian Montgomery limbs (snarkjs). */
static sp_status read_fe(sp_fp *c, const uint8_t *in, int nc, int form)
{
    for (int j = 0; j < nc; j++) {
        sp_status st;
        if (form == 1) {
            st = sp_fp_from_bytes_be(&c[j], in + SP_FP_BYTES * (nc - 1 - j));
        } else if (form == 0) {
            st = sp_fp_from_bytes_le(&c[j], in + SP_FP_BYTES * j);
        } else {
            uint64_t l[SP_FP_LIMBS];
            for (int i = 0; i < SP_FP_LIMBS; i++) {
                l[i] = 0;
                for (int k = 0; k < 8; k++)
                    l[i] |= (uint64_t)in[SP_FP_BYTES * j + 8 * i + k] << (8 * k);
            }
            /* Montgomery limbs are valid iff they are below p, like canonical ones */
            st = sp_fp_from_canonical(&c[j], l);
            if (st == SP_OK)
                memcpy(c[j].l, l, sizeof l);
        }
        if (st != SP_OK)
            return st;
    }
    return SP_OK;
}

/* What the contract says, and the point. */
static sp_status expected(any_point *p, const uint8_t *in, size_t n, int form, int g2, int chk)
{
    int nc = g2 ? 2 : 1;
    size_t cb = (size_t)nc * SP_FP_BYTES;
    sp_fp x[2], y[2];
    uint8_t buf[2 * SP_G2_ARK_COMPRESSED_BYTES];
    memcpy(buf, in, n);
    int neg = 0;
    if (form == 0) {
        uint8_t flags = buf[cb - 1] & 0xc0;
        if (flags == 0xc0)
            return SP_ERR_BAD_ENCODING;
        buf[cb - 1] &= 0x3f;
        if (flags == 0x40) {
            if (!all_zero(buf, cb))
                return SP_ERR_BAD_ENCODING;
            memset(p, 0, sizeof *p); /* inf = (0, 0) */
            return SP_OK;
        }
        neg = flags == 0x80;
    }
    sp_status st = read_fe(x, buf, nc, form);
    if (st == SP_OK && form != 0)
        st = read_fe(y, buf + cb, nc, form);
    if (st != SP_OK)
        return st;
    if (form != 0 && all_zero(buf, n)) {
        memset(p, 0, sizeof *p);
        return SP_OK;
    }
    if (g2) {
        sp_fp2 xx = {x[0], x[1]}, rhs, yy, y2;
        sp_g2_curve_rhs(&rhs, &xx);
        if (form == 0) {
            if (!sp_fp2_sqrt(&yy, &rhs))
                return SP_ERR_NO_SQRT;
            if (sp_fp2_is_lexicographically_largest(&yy) != neg)
                sp_fp2_neg(&yy, &yy);
        } else {
            yy.c0 = y[0], yy.c1 = y[1];
            sp_fp2_sqr(&y2, &yy);
            if (!sp_fp2_eq(&y2, &rhs))
                return SP_ERR_NOT_ON_CURVE;
        }
        p->g2.x = xx, p->g2.y = yy;
        return chk && !sp_g2_in_subgroup_slow(&p->g2) ? SP_ERR_NOT_IN_SUBGROUP : SP_OK;
    }
    sp_fp rhs, yy, y2;
    sp_g1_curve_rhs(&rhs, &x[0]);
    if (form == 0) {
        if (!sp_fp_sqrt(&yy, &rhs))
            return SP_ERR_NO_SQRT;
        if (sp_fp_is_lexicographically_largest(&yy) != neg)
            sp_fp_neg(&yy, &yy);
    } else {
        yy = y[0];
        sp_fp_sqr(&y2, &yy);
        if (!sp_fp_eq(&y2, &rhs))
            return SP_ERR_NOT_ON_CURVE;
    }
    p->g1.x = x[0], p->g1.y = yy;
    return chk && !sp_g1_in_subgroup_slow(&p->g1) ? SP_ERR_NOT_IN_SUBGROUP : SP_OK;
}

static sp_status decode(any_point *p, const uint8_t *in, int form, int g2, int chk)
{
    if (form == 0)
        return g2 ? sp_g2_from_ark_compressed(&p->g2, in, chk) : sp_g1_from_ark_compressed(&p->g1, in, chk);
    if (form == 1)
        return g2 ? sp_g2_from_evm(&p->g2, in, chk) : sp_g1_from_evm(&p->g1, in, chk);
    return g2 ? sp_g2_from_snarkjs(&p->g2, in, chk) : sp_g1_from_snarkjs(&p->g1, in, chk);
}

static void encode(uint8_t *out, const any_point *p, int form, int g2)
{
    if (form == 0)
        g2 ? sp_g2_to_ark_compressed(out, &p->g2) : sp_g1_to_ark_compressed(out, &p->g1);
    else if (form == 1)
        g2 ? sp_g2_to_evm(out, &p->g2) : sp_g1_to_evm(out, &p->g1);
    else
        g2 ? sp_g2_to_snarkjs(out, &p->g2) : sp_g1_to_snarkjs(out, &p->g1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int g2 = data[0] & 1, form = (data[0] >> 1) & 3, chk = (data[0] >> 3) & 1;
    if (form == 3 || size - 1 != SIZES[form][g2])
        return 0;
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    any_point got, want;
    memset(&got, 0, sizeof got);
    memset(&want, 0, sizeof want);
    sp_status st = decode(&got, in, form, g2, chk);
    sp_status ex = expected(&want, in, n, form, g2, chk);
    if (st != ex)
        fprintf(stderr, "decoder says %s, the contract %s\n", sp_status_str(st), sp_status_str(ex));
    FUZZ_CHECK(st == ex);
    if (st != SP_OK)
        return 0;
    FUZZ_CHECK(!memcmp(&got, &want, g2 ? sizeof got.g2 : sizeof got.g1));
    FUZZ_CHECK(g2 ? sp_g2_affine_is_on_curve(&got.g2) : sp_g1_affine_is_on_curve(&got.g1));
    int fast = g2 ? sp_g2_in_subgroup(&got.g2) : sp_g1_in_subgroup(&got.g1);
    int slow = g2 ? sp_g2_in_subgroup_slow(&got.g2) : sp_g1_in_subgroup_slow(&got.g1);
    FUZZ_CHECK(fast == slow && (!chk || slow));
    uint8_t again[SP_G2_SNARKJS_BYTES];
    encode(again, &got, form, g2);
    FUZZ_CHECK(!memcmp(again, in, n));
    return 0;
}
