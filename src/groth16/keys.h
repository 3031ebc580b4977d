/*
 * Groth16 key material on BLS12-381: the verifying key, the proving key
 * (in either of the two H conventions), proofs, and the flags the key
 * readers share.
 *
 * Wires ("variables") are numbered as circom and snarkjs number them:
 * wire 0 = the constant ONE, wires 1..n_public = the public signals
 * (outputs, then public inputs), then the private wires. bellperson calls
 * wires 0..n_public its "inputs" and the rest "aux"; the numbering is the
 * same.
 *
 * Points are affine with infinity as (0, 0) (curve/curve.h). Every key
 * built by a reader of this layer has all points on the curve and, unless
 * SP_G16_SKIP_SUBGROUP_CHECK was given, in the order-r subgroup.
 *
 * Ownership: an sp_g16_vk owns `ic`; an sp_g16_pk owns every array it
 * points to (one malloc each, so the large ones go back to the system
 * independently). Fill them with the *_alloc functions and release them
 * with the matching *_free; copying the struct does not copy the arrays.
 */
#ifndef SP_GROTH16_KEYS_H
#define SP_GROTH16_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "curve/curve.h"
#include "field/field.h"
#include "r1cs/r1cs.h"

/* Reader flag: skip the subgroup checks (points are still checked to be on
 * the curve). For keys from a trusted source only: a point outside the
 * subgroup can make the prover leak or the verifier accept forgeries. */
#define SP_G16_SKIP_SUBGROUP_CHECK 1u

typedef struct {
    sp_g1_affine alpha1, beta1, delta1;
    sp_g2_affine beta2, gamma2, delta2;
    uint32_t n_public; /* public signals, not counting wire 0 */
    /* n_public + 1 points: IC_i = (beta A_i(tau) + alpha B_i(tau) + C_i(tau)) / gamma
     * for wires 0..n_public (snarkjs takes gamma = 1). */
    sp_g1_affine *ic;
} sp_g16_vk;

/* A proof: A and C in G1, B in G2. (Tagged, as sp_g16_pk: synth/ops.h
 * names them without their layout.) */
typedef struct sp_g16_proof {
    sp_g1_affine a;
    sp_g2_affine b;
    sp_g1_affine c;
} sp_g16_proof;

/* Which bases the H query holds (docs/algorithms.md §2). */
typedef enum {
    /* n points H_j = L^(2n)_{2j+1}(tau) / delta, j < n: the Lagrange basis of
     * the 2n-point domain at its odd points. Scalars: (a*b - c) evaluated at
     * omega_2n * omega_n^j, no division by Z (snarkjs, rapidsnark). */
    SP_G16_H_SNARKJS = 0,
    /* n - 1 points tau^i Z(tau) / delta, i < n - 1. Scalars: the coefficients
     * of the quotient (a*b - c) / Z (bellman, bellperson, arkworks). */
    SP_G16_H_BELLPERSON = 1
} sp_g16_h_kind;

typedef struct sp_g16_pk {
    sp_g16_vk vk;          /* vk.n_public is the key's public-signal count */
    uint32_t n_vars;       /* wires including wire 0 (snarkjs nVars) */
    uint32_t domain_size;  /* n, a power of two >= 2 */
    unsigned log2_domain;  /* log2(n) */
    sp_g1_affine *a;       /* n_vars points A_i(tau); infinity where wire i is not in A */
    sp_g1_affine *b1;      /* n_vars points B_i(tau) in G1; infinity where not in B */
    sp_g2_affine *b2;      /* n_vars points B_i(tau) in G2; infinity where not in B */
    /* n_vars - n_public - 1 points for the private wires: c[i] belongs to
     * wire n_public + 1 + i ((beta A + alpha B + C)(tau) / delta; bellperson's L). */
    sp_g1_affine *c;
    sp_g16_h_kind h_kind;
    sp_g1_affine *h;       /* n_h points, see sp_g16_h_kind */
    size_t n_h;            /* n (SNARKJS) or n - 1 (BELLPERSON) */
    /*
     * The QAP A and B matrices over the whole domain (zkey section 4):
     * domain_size rows each; rows 0..nC-1 are the constraints, row nC + s
     * holds 1 * w_s for s = 0..n_public (input consistency), the rest are
     * empty. Coefficients are in Montgomery form (the canonical value, not
     * the c*R^2 the file stores), in file order within a row, so
     * <row, w> = a[row] with sp_synth_row_dot. Present when has_qap; keys
     * read from bellperson files have none (the prover then needs the r1cs).
     */
    int has_qap;
    sp_csr qap_a, qap_b;
    /* zkey section 10 (MPC transcript) exactly as read, for writing back;
     * NULL when the key did not come from a zkey. Its first 64 bytes are the
     * circuit hash (csHash). The prover never reads it. */
    uint8_t *mpc;
    size_t mpc_len;
    /* One buffer (util/hugemem.h) holding a, b1, b2, c and h, each at a
     * 64-byte boundary: the arrays are not freed on their own. */
    void *points;
} sp_g16_pk;

