/* Development setup of a native circuit from its recording (native_setup.h). */
#include <stdio.h>
#include "groth16/qap.h"
#include "synth/native_setup.h"

static sp_status rec_wires_at(void *ctx, sp_fr *a, sp_fr *b, sp_fr *c, const sp_fr *lag, int threads)
{
    const sp_cs_rec *r = *(sp_cs_rec **)ctx;
    sp_qap_matrix m[3];
    for (int i = 0; i < 3; i++)
        m[i] = (sp_qap_matrix){r->m[i].row, r->n_rows, r->m[i].nnz, r->m[i].var, NULL, r->m[i].kid, r->coef};
    sp_fr *const acc[3] = {a, b, c};
    return sp_qap_matrices_at(acc, m, r->n_vars, r->n_rows, (uint32_t)r->n_public, lag, threads);
}

static void rec_done(void *ctx)
{
    sp_cs_rec **r = ctx;
    sp_cs_rec_free(*r);
    *r = NULL;
}

sp_status sp_native_setup(sp_g16_pk *pk, sp_cs_rec **rec, sp_g16_h_kind kind, sp_backend *be, int threads,
                          char err[SP_ERR_LEN])
{
    const sp_cs_rec *r = *rec;
    sp_status st;
    if (r->n_vars >= UINT32_MAX || r->n_public >= UINT32_MAX) {
        snprintf(err, SP_ERR_LEN, "native setup: %llu wires do not fit a key", (unsigned long long)r->n_vars);
        st = SP_ERR_UNSUPPORTED;
    } else {
        sp_g16_circuit c = {(uint32_t)r->n_vars, (uint32_t)r->n_public, r->n_rows, rec_wires_at, rec_done, rec};
        st = sp_g16_setup_circuit(pk, &c, kind, be, threads, err);
    }
    rec_done(rec);
    return st;
}
