/*
 * snarkjs' JSON files for Groth16 (docs/formats.md §5): proof.json,
 * public.json, verification_key.json, on this build's curve.
 *
 * Writers give the bytes snarkjs 0.7.6 writes (its CLI serialises with
 * bfj, one space per level, no final newline; key order as snarkjs):
 * canonical decimal strings, points as projective triples with z = 1
 * ("1" / ["1","0"]), infinity as ["0","1","0"] (G2 [["0","0"],["1","0"],
 * ["0","0"]]), "protocol": "groth16", "curve": "bls12381" or "bn128". The
 * verification key carries vk_alphabeta_12 = e(alpha1, beta2) as
 * [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], each Fp2 as [c0, c1].
 *
 * Readers are strict where snarkjs would silently misbehave and lenient
 * where it is lenient: numbers may be decimal or 0x-hex strings (or bare
 * JSON integers), and must be below p (coordinates) or r (public
 * inputs); z must be 1, or 0 for infinity written as snarkjs writes it;
 * "curve" is matched ignoring case and punctuation (util/curves.h:
 * "bls12381", "BLS12-381", "bn128", "bn254", "alt_bn128"); the other
 * curve's names are refused as unsupported with a message naming both
 * curves; "protocol", when present, must be "groth16" (required in a
 * verification key). Points are checked on the curve and in the subgroup
 * unless flags has SP_G16_SKIP_SUBGROUP_CHECK. vk_alphabeta_12 is not read
 * (it is derived data). Errors name the member and its byte offset:
 *   "proof: pi_b[1][0] (byte 412): value >= p".
 */
#ifndef SP_GROTH16_JSON_IO_H
#define SP_GROTH16_JSON_IO_H

#include <stddef.h>
#include "snarkpipe.h"
#include "groth16/keys.h"
#include "r1cs/binfile.h"

/* ---- writers: *out is a malloc'ed NUL-terminated text of *len bytes;
 * return SP_OK or SP_ERR_NOMEM ---- */

sp_status sp_g16_proof_json_encode(char **out, size_t *len, const sp_g16_proof *proof) SP_WARN_UNUSED;
sp_status sp_g16_public_json_encode(char **out, size_t *len, const sp_fr *pub, size_t n) SP_WARN_UNUSED;
/* Computes one pairing for vk_alphabeta_12. vk->n_public + 1 IC points. */
sp_status sp_g16_vk_json_encode(char **out, size_t *len, const sp_g16_vk *vk) SP_WARN_UNUSED;

/* ---- readers: text[0..len); on failure the outputs are zeroed and err
 * says what and where ---- */

/* Returns SP_OK, SP_ERR_BAD_ENCODING (JSON syntax, missing or mistyped
 * member, bad z), SP_ERR_NOT_CANONICAL, SP_ERR_NOT_ON_CURVE,
 * SP_ERR_NOT_IN_SUBGROUP, SP_ERR_UNSUPPORTED (curve or protocol). */
sp_status sp_g16_proof_json_decode(sp_g16_proof *proof, const char *text, size_t len, unsigned flags,
                                   char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* On output: *pub a malloc'ed array of *n values (never NULL on success,
 * even for n = 0); free with free(). */
sp_status sp_g16_public_json_decode(sp_fr **pub, size_t *n, const char *text, size_t len,
                                    char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* On output: *vk allocated (sp_g16_vk_free); beta1 and delta1, which the
 * file does not carry, are set to infinity. IC must hold nPublic + 1
 * points. */
sp_status sp_g16_vk_json_decode(sp_g16_vk *vk, const char *text, size_t len, unsigned flags,
                                char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* ---- files ---- */

/* Reads a whole file of at most max bytes (NUL-terminated copy). Returns
 * SP_OK, SP_ERR_IO, SP_ERR_FORMAT (larger than max), SP_ERR_NOMEM. */
sp_status sp_g16_read_text(char **text, size_t *len, const char *path, size_t max,
                           char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* Writes text[0..len) to path (created or truncated). SP_OK or SP_ERR_IO. */
sp_status sp_g16_write_text(const char *path, const char *text, size_t len, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Encode + write, read + decode. Error messages are prefixed with path. */
sp_status sp_g16_proof_json_write(const char *path, const sp_g16_proof *proof, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g16_public_json_write(const char *path, const sp_fr *pub, size_t n, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g16_vk_json_write(const char *path, const sp_g16_vk *vk, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g16_proof_json_read(sp_g16_proof *proof, const char *path, unsigned flags,
                                 char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g16_public_json_read(sp_fr **pub, size_t *n, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_g16_vk_json_read(sp_g16_vk *vk, const char *path, unsigned flags, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