/*
 * On input: n_public < 2^32 - 1.
 * On output: *vk has n_public and n_public + 1 IC points, every point
 *   (header and IC) at infinity; on failure *vk is zeroed.
 * Returns SP_OK or SP_ERR_NOMEM.
 */
sp_status sp_g16_vk_alloc(sp_g16_vk *vk, uint32_t n_public) SP_WARN_UNUSED;

/* Frees vk->ic and zeroes *vk. A zeroed vk is fine. */
void sp_g16_vk_free(sp_g16_vk *vk);

/* On output: *dst is a deep copy of src (its own ic). Returns SP_OK or
 * SP_ERR_NOMEM (then *dst is zeroed). */
sp_status sp_g16_vk_copy(sp_g16_vk *dst, const sp_g16_vk *src) SP_WARN_UNUSED;

/*
 * Allocates a proving key's point arrays.
 * On input: n_vars >= n_public + 1; domain_size a power of two in
 *   [2, 2^31]; h_kind as the H bases will be filled.
 * On output: every field set, all points at infinity (a calloc), n_h =
 *   domain_size or domain_size - 1 by h_kind, has_qap = 0, no mpc; on
 *   failure *pk is zeroed.
 * Returns SP_OK, SP_ERR_INVALID_ARG (sizes outside the above), SP_ERR_NOMEM.
 */
sp_status sp_g16_pk_alloc(sp_g16_pk *pk, uint32_t n_vars, uint32_t n_public, uint32_t domain_size,
                          sp_g16_h_kind h_kind) SP_WARN_UNUSED;

/*
 * Allocates the QAP matrices: qap_a with nnz_a entries and qap_b with
 * nnz_b, domain_size rows each, every row offset 0 (the caller fills
 * row[], col[], val[]), and sets has_qap.
 * Returns SP_OK or SP_ERR_NOMEM (then has_qap stays 0, nothing leaks).
 */
sp_status sp_g16_pk_alloc_qap(sp_g16_pk *pk, uint64_t nnz_a, uint64_t nnz_b) SP_WARN_UNUSED;

/* Frees everything *pk owns and zeroes it. A zeroed pk is fine. */
void sp_g16_pk_free(sp_g16_pk *pk);

/* A proving key's point array: its name, where it starts, its bytes. */
#define SP_G16_PK_ARRAYS 5
typedef struct {
    const char *name; /* "h", "a", "b1", "c", "b2" */
    const void *p;
    size_t bytes;
} sp_g16_pk_array;

/* On output: out = pk's five point arrays in the order h, a, b1, c, b2
 * (the G1 arrays of the largest MSMs first, G2 last). */
void sp_g16_pk_arrays(const sp_g16_pk *pk, sp_g16_pk_array out[SP_G16_PK_ARRAYS]);

/* Returns 1 when n is a power of two >= 2 that fits a u32 domain, and
 * sets *log2 to its logarithm; else 0. */
int sp_g16_domain_log2(unsigned *log2, uint64_t n);

#endif
