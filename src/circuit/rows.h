/*
 * What a native circuit's constraints are made of, below both the
 * constraint system (cs.h) and its recordings (rec.h): wires, the terms
 * of a linear combination, and the tail of the prover's QAP vectors after
 * the constraint rows.
 */
#ifndef SP_CIRCUIT_ROWS_H
#define SP_CIRCUIT_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "field/field.h"

typedef uint32_t sp_var;
#define SP_CS_ONE ((sp_var)0)

/* One term k * var of a linear combination (RECORD mode only). */
typedef struct {
    sp_var var;
    sp_fr k;
} sp_cs_term;

/*
 * The tail of the QAP vectors after the n_rows constraints (synth.h's
 * layout): a[n_rows + s] = w[s] for s = 0..n_public, b = c = 0 there, and
 * zeros up to n. On input: w holds at least n_public + 1 values.
 * Returns SP_ERR_INVALID_ARG when n < n_rows + n_public + 1.
 */
sp_status sp_cs_abc_tail(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, uint64_t n_rows, const sp_fr *w,
                         uint64_t n_public) SP_WARN_UNUSED;

/* Returns 1 when a * b = c, else 0; one is sp_fr_set_one's value. A
 * product is made only when neither a nor b is 0 or 1: most rows of the
 * native circuits are over bits, and there the product cost as much as
 * the rest of the row's synthesis. Variable time. */
int sp_cs_row_holds_var(const sp_fr *a, const sp_fr *b, const sp_fr *c, const sp_fr *one);

#endif
