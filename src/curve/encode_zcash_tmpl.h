/*
 * The zcash point form of one group (BLS12-381 only), included by
 * encode_tmpl.h, which defines CB, the helpers and the includer's macros;
 * encode.c defines the flag bits FLAG_C, FLAG_INF, FLAG_SIGN. Contracts
 * in encode.h.
 */

void FN(to_bytes_compressed)(uint8_t out[CB], const AFF *p)
{
    memset(out, 0, CB);
    if (FN(affine_is_inf)(p)) {
        out[0] = FLAG_C | FLAG_INF;
        return;
    }
    FN(fe_to_be_)(out, &p->x);
    out[0] |= FLAG_C | (FEF(is_lexicographically_largest)(&p->y) ? FLAG_SIGN : 0);
}

void FN(to_bytes_uncompressed)(uint8_t out[2 * CB], const AFF *p)
{
    memset(out, 0, 2 * CB);
    if (FN(affine_is_inf)(p)) {
        out[0] = FLAG_INF;
        return;
    }
    FN(fe_to_be_)(out, &p->x);
    FN(fe_to_be_)(out + CB, &p->y);
}

/* Decodes a non-inf encoding whose flags were checked. */
static sp_status FN(decode_point_)(AFF *t, const uint8_t *in, int compressed, int sign)
{
    uint8_t x[CB];
    memcpy(x, in, CB);
    x[0] &= 0x1f;
    sp_status s = FN(fe_from_be_)(&t->x, x);
    if (s != SP_OK)
        return s;
    if (!compressed) {
        s = FN(fe_from_be_)(&t->y, in + CB);
        if (s != SP_OK)
            return s;
        return FN(satisfies_)(t) ? SP_OK : SP_ERR_NOT_ON_CURVE;
    }
    FE rhs;
    FN(curve_rhs)(&rhs, &t->x);
    if (!FEF(sqrt)(&t->y, &rhs))
        return SP_ERR_NO_SQRT;
    if (FEF(is_lexicographically_largest)(&t->y) != sign)
        FEF(neg)(&t->y, &t->y);
    return SP_OK;
}

sp_status FN(from_bytes)(AFF *r, const uint8_t *in, size_t in_len, int check_subgroup)
{
    if (in_len != CB && in_len != 2 * CB)
        return SP_ERR_BAD_ENCODING;
    int compressed = in_len == CB;
    int c = (in[0] & FLAG_C) != 0, inf = (in[0] & FLAG_INF) != 0, sign = (in[0] & FLAG_SIGN) != 0;
    if (c != compressed || (sign && (inf || !compressed)))
        return SP_ERR_BAD_ENCODING;
    AFF t;
    if (inf) {
        uint8_t any = in[0] & 0x1f;
        for (size_t i = 1; i < in_len; i++)
            any |= in[i];
        if (any)
            return SP_ERR_BAD_ENCODING;
        FN(affine_set_inf)(r);
        return SP_OK;
    }
    sp_status s = FN(decode_point_)(&t, in, compressed, sign);
    if (s != SP_OK)
        return s;
    return FN(finish_)(r, &t, check_subgroup);
}
