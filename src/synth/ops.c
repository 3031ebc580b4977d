/*
 * This build's curve as the engine's table of operations (synth/ops.h):
 * thin wrappers over the groth16, synth and circuit layers, whose types
 * the engine sees only by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include "circuit/native.h"
#include "groth16/backend.h"
#include "groth16/prove.h"
#include "groth16/verify.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "synth/ops.h"
#include "synth/prover.h"
#include "synth/synth.h"

struct sp_synth_circ {
    const sp_g16_pk *pk;
    const sp_r1cs *cs;            /* NULL: synthesis from the key's QAP, or native */
    const sp_native_circuit *nat; /* a native circuit, or NULL */
    sp_g16_pvk pvk;
    sp_ntt_domain *domain;
};

/* One partition's bytes (sp_synth_circ_info): a, b, c, plus the prover's
 * witness and H scalars, the split MSM's index list, the bucket scratch
 * of the G1 MSMs (bt threads) and of the G2 MSM (ft threads), both
 * counted as XYZZ plus affine buckets, and the endomorphism split's
 * scratch (one G1 MSM at a time, the G2 beside it). */
static void circ_sizes(sp_synth_circ_info *info, const sp_g16_pk *pk, const sp_native_circuit *nat, int bt, int ft)
{
    size_t nv = pk->n_vars, s = sizeof(sp_scalar), n = pk->domain_size;
    size_t g1_n = nv > pk->n_h ? nv : pk->n_h; /* the largest G1 MSM */
    size_t w1 = (size_t)1 << (sp_msm_auto_window(g1_n, 1) - 1);
    size_t w2 = (size_t)1 << (sp_msm_auto_window(nv, 2) - 1);
    *info = (sp_synth_circ_info){.n_vars = nv, .n_public = pk->vk.n_public, .domain_size = pk->domain_size,
                                 .native = nat != NULL, .input_size = nat ? nat->input_size : 0};
    /* A native circuit's witness, made by synthesis and done with when
     * a, b, c are (after the device call), rides in the same pooled block,
     * after them: a fresh multi-GiB witness a partition cost a first touch
     * of every page, which made engine synthesis much slower than
     * `bench witness`. */
    info->witness_at = 3 * sizeof(sp_fr) * n;
    info->abc_bytes = info->witness_at + (nat ? nv * sizeof(sp_fr) : 0);
    info->rest_bytes = nv * s + pk->n_h * s + nv * sizeof(size_t) +
                       (size_t)bt * w1 * (sizeof(sp_g1_xyzz) + sizeof(sp_g1_affine)) +
                       (size_t)ft * w2 * (sizeof(sp_g2_xyzz) + sizeof(sp_g2_affine)) +
                       sp_msm_g1_endo_bytes(g1_n) + sp_msm_g2_endo_bytes(nv);
}

static void circ_close(sp_synth_circ *c)
{
    if (!c)
        return;
    sp_g16_pvk_free(&c->pvk);
    sp_ntt_domain_free(c->domain);
    free(c);
}

static sp_status circ_open(sp_synth_circ **out, sp_synth_circ_info *info, const sp_g16_pk *pk, const sp_r1cs *cs,
                           const sp_native_circuit *nat, int threads, int backend_threads, int finish_threads,
                           char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_status st = sp_synth_check_circuit(pk, cs, nat, err);
    if (st != SP_OK)
        return st;
    sp_synth_circ *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "out of memory for a circuit");
        return SP_ERR_NOMEM;
    }
    *c = (sp_synth_circ){.pk = pk, .cs = nat ? NULL : cs, .nat = nat};
    if ((st = sp_g16_pvk_init(&c->pvk, &pk->vk, err)) != SP_OK) {
        free(c);
        return st;
    }
    st = sp_ntt_domain_create(&c->domain, pk->log2_domain, sp_g16_roots_for(pk), threads);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "cannot build an NTT domain of 2^%u (%s)", pk->log2_domain, sp_status_str(st));
        circ_close(c);
        return st;
    }
    circ_sizes(info, pk, nat, backend_threads, finish_threads);
    *out = c;
    return SP_OK;
}

static sp_status circ_synth(const sp_synth_circ *c, void *abc, const sp_fr *w, const void *input, int threads,
                            int check, const sp_synth_ctl *ctl, char err[SP_ERR_LEN])
{
    size_t n = c->pk->domain_size, bad;
    sp_fr *a = abc, *b = a + n, *cc = b + n;
    if (c->nat) /* the witness in the block, after a, b, c (circ_sizes) */
        return c->nat->witness(c->nat, input, cc + n, a, b, cc, n, threads, check, ctl ? ctl->cancel : NULL, err);
    if (c->cs)
        return sp_synth_abc(a, b, cc, n, c->cs, w, c->pk->n_vars, check, threads, ctl, &bad, err);
    return sp_synth_abc_from_key(a, b, cc, c->pk, w, c->pk->n_vars, threads, ctl, err);
}

static sp_status circ_native_check(const sp_synth_circ *c, const void *input, int threads, const atomic_int *cancel,
                                   char err[SP_ERR_LEN])
{
    sp_fr *w = malloc(sizeof(sp_fr) * (size_t)c->nat->n_vars);
    if (!w) {
        snprintf(err, SP_ERR_LEN, "out of memory for a witness");
        return SP_ERR_NOMEM;
    }
    sp_status st = c->nat->witness(c->nat, input, w, NULL, NULL, NULL, 0, threads, 1, cancel, err);
    free(w);
    return st;
}

