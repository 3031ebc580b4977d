/*
 * Point encodings for G1 and G2, declared once for G in {g1, g2} by the
 * SP_DECLARE_ENCODING_* macros. Decoders validate fully: canonical
 * coordinates (< p), on the curve, and in the order-r subgroup when
 * check_subgroup is nonzero (pass 0 only for points from a trusted source;
 * G1 of BN254 has cofactor 1, so there every curve point is in it). On
 * error *r is unchanged. Encoders accept any affine point; inf is (0, 0)
 * (curve.h).
 *
 * Both curves (SP_DECLARE_ENCODING_COMMON):
 *
 * snarkjs zkey / ptau form: affine x | y, every Fp coordinate as
 * SP_FP_BYTES bytes little-endian Montgomery form (R = 2^(64 SP_FP_LIMBS),
 * which is our limb representation), G2 coordinates as c0 | c1; inf is all
 * zero bytes.
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
 *
 * BLS12-381 only (SP_DECLARE_ENCODING_ZCASH): the zcash / bellperson / blst
 * form (big-endian; G2 coordinates as c1 | c0):
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
 *   (The form needs 3 spare bits above p in the first byte: BN254's 254-bit
 *   p leaves 2, so BN254 has the two forms below instead.)
 *
 * BN254 only (SP_DECLARE_ENCODING_BN254):
 *
 * EVM form, what the Ethereum precompiles ecAdd, ecMul and ecPairing
 * (EIP-196, EIP-197) take: uncompressed, big-endian, no flags;
 *   G1: x | y, 64 bytes;  G2: x.c1 | x.c0 | y.c1 | y.c0, 128 bytes
 *   (the imaginary part first); inf is all zero bytes.
 *   void sp_G_to_evm(uint8_t out[SP_G_EVM_BYTES], const sp_G_affine *p)
 *   sp_status sp_G_from_evm(sp_G_affine *r, const uint8_t in[SP_G_EVM_BYTES],
 *                           int check_subgroup)
 *       SP_ERR_NOT_CANONICAL (a coordinate >= p), SP_ERR_NOT_ON_CURVE (not
 *       all zero and off the curve), SP_ERR_NOT_IN_SUBGROUP.
 *
 * arkworks compressed form (ark-serialize CanonicalSerialize with
 * Compress::Yes for ark-bn254's G1Affine / G2Affine): x little-endian
 * (G2: x.c0 | x.c1, each 32 bytes), the flags in the top two bits of the
 * LAST byte: 0x80 "y is negative", i.e. y > -y (y lexicographically the
 * largest, as sp_fp/fp2_is_lexicographically_largest: c1 first for Fp2),
 * 0x40 infinity (x written as 0); G1 32 bytes, G2 64.
 *   void sp_G_to_ark_compressed(uint8_t out[SP_G_ARK_COMPRESSED_BYTES], const sp_G_affine *p)
 *   sp_status sp_G_from_ark_compressed(sp_G_affine *r, const uint8_t in[SP_G_ARK_COMPRESSED_BYTES],
 *                                      int check_subgroup)
 *       SP_ERR_BAD_ENCODING (both flags set; infinity with any other bit
 *       set: stricter than arkworks, which ignores x there, so every point
 *       has exactly one encoding), SP_ERR_NOT_CANONICAL (x >= p once the
 *       flags are cleared), SP_ERR_NO_SQRT, SP_ERR_NOT_IN_SUBGROUP.
 */
#ifndef SP_CURVE_ENCODE_H
#define SP_CURVE_ENCODE_H

#include "curve/curve.h"

#define SP_G1_SNARKJS_BYTES (2 * SP_FP_BYTES)
#define SP_G1_DEC_STRS 3
#define SP_G2_SNARKJS_BYTES (4 * SP_FP_BYTES)
#define SP_G2_DEC_STRS 6

#define SP_DECLARE_ENCODING_COMMON(G, SB)                                                \
    void sp_##G##_to_snarkjs(uint8_t out[SB], const sp_##G##_affine *p);                  \
    sp_status sp_##G##_from_snarkjs(sp_##G##_affine *r, const uint8_t in[SB],             \
                                    int check_subgroup) SP_WARN_UNUSED;                   \
    void sp_##G##_to_dec(char out[][SP_FP_DEC_MAX], const sp_##G##_affine *p);            \
    sp_status sp_##G##_from_dec(sp_##G##_affine *r, const char *const in[],               \
                                int check_subgroup) SP_WARN_UNUSED;

SP_DECLARE_ENCODING_COMMON(g1, SP_G1_SNARKJS_BYTES)
SP_DECLARE_ENCODING_COMMON(g2, SP_G2_SNARKJS_BYTES)

#if SP_CURVE_BN254
#define SP_G1_EVM_BYTES 64
#define SP_G1_ARK_COMPRESSED_BYTES 32
#define SP_G2_EVM_BYTES 128
#define SP_G2_ARK_COMPRESSED_BYTES 64

#define SP_DECLARE_ENCODING_BN254(G, EB, AB)                                             \
    void sp_##G##_to_evm(uint8_t out[EB], const sp_##G##_affine *p);                      \
    sp_status sp_##G##_from_evm(sp_##G##_affine *r, const uint8_t in[EB],                 \
                                int check_subgroup) SP_WARN_UNUSED;                       \
    void sp_##G##_to_ark_compressed(uint8_t out[AB], const sp_##G##_affine *p);           \
    sp_status sp_##G##_from_ark_compressed(sp_##G##_affine *r, const uint8_t in[AB],      \
                                           int check_subgroup) SP_WARN_UNUSED;

SP_DECLARE_ENCODING_BN254(g1, SP_G1_EVM_BYTES, SP_G1_ARK_COMPRESSED_BYTES)
SP_DECLARE_ENCODING_BN254(g2, SP_G2_EVM_BYTES, SP_G2_ARK_COMPRESSED_BYTES)
#else
#define SP_G1_COMPRESSED_BYTES 48
#define SP_G1_UNCOMPRESSED_BYTES 96
#define SP_G2_COMPRESSED_BYTES 96
#define SP_G2_UNCOMPRESSED_BYTES 192

#define SP_DECLARE_ENCODING_ZCASH(G, CB, UB)                                             \
    void sp_##G##_to_bytes_compressed(uint8_t out[CB], const sp_##G##_affine *p);         \
    void sp_##G##_to_bytes_uncompressed(uint8_t out[UB], const sp_##G##_affine *p);       \
    sp_status sp_##G##_from_bytes(sp_##G##_affine *r, const uint8_t *in, size_t in_len,   \
                                  int check_subgroup) SP_WARN_UNUSED;

SP_DECLARE_ENCODING_ZCASH(g1, SP_G1_COMPRESSED_BYTES, SP_G1_UNCOMPRESSED_BYTES)
SP_DECLARE_ENCODING_ZCASH(g2, SP_G2_COMPRESSED_BYTES, SP_G2_UNCOMPRESSED_BYTES)
#endif

#endif
