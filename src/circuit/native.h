/*
 * A native circuit as the layers above see it (engine, bench, CLI): its
 * sizes and one call that turns a partition's input into the full witness
 * and the prover's a, b, c (synth.h's row layout) in one pass, on many
 * threads. porep.h makes one; anything that fills this struct is one.
 */
#ifndef SP_CIRCUIT_NATIVE_H
#define SP_CIRCUIT_NATIVE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "field/field.h"

typedef struct sp_native_circuit sp_native_circuit;

/*
 * Witness generation for one partition.
 * On input: input is the circuit's own description of one partition
 *   (porep.h: sp_porep_input); w has n_vars values; a, b, c have n rows
 *   each, n >= n_rows + n_public + 1 (all three NULL: the witness only);
 *   cancel NULL or a flag that stops the
 *   work early when raised; check != 0 checks every constraint.
 * On output: w and a, b, c filled (the tail rows too).
 * Returns SP_OK, SP_ERR_INVALID_ARG (a bad input or size, err says which),
 *   SP_ERR_UNSATISFIED (check: err names the first failing constraint and
 *   its gadget path), SP_ERR_CANCELLED.
 */
typedef sp_status (*sp_native_witness_fn)(const sp_native_circuit *nc, const void *input, sp_fr *w, sp_fr *a,
                                          sp_fr *b, sp_fr *c, size_t n, int threads, int check,
                                          const atomic_int *cancel, char err[SP_ERR_LEN]);

/* The native circuits (porep-like) and their recordings (.sprec files)
 * are BLS12-381's: Filecoin's field, neptune's Poseidon constants, values
 * packed in 255 bits. Returns SP_OK in a BLS12-381 build; in another,
 * SP_ERR_UNSUPPORTED with err saying so. sp_porep_check (so every way to
 * open porep-like), sp_cs_rec_save and sp_cs_rec_load check it first. */
sp_status sp_native_curve_check(char err[SP_ERR_LEN]) SP_WARN_UNUSED;

struct sp_native_circuit {
    char name[64];
    uint64_t n_vars;   /* wires, ONE included */
    uint64_t n_public; /* public inputs */
    uint64_t n_rows;   /* constraints */
    size_t input_size; /* bytes of one partition's input (copied by those who keep it) */
    sp_native_witness_fn witness;
    const void *ctx;   /* the circuit's parameters, owned by its maker */
};

#endif
