/*
 * Point encodings of one group, included twice by encode.c. The includer
 * defines G (g1 or g2), FIELD (fp or fp2), NC (Fp components per
 * coordinate) and COMP(a, i), the address of component i (c0, c1 order)
 * of the coordinate *a. This file has the forms of both curves and the
 * helpers; the curve's own forms are in encode_zcash_tmpl.h (BLS12-381)
 * and encode_bn254_tmpl.h, included at the end. Contracts are in encode.h.
 */
#include "curve/names.h"

#define CB (NC * SP_FP_BYTES) /* one coordinate */

/* Big-endian, the highest component first (c1 | c0): the zcash and the
 * EVM order. */
static void FN(fe_to_be_)(uint8_t *out, const FE *a)
{
    for (int j = 0; j < NC; j++)
        sp_fp_to_bytes_be(out + SP_FP_BYTES * j, COMP(a, NC - 1 - j));
}

static sp_status FN(fe_from_be_)(FE *r, const uint8_t *in)
{
    for (int j = 0; j < NC; j++) {
        sp_status s = sp_fp_from_bytes_be(COMP(r, NC - 1 - j), in + SP_FP_BYTES * j);
        if (s != SP_OK)
            return s;
    }
    return SP_OK;
}

/* y^2 = x^3 + b itself: unlike affine_is_on_curve, (0, 0) fails. */
static int FN(satisfies_)(const AFF *t)
{
    FE l, rhs;
    FEF(sqr)(&l, &t->y);
    FN(curve_rhs)(&rhs, &t->x);
    return FEF(eq)(&l, &rhs);
}

static sp_status FN(finish_)(AFF *r, const AFF *t, int check_subgroup)
{
    if (check_subgroup && !FN(in_subgroup)(t))
        return SP_ERR_NOT_IN_SUBGROUP;
    *r = *t;
    return SP_OK;
}

void FN(to_snarkjs)(uint8_t out[2 * CB], const AFF *p)
{
    /* inf is (0, 0), whose limbs are the all-zero encoding. */
    for (int j = 0; j < NC; j++) {
        sp_limbs_to_le(out + SP_FP_BYTES * j, COMP(&p->x, j)->l, SP_FP_LIMBS);
        sp_limbs_to_le(out + CB + SP_FP_BYTES * j, COMP(&p->y, j)->l, SP_FP_LIMBS);
    }
}

static sp_status FN(fe_from_le_mont_)(FE *r, const uint8_t *in)
{
    for (int j = 0; j < NC; j++) {
        uint64_t l[SP_FP_LIMBS];
        sp_limbs_from_le(l, in + SP_FP_BYTES * j, SP_FP_LIMBS);
        if (!sp_limbs_lt(l, SP_FP_MODULUS, SP_FP_LIMBS))
            return SP_ERR_NOT_CANONICAL;
        memcpy(COMP(r, j)->l, l, sizeof l);
    }
    return SP_OK;
}

sp_status FN(from_snarkjs)(AFF *r, const uint8_t in[2 * CB], int check_subgroup)
{
    AFF t;
    sp_status s = FN(fe_from_le_mont_)(&t.x, in);
    if (s == SP_OK)
        s = FN(fe_from_le_mont_)(&t.y, in + CB);
    if (s != SP_OK)
        return s;
    if (!FN(affine_is_on_curve)(&t)) /* inf counts as on the curve */
        return SP_ERR_NOT_ON_CURVE;
    return FN(finish_)(r, &t, check_subgroup);
}

void FN(to_dec)(char out[][SP_FP_DEC_MAX], const AFF *p)
{
    FE c[3] = {p->x, p->y};
    FEF(set_one)(&c[2]);
    if (FN(affine_is_inf)(p)) { /* the projective (0 : 1 : 0) */
        FEF(set_one)(&c[1]);
        FEF(set_zero)(&c[2]);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < NC; j++)
            sp_fp_to_dec(out[NC * i + j], SP_FP_DEC_MAX, COMP(&c[i], j));
}

sp_status FN(from_dec)(AFF *r, const char *const in[], int check_subgroup)
{
    FE c[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < NC; j++) {
            sp_status s = sp_fp_from_str(COMP(&c[i], j), in[NC * i + j]);
            if (s != SP_OK)
                return s;
        }
    AFF t = {c[0], c[1]};
    if (FEF(is_zero)(&c[2])) {
        if (!FEF(is_zero)(&c[0]) || !FEF(is_one)(&c[1]))
            return SP_ERR_BAD_ENCODING;
        FN(affine_set_inf)(r);
        return SP_OK;
    }
    if (!FEF(is_one)(&c[2]))
        return SP_ERR_BAD_ENCODING;
    if (!FN(satisfies_)(&t))
        return SP_ERR_NOT_ON_CURVE;
    return FN(finish_)(r, &t, check_subgroup);
}

#if SP_CURVE_BN254
#include "curve/encode_bn254_tmpl.h"
#else
#include "curve/encode_zcash_tmpl.h"
#endif

#undef CB
