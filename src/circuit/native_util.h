/*
 * Internal to the native circuits (porep.c, post.c): what they build the
 * same way. The engine's view of a circuit stays native.h.
 *
 *   - the descriptor (sp_native_circuit) and the wire-count limit;
 *   - gadget glue: a packed index equal to a public input, comm_r's
 *     Poseidon2 of comm_c and comm_r_last, a Poseidon Merkle path whose
 *     index bits pack into a public input;
 *   - the drivers of a circuit cut into parts at places known in advance
 *     (a COUNT run of one part of each kind): every part on its own thread
 *     writing straight into w, a, b, c (witness), or recorded in batches
 *     and appended in order (record).
 */
#ifndef SP_CIRCUIT_NATIVE_UTIL_H
#define SP_CIRCUIT_NATIVE_UTIL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "circuit/bits.h"
#include "circuit/cs.h"
#include "circuit/native.h"
#include "circuit/rec.h"

/* ---- the descriptor ---- */

/*
 * Fills nc: name "<kind>-<preset>" ("<kind>-custom" for an empty preset),
 * the sizes, the input's size, the witness function and its ctx.
 */
void sp_native_describe(sp_native_circuit *nc, const char *kind, const char *preset, uint64_t n_vars,
                        uint64_t n_public, uint64_t n_rows, size_t input_size, sp_native_witness_fn witness,
                        const void *ctx);

/* Returns SP_OK when n_vars wires fit the 32-bit wire numbers of .r1cs
 * and .sprec files; else SP_ERR_UNSUPPORTED, err saying so (prefixed by
 * kind). */
sp_status sp_native_wires_check(uint64_t n_vars, const char *kind, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Ends a parameter check: SP_OK when why is NULL, else SP_ERR_INVALID_ARG
 * with err "<kind>: <why>". */
sp_status sp_native_refuse(const char *kind, const char *why, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* ---- gadget glue ---- */

/* Enforces sum 2^i bits[i] = the public input pub (value *pub_val). */
void sp_native_pack_eq_public(sp_cs *cs, const sp_bit *bits, size_t n, sp_var pub, const sp_fr *pub_val);

/*
 * Allocates comm_c and comm_r_last (values *comm_c, *comm_r_last) as *cc
 * and *crl, and enforces Poseidon2(cc, crl) equal to the wire comm_r
 * (value *comm_r_val), under the gadget name "comm_r".
 */
void sp_native_comm_r(sp_cs *cs, sp_num *cc, sp_num *crl, const sp_fr *comm_c, const sp_fr *comm_r_last,
                      sp_var comm_r, const sp_fr *comm_r_val);

/* A Poseidon tree's shape: level arities from the leaves up (2, 4, 8 or
 * 16 each, at most SP_POREP_MAX_LEVELS levels) and n_sib, the siblings of
 * one path (the sum of arity - 1). */
typedef struct {
    const uint8_t *arity;
    uint32_t levels, n_sib;
} sp_native_tree;

/* n_sib of the tree of those levels: the sum of arity[l] - 1. */
uint32_t sp_native_tree_sibs(const uint8_t *arity, uint32_t levels);

/*
 * A Poseidon Merkle path from leaf to a root equal to the wire root
 * (value *root_val): the n_sib siblings allocated from sib_val (level by
 * level), index's low bits as boolean wires, each run of levels of one
 * arity hashed by one gadget call, and the path bits packed and enforced
 * equal to the public input pub (value *pub_val).
 */
void sp_native_poseidon_path(sp_cs *cs, const sp_native_tree *t, const sp_lc *leaf, const sp_fr *sib_val,
                             uint64_t index, sp_var root, const sp_fr *root_val, sp_var pub, const sp_fr *pub_val);

/* ---- circuits cut into parts ---- */

/*
 * A circuit of a top (the public inputs, made in the top system) and
 * `parts` parts, part i starting at wire and row base(i); base(parts) is
 * (n_vars, n_rows). The calls get ctx, which the caller owns; they run on
 * many threads at once (each on its own system), so they only read ctx
 * and write their own share of it.
 */
typedef struct {
    const char *kind; /* "porep-like": prefixes messages and progress stages */
    const char *unit; /* what a part is called in a message: "part", "sector" */
    const void *ctx;
    uint64_t n_vars, n_public, n_rows;
    size_t parts;
    int sbox_wire; /* the systems' Poseidon S-box wiring (cs.h) */
    int top_last;  /* witness: the top runs after the parts (its values come from them) */
    /* The top, in the top system. */
    void (*top)(const void *ctx, sp_cs *cs);
    /* Part i's first wire and row, for i <= parts. */
    void (*base)(const void *ctx, size_t i, uint64_t *vb, uint64_t *rb);
    /* Witness: the part task t runs, a permutation of 0 .. parts - 1
     * (NULL: part t); the first failing task is the one reported. */
    size_t (*order)(const void *ctx, size_t t);
    /* Runs part i on sys, a system opened at base(i). Returns SP_OK (a
     * latched error of sys is read by the driver) or its own error with
     * err set. */
    sp_status (*run)(const void *ctx, sp_cs *sys, size_t i, char err[SP_ERR_LEN]);
} sp_native_parts;

/*
 * The witness (native.h's contract for w, a, b, c, n, check, cancel):
 * the top, then every part on up to `threads` threads (the top last with
 * d->top_last), then the tail rows of a, b, c. Each part is checked to
 * end where the next begins.
 * Returns SP_OK, SP_ERR_INVALID_ARG (n too small; a part off the layout),
 * SP_ERR_NOMEM, SP_ERR_CANCELLED, or the first failing part's error (in
 * task order), err saying which.
 */
sp_status sp_native_parts_witness(const sp_native_parts *d, sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *c, size_t n,
                                  int threads, int check, const atomic_int *cancel,
                                  char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Records the matrices: the top, then the parts in batches of 2 * threads
 * (1 with one thread), each recorded on its own thread into its own
 * system and appended in order (the same matrices whatever the count).
 * On output: *rec (free with sp_cs_rec_free), NULL on failure.
 * Returns SP_OK, SP_ERR_NOMEM, SP_ERR_INVALID_ARG (the recording off the
 * layout), or the first latched circuit error, err saying which.
 */
sp_status sp_native_parts_record(sp_cs_rec **rec, const sp_native_parts *d, int threads,
                                 char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
