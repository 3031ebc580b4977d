/*
 * multipart/form-data bodies (RFC 7578), as browsers and `curl -F` send
 * them: the parts are found in a body held whole in memory, without
 * copying their contents.
 */
#ifndef SP_DAEMON_FORM_H
#define SP_DAEMON_FORM_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"

#define SP_DMN_FORM_MAX_PARTS 4096

typedef struct {
    char name[64];       /* the form field name */
    char filename[256];  /* "" when the part is not a file */
    const uint8_t *data; /* points into the body */
    size_t len;
} sp_dmn_form_part;

/*
 * On input: content_type the request's Content-Type header (it carries
 *   the boundary); body[0..len).
 * On output: *parts a malloc'ed array of *n parts (free()), in body order;
 *   NULL and 0 on failure.
 * Returns SP_OK, SP_ERR_BAD_ENCODING (no boundary, a part without
 *   Content-Disposition form-data and a name, a name too long, no closing
 *   boundary, more than SP_DMN_FORM_MAX_PARTS parts; err says which),
 *   SP_ERR_NOMEM.
 */
sp_status sp_dmn_form_parse(sp_dmn_form_part **parts, size_t *n, const char *content_type, const uint8_t *body,
                            size_t len, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The first part called name, or NULL. */
const sp_dmn_form_part *sp_dmn_form_get(const sp_dmn_form_part *parts, size_t n, const char *name);

#endif
