/*
 * Point encodings for G1 and G2, declared once for G in {g1, g2} by
 * SP_DECLARE_ENCODING. Decoders validate fully: canonical coordinates
 * (< p), on the curve, and in the order-r subgroup when check_subgroup is
 * nonzero (pass 0 only for points from a trusted source). On error *r is
 * unchanged. Encoders accept any affine point; inf is (0, 0) (curve.h).
 *
 * zcash / bellperson / blst form (big-endian; G2 coordinates as c1 | c0):
 *   G1: 48 bytes compressed (x), 96 uncompressed (x | y);
 *   G2: 96 bytes compressed, 192 uncompressed.
 *   The top 3 bits of the first byte are flags: 0x80 compressed,
 *   0x40 infinity (all other bits zero), 0x20 (compressed only) y is the
 *   lexicographically largest of the two roots.
 *   void sp_G_to_bytes_compressed(uint8_t out[SP_G_COMPRESSED_BYTES], const sp_G_affine *p)
 *   void sp_G_to_bytes_uncompressed(uint8_t out[SP_G_UNCOMPRESSED_BYTES], const sp_G_affine *p)
 *   sp_status sp_G_from_bytes(sp_G_affine *r, const uint8_t *in, size_t in_len,
 *                             int check_subgroup)
 *       in_len picks the form. Returns SP_OK, or
 *       SP_ERR_BAD_ENCODING   other length, compression flag not matching
 *                             the length, sign flag on an uncompressed or
 *                             infinity encoding, infinity with other bits set;
 *       SP_ERR_NOT_CANONICAL  a coordinate >= p;
 *       SP_ERR_NO_SQRT        compressed x with no y on the curve;
 *       SP_ERR_NOT_ON_CURVE   uncompressed point off the curve;
 *       SP_ERR_NOT_IN_SUBGROUP.
 *
 * snarkjs zkey / ptau form: affine x | y, every Fp coordinate as 48 bytes
 * little-endian Montgomery form (R = 2^384, which is our limb
 * representation), G2 coordinates as c0 | c1; inf is all zero bytes.
 *   void sp_G_to_snarkjs(uint8_t out[SP_G_SNARKJS_BYTES], const sp_G_affine *p)
 *   sp_status sp_G_from_snarkjs(sp_G_affine *r, const uint8_t in[SP_G_SNARKJS_BYTES],
 *                               int check_subgroup)
 *       SP_ERR_NOT_CANONICAL (a stored value >= p), SP_ERR_NOT_ON_CURVE,
 *       SP_ERR_NOT_IN_SUBGROUP.
 *
 * snarkjs JSON form (proof.json, verification_key.json), as the decimal
 * strings of the projective triple with z = 1, SP_G_DEC_STRS of them:
 *   G1: x, y, z                        inf: "0", "1", "0"
 *   G2: x.c0, x.c1, y.c0, y.c1, z.c0, z.c1   inf: 0, 0, 1, 0, 0, 0
 *   void sp_G_to_dec(char out[][SP_FP_DEC_MAX], const sp_G_affine *p)
 *   sp_status sp_G_from_dec(sp_G_affine *r, const char *const in[], int check_subgroup)
 *       Accepts decimal or 0x-hex (sp_fp_from_str); z must be 1, or 0
 *       with exactly the inf triple above. SP_ERR_BAD_ENCODING (bad
 *       characters, z other than 0 or 1, malformed inf), SP_ERR_NOT_CANONICAL,
 *       SP_ERR_NOT_ON_CURVE, SP_ERR_NOT_IN_SUBGROUP.
 */
#ifndef SP_CURVE_ENCODE_H
#define SP_CURVE_ENCODE_H

#include "curve/curve.h"

#define SP_G1_COMPRESSED_BYTES 48
#define SP_G1_UNCOMPRESSED_BYTES 96
#define SP_G1_SNARKJS_BYTES 96
#define SP_G1_DEC_STRS 3
#define SP_G2_COMPRESSED_BYTES 96
#define SP_G2_UNCOMPRESSED_BYTES 192
#define SP_G2_SNARKJS_BYTES 192
#define SP_G2_DEC_STRS 6

#define SP_DECLARE_ENCODING(G, CB, UB, SB)                                               \
    void sp_##G##_to_bytes_compressed(uint8_t out[CB], const sp_##G##_affine *p);         \
    void sp_##G##_to_bytes_uncompressed(uint8_t out[UB], const sp_##G##_affine *p);       \
    sp_status sp_##G##_from_bytes(sp_##G##_affine *r, const uint8_t *in, size_t in_len,   \
                                  int check_subgroup) SP_WARN_UNUSED;                     \
    void sp_##G##_to_snarkjs(uint8_t out[SB], const sp_##G##_affine *p);                  \
    sp_status sp_##G##_from_snarkjs(sp_##G##_affine *r, const uint8_t in[SB],             \
                                    int check_subgroup) SP_WARN_UNUSED;                   \
    void sp_##G##_to_dec(char out[][SP_FP_DEC_MAX], const sp_##G##_affine *p);            \
    sp_status sp_##G##_from_dec(sp_##G##_affine *r, const char *const in[],               \
                                int check_subgroup) SP_WARN_UNUSED;

SP_DECLARE_ENCODING(g1, SP_G1_COMPRESSED_BYTES, SP_G1_UNCOMPRESSED_BYTES, SP_G1_SNARKJS_BYTES)
SP_DECLARE_ENCODING(g2, SP_G2_COMPRESSED_BYTES, SP_G2_UNCOMPRESSED_BYTES, SP_G2_SNARKJS_BYTES)

#endif
