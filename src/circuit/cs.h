/*
 * Native circuits: a constraint-system API written once per circuit and
 * run in one of three modes (the mode decides what the same calls do):
 *
 *   SP_CS_COUNT    only count variables and constraints (sizing, --dry-run);
 *   SP_CS_WITNESS  write every variable's value into w and every
 *                  constraint's <A_i,w>, <B_i,w>, <C_i,w> into a, b, c (the
 *                  prover's QAP vectors, synth.h's row layout), with no
 *                  linear-combination bookkeeping: an LC is only its value;
 *   SP_CS_RECORD   build the matrices A, B, C (rec.h), once per circuit.
 *
 * Values are computed in every mode (the circuit code cannot tell the
 * modes apart except through sp_cs_recording), so the same code sizes,
 * records and proves. The test that ties the modes together: the
 * recorded matrices times the witness-mode w equal the witness-mode a, b,
 * c row by row (tests/test_circuit.c).
 *
 * Variables (wires) are numbered as circom numbers them, so a recorded
 * circuit exports to .r1cs/.wtns unchanged: 0 = the constant ONE, then
 * the public inputs (all allocated before the first private variable),
 * then the private variables in allocation order.
 *
 * Parallel witness generation: independent parts of a circuit (PoRep
 * challenges, layers) whose variable and constraint counts are known in
 * advance (from a COUNT run of one part) run on sub-systems opened at
 * fixed bases (sp_cs_sub_open), each on its own thread, writing straight
 * into the shared w, a, b, c; in RECORD mode each sub-system records on
 * its own and sp_cs_sub_join appends the parts in order.
 *
 * Debug mode (check = 1): every constraint is checked on its values as it
 * is made, and the first failing one is remembered with its gadget path
 * ("porep/challenge 3/label 2/sha256/block 4/round 17/maj") from
 * sp_cs_push/sp_cs_pop. Without check, names cost nothing.
 *
 * Errors (out of memory while recording, a public input after a private
 * one, a wire count over 2^32, an unsatisfied constraint in debug mode)
 * are latched: the first one is kept in the system and every later call is
 * harmless; sp_cs_status reads it once the circuit code has run. So
 * gadget code never checks statuses.
 *
 * Threads: one sp_cs is used by one thread at a time.
 */
#ifndef SP_CIRCUIT_CS_H
#define SP_CIRCUIT_CS_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "field/field.h"
#include "circuit/rows.h"

typedef enum { SP_CS_COUNT = 0, SP_CS_WITNESS = 1, SP_CS_RECORD = 2 } sp_cs_mode;

typedef struct sp_cs_rec sp_cs_rec; /* recorded matrices (rec.h) */

/*
 * A linear combination: its value (kept in every mode) and, in RECORD
 * mode only, its terms (heap storage grown as needed; release with
 * sp_lc_free). Start every LC with sp_lc_init. A var may appear more than
 * once; the recorder adds repeats up.
 */
typedef struct {
    sp_fr val;
    sp_cs_term *t;
    uint32_t n, cap;
} sp_lc;

#define SP_CS_PATH_MAX 256

typedef struct sp_cs {
    sp_cs_mode mode;
    int check;             /* debug: check every constraint as it is made */
    uint64_t n_public;     /* public inputs allocated (wires 1 .. n_public) */
    uint64_t next_var;     /* next wire number */
    uint64_t next_row;     /* next constraint number */
    uint64_t var_base, row_base; /* where this (sub-)system started */
    uint64_t n_bool;       /* COUNT: variables made with a value 0 or 1 (ONE included) */
    int sbox_wire;         /* Poseidon S-boxes take their input as a wire (poseidon.h); sub-systems inherit it */
    /* WITNESS outputs, indexed by global wire / row number; each may be
     * NULL (not written). */
    sp_fr *w, *a, *b, *c;
    uint64_t w_len, abc_len; /* their lengths: writes past them are an error */
    sp_cs_rec *rec;        /* RECORD: owned by this system */
    int privates_started;  /* a private variable exists (no more public ones) */
    sp_status status;      /* first error (latched) */
    char err[SP_ERR_LEN];
    uint64_t bad_row;      /* check: first failing constraint (UINT64_MAX = none) */
    char bad_path[SP_CS_PATH_MAX];
    char path[SP_CS_PATH_MAX]; /* gadget path, maintained only with check */
    size_t path_len;
    uint32_t path_stack[32], depth;
} sp_cs;

/*
 * Opens a system in `mode`.
 * On input: for WITNESS, w (w_len values) and a, b, c (abc_len rows each)
 *   may each be NULL; the caller owns them.
 * On output: *cs ready, with wire 0 = ONE allocated (w[0] = 1 when w).
 * Returns SP_OK or SP_ERR_NOMEM (RECORD).
 */
