/*
 * Fixed-base multiplication for one group, instantiated by fixed_base.c
 * for g1 and g2. The includer defines G (g1 or g2) and FB_UNITS (progress
 * units a multiplication counts). Contract: fixed_base.h.
 */
#include <stdlib.h>
#include <string.h>
#include "groth16/fixed_base.h"
#include "util/par.h"
#include "util/progress.h"

#define FB_CAT2(a, b) a##b
#define FB_CAT(a, b) FB_CAT2(a, b)
#define GF(name) FB_CAT(FB_CAT(sp_, G), FB_CAT(_, name))
#define AFF FB_CAT(FB_CAT(sp_, G), _affine)
#define JAC FB_CAT(FB_CAT(sp_, G), _jac)
#define FBW 8                        /* window bits */
#define FBD ((1 << FBW) - 1)         /* nonzero digits per window */
#define FBN ((256 + FBW - 1) / FBW)  /* windows covering a 256-bit scalar */
#define FB_CHUNK 256                 /* points converted to affine at once */
_Static_assert(FBN == SP_FB_WINDOWS && FBD == SP_FB_DIGITS, "fixed_base.h describes this table");

typedef struct {
    const AFF *table; /* FBN * FBD entries: table[j * FBD + d - 1] = d 2^(8j) B */
    const sp_fr *k;
    AFF *out;
    size_t n;
} FB_CAT(G, _fb_ctx);

static void GF(fb_worker_)(sp_par *par, int tid, void *arg)
{
    FB_CAT(G, _fb_ctx) *c = arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, c->n, tid, par->nthreads);
    JAC acc[FB_CHUNK];
    for (size_t base = lo; base < hi; base += FB_CHUNK) {
        size_t m = hi - base < FB_CHUNK ? hi - base : FB_CHUNK;
        for (size_t i = 0; i < m; i++) {
            uint64_t l[4];
            sp_fr_to_canonical(l, &c->k[base + i]);
            GF(jac_set_inf)(&acc[i]);
            for (int j = 0; j < FBN; j++) {
                unsigned d = (unsigned)(l[j / 8] >> (8 * (j % 8))) & 0xff;
                if (d)
                    GF(jac_add_affine_var)(&acc[i], &acc[i], &c->table[(size_t)j * FBD + d - 1]);
            }
        }
        GF(batch_to_affine)(c->out + base, acc, m);
        sp_progress_add((uint64_t)m * FB_UNITS);
    }
}

sp_status GF(fixed_base_table_var)(AFF *table, const AFF *b)
{
    JAC *row = malloc(sizeof(JAC) * FBD);
    if (!row)
        return SP_ERR_NOMEM;
    JAC step; /* 2^(8j) B */
    GF(jac_from_affine)(&step, b);
    for (int j = 0; j < FBN; j++) {
        row[0] = step;
        for (int d = 1; d < FBD; d++)
            GF(jac_add_var)(&row[d], &row[d - 1], &step);
        GF(batch_to_affine)(table + (size_t)j * FBD, row, FBD);
        for (int s = 0; s < FBW; s++)
            GF(jac_dbl)(&step, &step);
    }
    free(row);
    return SP_OK;
}

sp_status GF(fixed_base_mul_var)(AFF *out, const AFF *b, const sp_fr *k, size_t n, int threads)
{
    if (n == 0)
        return SP_OK;
    AFF *table = malloc(sizeof(AFF) * FBN * FBD);
    if (!table || GF(fixed_base_table_var)(table, b) != SP_OK) {
        free(table);
        return SP_ERR_NOMEM;
    }
    FB_CAT(G, _fb_ctx) ctx = {table, k, out, n};
    sp_par_run(sp_par_threads_for(threads, n, FB_CHUNK), GF(fb_worker_), &ctx);
    free(table);
    return SP_OK;
}

#undef GF
#undef AFF
#undef JAC
