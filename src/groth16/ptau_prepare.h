/*
 * `snarkjs powersoftau prepare phase2` (docs/formats.md §9): a .ptau with
 * its Lagrange sections 12..15 added, written byte for byte as snarkjs
 * writes it, so that snarkjs' own `groth16 setup` (which needs them)
 * reads it. The file: the container with 11 sections in the order 1..7,
 * 12..15; the header with ceremonyPower set to power (snarkjs rewrites
 * it so); sections 2..7 copied; then for each series (tauG1, tauG2,
 * alphaTauG1, betaTauG1) and each k = 0..power (and power + 1 for tauG1)
 * the inverse DFT of its first 2^k points, as affine points in snarkjs'
 * form; the 2^(power+1)-th tauG1 point, which the file lacks, is taken as
 * infinity, as snarkjs does.
 */
#ifndef SP_GROTH16_PTAU_PREPARE_H
#define SP_GROTH16_PTAU_PREPARE_H

#include "snarkpipe.h"
#include "groth16/ptau.h"

/*
 * On input: p an opened .ptau (prepared or not: the Lagrange sections are
 *   computed either way) of a power below SP_NTT_MAX_LOG; be a backend
 *   for the inverse DFTs (groth16/backend.h: its ptau_intt_ members
 *   where it has them) or NULL for the CPU; threads >= 1.
 * On output: path replaced atomically by the prepared file.
 * Returns SP_OK, SP_ERR_UNSUPPORTED (power too large), a point's status
 *   from sp_ptau_read_points, SP_ERR_NOMEM, SP_ERR_GPU, SP_ERR_IO; err
 *   says why.
 */
typedef struct sp_backend sp_backend;
sp_status sp_ptau_prepare_write(const char *path, const sp_ptau *p, sp_backend *be, int threads,
                                char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
