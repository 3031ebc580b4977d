/*
 * Benchmark circuits: satisfiable R1CS instances of any size with a
 * chosen share of 0/1 witness values, written straight to circom .r1cs and
 * .wtns files (streamed: memory stays small whatever the size).
 *
 * Shape. Wires: 0 = ONE, K public inputs, 2 private inputs (random full
 * field values), then one new wire per constraint, in order. Each
 * constraint is, at random with probability F (bool_fraction):
 *   a bit:      b * (b - 1) = 0            (A = {b}, B = {b, -ONE}, C = {}), b in {0, 1}
 *   else a multiplication gate mixing in an earlier bit when one exists:
 *               (x [+ k*x2]) * y = z - b    (every 4th gate has the k*x2 term,
 *                                            k from a table of 8 random constants)
 * where x, x2, y are among the latest 4096 full-valued wires and b among
 * the latest 4096 bits. So about F * N of the N + K + 3 witness values are
 * 0 or 1 (plus w[0] = 1), the rest are uniformly random field elements.
 */
#ifndef SP_SYNTH_GEN_H
#define SP_SYNTH_GEN_H

#include <stdint.h>
#include "r1cs/r1cs.h"

typedef struct {
    uint64_t n_constraints; /* N >= 1; N + K + 3 must fit in 32 bits */
    uint32_t n_public;      /* K public inputs */
    double bool_fraction;   /* F in [0, 1] */
    uint64_t seed;          /* same seed and sizes, same files */
} sp_gen_params;

typedef struct {
    uint64_t n_wires;
    uint64_t n_bool_values; /* witness values equal to 0 or 1, w[0] included */
    uint64_t nnz[3];        /* entries of A, B, C */
} sp_gen_stats;

/*
 * Writes the circuit to r1cs_path and its witness to wtns_path.
 * On output: *stats (when not NULL) describes what was written.
 * Returns SP_OK, SP_ERR_INVALID_ARG (parameters out of range), SP_ERR_IO,
 * SP_ERR_NOMEM; err says what went wrong.
 */
sp_status sp_gen_circuit(const char *r1cs_path, const char *wtns_path, const sp_gen_params *p, sp_gen_stats *stats,
                         char err[SP_ERR_LEN]) SP_WARN_UNUSED;
#endif
