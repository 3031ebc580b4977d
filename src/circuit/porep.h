/*
 * porep-like: a circuit with the structure and the size of Filecoin's
 * StackedDRG PoRep partition circuit (rust-fil-proofs,
 * storage-proofs-porep/src/stacked/circuit/{proof,params,create_label}.rs,
 * read for the shape; the code here is our own). It does the same kind
 * and amount of work; it is not meant to make proofs Filecoin's chain
 * would accept (that needs the official parameters and a real sector).
 *
 * Public inputs (wires 1..): replica_id, comm_d, comm_r, then for each
 * challenge 3 + drg + exp packed index inputs, in this order: the tree_d
 * path, each drg parent's tree_c path, each expander parent's tree_c path,
 * the challenge index (64 bits), the tree_r_last path, the challenge's
 * own tree_c path. With 18 challenges that is 3 + 18 * 18 = 327 inputs,
 * 328 with ONE, as the 32 GiB PoRep circuit has.
 *
 * Per challenge:
 *   - the data leaf's inclusion in tree_d (binary SHA-256, Filecoin's
 *     truncated digests; depth log2(nodes));
 *   - for each of the drg + exp parents: its column (one value per layer)
 *     hashed with Poseidon of arity `layers`, included in tree_c;
 *   - for each layer: the label, SHA-256 of replica_id || layer || node ||
 *     zeros || 37 parent labels (the drg parents' values of this layer,
 *     and from layer 2 on the expander parents' values of the layer below,
 *     repeated to 37 as Filecoin does), packed into a field element;
 *   - the encoding: replica node = last label + data leaf, included in
 *     tree_r_last; the challenge's own column (its labels) hashed and
 *     included in tree_c.
 * At the top: comm_r = Poseidon2(comm_c, comm_r_last), replica_id to bits.
 *
 * Trees tree_c and tree_r_last are Poseidon trees of the preset's shape
 * (levels of arity 8, then Filecoin's sub- and top-tree levels).
 *
 * Instance data. A partition's input is a seed and a partition number;
 * the instance (the equivalent of Filecoin's C1 output: challenges,
 * parents, columns, paths) is derived from them deterministically: column
 * values and data leaves are pseudorandom, labels of challenged nodes are
 * computed, and each tree is a sparse tree holding every challenged leaf
 * of the partition, its untouched subtrees given pseudorandom digests, so
 * that every path leads to the same root. The whole sector is never
 * materialised.
 *
 * Witness generation runs the challenges' parts on many threads, each
 * writing straight into w, a, b, c at offsets known in advance.
 */
#ifndef SP_CIRCUIT_POREP_H
#define SP_CIRCUIT_POREP_H

#include <stdint.h>
#include "snarkpipe.h"
#include "circuit/cs.h"
#include "circuit/native.h"
#include "circuit/rec.h"

#define SP_POREP_MAX_LEVELS 40
#define SP_POREP_MAX_LAYERS 16
#define SP_POREP_TOTAL_PARENTS 37 /* parent labels hashed per label, repeats included */

typedef struct {
    char preset[16];        /* "2KiB", ..., or "custom" */
    uint64_t nodes;         /* sector size / 32: a power of two */
    uint32_t layers;        /* 1 .. SP_POREP_MAX_LAYERS */
    uint32_t challenges;    /* per partition, >= 1 */
    uint32_t drg_parents;   /* 6 */
    uint32_t exp_parents;   /* 8 */
    uint32_t label_parents; /* parent slots hashed per label, the parents cycled: 37 */
    uint32_t d_depth;       /* tree_d levels: log2(nodes) */
    uint32_t levels;        /* tree_c / tree_r_last levels */
    uint8_t arity[SP_POREP_MAX_LEVELS]; /* each level's arity, from the leaves up */
} sp_porep_params;

