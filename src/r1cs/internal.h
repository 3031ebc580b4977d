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

/*
 * Opens a writer of a .r1cs or .wtns file (magic, version, n_sections)
 * and writes its header section (id 1): this build's field (n8 u32, then
 * the prime r little-endian) followed by rest[0..rest_len); then starts
 * section 2.
 * On output: *w, owned by the caller (sp_fmt_writer_end); NULL on failure.
 * Returns SP_OK or the writer's error, err saying which.
 */
sp_status sp_fmt_writer_open(sp_binw **w, const char *path, const char *magic, uint32_t version,
                             uint32_t n_sections, const uint8_t *rest, size_t rest_len,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Ends a writer object's file and the object, whatever came before: on
 * st == SP_OK closes w (sp_binw_close), otherwise aborts it (w may be
 * NULL); then frees owner, the heap object holding w (NULL: none).
 * Returns sp_binw_close's status, or st when not SP_OK.
 */
sp_status sp_fmt_writer_end(sp_binw *w, sp_status st, void *owner, char err[SP_ERR_LEN]);

#endif
