#include "groth16/pointio.h"

#include <string.h>
#include "groth16/keys.h"
#include "util/par.h"

size_t sp_pt_size(sp_pt_format f, int g2)
{
    size_t fe = f == SP_PTF_ZCASH_C ? 48 : 96; /* bytes of the G1 encoding */
    return g2 ? 2 * fe : fe;
}

sp_status sp_pt_err_status(sp_pt_err e)
{
    switch (e) {
    case SP_PT_OK: return SP_OK;
    case SP_PT_INFINITY: return SP_ERR_FORMAT;
    case SP_PT_RANGE: return SP_ERR_NOT_CANONICAL;
    case SP_PT_FLAGS: return SP_ERR_BAD_ENCODING;
    case SP_PT_NO_SQRT: return SP_ERR_NO_SQRT;
    case SP_PT_OFF_CURVE: return SP_ERR_NOT_ON_CURVE;
    case SP_PT_SUBGROUP: return SP_ERR_NOT_IN_SUBGROUP;
    }
    return SP_ERR_FORMAT;
}

const char *sp_pt_err_str(sp_pt_err e)
{
    switch (e) {
    case SP_PT_OK: return "ok";
    case SP_PT_INFINITY: return "point at infinity not allowed here";
    case SP_PT_RANGE: return "coordinate >= p";
    case SP_PT_FLAGS: return "bad flag bits";
    case SP_PT_NO_SQRT: return "x is not the abscissa of a curve point";
    case SP_PT_OFF_CURVE: return "not on the curve";
    case SP_PT_SUBGROUP: return "not in the prime-order subgroup";
    }
    return "?";
}

static int all_zero(const uint8_t *b, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

/* ---- snarkjs LEM ---- */

/* The LEM bytes are the sp_fp limbs themselves (both use R = 2^384), so
 * decoding is a range check. */
static int lem_fp(sp_fp *r, const uint8_t b[48])
{
    for (int i = 0; i < SP_FP_LIMBS; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--)
            v = v << 8 | b[8 * i + j];
        r->l[i] = v;
    }
    for (int i = SP_FP_LIMBS - 1; i >= 0; i--)
        if (r->l[i] != SP_FP_MODULUS[i])
            return r->l[i] < SP_FP_MODULUS[i];
    return 0; /* equal to p */
}

static void lem_put(uint8_t b[48], const sp_fp *a)
{
    for (int i = 0; i < SP_FP_LIMBS; i++)
        for (int j = 0; j < 8; j++)
            b[8 * i + j] = (uint8_t)(a->l[i] >> (8 * j));
}

static sp_pt_err check_g1(const sp_g1_affine *p, unsigned flags)
{
    if (!sp_g1_affine_is_on_curve(p))
        return SP_PT_OFF_CURVE;
    if (!(flags & SP_G16_SKIP_SUBGROUP_CHECK) && !sp_g1_in_subgroup(p))
        return SP_PT_SUBGROUP;
    return SP_PT_OK;
}

static sp_pt_err check_g2(const sp_g2_affine *p, unsigned flags)
{
    if (!sp_g2_affine_is_on_curve(p))
        return SP_PT_OFF_CURVE;
    if (!(flags & SP_G16_SKIP_SUBGROUP_CHECK) && !sp_g2_in_subgroup(p))
        return SP_PT_SUBGROUP;
    return SP_PT_OK;
}

static sp_pt_err lem_decode(void *out, const uint8_t *in, int g2, int allow_inf, unsigned flags)
{
    if (all_zero(in, g2 ? 192 : 96)) {
        if (!allow_inf)
            return SP_PT_INFINITY;
        if (g2)
            sp_g2_affine_set_inf(out);
        else
            sp_g1_affine_set_inf(out);
        return SP_PT_OK;
    }
    if (!g2) {
        sp_g1_affine *p = out;
        if (!lem_fp(&p->x, in) || !lem_fp(&p->y, in + 48))
            return SP_PT_RANGE;
        return check_g1(p, flags);
    }
    sp_g2_affine *q = out;
    if (!lem_fp(&q->x.c0, in) || !lem_fp(&q->x.c1, in + 48) || !lem_fp(&q->y.c0, in + 96) ||
        !lem_fp(&q->y.c1, in + 144))
        return SP_PT_RANGE;
    return check_g2(q, flags);
}

