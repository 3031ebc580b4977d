/*
 * snarkjs powers-of-tau files (.ptau, docs/formats.md §9): the reader the
 * ceremony setup (groth16/ptau_setup.c) and `snarkpipe info` use.
 *
 * A .ptau is an iden3 binfile (magic "ptau", version 1) whose sections
 * are, for power p (G1, G2: snarkjs' LEM affine points, pointio.h):
 *    1  header: n8q u32 | q (n8q bytes) | power u32 | ceremonyPower u32
 *    2  tauG1:      2^(p+1) - 1 G1   tau^i G1
 *    3  tauG2:      2^p G2           tau^i G2
 *    4  alphaTauG1: 2^p G1           alpha tau^i G1
 *    5  betaTauG1:  2^p G1           beta tau^i G1
 *    6  betaG2:     1 G2
 *    7  contributions: u32 count, then one record each
 *   12..15 (after `snarkjs powersoftau prepare phase2`): the same four
 *      series in the Lagrange basis, block k (k = 0..p, and p + 1 for
 *      section 12 only) of 2^k points at point offset 2^k - 1:
 *      L^(2^k)_j(tau) G for tauG1 (12), tauG2 (13), alphaTauG1 (14),
 *      betaTauG1 (15).
 *
 * Opening checks the container and everything but the points: the
 * magic, the version, the section table against the file size (mapped,
 * not read), no duplicated section, the header (the base-field prime of
 * this build's curve: another curve's file is refused naming both;
 * 1 <= power <= SP_PTAU_MAX_POWER), every point section's size against
 * the power, the contribution records' structure, and that sections
 * 12..15 are all present or all absent. Points are decoded when read,
 * each checked to be canonical, on the curve and in the prime-order
 * subgroup (infinity is refused: no power of tau is the identity).
 */
#ifndef SP_GROTH16_PTAU_H
#define SP_GROTH16_PTAU_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "r1cs/binfile.h"

/* The largest power accepted: 2^28 is the largest domain of BN254's Fr
 * (and of every published ceremony). */
#define SP_PTAU_MAX_POWER 28

/* Point sections. */
enum {
    SP_PTAU_TAU_G1 = 2,
    SP_PTAU_TAU_G2 = 3,
    SP_PTAU_ALPHA_TAU_G1 = 4,
    SP_PTAU_BETA_TAU_G1 = 5,
    SP_PTAU_BETA_G2 = 6,
    SP_PTAU_CONTRIBUTIONS = 7,
    SP_PTAU_LAG_TAU_G1 = 12,
    SP_PTAU_LAG_TAU_G2 = 13,
    SP_PTAU_LAG_ALPHA_TAU_G1 = 14,
    SP_PTAU_LAG_BETA_TAU_G1 = 15
};

/* An opened .ptau. Owner: the caller of sp_ptau_open/parse, who releases
 * it with sp_ptau_close. */
typedef struct {
    uint32_t power, ceremony_power;
    uint32_t n_contributions;
    int prepared;                  /* sections 12..15 present */
    sp_binfile bf;                 /* the mapped file */
    const sp_bin_section *sec[16]; /* by id; NULL when absent */
} sp_ptau;

/*
 * Opens and checks a .ptau (the checks above).
 * On output: *p ready for the readers below; on failure nothing to close
 *   (closing is harmless) and err says what and where, e.g.
 *   "ptau section 3 (tauG2): power 12 needs 4096 points (524288 bytes), section holds 524000 bytes".
 * Returns SP_OK, SP_ERR_IO, SP_ERR_TRUNCATED, SP_ERR_FORMAT, SP_ERR_UNSUPPORTED
 *   (another curve, power out of range), SP_ERR_NOMEM.
 */
sp_status sp_ptau_open(sp_ptau *p, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* As sp_ptau_open on data[0..len), which must outlive p. */
sp_status sp_ptau_parse(sp_ptau *p, const uint8_t *data, size_t len, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

void sp_ptau_close(sp_ptau *p);

/* The number of points section id holds for p's power (0 for others). */
uint64_t sp_ptau_section_points(const sp_ptau *p, uint32_t id);

/* Whether section id holds G2 points. */
int sp_ptau_section_is_g2(uint32_t id);

/*
 * Decodes points first .. first + n - 1 of point section id into out
 * (sp_g1_affine or sp_g2_affine by the section), stepping `stride` points
 * in the file between them (1: consecutive), on `threads` threads.
 * Returns SP_OK, SP_ERR_INVALID_ARG (section absent or range outside it),
 *   or the point's status (SP_ERR_NOT_CANONICAL, SP_ERR_NOT_ON_CURVE,
 *   SP_ERR_NOT_IN_SUBGROUP, SP_ERR_FORMAT for infinity), SP_ERR_NOMEM;
 *   err names the section and the point's index.
 */
sp_status sp_ptau_read_points(void *out, const sp_ptau *p, uint32_t id, uint64_t first, uint64_t n,
                              uint64_t stride, int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The file offset of point `index` of section id (which may lie past the
 * section's end: snarkjs reads there, see ptau_setup.c). */
uint64_t sp_ptau_point_offset(const sp_ptau *p, uint32_t id, uint64_t index);

#endif
