/*
 * Poseidon Merkle inclusion (Filecoin's tree_c and tree_r_last are 8-ary;
 * 2- and 4-ary trees exist too), natively and as a gadget.
 *
 * A tree of arity A (a power of two, 2..32) and `levels` levels above the
 * leaves. An inclusion path for the leaf at index `index` gives per level,
 * from the leaves up, the A - 1 siblings in order and the node's position
 * among the A children, digit = (index >> (k * level)) mod A with
 * k = log2 A. The parent is Poseidon_A of the A children with the node
 * inserted at its position: siblings[0..digit), node, siblings[digit..).
 * In the circuit the position is k bits, least significant first.
 */
#ifndef SP_CIRCUIT_MERKLE_H
#define SP_CIRCUIT_MERKLE_H

#include <stdint.h>
#include "snarkpipe.h"
#include "field/field.h"
#include "circuit/cs.h"

/*
 * The native root (the reference for the gadget); constant time in the
 * values and in index.
 * On input: sib holds levels * (arity - 1) siblings, level by level.
 * On output: *root.
 * Returns SP_OK, or SP_ERR_INVALID_ARG when arity is not a power of two
 * in [2, 32] or levels * log2(arity) > 64, SP_ERR_NOMEM.
 */
sp_status sp_merkle_root(sp_fr *root, const sp_fr *leaf, const sp_fr *sib, uint64_t index, unsigned levels,
                         unsigned arity) SP_WARN_UNUSED;

/*
 * Insertion: out = node placed among the arity - 1 siblings at the
 * position given by the bits (the permutation rust-fil-proofs' `insert`
 * computes; our own network: the position's one-hot indicators, then per
 * output two selections).
 * On input: bits[0..k) are variables with values bit_val[0..k) that the
 *   caller has constrained to 0/1 (this gadget does not: with other values
 *   its outputs are not the insertion); node and sib[0..arity-1) linear
 *   combinations with values; out[0..arity) initialized with sp_lc_init.
 * On output: out[0..arity) (the caller frees them).
 * Cost: arity - k - 1 constraints for the one-hot indicators, 1 for the
 *   first output, 2 for each of the arity - 2 middle ones, 0 for the last
 *   (the outputs sum to the inputs): 17 for arity 8, 6 for 4, 1 for 2
 *   (rust-fil-proofs' insert_8 makes 22).
 */
void sp_merkle_insert_gadget(sp_cs *cs, sp_lc *out, const sp_lc *node, const sp_lc *sib, const sp_var *bits,
                             const uint8_t *bit_val, unsigned arity);

/*
 * Inclusion: root = the Merkle root over leaf and the path.
 * On input: sib[levels * (arity - 1)] variables with values sib_val;
 *   bits[levels * k] variables with values bit_val (0/1), level by level,
 *   least significant first; with enforce_bits the gadget constrains each
 *   bit to 0/1 (b * b = b, one constraint each), else the caller must
 *   have; root initialized with sp_lc_init.
 * On output: root as a linear combination (the caller frees it; compare it
 *   to a public root with sp_merkle_enforce_equal).
 * Cost per level: insertion + Poseidon (+ k with enforce_bits): 401 for
 *   arity 8 (17 + 384), 235 for arity 2.
 * Errors (latched): SP_ERR_INVALID_ARG for a bad arity, SP_ERR_NOMEM.
 */
void sp_merkle_poseidon_gadget(sp_cs *cs, sp_lc *root, const sp_lc *leaf, const sp_var *sib, const sp_fr *sib_val,
                               const sp_var *bits, const uint8_t *bit_val, unsigned levels, unsigned arity,
                               int enforce_bits);

/* One constraint: lc * 1 = var (var's value is *val). */
void sp_merkle_enforce_equal(sp_cs *cs, const sp_lc *lc, sp_var var, const sp_fr *val);

/* Constraints of sp_merkle_poseidon_gadget (0 for a bad arity). */
uint64_t sp_merkle_poseidon_gadget_rows(unsigned levels, unsigned arity, int enforce_bits);

#endif
