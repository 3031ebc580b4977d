/*
 * The EVM and arkworks point forms of one group (BN254 only), included by
 * encode_tmpl.h, which defines CB, the helpers and the includer's macros;
 * encode.c defines the arkworks flag bits ARK_NEG and ARK_INF. Contracts
 * in encode.h.
 */

static int FN(all_zero_)(const uint8_t *in, size_t n)
{
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++)
        any |= in[i];
    return any == 0;
}

void FN(to_evm)(uint8_t out[2 * CB], const AFF *p)
{
    /* inf is (0, 0): the all-zero encoding. */
    FN(fe_to_be_)(out, &p->x);
    FN(fe_to_be_)(out + CB, &p->y);
}

sp_status FN(from_evm)(AFF *r, const uint8_t in[2 * CB], int check_subgroup)
{
    AFF t;
    sp_status s = FN(fe_from_be_)(&t.x, in);
    if (s == SP_OK)
        s = FN(fe_from_be_)(&t.y, in + CB);
    if (s != SP_OK)
        return s;
    if (FN(all_zero_)(in, 2 * CB)) {
        FN(affine_set_inf)(r);
        return SP_OK;
    }
    if (!FN(satisfies_)(&t))
        return SP_ERR_NOT_ON_CURVE;
    return FN(finish_)(r, &t, check_subgroup);
}

/* Little-endian canonical components, c0 first (arkworks' Fp2 order). */
static void FN(fe_to_le_)(uint8_t *out, const FE *a)
{
    for (int j = 0; j < NC; j++)
        sp_fp_to_bytes_le(out + SP_FP_BYTES * j, COMP(a, j));
}

void FN(to_ark_compressed)(uint8_t out[CB], const AFF *p)
{
    if (FN(affine_is_inf)(p)) {
        memset(out, 0, CB);
        out[CB - 1] = ARK_INF;
        return;
    }
    FN(fe_to_le_)(out, &p->x);
    out[CB - 1] |= FEF(is_lexicographically_largest)(&p->y) ? ARK_NEG : 0;
}

sp_status FN(from_ark_compressed)(AFF *r, const uint8_t in[CB], int check_subgroup)
{
    uint8_t flags = in[CB - 1] & (ARK_NEG | ARK_INF);
    if (flags == (ARK_NEG | ARK_INF))
        return SP_ERR_BAD_ENCODING;
    if (flags == ARK_INF) {
        uint8_t x[CB];
        memcpy(x, in, CB);
        x[CB - 1] &= (uint8_t)~ARK_INF;
        if (!FN(all_zero_)(x, CB))
            return SP_ERR_BAD_ENCODING;
        FN(affine_set_inf)(r);
        return SP_OK;
    }
    uint8_t x[CB];
    memcpy(x, in, CB);
    x[CB - 1] &= (uint8_t)~ARK_NEG;
    AFF t;
    for (int j = 0; j < NC; j++) {
        sp_status s = sp_fp_from_bytes_le(COMP(&t.x, j), x + SP_FP_BYTES * j);
        if (s != SP_OK)
            return s;
    }
    FE rhs;
    FN(curve_rhs)(&rhs, &t.x);
    if (!FEF(sqrt)(&t.y, &rhs))
        return SP_ERR_NO_SQRT;
    if (FEF(is_lexicographically_largest)(&t.y) != (flags == ARK_NEG))
        FEF(neg)(&t.y, &t.y);
    return FN(finish_)(r, &t, check_subgroup);
}
