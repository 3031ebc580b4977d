#include "groth16/pointio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "curve/encode.h"
#include "groth16/keys.h"
#include "msm/msm.h"
#include "util/par.h"
#include "util/progress.h"

size_t sp_pt_size(sp_pt_format f, int g2)
{
    size_t fe = f == SP_PTF_ZCASH_C ? SP_FP_BYTES : 2 * SP_FP_BYTES; /* bytes of the G1 encoding */
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

/* ---- dispatch and arrays ---- */

static sp_pt_err from_status(sp_status st)
{
    switch (st) {
    case SP_OK: return SP_PT_OK;
    case SP_ERR_NOT_CANONICAL: return SP_PT_RANGE;
    case SP_ERR_NO_SQRT: return SP_PT_NO_SQRT;
    case SP_ERR_NOT_ON_CURVE: return SP_PT_OFF_CURVE;
    case SP_ERR_NOT_IN_SUBGROUP: return SP_PT_SUBGROUP;
    default: return SP_PT_FLAGS;
    }
}

sp_pt_err sp_pt_decode(void *out, const uint8_t *in, sp_pt_format f, int g2, int allow_inf, unsigned flags)
{
    int sub = !(flags & SP_G16_SKIP_SUBGROUP_CHECK);
    size_t n = sp_pt_size(f, g2);
    sp_status st;
    if (f == SP_PTF_LEM)
        st = g2 ? sp_g2_from_snarkjs(out, in, sub) : sp_g1_from_snarkjs(out, in, sub);
    else
#if SP_CURVE_BN254
        st = SP_ERR_BAD_ENCODING; /* the zcash forms are BLS12-381's (curve/encode.h) */
    (void)n;
#else
        st = g2 ? sp_g2_from_bytes(out, in, n, sub) : sp_g1_from_bytes(out, in, n, sub);
#endif
    if (st != SP_OK)
        return from_status(st);
    if (!allow_inf && (g2 ? sp_g2_affine_is_inf(out) : sp_g1_affine_is_inf(out)))
        return SP_PT_INFINITY;
    return SP_PT_OK;
}

void sp_pt_encode(uint8_t *out, const void *p, sp_pt_format f, int g2)
{
    if (f == SP_PTF_LEM) {
        if (g2)
            sp_g2_to_snarkjs(out, p);
        else
            sp_g1_to_snarkjs(out, p);
#if SP_CURVE_BN254
    } else {
        /* No zcash form exists for BN254 (curve/encode.h) and no BN254
         * key can come from one (decoding refuses them): reaching this is
         * a bug in the caller, which must refuse bellperson output first. */
        fprintf(stderr, "sp_pt_encode: the zcash point forms are BLS12-381 only\n");
        abort();
    }
#else
    } else if (f == SP_PTF_ZCASH_U) {
        if (g2)
            sp_g2_to_bytes_uncompressed(out, p);
        else
            sp_g1_to_bytes_uncompressed(out, p);
    } else if (g2) {
        sp_g2_to_bytes_compressed(out, p);
    } else {
        sp_g1_to_bytes_compressed(out, p);
    }
#endif
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
        if ((i - lo) % 1024 == 1023)
            sp_progress_add(1024);
    }
    sp_progress_add((hi - lo) % 1024);
}

sp_pt_err sp_pt_decode_array(void *out, size_t *bad, const uint8_t *in, size_t n, sp_pt_format f, int g2,
                             int allow_inf, unsigned flags, int threads)
{
    /* Decode and check the curve here (cheap), then the subgroup for the
     * whole array at once (msm.h: a batch test far cheaper than one
     * check a point, exact about which point fails). */
    decode_job j = {.out = out, .in = in, .n = n, .in_size = sp_pt_size(f, g2),
                    .out_size = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine), .f = f, .g2 = g2,
                    .allow_inf = allow_inf, .flags = flags | SP_G16_SKIP_SUBGROUP_CHECK};
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    int nt = sp_par_threads_for(threads, n, 1 << 14);
    for (int t = 0; t < nt; t++)
        j.why[t] = SP_PT_OK;
    sp_par_run(nt, decode_worker, &j);
    /* Ranges are ordered by tid, so the first failing range has the lowest index. */
    size_t first = n;
    sp_pt_err why = SP_PT_OK;
    for (int t = 0; t < nt && why == SP_PT_OK; t++) {
        if (j.why[t] != SP_PT_OK) {
            first = j.bad[t];
            why = j.why[t];
        }
    }
    /* Points before the first refused one are decoded: a subgroup failure
     * among them comes first. */
    if (!(flags & SP_G16_SKIP_SUBGROUP_CHECK)) {
        size_t sub;
        if (g2)
            sp_msm_g2_in_subgroup_var(&sub, out, first, threads);
        else
            sp_msm_g1_in_subgroup_var(&sub, out, first, threads);
        if (sub < first) {
            first = sub;
            why = SP_PT_SUBGROUP;
        }
    }
    if (why != SP_PT_OK)
        *bad = first;
    return why;
}

void sp_pt_encode_array(uint8_t *out, const void *p, size_t n, sp_pt_format f, int g2)
{
    size_t in_size = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine), out_size = sp_pt_size(f, g2);
    for (size_t i = 0; i < n; i++)
        sp_pt_encode(out + i * out_size, (const uint8_t *)p + i * in_size, f, g2);
}
