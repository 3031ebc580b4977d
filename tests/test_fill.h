/*
 * A fill for sp_backend_proof (groth16/backend.h), shared by the backend
 * checks on the CPU (test_backend) and on the GPU (tests/gpu): it copies
 * a, b, c from src into the backend's arrays and hands over the domain d,
 * or, with fail set, returns an error; calls counts its calls, domains
 * those that asked for the domain.
 */
#ifndef SP_TESTS_TEST_FILL_H
#define SP_TESTS_TEST_FILL_H

#include <stdio.h>
#include <string.h>
#include "groth16/backend.h"

typedef struct {
    const sp_fr *src; /* a, b, c: 3 n values */
    sp_fr *dst;
    size_t n;
    const sp_ntt_domain *d;
    int fail, calls;
    int domains; /* calls that asked for a domain */
} sp_test_fill;

/* The error a failing fill returns, and the text err then holds. */
#define SP_TEST_FILL_ERR SP_ERR_UNSATISFIED
#define SP_TEST_FILL_MSG "the test's fill fails"

static inline sp_status sp_test_fill_copy(void *ctx, const sp_ntt_domain **d, char err[SP_ERR_LEN])
{
    sp_test_fill *f = ctx;
    f->calls++;
    if (f->fail) {
        snprintf(err, SP_ERR_LEN, SP_TEST_FILL_MSG);
        return SP_TEST_FILL_ERR;
    }
    memcpy(f->dst, f->src, 3 * f->n * sizeof *f->src);
    if (d) { /* NULL: the backend wants no domain */
        *d = f->d;
        f->domains++;
    }
    return SP_OK;
}

#endif