static sp_g16_prove_opts prove_opts(const sp_synth_prove_cfg *cfg)
{
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    o.backend = cfg->backend;
    o.threads = cfg->threads;
    o.split_msm = cfg->split_msm;
    o.g2_on_backend = cfg->g2_on_backend;
    o.pause = cfg->pause;
    return o;
}

static sp_status part_prove_device(sp_g16_partial **out, const sp_synth_circ *c, const sp_fr *w, void *abc,
                                   const sp_synth_prove_cfg *cfg, char err[SP_ERR_LEN])
{
    size_t n = c->pk->domain_size;
    sp_fr *a = abc;
    sp_g16_prove_opts o = prove_opts(cfg);
    sp_g16_partial *part = malloc(sizeof *part);
    *out = NULL;
    if (!part) {
        snprintf(err, SP_ERR_LEN, "out of memory for a partial proof");
        return SP_ERR_NOMEM;
    }
    sp_status st = sp_g16_prove_device(part, c->pk, w, c->pk->n_vars, a, a + n, a + 2 * n, c->domain, &o, err);
    if (st != SP_OK)
        free(part);
    else
        *out = part;
    return st;
}

static void part_free(sp_g16_partial *part)
{
    if (!part)
        return;
    sp_g16_partial_free(part);
    free(part);
}

static sp_status part_keep_scalars(sp_g16_partial *part, const sp_synth_circ *c, const sp_fr *w,
                                   const sp_synth_prove_cfg *cfg, char err[SP_ERR_LEN])
{
    sp_g16_prove_opts o = prove_opts(cfg);
    sp_status st = sp_g16_prove_keep_scalars(part, w, c->pk->n_vars, &o, err);
    if (st != SP_OK)
        part_free(part);
    return st;
}

static int part_has_g2(const sp_g16_partial *part) { return part->have_b2; }

static sp_status part_finish(sp_g16_proof *proof, sp_g16_partial *part, const sp_synth_circ *c,
                             const sp_synth_prove_cfg *cfg, char err[SP_ERR_LEN])
{
    sp_g16_prove_opts o = prove_opts(cfg);
    o.backend = NULL;
    sp_status st = sp_g16_prove_finish(proof, part, c->pk, &o, err);
    free(part); /* finish released what it held */
    return st;
}

static sp_status proof_verify(int *valid, const sp_synth_circ *c, const sp_g16_proof *proof, const sp_fr *pub,
                              char err[SP_ERR_LEN])
{
    return sp_g16_verify(valid, &c->pvk, proof, pub, c->pk->vk.n_public, err);
}

static const char *be_name(const sp_backend *be) { return be->name; }
static int be_pausable(const sp_backend *be) { return be->pausable; }
static int be_host_cores(const sp_backend *be) { return be->host_cores; }

static void be_set_hook(sp_backend *be, void (*hook)(void *ctx, const char *stage, double ms), void *ctx)
{
    be->stage_hook = hook;
    be->stage_ctx = ctx;
}

static sp_status be_key_attach(sp_backend *be, const sp_synth_circ *c, char err[SP_ERR_LEN])
{
    return be->key_attach(be, c->pk, err);
}

static void be_key_detach(sp_backend *be, const sp_synth_circ *c) { be->key_detach(be, c->pk); }

static void be_memory(sp_backend *be, size_t *resident, size_t *free_bytes, size_t *streamed)
{
    size_t keys_resident;
    *streamed = 0;
    be->memory(be, resident, free_bytes);
    if (be->key_memory)
        be->key_memory(be, NULL, NULL, &keys_resident, streamed);
}

static int be_key_array_resident(sp_backend *be, const void *array)
{
    size_t resident = 0, streamed = 0;
    if (be->key_memory && be->key_release_host)
        be->key_memory(be, NULL, array, &resident, &streamed);
    return resident > 0 && streamed == 0;
}

static int be_key_release_host(sp_backend *be, const void *array) { return be->key_release_host(be, array); }

const sp_synth_ops sp_synth_curve_ops = {
    .fr_bytes = sizeof(sp_fr),
    .proof_size = sizeof(sp_g16_proof),
    .open = circ_open,
    .close = circ_close,
    .synth = circ_synth,
    .native_check = circ_native_check,
    .prove_device = part_prove_device,
    .keep_scalars = part_keep_scalars,
    .partial_has_g2 = part_has_g2,
    .partial_free = part_free,
    .finish = part_finish,
    .verify = proof_verify,
    .backend_open = sp_backend_open,
    .backend_count = sp_backend_count,
    .backend_close = sp_backend_close,
    .backend_name = be_name,
    .backend_pausable = be_pausable,
    .backend_host_cores = be_host_cores,
    .backend_set_hook = be_set_hook,
    .key_attach = be_key_attach,
    .key_detach = be_key_detach,
    .backend_memory = be_memory,
    .key_array_resident = be_key_array_resident,
    .key_release_host = be_key_release_host,
    .host_alloc = sp_backend_host_alloc,
    .host_free = sp_backend_host_free,
};