/*
 * The parameters of a named preset: "2KiB", "8MiB", "512MiB", "32GiB",
 * "64GiB" (Filecoin's sector sizes: layers, challenges per partition and
 * tree shapes as Filecoin's v1.1 parameters have them), and "tiny" (every
 * part at its smallest: about 235,000 constraints, 2^18 after padding).
 * Returns SP_OK or SP_ERR_INVALID_ARG (unknown name).
 */
sp_status sp_porep_preset(sp_porep_params *p, const char *name) SP_WARN_UNUSED;

/* The public inputs (ONE not counted) of the circuit p describes, without
 * building it: what a key made for it must have. */
uint64_t sp_porep_public_count(const sp_porep_params *p);

/* Checks p (sizes in range, tree shape covering nodes). Returns SP_OK,
 * SP_ERR_INVALID_ARG with err saying what is wrong, or SP_ERR_UNSUPPORTED
 * outside a BLS12-381 build (sp_native_curve_check). */
sp_status sp_porep_check(const sp_porep_params *p, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Changes to a preset's shape, each SP_POREP_UNSET when not given. */
#define SP_POREP_UNSET UINT64_MAX
typedef struct {
    uint64_t challenges, layers, nodes, drg_parents, exp_parents, label_parents;
} sp_porep_overrides;

/* Every field SP_POREP_UNSET. */
void sp_porep_overrides_init(sp_porep_overrides *o);

/*
 * The parameters every front end (the CLI's options, the daemon's
 * configuration and API) builds a circuit from: the preset (NULL = "2KiB"),
 * then each given override (nodes also sets the trees: levels of arity 8,
 * the last of 2 or 4 as needed), then sp_porep_check. A shape that differs
 * from its preset is named "<preset>*" ("custom" without a preset).
 * Returns SP_OK or SP_ERR_INVALID_ARG (unknown preset, a value out of
 * range, a shape sp_porep_check refuses), err saying which.
 */
sp_status sp_porep_params_from(sp_porep_params *p, const char *preset, const sp_porep_overrides *o,
                               char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* One partition's input (what an engine job carries). */
typedef struct {
    uint64_t seed;      /* the "sector": same seed, same instance */
    uint32_t partition;
} sp_porep_input;

/* Sizes of the circuit, from a fast count (one part of each kind counted,
 * the rest multiplied). */
typedef struct {
    uint64_t n_vars, n_public, n_rows;
    uint64_t challenge_vars, challenge_rows; /* one challenge's share */
    uint64_t label_rows;                     /* one label of layer 2 and up */
    uint64_t n_bool;                         /* witness values that are 0 or 1 (ONE included) */
} sp_porep_shape;

/*
 * A circuit ready to run: parameters, layout, and the sp_native_circuit
 * the engine takes (nc.ctx points back here). Owner: the caller of
 * sp_porep_open, who frees it with sp_porep_close.
 */
typedef struct sp_porep sp_porep;

sp_status sp_porep_open(sp_porep **out, const sp_porep_params *p, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_porep_close(sp_porep *c);
const sp_native_circuit *sp_porep_native(const sp_porep *c);
const sp_porep_shape *sp_porep_shape_of(const sp_porep *c);
const sp_porep_params *sp_porep_params_of(const sp_porep *c);

/*
 * Witness generation (the sp_native_witness_fn of sp_porep_native; see
 * native.h for the contract), input an sp_porep_input.
 */
sp_status sp_porep_witness(const sp_native_circuit *nc, const void *input, sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *c,
                           size_t n, int threads, int check, const atomic_int *cancel,
                           char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Records the matrices (RECORD mode), parts on `threads` threads appended
 * in order (the same matrices whatever the count); the instance
 * values used while recording come from input (any input gives the same
 * matrices).
 * On output: *rec (free with sp_cs_rec_free).
 * Returns SP_OK, SP_ERR_NOMEM, or a latched circuit error.
 */
sp_status sp_porep_record(sp_cs_rec **rec, const sp_porep *c, const sp_porep_input *input, int threads,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
