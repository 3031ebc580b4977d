/*
 * snarkjs Groth16 .zkey files (docs/formats.md §4): read into an
 * sp_g16_pk, write from one.
 *
 * Reading accepts the sections in any order (snarkjs writes 1,2,4,3,9,8,
 * 5,6,7,10 at setup and 1..10 after a contribution), versions 1 and 2, and
 * checks everything before the key is used:
 *   - container: magic, version, section table against the file size,
 *     no duplicated section, sections 1..9 present (10 is optional);
 *   - section 1: protocol 1 (Groth16); PLONK / FFLONK keys are refused;
 *   - section 2: field sizes and primes are this build's curve's (a key
 *     of the other curve is refused naming both), domain size a power of
 *     two, nPublic < nVars, exact section size;
 *   - every section's size against the counts of the header (before any
 *     allocation, so a lying header cannot make us allocate);
 *   - section 4: matrix 0 or 1, row < domainSize, wire < nVars, value < r;
 *   - every point: coordinates < p, on the curve, in the subgroup (unless
 *     SP_G16_SKIP_SUBGROUP_CHECK). All-zero bytes (infinity) are accepted
 *     in sections 5..8 (A, B1, B2, C: wires absent from A or B, or unused
 *     private wires) and refused in the header, IC and H;
 *   - section 10: its structure (csHash, contribution records) adds up
 *     to the section size. Its points are not decoded (the prover and the
 *     verifier never use them); the bytes are kept for writing back.
 * Errors go to err[SP_ERR_LEN] and name the section and the item, e.g.
 *   "zkey section 9 (H): expected 1024 points (98304 bytes), section holds 98208 bytes".
 *
 * Writing produces sections 1..10 in id order (the layout of a
 * contributed key), which snarkjs 0.7.6 proves with, exports and verifies
 * against. Section 10 is pk->mpc when present, else a zero csHash with
 * no contributions. The csHash is only read by `zkey verify`, `zkey
 * contribute` / `beacon` (transcript input) and `zkey import bellman`;
 * `groth16 prove`, `zkey export verificationkey` and `groth16 verify`
 * never read section 10, so a zero hash is harmless for proving. (`zkey
 * verify` rejects any key that is not the product of a ceremony from its
 * .ptau anyway, whatever the hash says.) A key read and written back
 * unchanged is byte-identical to a file snarkjs wrote in id order.
 */
#ifndef SP_GROTH16_ZKEY_H
#define SP_GROTH16_ZKEY_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "groth16/keys.h"
#include "r1cs/binfile.h"

#define SP_ZKEY_MAX_SECTIONS_LISTED 16

/* What the header says, for `snarkpipe info` and the tests. */
typedef struct {
    uint32_t version;
    uint32_t n_sections;
    uint32_t section_order[SP_ZKEY_MAX_SECTIONS_LISTED]; /* ids in file order (first 16) */
    uint32_t n_vars, n_public, domain_size;
    uint32_t n_coefs;          /* section 4 entries */
    uint32_t n_coefs_b;        /* of which in the B matrix */
    int has_mpc;               /* section 10 present */
    uint32_t n_contributions;  /* from section 10 (0 without it) */
    uint8_t cs_hash[64];       /* from section 10 (zeros without it) */
} sp_zkey_info;

/*
 * Reads a whole proving key.
 * On input: flags is 0 or SP_G16_SKIP_SUBGROUP_CHECK; threads >= 1 decode
 *   and check the points in parallel; info may be NULL.
 * On output: *pk is a snarkjs-convention key (h_kind = SP_G16_H_SNARKJS,
 *   n_h = domain_size, has_qap = 1, mpc = section 10 or NULL) that the
 *   caller frees with sp_g16_pk_free; *info filled when given. On failure
 *   *pk is zeroed and err says why.
 * Returns SP_OK, SP_ERR_IO, SP_ERR_TRUNCATED, SP_ERR_FORMAT (structure,
 *   sizes, infinity where not allowed), SP_ERR_UNSUPPORTED (other curve or
 *   protocol), SP_ERR_NOT_CANONICAL (coordinate >= p, coefficient >= r),
 *   SP_ERR_NOT_ON_CURVE, SP_ERR_NOT_IN_SUBGROUP, SP_ERR_NOMEM.
 */
sp_status sp_zkey_read(sp_g16_pk *pk, sp_zkey_info *info, const char *path, unsigned flags, int threads,
                       char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* As sp_zkey_read on data[0..len) (which need not outlive the call). */
sp_status sp_zkey_parse(sp_g16_pk *pk, sp_zkey_info *info, const uint8_t *data, size_t len, unsigned flags,
                        int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Reads only what a verifier needs: sections 1, 2 and 3 (with the same
 * checks), plus the counts of sections 4 and 10 for info. Cheap on a key
 * of any size (export-vkey, info).
 * On output: *vk allocated (free with sp_g16_vk_free), complete with
 *   beta1 and delta1; on failure zeroed.
 */
sp_status sp_zkey_read_vk(sp_g16_vk *vk, sp_zkey_info *info, const char *path, unsigned flags,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Writes pk as a .zkey (sections 1..10 in id order).
 * On input: pk->h_kind == SP_G16_H_SNARKJS and pk->has_qap (snarkjs'
 *   prover needs section 4), at most 2^32 - 1 QAP entries in total.
 * Returns SP_OK, SP_ERR_UNSUPPORTED (bellperson H bases or no QAP, with
 *   err), SP_ERR_IO (err names the path).
 */
sp_status sp_zkey_write(const char *path, const sp_g16_pk *pk, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* As sp_zkey_write with the sections in the order `snarkjs groth16 setup`
 * writes them (1, 2, 4, 3, 9, 8, 5, 6, 7, 10): for a key of
 * sp_g16_setup_ptau (groth16/ptau_setup.h), snarkjs' file byte for byte. */
sp_status sp_zkey_write_setup(const char *path, const sp_g16_pk *pk, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
