/*
 * Circuits that bring their witness generator: a circom circuit's .wasm
 * registered beside its zkey (and r1cs), whose jobs carry input.json
 * instead of witnesses. The engine runs such a circuit as a native one
 * (circuit/native.h): on its synthesis workers, witness generation runs
 * the .wasm in the interpreter (wasm/circom.h: the module is untrusted;
 * it runs under the memory and time limits given at open) and then makes
 * a, b, c from that witness as a circuit of files would: over the r1cs
 * when one is registered (every constraint checked with
 * engine.check_witness), else over the key's QAP.
 *
 * A job's input is an sp_dmn_wasm_input: the text of one input.json,
 * owned by the daemon's job until the job finished.
 *
 * The header is curve-neutral (the curve's types as synth/ops.h names
 * them); wasmcirc.c is compiled per curve and the daemon calls it through
 * its curve's table (daemon/ops.h).
 */
#ifndef SP_DAEMON_WASMCIRC_H
#define SP_DAEMON_WASMCIRC_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "synth/ops.h"

/* One partition's input.json, as the engine copies it (the text is not copied). */
typedef struct {
    const char *json;
    size_t len;
} sp_dmn_wasm_input;

/* The interpreter's limits for one circuit's module. */
typedef struct {
    double max_seconds; /* per witness; 0 = none */
    uint32_t max_mib;   /* its linear memory (at most 4096: all wasm32 addresses) */
} sp_dmn_wasm_limits;

typedef struct sp_dmn_wasmc sp_dmn_wasmc;

/*
 * Reads the .wasm at path and checks it: a circom 2 witness generator
 * (loaded and instantiated once, under lim) over this build's scalar field.
 * A NAME.sym beside NAME.wasm (circom --sym) is read when an input is
 * missing, to name it.
 * On output: *out (sp_dmn_wasmc_close) on success, NULL otherwise.
 * Returns SP_OK; SP_ERR_IO (unreadable); SP_ERR_FORMAT or
 *   SP_ERR_UNSUPPORTED (not a circom 2 witness generator, or one over
 *   another prime: err says which curve's daemon takes it); SP_ERR_NOMEM.
 */
sp_status sp_dmn_wasmc_open(sp_dmn_wasmc **out, const char *path, const sp_dmn_wasm_limits *lim,
                            char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_dmn_wasmc_close(sp_dmn_wasmc *w);

/* Values in the witness the module makes (wires, ONE included). */
uint32_t sp_dmn_wasmc_witness_size(const sp_dmn_wasmc *w);

/*
 * The circuit as the engine takes it, for the key pk (and r1cs cs, or
 * NULL) now loaded: both borrowed until the engine has forgotten the
 * circuit (sp_engine_unregister). n_vars and n_public are pk's, n_rows
 * its domain less the input rows; witness generation refuses a witness of
 * another size than pk's.
 */
const sp_native_circuit *sp_dmn_wasmc_bind(sp_dmn_wasmc *w, const sp_g16_pk *pk, const sp_r1cs *cs);

/*
 * What can be known of an input.json before its circuit runs: JSON, an
 * object, each member a number without a fraction or exponent, a string,
 * true or false, or nested arrays of those (null and objects are not
 * values circom takes). Whether the names and sizes are the circuit's
 * inputs is known only when the witness is made.
 * Returns 0, or -1 with err naming the signal (or the byte) at fault.
 */
int sp_dmn_wasmc_check_input(const char *json, size_t len, char err[SP_ERR_LEN]);

#endif
