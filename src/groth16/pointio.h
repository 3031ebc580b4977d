/*
 * Point arrays in the key files, decoded and checked in parallel; shared
 * by the zkey and bellperson readers (internal to the groth16 layer). The
 * codecs themselves are curve/encode.h's; this adds the policy (where
 * infinity is allowed, the subgroup flag), reasons for messages and the
 * threads.
 *
 * Formats:
 *   SP_PTF_LEM      snarkjs: affine x | y, each coordinate little-endian in
 *                   Montgomery form (the same limbs as sp_fp: R = 2^384 on
 *                   BLS12-381, 2^256 on BN254), G2 as x.c0 | x.c1 | y.c0 |
 *                   y.c1; infinity = all zeros. G1 2 * SP_FP_BYTES bytes
 *                   (96 on BLS12-381, 64 on BN254), G2 twice that.
 *   SP_PTF_ZCASH_U  zcash uncompressed: big-endian canonical x | y with the
 *                   flag bits in the top of byte 0, G2 coordinates c1 | c0.
 *                   G1 96 bytes, G2 192 (BLS12-381: bellperson's files).
 *   SP_PTF_ZCASH_C  zcash compressed: x only plus flags. G1 48, G2 96.
 */
#ifndef SP_GROTH16_POINTIO_H
#define SP_GROTH16_POINTIO_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "curve/curve.h"

typedef enum { SP_PTF_LEM, SP_PTF_ZCASH_U, SP_PTF_ZCASH_C } sp_pt_format;

/* Why a point was refused. */
typedef enum {
    SP_PT_OK = 0,
    SP_PT_INFINITY,  /* the point at infinity where it is not allowed */
    SP_PT_RANGE,     /* a coordinate >= p */
    SP_PT_FLAGS,     /* zcash flag bits inconsistent / non-zero padding */
    SP_PT_NO_SQRT,   /* compressed x with no point */
    SP_PT_OFF_CURVE,
    SP_PT_SUBGROUP
} sp_pt_err;

/* Bytes per point. */
size_t sp_pt_size(sp_pt_format f, int g2);

/* The status (SP_ERR_FORMAT, SP_ERR_NOT_CANONICAL, SP_ERR_BAD_ENCODING,
 * SP_ERR_NO_SQRT, SP_ERR_NOT_ON_CURVE, SP_ERR_NOT_IN_SUBGROUP) and the
 * message text ("x coordinate >= p", ...) for e. */
sp_status sp_pt_err_status(sp_pt_err e);
const char *sp_pt_err_str(sp_pt_err e);

/*
 * Decodes one point.
 * On input: in holds sp_pt_size(f, g2) bytes; allow_inf says whether
 *   infinity is acceptable; flags may hold SP_G16_SKIP_SUBGROUP_CHECK.
 * On output: *out (an sp_g1_affine or sp_g2_affine by g2) on SP_PT_OK,
 *   unspecified otherwise.
 */
sp_pt_err sp_pt_decode(void *out, const uint8_t *in, sp_pt_format f, int g2, int allow_inf, unsigned flags);

/* Encodes one point (infinity as the format's infinity). */
void sp_pt_encode(uint8_t *out, const void *p, sp_pt_format f, int g2);

/*
 * Decodes n consecutive points on `threads` threads. The subgroup check
 * (unless flags skip it) is msm.h's sp_msm_G_in_subgroup_var over the
 * whole array: a randomized batch test (a point outside passes it with
 * probability <= 2^-100), then exact checks when it fails, so the index
 * reported is exact and subgroup points are never refused.
 * On output: out[0..n) on SP_PT_OK; otherwise *bad is the lowest index
 *   refused and the return value says why. Progress (util/progress.h): n
 *   units for the decoding, n more for the subgroup checks.
 */
sp_pt_err sp_pt_decode_array(void *out, size_t *bad, const uint8_t *in, size_t n, sp_pt_format f, int g2,
                             int allow_inf, unsigned flags, int threads);

/* Encodes n points into out (n * sp_pt_size bytes). */
void sp_pt_encode_array(uint8_t *out, const void *p, size_t n, sp_pt_format f, int g2);

#endif
