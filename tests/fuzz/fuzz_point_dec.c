/* libFuzzer target: the snarkjs JSON point form (sp_G_from_dec). Byte 0
 * picks the group (bit 0) and the subgroup check (bit 1); the rest is
 * split at '\n' into the 3 (G1) or 6 (G2) coordinate strings. The status
 * must be what the contract in curve/encode.h implies, worked out here
 * from sp_fp_from_str and the curve equation; an accepted point must
 * print back (to_dec) as canonical decimals that decode to it again. */
#include "fuzz.h"
#include "curve/encode.h"

#define MAX_STR 200

/* Splits into exactly want strings (missing ones are empty). */
static void split(char out[6][MAX_STR + 1], const uint8_t *d, size_t n, int want)
{
    int k = 0;
    size_t len = 0;
    memset(out, 0, 6 * (MAX_STR + 1));
    for (size_t i = 0; i < n && k < want; i++) {
        if (d[i] == '\n') {
            k++, len = 0;
        } else if (len < MAX_STR) {
            out[k][len++] = d[i] ? (char)d[i] : '?';
        }
    }
}

/* What the contract says sp_G_from_dec returns, and the point. */
static sp_status expected_g1(sp_g1_affine *p, const sp_fp c[3], int chk)
{
    if (sp_fp_is_zero(&c[2]))
        return sp_fp_is_zero(&c[0]) && sp_fp_is_one(&c[1]) ? (sp_g1_affine_set_inf(p), SP_OK)
                                                           : SP_ERR_BAD_ENCODING;
    if (!sp_fp_is_one(&c[2]))
        return SP_ERR_BAD_ENCODING;
    sp_fp rhs, y2;
    sp_g1_curve_rhs(&rhs, &c[0]);
    sp_fp_sqr(&y2, &c[1]);
    if (!sp_fp_eq(&rhs, &y2))
        return SP_ERR_NOT_ON_CURVE;
    p->x = c[0], p->y = c[1];
    return chk && !sp_g1_in_subgroup_slow(p) ? SP_ERR_NOT_IN_SUBGROUP : SP_OK;
}

static sp_status expected_g2(sp_g2_affine *p, const sp_fp2 c[3], int chk)
{
    if (sp_fp2_is_zero(&c[2]))
        return sp_fp2_is_zero(&c[0]) && sp_fp2_is_one(&c[1]) ? (sp_g2_affine_set_inf(p), SP_OK)
                                                             : SP_ERR_BAD_ENCODING;
    if (!sp_fp2_is_one(&c[2]))
        return SP_ERR_BAD_ENCODING;
    sp_fp2 rhs, y2;
    sp_g2_curve_rhs(&rhs, &c[0]);
    sp_fp2_sqr(&y2, &c[1]);
    if (!sp_fp2_eq(&rhs, &y2))
        return SP_ERR_NOT_ON_CURVE;
    p->x = c[0], p->y = c[1];
    return chk && !sp_g2_in_subgroup_slow(p) ? SP_ERR_NOT_IN_SUBGROUP : SP_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int g2 = data[0] & 1, chk = (data[0] >> 1) & 1, n_str = g2 ? SP_G2_DEC_STRS : SP_G1_DEC_STRS;
    char s[6][MAX_STR + 1];
    split(s, data + 1, size - 1, n_str);
    const char *in[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};

    sp_fp c[6];
    sp_status want = SP_OK;
    for (int i = 0; i < n_str && want == SP_OK; i++)
        want = sp_fp_from_str(&c[i], in[i]);
    sp_g1_affine p1, e1;
    sp_g2_affine p2, e2;
    if (want == SP_OK && !g2)
        want = expected_g1(&e1, c, chk);
    if (want == SP_OK && g2) {
        sp_fp2 c2[3] = {{c[0], c[1]}, {c[2], c[3]}, {c[4], c[5]}};
        want = expected_g2(&e2, c2, chk);
    }
    sp_status got = g2 ? sp_g2_from_dec(&p2, in, chk) : sp_g1_from_dec(&p1, in, chk);
    if (got != want)
        fprintf(stderr, "from_dec returned %s, the contract says %s\n", sp_status_str(got), sp_status_str(want));
    FUZZ_CHECK(got == want);
    if (got != SP_OK)
        return 0;
    FUZZ_CHECK(g2 ? !memcmp(&p2, &e2, sizeof p2) : !memcmp(&p1, &e1, sizeof p1));

    char out[6][SP_FP_DEC_MAX];
    if (g2)
        sp_g2_to_dec(out, &p2);
    else
        sp_g1_to_dec(out, &p1);
    const char *back_in[6] = {out[0], out[1], out[2], out[3], out[4], out[5]};
    for (int i = 0; i < n_str; i++) /* canonical decimal: no leading zero */
        FUZZ_CHECK(out[i][0] >= '0' && out[i][0] <= '9' && (out[i][0] != '0' || out[i][1] == '\0'));
    sp_g1_affine b1;
    sp_g2_affine b2;
    FUZZ_CHECK((g2 ? sp_g2_from_dec(&b2, back_in, chk) : sp_g1_from_dec(&b1, back_in, chk)) == SP_OK);
    FUZZ_CHECK(g2 ? !memcmp(&b2, &p2, sizeof b2) : !memcmp(&b1, &p1, sizeof b1));
    return 0;
}
