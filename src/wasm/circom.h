/*
 * circom's witness generators: a circuit's .wasm (circom 2) run by the
 * interpreter (wasm/wasm.h) with the protocol of snarkjs' witness
 * calculator (circom_runtime's witness_calculator.js, which `snarkjs wtns
 * calculate` runs): inputs by signal name (FNV-1a 64-bit hash), values
 * flattened from nested arrays and reduced modulo the circuit's prime, the
 * runtime's imports (exceptionHandler, printErrorMessage,
 * writeBufferMessage, showSharedRWMemory), and the .wtns file it writes,
 * byte for byte. Errors are worded as snarkjs words them and name the
 * signal, or the template and line of a failing assert.
 *
 * The module's own field arithmetic (Fr_F1m_mul and the other raw
 * Montgomery operations, found by name) runs natively when
 * opts.natives is set (the default); its results are the module's own
 * (docs/wasm.md), which the tests check against the interpreted code.
 *
 * Any prime: the arithmetic is generic over the circuit's prime (up to
 * 512 bits), independent of the build's curve.
 */
#ifndef SP_WASM_CIRCOM_H
#define SP_WASM_CIRCOM_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "util/hugemem.h"
#include "util/json.h"
#include "wasm/wasm.h"

#define SP_CIRCOM_MAX_N32 16 /* field elements of up to 512 bits */

typedef struct sp_circom sp_circom;

typedef struct {
    sp_wasm_limits lim;
    int natives;       /* run the module's raw field operations natively */
    int log_to_stderr; /* circom's log() lines on stderr (else dropped) */
} sp_circom_opts;

sp_circom_opts sp_circom_opts_default(void);

/*
 * Loads and instantiates a circuit's .wasm and reads its constants.
 * On input: wasm[0..len), untrusted.
 * On output: *c (sp_circom_close) on success, NULL otherwise.
 * Returns SP_OK; SP_ERR_FORMAT (not a valid module, not a circom 2
 *   witness generator: imports or exports missing or of the wrong type,
 *   a prime or sizes out of range); SP_ERR_UNSUPPORTED (circom 1, or
 *   WebAssembly outside the subset); SP_ERR_NOMEM.
 */
sp_status sp_circom_open(sp_circom **c, const uint8_t *wasm, size_t len, const sp_circom_opts *opts,
                         char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_circom_close(sp_circom *c);

/* The circuit's prime: n32 32-bit words, least significant first. */
uint32_t sp_circom_n32(const sp_circom *c);
/* 1 when the field operations run natively (the options asked for it and
 * the prime suits them), else 0. */
int sp_circom_natives_on(const sp_circom *c);
const uint32_t *sp_circom_prime(const sp_circom *c);
/* Values in the witness (getWitnessSize). */
uint32_t sp_circom_witness_size(const sp_circom *c);

/*
 * Parses input.json text as snarkjs reads it: a name given twice takes its
 * last value at the place of the first (JSON.parse's rule), and [] is read
 * as {} (snarkjs takes an array's indices as names, so [] sets nothing).
 * max_depth bounds the nesting (0: the JSON reader's default).
 * On output: *doc (free it with sp_json_free) on success; its root is an
 *   object or an empty array, either way root->n members to walk.
 * Returns SP_OK; SP_ERR_BAD_ENCODING (not JSON, or not an object of
 *   signals: err says which, beginning "input.json"); SP_ERR_NOMEM.
 */
sp_status sp_circom_parse_input(sp_json_doc **doc, const char *input, size_t input_len, unsigned max_depth,
                                char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Computes the witness of the inputs in input.json text (what snarkjs
 * accepts: an object of signal names, each a number, a decimal or 0x-hex
 * string, or nested arrays of them, read by sp_circom_parse_input) and
 * returns the .wtns file bytes exactly as `snarkjs wtns calculate` writes
 * them.
 * May be called again on the same c for other inputs.
 * On output: *wtns (free it with sp_huge_free: util/hugemem.h) and *wtns_len
 *   on success.
 * Returns SP_OK; SP_ERR_BAD_ENCODING (input.json is not JSON, or a value
 *   is not a number: err names the signal); SP_ERR_INVALID_ARG (an
 *   unknown signal, too many or too few values, inputs missing: err as
 *   snarkjs words it); SP_ERR_UNSATISFIED (the circuit's code failed: an
 *   assert, with the template and line circom reports); SP_ERR_FORMAT (a
 *   trap or a limit in the module); SP_ERR_NOMEM.
 */
sp_status sp_circom_witness(sp_circom *c, const char *input, size_t input_len, uint8_t **wtns, size_t *wtns_len,
                            char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Gives c the path of the circuit's symbol file (circom --sym: lines
 * "label,wire,component,name"), from which the names of the main
 * component's input signals are known: a later "Not all inputs have been
 * set" then names the signals missing. The file is read only then (it can
 * be large); unreadable or malformed lines are passed over.
 * Returns SP_OK or SP_ERR_NOMEM.
 */
sp_status sp_circom_set_sym_path(sp_circom *c, const char *path) SP_WARN_UNUSED;

/* ---- for the tests: the natives against the module's own code ---- */

/* Runs the module's function `name` (one of sp_circom_native_names),
 * natively (when natives is set and the module's natives run at all) or
 * interpreted, on elements a and b (8 header
 * bytes, then n32 words; raw operations take their limbs), placed in
 * memory the circuit's code does not use (the top). On output: out holds
 * the result element (8 + 8 n32 bytes: a double-width product fits), then
 * a and b as the call left them (8 + 4 n32 bytes each); *ret the i32
 * result. */
sp_status sp_circom_test_op(sp_circom *c, const char *name, int natives, const uint8_t *a, const uint8_t *b,
                            uint8_t *out, uint64_t *ret, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The names of the natively run operations, NULL-terminated. */
extern const char *const sp_circom_native_names[];

#endif
