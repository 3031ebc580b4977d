/*
 * The development setup of a native circuit from its recorded matrices
 * (circuit/rec.h), without an sp_r1cs copy of them: the QAP at tau is
 * evaluated straight from the compact terms, and the recording is freed as
 * soon as that is done, before the key's points are made. What a
 * full-size porep-like key needs to fit in host memory.
 */
#ifndef SP_SYNTH_NATIVE_SETUP_H
#define SP_SYNTH_NATIVE_SETUP_H

#include "circuit/rec.h"
#include "groth16/backend.h"
#include "groth16/keys.h"
#include "groth16/setup.h"

/*
 * On input: *rec a recording (taken: freed during the call, *rec set to
 *   NULL, whatever the outcome); kind, be, threads as for sp_g16_setup_be.
 * On output: *pk a key without QAP matrices (sp_g16_setup_circuit).
 * Returns as sp_g16_setup_circuit; SP_ERR_UNSUPPORTED when the recording
 *   has 2^32 or more wires.
 */
sp_status sp_native_setup(sp_g16_pk *pk, sp_cs_rec **rec, sp_g16_h_kind kind, sp_backend *be, int threads,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