static void lem_encode(uint8_t *out, const void *p, int g2)
{
    if (!g2) {
        const sp_g1_affine *a = p;
        lem_put(out, &a->x);
        lem_put(out + 48, &a->y);
        return;
    }
    const sp_g2_affine *b = p;
    lem_put(out, &b->x.c0);
    lem_put(out + 48, &b->x.c1);
    lem_put(out + 96, &b->y.c0);
    lem_put(out + 144, &b->y.c1);
}

/* ---- zcash (big-endian, flag bits in byte 0) ---- */

#define ZF_COMPRESSED 0x80
#define ZF_INFINITY 0x40
#define ZF_SORT 0x20

/* x (one Fp, or Fp2 as c1 | c0) from the encoding with the flags masked. */
static int z_fp(sp_fp *r, const uint8_t *b, int first)
{
    uint8_t t[48];
    memcpy(t, b, 48);
    if (first)
        t[0] &= 0x1f;
    return sp_fp_from_bytes_be(r, t) == SP_OK;
}

static int z_fp2(sp_fp2 *r, const uint8_t *b, int first)
{
    return z_fp(&r->c1, b, first) && z_fp(&r->c0, b + 48, 0);
}

/* y from x for a compressed point: the root whose "largest" bit is sort. */
static sp_pt_err z_recover_y(void *p, int g2, int sort)
{
    if (!g2) {
        sp_g1_affine *a = p;
        sp_fp rhs;
        sp_g1_curve_rhs(&rhs, &a->x);
        if (!sp_fp_sqrt(&a->y, &rhs))
            return SP_PT_NO_SQRT;
        if (sp_fp_is_lexicographically_largest(&a->y) != sort)
            sp_fp_neg(&a->y, &a->y);
        return SP_PT_OK;
    }
    sp_g2_affine *b = p;
    sp_fp2 rhs;
    sp_g2_curve_rhs(&rhs, &b->x);
    if (!sp_fp2_sqrt(&b->y, &rhs))
        return SP_PT_NO_SQRT;
    if (sp_fp2_is_lexicographically_largest(&b->y) != sort)
        sp_fp2_neg(&b->y, &b->y);
    return SP_PT_OK;
}

static sp_pt_err zcash_decode(void *out, const uint8_t *in, int compressed, int g2, int allow_inf,
                              unsigned flags)
{
    size_t len = sp_pt_size(compressed ? SP_PTF_ZCASH_C : SP_PTF_ZCASH_U, g2), fe = g2 ? 96 : 48;
    uint8_t f = in[0] & 0xe0;
    if (!(f & ZF_COMPRESSED) != !compressed)
        return SP_PT_FLAGS;
    if (f & ZF_INFINITY) {
        if ((f & ZF_SORT) || (in[0] & 0x1f) || !all_zero(in + 1, len - 1))
            return SP_PT_FLAGS;
        if (!allow_inf)
            return SP_PT_INFINITY;
        if (g2)
            sp_g2_affine_set_inf(out);
        else
            sp_g1_affine_set_inf(out);
        return SP_PT_OK;
    }
    if ((f & ZF_SORT) && !compressed)
        return SP_PT_FLAGS;
    sp_g1_affine *a = out;
    sp_g2_affine *b = out;
    if (g2 ? !z_fp2(&b->x, in, 1) : !z_fp(&a->x, in, 1))
        return SP_PT_RANGE;
    if (compressed) {
        sp_pt_err e = z_recover_y(out, g2, (f & ZF_SORT) != 0);
        if (e != SP_PT_OK)
            return e;
    } else if (g2 ? !z_fp2(&b->y, in + fe, 0) : !z_fp(&a->y, in + fe, 0)) {
        return SP_PT_RANGE;
    }
    /* (0, 0) without the infinity flag is no encoding of anything; it must
     * not slip through as our internal infinity. */
    if (g2 ? sp_g2_affine_is_inf(b) : sp_g1_affine_is_inf(a))
        return SP_PT_OFF_CURVE;
    return g2 ? check_g2(b, flags) : check_g1(a, flags);
}

