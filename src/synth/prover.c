/* The whole-proof driver (see prover.h); synthesis itself is in synth.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/hugemem.h"
#include "util/par.h"
#include "util/progress.h"
#include "synth/prover.h"
#include "synth/synth.h"

sp_status sp_synth_check_circuit(const sp_g16_pk *pk, const sp_r1cs *cs, const sp_native_circuit *nat,
                                 char err[SP_ERR_LEN])
{
    if (nat) {
        uint64_t rows = nat->n_rows + nat->n_public + 1;
        if (!nat->witness || !nat->input_size) {
            snprintf(err, SP_ERR_LEN, "a native circuit needs its witness function and input size");
            return SP_ERR_INVALID_ARG;
        }
        if (nat->n_vars != pk->n_vars || nat->n_public != pk->vk.n_public || rows > pk->domain_size) {
            snprintf(err, SP_ERR_LEN, "native circuit '%s' (%llu wires, %llu public, %llu rows) does not match the "
                     "key (%u wires, %u public, domain %u)", nat->name, (unsigned long long)nat->n_vars,
                     (unsigned long long)nat->n_public, (unsigned long long)rows, pk->n_vars, pk->vk.n_public,
                     pk->domain_size);
            return SP_ERR_INVALID_ARG;
        }
        return SP_OK;
    }
    if (!cs) {
        if (pk->has_qap)
            return SP_OK;
        snprintf(err, SP_ERR_LEN, "the proving key holds no QAP matrices: the circuit (.r1cs) is needed");
        return SP_ERR_INVALID_ARG;
    }
    uint64_t rows = (uint64_t)cs->h.n_constraints + sp_r1cs_n_public(&cs->h) + 1;
    if (cs->h.n_wires != pk->n_vars || sp_r1cs_n_public(&cs->h) != pk->vk.n_public || rows > pk->domain_size) {
        snprintf(err, SP_ERR_LEN, "circuit (%u wires, %u public, %llu rows) does not match the key (%u wires, %u "
                 "public, domain %u)", cs->h.n_wires, sp_r1cs_n_public(&cs->h), (unsigned long long)rows,
                 pk->n_vars, pk->vk.n_public, pk->domain_size);
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

/* a, b, c from the circuit, or from the key's QAP without one
 * (sp_synth_check_circuit has matched the two). */
static sp_status synthesize(sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk, const sp_r1cs *cs, const sp_fr *w,
                            size_t w_len, int check, int nt, char err[SP_ERR_LEN])
{
    if (!cs)
        return sp_synth_abc_from_key(a, b, c, pk, w, w_len, nt, NULL, err);
    size_t bad;
    return sp_synth_abc(a, b, c, pk->domain_size, cs, w, w_len, check, nt, NULL, &bad, err);
}

/* What sp_synth_prove's fill makes, during the backend call: the domain
 * (when the backend wants one), then a, b, c. */
typedef struct {
    const sp_g16_pk *pk;
    const sp_r1cs *cs;
    const sp_fr *w;
    size_t w_len;
    int check, nt;
    sp_fr *a, *b, *c;
    sp_ntt_domain *d; /* made here, freed by sp_synth_prove */
} fill_job;

static sp_status fill(void *ctx, const sp_ntt_domain **d, char err[SP_ERR_LEN])
{
    fill_job *j = ctx;
    const sp_g16_pk *pk = j->pk;
    if (d && sp_ntt_domain_create(&j->d, pk->log2_domain, sp_g16_roots_for(pk), j->nt) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "out of memory for a domain of %u rows", pk->domain_size);
        return SP_ERR_NOMEM;
    }
    if (d)
        *d = j->d;
    sp_progress_part("synthesis");
    sp_status st = synthesize(j->a, j->b, j->c, pk, j->cs, j->w, j->w_len, j->check, j->nt, err);
    sp_progress_add(pk->domain_size / 8);
    return st;
}

sp_status sp_synth_prove(sp_g16_proof *proof, sp_fr *public_signals, const sp_g16_pk *pk, const sp_r1cs *cs,
                         const sp_fr *w, size_t w_len, int check, const sp_g16_prove_opts *opts, char err[SP_ERR_LEN])
{
    sp_status st = sp_synth_check_circuit(pk, cs, NULL, err);
    if (st != SP_OK)
        return st;
    sp_g16_prove_opts o = opts ? *opts : sp_g16_prove_opts_default();
    int nt = o.threads > 0 ? o.threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    size_t n = pk->domain_size;
    /* a, b, c in one block (a backend copies a and b in one piece); made
     * by fill while the backend works on the witness; written whole, so
     * from sp_huge_alloc */
    size_t bytes = n <= SIZE_MAX / (3 * sizeof(sp_fr)) ? 3 * sizeof(sp_fr) * n : 0;
    sp_fr *abc = bytes ? sp_huge_alloc(bytes) : NULL;
    if (!abc) {
        snprintf(err, SP_ERR_LEN, "out of memory for a, b, c of %zu rows", n);
        return SP_ERR_NOMEM;
    }
    fill_job job = {pk, cs, w, w_len, check, nt, abc, abc + n, abc + 2 * n, NULL};
    o.fill = fill;
    o.fill_ctx = &job;
    /* progress: the synthesis counts an eighth of a unit a row */
    sp_progress_begin("prove", n / 8 + sp_g16_prove_progress_units(pk));
    st = sp_g16_prove(proof, pk, w, w_len, job.a, job.b, job.c, NULL, &o, err);
    sp_progress_end();
    if (st == SP_OK && public_signals)
        memcpy(public_signals, w + 1, sizeof(sp_fr) * pk->vk.n_public);
    sp_huge_free(abc);
    sp_ntt_domain_free(job.d);
    return st;
}
