/*
 * Circuit-specific Groth16 setup from fresh toxic waste, for development
 * and tests. NOT a ceremony: whoever runs it could keep tau, alpha, beta,
 * gamma, delta and forge proofs; the CLI prints that warning. The toxic
 * waste comes from the OS CSPRNG and is wiped before returning.
 */
#ifndef SP_GROTH16_SETUP_H
#define SP_GROTH16_SETUP_H

#include "snarkpipe.h"
#include "groth16/backend.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"

/*
 * On input: cs a circuit; kind selects the H bases and the roots family
 *   (SP_G16_H_SNARKJS: snarkjs-compatible key with gamma = 1 and the QAP
 *   matrices, writable as a .zkey; SP_G16_H_BELLPERSON: random gamma,
 *   tau^i Z(tau) / delta bases, roots 7^t, writable as .params).
 *   threads >= 1.
 * On output: *pk a complete proving key (QAP matrices included in both
 *   kinds; the caller frees it with sp_g16_pk_free); zeroed on failure.
 * Returns SP_OK, SP_ERR_INVALID_ARG (circuit too large for a 2^28
 *   domain), SP_ERR_NOMEM, SP_ERR_IO (no OS randomness); err says which.
 */
sp_status sp_g16_setup(sp_g16_pk *pk, const sp_r1cs *cs, sp_g16_h_kind kind, int threads,
                       char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * sp_g16_setup with the key's points made by a backend: be->fixed_base_g1
 * and be->fixed_base_g2 when set (a GPU), else the CPU fixed-base
 * functions; be NULL is sp_g16_setup. Everything else runs on the CPU with
 * `threads` threads. When be->stage_hook is set, the setup reports its
 * phases through it as they end: "setup_scalars" (domain, QAP matrices,
 * every scalar from the toxic waste), "setup_g1", "setup_g2" (the points).
 * Same contract and results otherwise; SP_ERR_GPU (and other backend
 * errors) with err from the backend.
 */
sp_status sp_g16_setup_be(sp_g16_pk *pk, const sp_r1cs *cs, sp_g16_h_kind kind, sp_backend *be, int threads,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Copies the circuit's A and B into the key's whole-domain QAP matrices
 * (sp_g16_pk_alloc_qap), adding the input-consistency rows to A.
 * On input: pk allocated for cs (domain_size rows, vk.n_public).
 * Returns SP_OK or SP_ERR_NOMEM.
 */
sp_status sp_g16_pk_fill_qap(sp_g16_pk *pk, const sp_r1cs *cs, int threads) SP_WARN_UNUSED;

/*
 * A circuit as the setup needs it: its sizes and, at a point tau, every
 * wire's QAP polynomials. wires_at: on input lag[j] = L_j(tau) for the n
 * rows of the domain; on output a[i], b[i], c[i] = A_i(tau), B_i(tau),
 * C_i(tau) for i < n_wires, the input-consistency rows included (qap.h's
 * layout); returns SP_OK or SP_ERR_NOMEM. done (optional) is called once
 * wires_at will not be called again, so its inputs can go before the
 * points are made.
 */
typedef struct {
    uint32_t n_wires, n_public;
    uint64_t n_rows;
    sp_status (*wires_at)(void *ctx, sp_fr *a, sp_fr *b, sp_fr *c, const sp_fr *lag, int threads);
    void (*done)(void *ctx);
    void *ctx;
} sp_g16_circuit;

/*
 * sp_g16_setup_be for a circuit given by sp_g16_circuit (a native one,
 * circuit/rec.h, whose matrices need not be an sp_r1cs). The key holds no
 * QAP matrices (has_qap 0): its proofs need the circuit's own synthesis
 * (a native circuit's witness function, or an r1cs), and it cannot be
 * written as a .zkey. Same statuses.
 */
sp_status sp_g16_setup_circuit(sp_g16_pk *pk, const sp_g16_circuit *c, sp_g16_h_kind kind, sp_backend *be,
                               int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