sp_status sp_cs_open(sp_cs *cs, sp_cs_mode mode, int check) SP_WARN_UNUSED;
/* Sets the WITNESS outputs (before any variable beyond ONE is made). */
void sp_cs_set_outputs(sp_cs *cs, sp_fr *w, uint64_t w_len, sp_fr *a, sp_fr *b, sp_fr *c, uint64_t abc_len);
/* Frees what the system owns (the recording unless taken). */
void sp_cs_close(sp_cs *cs);

/* The latched status (SP_OK when nothing went wrong); err says what. In
 * debug mode an unsatisfied constraint gives SP_ERR_UNSATISFIED with
 * "constraint N (path) is not satisfied". */
static inline sp_status sp_cs_status(const sp_cs *cs) { return cs->status; }
/* Latches an error (the first one wins); printf-style message. */
void sp_cs_fail(sp_cs *cs, sp_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static inline int sp_cs_recording(const sp_cs *cs) { return cs->mode == SP_CS_RECORD; }
/* Wires allocated so far (ONE included), constraints made so far. */
static inline uint64_t sp_cs_n_vars(const sp_cs *cs) { return cs->next_var; }
static inline uint64_t sp_cs_n_rows(const sp_cs *cs) { return cs->next_row; }

/* A new public input with value *val (before any private variable). */
sp_var sp_cs_public(sp_cs *cs, const sp_fr *val);
/* A new private variable with value *val (unconstrained: the caller adds
 * the constraints that bind it). */
sp_var sp_cs_alloc(sp_cs *cs, const sp_fr *val);
/* As sp_cs_alloc for a value 0 or 1 (no booleanity constraint). */
sp_var sp_cs_alloc_bit(sp_cs *cs, int bit);

/* Gadget path (debug names). Cheap no-ops unless check. */
void sp_cs_push(sp_cs *cs, const char *name);
void sp_cs_pushf(sp_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sp_cs_pop(sp_cs *cs);

/* ---- linear combinations ---- */

/* Montgomery constants 0, 1, 2^i (i < 256) and -1, for coefficients. */
const sp_fr *sp_cs_fr_zero(void);
const sp_fr *sp_cs_fr_one(void);
const sp_fr *sp_cs_fr_pow2(unsigned i);
const sp_fr *sp_cs_fr_minus_one(void);
/* The Montgomery form of a small integer v. */
void sp_cs_fr_u64(sp_fr *r, uint64_t v);

void sp_lc_init(sp_lc *lc);
void sp_lc_free(sp_lc *lc);
/* lc += k * var, whose value is *v (value updated in every mode). */
void sp_lc_add(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *k, const sp_fr *v);
/* lc += var (coefficient 1) and lc -= var: an addition, no multiplication. */
void sp_lc_add_var(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *v);
void sp_lc_sub_var(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *v);
/* lc += k * ONE. */
void sp_lc_add_const(sp_cs *cs, sp_lc *lc, const sp_fr *k);
/* lc += k * var for the terms only; the value is NOT updated (a gadget
 * that knows the total natively sets it with sp_lc_set_value). A no-op
 * outside RECORD mode. */
void sp_lc_add_term(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *k);
static inline void sp_lc_set_value(sp_lc *lc, const sp_fr *v) { lc->val = *v; }
/* Empties lc (keeps its storage). */
static inline void sp_lc_clear(sp_lc *lc)
{
    lc->n = 0;
    sp_fr_set_zero(&lc->val);
}

/*
 * Adds the constraint a * b = c (row sp_cs_n_rows before the call).
 * COUNT: counts it. WITNESS: a[row], b[row], c[row] = the three values.
 * RECORD: appends the terms. With check: a.val * b.val must equal c.val.
 * a, b, c may be NULL for an empty combination (value 0).
 */
void sp_cs_enforce(sp_cs *cs, const sp_lc *a, const sp_lc *b, const sp_lc *c);

/* ---- parallel parts ---- */

/*
 * Opens sub, a system of parent's mode, check and outputs whose first
 * variable is var_base and first constraint row_base (a part whose
 * place is known in advance; the caller makes sure parts do not overlap).
 * Public inputs cannot be made in a sub-system.
 * Returns SP_OK or SP_ERR_NOMEM (RECORD).
 */
sp_status sp_cs_sub_open(sp_cs *sub, const sp_cs *parent, uint64_t var_base, uint64_t row_base) SP_WARN_UNUSED;
/*
 * Ends a part: in RECORD mode appends sub's constraints to parent's
 * (parts must be joined in row order, each starting where the parent
 * stands); the parent's counters move to the end of the part; a latched
 * error of sub becomes parent's; sub is closed.
 */
void sp_cs_sub_join(sp_cs *parent, sp_cs *sub);

/* Advances the counters past a part made elsewhere (its variables and
 * rows): for a COUNT run that sizes one part and multiplies. */
void sp_cs_skip(sp_cs *cs, uint64_t n_vars, uint64_t n_rows);

/* RECORD: hands the recording to the caller (who frees it with
 * sp_cs_rec_free) and leaves the system without one. NULL otherwise. */
sp_cs_rec *sp_cs_take_rec(sp_cs *cs);

#endif