static void zcash_encode(uint8_t *out, const void *p, int compressed, int g2)
{
    size_t len = sp_pt_size(compressed ? SP_PTF_ZCASH_C : SP_PTF_ZCASH_U, g2), fe = g2 ? 96 : 48;
    int inf = g2 ? sp_g2_affine_is_inf(p) : sp_g1_affine_is_inf(p);
    memset(out, 0, len);
    if (inf) {
        out[0] = ZF_INFINITY | (compressed ? ZF_COMPRESSED : 0);
        return;
    }
    int largest;
    if (!g2) {
        const sp_g1_affine *a = p;
        sp_fp_to_bytes_be(out, &a->x);
        if (!compressed)
            sp_fp_to_bytes_be(out + fe, &a->y);
        largest = sp_fp_is_lexicographically_largest(&a->y);
    } else {
        const sp_g2_affine *b = p;
        sp_fp_to_bytes_be(out, &b->x.c1);
        sp_fp_to_bytes_be(out + 48, &b->x.c0);
        if (!compressed) {
            sp_fp_to_bytes_be(out + fe, &b->y.c1);
            sp_fp_to_bytes_be(out + fe + 48, &b->y.c0);
        }
        largest = sp_fp2_is_lexicographically_largest(&b->y);
    }
    if (compressed)
        out[0] |= ZF_COMPRESSED | (largest ? ZF_SORT : 0);
}

/* ---- dispatch and arrays ---- */

sp_pt_err sp_pt_decode(void *out, const uint8_t *in, sp_pt_format f, int g2, int allow_inf, unsigned flags)
{
    if (f == SP_PTF_LEM)
        return lem_decode(out, in, g2, allow_inf, flags);
    return zcash_decode(out, in, f == SP_PTF_ZCASH_C, g2, allow_inf, flags);
}

void sp_pt_encode(uint8_t *out, const void *p, sp_pt_format f, int g2)
{
    if (f == SP_PTF_LEM)
        lem_encode(out, p, g2);
    else
        zcash_encode(out, p, f == SP_PTF_ZCASH_C, g2);
}

#define MAX_THREADS 256

typedef struct {
    uint8_t *out;
    const uint8_t *in;
    size_t n, in_size, out_size;
    sp_pt_format f;
    int g2, allow_inf;
    unsigned flags;
    size_t bad[MAX_THREADS];
    sp_pt_err why[MAX_THREADS];
} decode_job;

static void decode_worker(sp_par *par, int tid, void *ctx)
{
    decode_job *j = ctx;
    size_t lo, hi;
    sp_par_range(&lo, &hi, j->n, tid, par->nthreads);
    j->why[tid] = SP_PT_OK;
    for (size_t i = lo; i < hi; i++) {
        sp_pt_err e = sp_pt_decode(j->out + i * j->out_size, j->in + i * j->in_size, j->f, j->g2,
                                   j->allow_inf, j->flags);
        if (e != SP_PT_OK) {
            j->why[tid] = e;
            j->bad[tid] = i;
            return;
        }
    }
}

sp_pt_err sp_pt_decode_array(void *out, size_t *bad, const uint8_t *in, size_t n, sp_pt_format f, int g2,
                             int allow_inf, unsigned flags, int threads)
{
    decode_job j = {.out = out, .in = in, .n = n, .in_size = sp_pt_size(f, g2),
                    .out_size = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine), .f = f, .g2 = g2,
                    .allow_inf = allow_inf, .flags = flags};
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    /* A subgroup check costs ~100 us, an on-curve check well under 1 us. */
    size_t grain = (flags & SP_G16_SKIP_SUBGROUP_CHECK) ? 1 << 14 : 64;
    int nt = sp_par_threads_for(threads, n, grain);
    for (int t = 0; t < nt; t++)
        j.why[t] = SP_PT_OK;
    sp_par_run(nt, decode_worker, &j);
    /* Ranges are ordered by tid, so the first failing range has the lowest index. */
    for (int t = 0; t < nt; t++) {
        if (j.why[t] != SP_PT_OK) {
            *bad = j.bad[t];
            return j.why[t];
        }
    }
    return SP_PT_OK;
}

void sp_pt_encode_array(uint8_t *out, const void *p, size_t n, sp_pt_format f, int g2)
{
    size_t in_size = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine), out_size = sp_pt_size(f, g2);
    for (size_t i = 0; i < n; i++)
        sp_pt_encode(out + i * out_size, (const uint8_t *)p + i * in_size, f, g2);
}
