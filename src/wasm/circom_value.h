/* Internal to src/wasm/: input values as snarkjs reads them, and field
 * elements in decimal (circom_value.c). */
#ifndef SP_WASM_CIRCOM_VALUE_H
#define SP_WASM_CIRCOM_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "util/json.h"

#define SP_CV_MAX_N32 16 /* SP_CIRCOM_MAX_N32 */

/* The leaves of v in order (nested arrays flattened, as flatArray does; a
 * scalar is one leaf). *out (free()) holds *n pointers into v. Returns
 * SP_OK, SP_ERR_BAD_ENCODING (nested too deeply), SP_ERR_NOMEM; err names
 * the signal. */
sp_status sp_cv_flatten(const sp_json_val ***out, size_t *n, const sp_json_val *v, const char *signal,
                        char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * The field element of one input value, as snarkjs gets it: a JSON number
 * is the double JavaScript reads (an integral one only); a string is
 * BigInt(s) (decimal with an optional sign, 0x, 0o or 0b, spaces around);
 * true and false are 1 and 0. Reduced modulo prime, negatives wrapped.
 * On output: w[0..n32) least significant word first.
 * Returns SP_OK or SP_ERR_BAD_ENCODING (err names the signal and value).
 */
sp_status sp_cv_value(uint32_t *w, const sp_json_val *v, const uint32_t *prime, unsigned n32, const char *signal,
                      char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* w[0..n32) in decimal into out (10 n32 + 2 bytes). */
void sp_cv_to_decimal(char *out, const uint32_t *w, unsigned n32);

#endif
