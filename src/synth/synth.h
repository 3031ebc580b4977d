/*
 * Synthesis: the witness w times the constraint matrices gives the QAP
 * evaluation vectors a, b, c on the FFT domain, the input of the H step.
 *
 * Row layout of the domain (n = 2^k rows), shared by snarkjs and
 * bellperson (docs/formats.md §4 and §6):
 *   rows 0 .. nC-1:          a = <A_i,w>, b = <B_i,w>, c = <C_i,w>
 *   rows nC + s, s = 0..nPub: a = w_s, b = c = 0  (input-consistency rows:
 *                             one per public wire and one for wire 0)
 *   remaining rows:          zero
 * with nC = n_constraints and nPub = n_outputs + n_pub_inputs. snarkjs
 * never reads the C matrix and takes c = a*b row by row; for a satisfying
 * witness both definitions agree, which is what --check verifies.
 */
#ifndef SP_SYNTH_SYNTH_H
#define SP_SYNTH_SYNTH_H

#include <stdatomic.h>
#include <stddef.h>
#include "field/field.h"
#include "r1cs/r1cs.h"
#include "synth/ops.h" /* sp_synth_ctl */

#define SP_SYNTH_CHUNK_ROWS 8192 /* default rows per chunk */

/* Returns in *log_n the smallest k with 2^k >= nC + nPub + 1, or
 * SP_ERR_UNSUPPORTED (with err) when k would exceed SP_NTT_MAX_LOG. */
sp_status sp_synth_domain_log(unsigned *log_n, const sp_r1cs_header *h, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Fills a, b, c (n entries each) with the layout above, on nthreads threads,
 * under ctl (NULL = no steering).
 * On input: w holds w_len values, which must equal n_wires; n >= nC + nPub + 1.
 *   check == 0: c = a*b row by row (the C matrix is not read; snarkjs' way).
 *   check != 0: c = C*w, and every constraint row is checked.
 * On output: a, b, c filled; on SP_ERR_UNSATISFIED, *bad_row (when not
 *   NULL) is the first constraint that fails, and err names it.
 * Returns SP_OK, SP_ERR_UNSATISFIED, SP_ERR_INVALID_ARG (lengths), or
 *   SP_ERR_CANCELLED when ctl's cancel flag was seen (a, b, c then partly
 *   written). Time is independent of the witness values.
 */
sp_status sp_synth_abc(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, const sp_r1cs *cs, const sp_fr *w, size_t w_len,
                       int check, int nthreads, const sp_synth_ctl *ctl, size_t *bad_row,
                       char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Checks <A_i,w> * <B_i,w> == <C_i,w> for every constraint without
 * building the domain vectors. Same results as sp_synth_abc with check. */
sp_status sp_synth_check(const sp_r1cs *cs, const sp_fr *w, size_t w_len, int nthreads, size_t *bad_row,
                         char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* <row i of m, w>: the building block, exposed for tests and tools. */
void sp_synth_row_dot(sp_fr *out, const sp_csr *m, size_t i, const sp_fr *w);

#endif
