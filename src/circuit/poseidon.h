/*
 * Poseidon over the BLS12-381 scalar field Fr, as Filecoin hashes its
 * Merkle trees (the `neptune` crate, strength "Standard", hash type
 * MerkleTree), natively and as a circuit gadget.
 *
 * The instance for `arity` inputs (2 <= arity <= 36), width t = arity + 1:
 *
 *   state     [tag, in_0, ..., in_{arity-1}] with the domain tag
 *             tag = 2^arity - 1; the digest is state[1] after the
 *             permutation.
 *   rounds    R_F = 8 full rounds (S-box on every element) split 4 + 4
 *             around R_P partial rounds (S-box on element 0 only); R_P from
 *             the Poseidon paper's security inequalities with a 256-bit
 *             prime, M = 128, and neptune's margin (R_F + 2, R_P * 1.075
 *             rounded up): 55 for arity 2, 56 for 4, 57 for 8 and 11.
 *   a round   add the round's t constants, S-boxes x -> x^5, multiply by
 *             the MDS matrix M[i][j] = 1 / (i + (t + j)) (a Cauchy matrix
 *             on x_i = i, y_j = t + j; symmetric).
 *   constants (R_F + R_P) * t values from the Grain LFSR of the paper's
 *             reference script create_rcs_grain.sage, seeded with field = 1
 *             (GF(p)), s-box = 1 (that script's code for x^5; its later
 *             version generate_parameters_grain.sage writes 0 for x^alpha:
 *             neptune uses 1, and so must we to get its constants),
 *             n = 255, t, R_F, R_P; 255-bit candidates >= r are skipped.
 *
 * Everything is built at first use of an arity (sp_poseidon_params) and
 * kept for the life of the process; no tables are committed. Known answers:
 * tests/vectors/poseidon_neptune.txt (its header says where each comes
 * from).
 *
 * Two implementations of the permutation: the plain rounds above
 * (sp_poseidon_permute_ref, the reference) and the fast form the tests
 * check against it (sp_poseidon_permute): the partial rounds' constants
 * folded onto element 0 and their dense matrices factored into sparse
 * ones: 2.8x fewer multiplications for arity 8 (about 2000 against 5650).
 *
 * Constant time in the values (witness data is hashed); building the
 * parameters is not (it works on public data only).
 */
#ifndef SP_CIRCUIT_POSEIDON_H
#define SP_CIRCUIT_POSEIDON_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "field/field.h"
#include "circuit/cs.h"

#define SP_POSEIDON_MIN_ARITY 2
#define SP_POSEIDON_MAX_ARITY 36
#define SP_POSEIDON_MAX_WIDTH (SP_POSEIDON_MAX_ARITY + 1)

/* One instance; read-only once built. */
typedef struct {
    unsigned arity, t, rf, rp; /* t = arity + 1 */
    unsigned n_sbox;           /* t * rf + rp */
    sp_fr tag;                 /* 2^arity - 1 */
    const sp_fr *rc;           /* (rf + rp) * t constants; round r's at rc + r * t */
    const sp_fr *mds;          /* t * t, row-major */
    /* The fast form (poseidon.c says how it is derived). */
    const sp_fr *pre;    /* t * t: the matrix of the last full round before the partial ones */
    const sp_fr *pk;     /* rp: each partial round's constant, element 0 only */
    const sp_fr *sparse; /* rp * (2t - 1): per partial round m00, row 1..t-1, column 1..t-1 */
    const sp_fr *mid_rc; /* t: the constants of the first full round after the partial ones */
} sp_poseidon;

/*
 * The instance for `arity`, built on the first call (any thread; later
 * calls return the same pointer at once).
 * Returns NULL when arity is outside [2, 36] or memory ran out.
 */
const sp_poseidon *sp_poseidon_params(unsigned arity);

/*
 * The round numbers neptune computes for width t (any t >= 2):
 * On output: *rf, *rp.
 */
void sp_poseidon_round_numbers(unsigned *rf, unsigned *rp, unsigned t);

/* The permutation on state[0..t), fast form and plain reference. */
void sp_poseidon_permute(const sp_poseidon *p, sp_fr *state);
void sp_poseidon_permute_ref(const sp_poseidon *p, sp_fr *state);

/*
 * The hash of p->arity inputs: the tag, then in[0..arity), permuted;
 * the digest is element 1.
 * On output: *out (may alias in[0]).
 */
void sp_poseidon_hash(sp_fr *out, const sp_poseidon *p, const sp_fr *in);
/* As sp_poseidon_hash through the plain permutation (the reference). */
void sp_poseidon_hash_ref(sp_fr *out, const sp_poseidon *p, const sp_fr *in);

/*
 * The hash with its S-box inputs, for witness generation: sbox_in gets the
 * p->n_sbox values that go into the S-boxes, round by round (in a full
 * round elements 0..t-1, in a partial round element 0), which are the same
 * in both forms; out gets the digest.
 */
void sp_poseidon_hash_trace(sp_fr *out, sp_fr *sbox_in, const sp_poseidon *p, const sp_fr *in);

/* ---- the gadget (poseidon_gadget.c) ---- */

/*
 * Constraints for out = Poseidon(in[0..arity)).
 * On input: in[i] are linear combinations with their values (in RECORD
 *   mode their terms too); out initialized with sp_lc_init.
 * On output: out is the digest as a linear combination (value set in every
 *   mode; in RECORD mode t terms and a constant); the caller frees it.
 * Cost: 3 constraints and 3 variables (x^2, x^4, x^5) per S-box, the first
 *   S-box (on the constant tag) free: 3 * (t * R_F + R_P - 1), i.e. 234 for
 *   arity 2, 384 for arity 8, 456 for arity 11. The linear layers are
 *   folded into the next S-box's linear combinations.
 * Errors (latched in cs): SP_ERR_INVALID_ARG for an arity outside [2, 36],
 *   SP_ERR_NOMEM.
 */
void sp_poseidon_gadget(sp_cs *cs, sp_lc *out, const sp_lc *in, unsigned arity);

/*
 * As sp_poseidon_gadget on variables in[i] with values in_val[i], the
 * digest allocated as a variable (one more constraint: digest * 1 = out).
 * On output: *out_val (may be NULL) = the digest. Returns its variable.
 */
sp_var sp_poseidon_gadget_var(sp_cs *cs, sp_fr *out_val, const sp_var *in, const sp_fr *in_val, unsigned arity);

/* Constraints sp_poseidon_gadget makes for arity (0 for a bad arity). */
uint64_t sp_poseidon_gadget_rows(unsigned arity);

/*
 * With cs->sbox_wire set (cs.h), every S-box first makes its input a wire
 * (x * 1 = x', then x'^2, x'^4, x'^5): 4 constraints and 4 variables per
 * S-box, 312 for arity 2 and 512 for arity 8. Same digest, a larger
 * system: the size Filecoin's published circuit counts imply for its
 * Poseidon (PoRep 130,278,541, WindowPoSt 125,279,217, WinningPoSt 370,590
 * constraints solve to about 4 per S-box), for circuits that imitate
 * those sizes (post.h). Returns the constraints in that mode.
 */
uint64_t sp_poseidon_gadget_rows_wired(unsigned arity);

#endif
