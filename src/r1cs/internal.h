/* Helpers shared by the .r1cs and .wtns code; internal to the r1cs layer. */
#ifndef SP_R1CS_INTERNAL_H
#define SP_R1CS_INTERNAL_H

#include <stdint.h>
#include "r1cs/binfile.h"

/* Returns SP_OK when (n8, prime) is this build's scalar field r
 * (little-endian), else SP_ERR_UNSUPPORTED with a message that names both
 * curves when it is the other known curve's field. where prefixes the
 * message. */
sp_status sp_fmt_check_prime(const char *where, uint32_t n8, const uint8_t *prime, char err[SP_ERR_LEN]);

#endif
