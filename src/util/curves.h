/*
 * The curves snarkpipe knows, by name and by prime, without any
 * arithmetic: to tell which curve a file or a request is for, and to
 * write messages that name both curves. The arithmetic of one curve is
 * chosen per build of the tree (field/consts.h; ARCHITECTURE.md,
 * "Curves"); this table is the same in every build.
 *
 * Names are matched ignoring case and punctuation: "bls12-381",
 * "BLS12_381", "bls12381" are BLS12-381; "bn254", "bn128" (snarkjs and
 * circom), "alt_bn128" (Ethereum) and "altbn128" are BN254.
 */
#ifndef SP_UTIL_CURVES_H
#define SP_UTIL_CURVES_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    SP_CURVE_ID_NONE = 0, /* not known, or the data does not say */
    SP_CURVE_ID_BLS12_381,
    SP_CURVE_ID_BN254
} sp_curve_id;

/* The curve this build's arithmetic is for (-DSP_CURVE_BN254=1 or not). */
#if SP_CURVE_BN254
#define SP_CURVE_ID_THIS SP_CURVE_ID_BN254
#else
#define SP_CURVE_ID_THIS SP_CURVE_ID_BLS12_381
#endif

/* "bls12-381" or "bn254" (snarkpipe's names, as --curve takes them);
 * "unknown" for SP_CURVE_ID_NONE. */
const char *sp_curve_name(sp_curve_id c);

/* snarkjs' name: "bls12381" or "bn128" (its JSON "curve" member);
 * "unknown" for SP_CURVE_ID_NONE. */
const char *sp_curve_snarkjs_name(sp_curve_id c);

/* For messages: "bls12-381" or "bn254 (bn128)". */
const char *sp_curve_label(sp_curve_id c);

/* The curve named by s[0..n) (see the top of this file), or
 * SP_CURVE_ID_NONE. s need not be NUL-terminated. */
sp_curve_id sp_curve_from_name(const char *s, size_t n);

/* The curve whose scalar field (group order r) is the prime le[0..n),
 * little-endian as the iden3 files write it, or SP_CURVE_ID_NONE. */
sp_curve_id sp_curve_from_scalar_prime(const uint8_t *le, size_t n);

/* The curve whose base field is the prime le[0..n), little-endian, or
 * SP_CURVE_ID_NONE. */
sp_curve_id sp_curve_from_base_prime(const uint8_t *le, size_t n);

/* Bytes of one base-field element of c: 48 or 32; 0 for NONE. */
size_t sp_curve_fp_bytes(sp_curve_id c);

/*
 * The curve a file says it is for, from its bytes alone (untrusted: read
 * with bounds, never trusting a length): the prime of an iden3 container
 * (.zkey: section 2's base-field prime; .ptau: section 1's base-field
 * prime; .r1cs, .wtns: section 1's scalar prime, the sections found by
 * walking the section table), a .sprec
 * recording (BLS12-381's, circuit/rec.h), the top-level "curve" member of
 * snarkjs JSON (up to 16 MiB).
 * On input: fd a regular file open for reading, size its length.
 * Returns the curve, or SP_CURVE_ID_NONE when the bytes do not say (another
 *   format, public.json, an unknown prime, a read error).
 */
sp_curve_id sp_curve_of_file(int fd, uint64_t size);

/*
 * The message of a file made for another curve than the prover's:
 * "<what> is for bn254 (bn128) but this is the bls12-381 prover".
 * On input: what names the thing ("zkey", "proof.json"); out[0..out_len);
 *   prover is the caller's curve (SP_CURVE_ID_THIS: util/ itself is
 *   compiled once for both curves).
 * On output: out holds the NUL-terminated (possibly truncated) message.
 */
void sp_curve_mismatch_msg(char *out, size_t out_len, const char *what, sp_curve_id file_curve,
                           sp_curve_id prover);

#endif
