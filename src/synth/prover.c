/* The whole-proof driver (see prover.h); synthesis itself is in synth.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/par.h"
#include "util/progress.h"
#include "synth/prover.h"
#include "synth/synth.h"

static sp_status synthesize(sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk, const sp_r1cs *cs, const sp_fr *w,
                            size_t w_len, int check, int nt, char err[SP_ERR_LEN])
{
    if (!cs)
        return sp_synth_abc_from_key(a, b, c, pk, w, w_len, nt, NULL, err);
    if (cs->h.n_wires != pk->n_vars || sp_r1cs_n_public(&cs->h) != pk->vk.n_public) {
        snprintf(err, SP_ERR_LEN, "circuit (%u wires, %u public) does not match the key (%u wires, %u public)",
                 cs->h.n_wires, sp_r1cs_n_public(&cs->h), pk->n_vars, pk->vk.n_public);
        return SP_ERR_INVALID_ARG;
    }
    size_t bad;
    return sp_synth_abc(a, b, c, pk->domain_size, cs, w, w_len, check, nt, NULL, &bad, err);
}

sp_status sp_synth_prove(sp_g16_proof *proof, sp_fr *public_signals, const sp_g16_pk *pk, const sp_r1cs *cs,
                         const sp_fr *w, size_t w_len, int check, const sp_g16_prove_opts *opts, char err[SP_ERR_LEN])
{
    sp_g16_prove_opts o = opts ? *opts : sp_g16_prove_opts_default();
    int nt = o.threads > 0 ? o.threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    /* The witness's length and the key's QAP are checked once, by the
     * synthesis (before anything is allocated for the proof itself). */
    size_t n = pk->domain_size;
    sp_fr *a = malloc(sizeof(sp_fr) * n), *b = malloc(sizeof(sp_fr) * n), *c = malloc(sizeof(sp_fr) * n);
    sp_ntt_domain *d = NULL;
    sp_status st = SP_ERR_NOMEM;
    if (!a || !b || !c || sp_ntt_domain_create(&d, pk->log2_domain, sp_g16_roots_for(pk), nt) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "out of memory for a domain of %zu rows", n);
        goto out;
    }
    /* progress: the synthesis counts an eighth of a unit a row */
    sp_progress_begin("prove", n / 8 + sp_g16_prove_progress_units(pk));
    sp_progress_part("synthesis");
    st = synthesize(a, b, c, pk, cs, w, w_len, check, nt, err);
    sp_progress_add(n / 8);
    if (st == SP_OK)
        st = sp_g16_prove(proof, pk, w, w_len, a, b, c, d, &o, err);
    sp_progress_end();
    if (st == SP_OK && public_signals)
        memcpy(public_signals, w + 1, sizeof(sp_fr) * pk->vk.n_public);
out:
    free(a), free(b), free(c);
    sp_ntt_domain_free(d);
    return st;
}
