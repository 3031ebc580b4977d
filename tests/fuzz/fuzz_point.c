/* libFuzzer target: the point decoders. Byte 0 picks the group (bit 0),
 * the form (bits 1-2: zcash compressed, zcash uncompressed, snarkjs
 * LE-Montgomery) and whether the subgroup is checked (bit 3); the rest is
 * the encoding. Two independent decoders read the same bytes:
 * curve/encode.h (sp_G_from_bytes / from_snarkjs) and groth16/pointio.h
 * (sp_pt_decode). They must agree on the status and the point; an
 * accepted point must re-encode to the input, be on the curve, and the
 * fast subgroup test must agree with the slow [r]P = inf test. When the
 * input holds several points, sp_pt_decode_array (parallel) must report
 * the same first failure as decoding them one by one. */
#include "fuzz.h"
#include "curve/encode.h"
#include "groth16/keys.h"
#include "groth16/pointio.h"

#define MAX_ARRAY 8

typedef union {
    sp_g1_affine g1;
    sp_g2_affine g2;
} any_point;

static sp_status decode_encode_h(any_point *p, const uint8_t *in, size_t n, int form, int g2, int chk)
{
    if (form == 2) {
        if (n != (g2 ? SP_G2_SNARKJS_BYTES : SP_G1_SNARKJS_BYTES))
            return SP_ERR_BAD_ENCODING;
        return g2 ? sp_g2_from_snarkjs(&p->g2, in, chk) : sp_g1_from_snarkjs(&p->g1, in, chk);
    }
    return g2 ? sp_g2_from_bytes(&p->g2, in, n, chk) : sp_g1_from_bytes(&p->g1, in, n, chk);
}

static void encode_h(uint8_t *out, const any_point *p, int form, int g2)
{
    if (form == 0)
        g2 ? sp_g2_to_bytes_compressed(out, &p->g2) : sp_g1_to_bytes_compressed(out, &p->g1);
    else if (form == 1)
        g2 ? sp_g2_to_bytes_uncompressed(out, &p->g2) : sp_g1_to_bytes_uncompressed(out, &p->g1);
    else
        g2 ? sp_g2_to_snarkjs(out, &p->g2) : sp_g1_to_snarkjs(out, &p->g1);
}

static void check_accepted(const any_point *p, const uint8_t *in, size_t n, sp_pt_format f, int form, int g2,
                           int chk)
{
    uint8_t again[192];
    int inf = g2 ? sp_g2_affine_is_inf(&p->g2) : sp_g1_affine_is_inf(&p->g1);
    FUZZ_CHECK(g2 ? sp_g2_affine_is_on_curve(&p->g2) : sp_g1_affine_is_on_curve(&p->g1));
    int fast = g2 ? sp_g2_in_subgroup(&p->g2) : sp_g1_in_subgroup(&p->g1);
    int slow = g2 ? sp_g2_in_subgroup_slow(&p->g2) : sp_g1_in_subgroup_slow(&p->g1);
    FUZZ_CHECK(fast == slow);
    FUZZ_CHECK(!chk || slow);
    encode_h(again, p, form, g2);
    FUZZ_CHECK(!memcmp(again, in, n));
    sp_pt_encode(again, p, f, g2);
    FUZZ_CHECK(!memcmp(again, in, n));
    /* Without infinity allowed, pointio refuses exactly the infinity. */
    any_point q;
    sp_pt_err e = sp_pt_decode(&q, in, f, g2, 0, chk ? 0 : SP_G16_SKIP_SUBGROUP_CHECK);
    FUZZ_CHECK(e == (inf ? SP_PT_INFINITY : SP_PT_OK));
}

/* The array decoder against the one-point decoder. */
static void check_array(const uint8_t *in, size_t n_bytes, sp_pt_format f, int g2, int chk, int allow_inf)
{
    size_t psize = sp_pt_size(f, g2), n = n_bytes / psize;
    if (n < 2)
        return;
    if (n > MAX_ARRAY)
        n = MAX_ARRAY;
    unsigned flags = chk ? 0 : SP_G16_SKIP_SUBGROUP_CHECK;
    any_point arr[MAX_ARRAY], one;
    size_t bad = (size_t)-1, want_bad = n;
    sp_pt_err want = SP_PT_OK;
    for (size_t i = 0; i < n && want == SP_PT_OK; i++) {
        want = sp_pt_decode(&one, in + i * psize, f, g2, allow_inf, flags);
        if (want != SP_PT_OK)
            want_bad = i;
    }
    /* the array holds packed sp_g1_affine / sp_g2_affine, not unions */
    sp_pt_err got = sp_pt_decode_array(arr, &bad, in, n, f, g2, allow_inf, flags, 1 + (int)(n % 3));
    FUZZ_CHECK(got == want);
    if (want != SP_PT_OK)
        FUZZ_CHECK(bad == want_bad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int g2 = data[0] & 1, form = (data[0] >> 1) & 3, chk = (data[0] >> 3) & 1;
    if (form == 3)
        return 0;
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    static const sp_pt_format formats[3] = {SP_PTF_ZCASH_C, SP_PTF_ZCASH_U, SP_PTF_LEM};
    sp_pt_format f = formats[form];

    any_point p;
    sp_status st = decode_encode_h(&p, in, n, form, g2, chk);
    size_t psize = sp_pt_size(f, g2);
    if (n == psize) {
        any_point q;
        sp_pt_err e = sp_pt_decode(&q, in, f, g2, 1, chk ? 0 : SP_G16_SKIP_SUBGROUP_CHECK);
        if (st != sp_pt_err_status(e))
            fprintf(stderr, "encode.h says %s, pointio says %s\n", sp_status_str(st), sp_pt_err_str(e));
        FUZZ_CHECK(st == sp_pt_err_status(e));
        if (st == SP_OK) {
            FUZZ_CHECK(!memcmp(&p, &q, g2 ? sizeof p.g2 : sizeof p.g1));
            check_accepted(&p, in, n, f, form, g2, chk);
        }
    } else if (form != 2 && n != (g2 ? SP_G2_UNCOMPRESSED_BYTES : SP_G1_UNCOMPRESSED_BYTES) &&
               n != (g2 ? SP_G2_COMPRESSED_BYTES : SP_G1_COMPRESSED_BYTES)) {
        FUZZ_CHECK(st == SP_ERR_BAD_ENCODING); /* no form has this length */
    }
    check_array(in, n, f, g2, chk, (data[0] >> 4) & 1);
    return 0;
}
