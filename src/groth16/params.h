/*
 * bellperson / Filecoin Groth16 formats (docs/formats.md §6): the .params
 * proving key, the .vk verifying key and the 192-byte proof.
 *
 * .vk:     alpha_g1 | beta_g1 | beta_g2 | gamma_g2 | delta_g1 | delta_g2 |
 *          u32 BE count | ic points
 * .params: the .vk part, then five vectors, each u32 BE count | points:
 *          h (n - 1 points tau^i Z(tau) / delta), l (one per private wire),
 *          a, b_g1 (G1), b_g2 (G2).
 * Points are zcash uncompressed (big-endian, flag bits in byte 0, G2
 * coordinates c1 | c0); no padding anywhere. Like bellperson, the readers
 * refuse the point at infinity everywhere (bellperson's generator never
 * writes one, see below).
 *
 * Density. bellperson drops the points at infinity from a, b_g1 and b_g2:
 * a holds A_i for every input wire (0..n_public; the input-consistency
 * constraints put each of them in A) followed by A_i for each private wire
 * that occurs in the A matrix; b_g1 and b_g2 hold B_i for every wire, input
 * or private, that occurs in the B matrix, in wire order. The writer
 * applies exactly that rule to an sp_g16_pk (a wire's point is dropped when
 * it is infinity); the reader needs the same bitmaps back to put each point
 * at its wire, and they come from the circuit (sp_g16_density_from_r1cs) or
 * from a key (sp_g16_density_from_pk).
 */
#ifndef SP_GROTH16_PARAMS_H
#define SP_GROTH16_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"

#define SP_BP_PROOF_BYTES 192

/* bellperson's formats are BLS12-381's (zcash point encodings). Returns
 * SP_OK in a BLS12-381 build; in another, SP_ERR_UNSUPPORTED with err
 * saying so. Every reader and writer below (and sp_bp_proof_decode)
 * checks it first; callers check it before costly work whose result only
 * these formats could take (a setup for --bellperson). */
sp_status sp_bp_curve_check(char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Which wires have points in bellperson's a and b vectors: bit i of a (b)
 * is set when wire i has an entry in a (b_g1 / b_g2). Bit i lives in word
 * i / 64 at position i % 64. The a bits of wires 0..n_public are always set. */
typedef struct {
    uint32_t n_vars, n_public;
    uint64_t *a, *b; /* (n_vars + 63) / 64 words each, owned */
} sp_g16_density;

static inline int sp_g16_density_get(const uint64_t *bits, size_t i)
{
    return (int)((bits[i / 64] >> (i % 64)) & 1);
}

/* Number of set bits among the first n. */
size_t sp_g16_density_count(const uint64_t *bits, size_t n);

/* On output: *d sized for the wires, a bits set for the inputs only, no b
 * bits. Returns SP_OK, SP_ERR_INVALID_ARG (n_public >= n_vars) or
 * SP_ERR_NOMEM (then *d is zeroed). */
sp_status sp_g16_density_alloc(sp_g16_density *d, uint32_t n_vars, uint32_t n_public) SP_WARN_UNUSED;
void sp_g16_density_free(sp_g16_density *d);

/* The densities of a circuit: a = inputs and every wire in an A row, b =
 * every wire in a B row. */
sp_status sp_g16_density_from_r1cs(sp_g16_density *d, const sp_r1cs *cs) SP_WARN_UNUSED;

/* The densities a key implies: a = inputs and wires with A_i finite, b =
 * wires with B1_i finite. */
sp_status sp_g16_density_from_pk(sp_g16_density *d, const sp_g16_pk *pk) SP_WARN_UNUSED;

/*
 * Writes pk as a .params file.
 * On input: pk->h_kind == SP_G16_H_BELLPERSON (n - 1 H points); every input
 *   wire's A point finite; B1_i and B2_i both finite or both infinity; no
 *   L (pk->c) point and no IC point at infinity (bellperson would refuse
 *   the file).
 * Returns SP_OK, SP_ERR_UNSUPPORTED (snarkjs-style H bases), SP_ERR_FORMAT
 *   (a point rule above broken, err names the wire), SP_ERR_IO.
 */
sp_status sp_bp_params_write(const char *path, const sp_g16_pk *pk, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Reads a .params file into a proving key with h_kind =
 * SP_G16_H_BELLPERSON, n_vars = |ic| + |l|, n_public = |ic| - 1,
 * domain_size = |h| + 1, no QAP and no mpc.
 * On input: d matches the circuit (n_vars, n_public) and its counts match
 *   |a| and |b_g1| = |b_g2|; d may be NULL when the file lists every wire in
 *   a and b (no point was dropped). flags: SP_G16_SKIP_SUBGROUP_CHECK or 0.
 * On output: a, b1, b2 expanded to n_vars points (infinity where the
 *   density bit is clear); *pk zeroed on failure.
 * Returns SP_OK, SP_ERR_IO, SP_ERR_TRUNCATED / SP_ERR_FORMAT (counts
 *   against the file size, each other and the density, checked before any
 *   allocation; trailing bytes), SP_ERR_BAD_ENCODING (flag bits),
 *   SP_ERR_NOT_CANONICAL, SP_ERR_NOT_ON_CURVE, SP_ERR_NOT_IN_SUBGROUP,
 *   SP_ERR_NOMEM; err says which vector and which point.
 */
sp_status sp_bp_params_read(sp_g16_pk *pk, const char *path, const sp_g16_density *d, unsigned flags,
                            int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_bp_params_parse(sp_g16_pk *pk, const uint8_t *data, size_t len, const sp_g16_density *d,
                             unsigned flags, int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The .vk file: write (IC and header points must be finite: SP_ERR_FORMAT
 * otherwise) and read (exact size, same checks as the .params reader). */
sp_status sp_bp_vk_write(const char *path, const sp_g16_vk *vk, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_bp_vk_read(sp_g16_vk *vk, const char *path, unsigned flags, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_bp_vk_parse(sp_g16_vk *vk, const uint8_t *data, size_t len, unsigned flags,
                         char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The 192-byte proof: A (G1 compressed, 48) | B (G2 compressed, 96) | C
 * (G1 compressed, 48). Encoding never fails (infinity gets the infinity
 * encoding; BLS12-381 builds only, where sp_bp_curve_check passes);
 * decoding checks flags, range, curve and subgroup (unless flags skip it)
 * and refuses infinity, as bellperson does. */
void sp_bp_proof_encode(uint8_t out[SP_BP_PROOF_BYTES], const sp_g16_proof *proof);
sp_status sp_bp_proof_decode(sp_g16_proof *proof, const uint8_t in[SP_BP_PROOF_BYTES], unsigned flags,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
