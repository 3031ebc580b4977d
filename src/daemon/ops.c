/* This build's curve as the daemon uses it (ops.h): compiled per curve. */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/ops.h"
#include "circuit/post.h"
#include "groth16/backend.h"
#include "groth16/json_io.h"
#include "groth16/keycache.h"
#include "groth16/params.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"

static_assert(SP_DMN_BP_PROOF_BYTES == SP_BP_PROOF_BYTES, "bellperson proof size");
static_assert(SP_DMN_NATIVE_UNSET == SP_POREP_UNSET, "an unset native parameter");
static_assert(sizeof(sp_dmn_native_input) == sizeof(sp_porep_input) &&
                  offsetof(sp_dmn_native_input, seed) == offsetof(sp_porep_input, seed) &&
                  offsetof(sp_dmn_native_input, partition) == offsetof(sp_porep_input, partition),
              "a native input is the circuit layer's");

/* ---- keys ---- */

struct sp_dmn_key {
    sp_g16_pk pk;
    sp_r1cs cs;
    int has_cs;
};

struct sp_dmn_pvk {
    sp_g16_pvk pvk;
};

static void key_free(sp_dmn_key *k)
{
    if (!k)
        return;
    sp_g16_pk_free(&k->pk);
    if (k->has_cs)
        sp_r1cs_free(&k->cs);
    free(k);
}

/* The key from its mapped file, through the key cache when one is set. */
static sp_status load_pk(sp_dmn_key *k, sp_dmn_key_cache *kc, const sp_dmn_key_src *src, sp_kc_kind kind,
                         const sp_g16_density *den, unsigned flags, char err[SP_ERR_LEN])
{
    *kc = (sp_dmn_key_cache){0};
    if (!*src->cache_dir)
        return kind == SP_KC_ZKEY ? sp_zkey_parse(&k->pk, NULL, src->data, src->len, flags, src->threads, err)
                                  : sp_bp_params_parse(&k->pk, src->data, src->len, den, flags, src->threads, err);
    sp_kc_report rep;
    sp_kc_request rq = {.kind = kind, .path = src->path, .data = src->data, .len = src->len, .density = den,
                        .flags = flags, .threads = src->threads, .store = 1, .max_bytes = src->cache_max};
    sp_status st = sp_kc_load(&k->pk, &rep, src->cache_dir, &rq, err);
    kc->outcome = (int)rep.outcome;
    kc->stored = rep.stored;
    snprintf(kc->warning, sizeof kc->warning, "%s", rep.warning);
    return st;
}

static sp_status key_load(sp_dmn_key **out, sp_dmn_key_cache *kc, const sp_dmn_key_src *src, char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_dmn_key *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    unsigned flags = src->skip_subgroup_check ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    sp_status st = SP_OK;
    if (src->cs_data) {
        st = sp_r1cs_parse(&k->cs, src->cs_data, src->cs_len, err);
        k->has_cs = st == SP_OK;
    }
    if (st == SP_OK && src->zkey) {
        st = load_pk(k, kc, src, SP_KC_ZKEY, NULL, flags, err);
    } else if (st == SP_OK) {
        sp_g16_density den;
        st = sp_g16_density_from_r1cs(&den, &k->cs);
        if (st == SP_OK) {
            st = load_pk(k, kc, src, SP_KC_PARAMS, &den, flags, err);
            sp_g16_density_free(&den);
        } else {
            snprintf(err, SP_ERR_LEN, "densities of %.180s: %s", src->r1cs, sp_status_str(st));
        }
    }
    if (st != SP_OK) {
        key_free(k);
        return st;
    }
    *out = k;
    return SP_OK;
}

static sp_dmn_key_shape key_shape(const sp_dmn_key *k)
{
    return (sp_dmn_key_shape){k->pk.n_vars, k->pk.vk.n_public, k->pk.domain_size};
}

static size_t csr_bytes(const sp_csr *m) { return (m->n_rows + 1) * sizeof(uint64_t) + m->nnz * (4 + sizeof(sp_fr)); }

static size_t key_bytes(const sp_dmn_key *k)
{
    const sp_g16_pk *pk = &k->pk;
    size_t n = pk->n_vars, b = 0;
    b += n * (2 * sizeof(sp_g1_affine) + sizeof(sp_g2_affine));
    b += (n - pk->vk.n_public - 1 + pk->n_h + pk->vk.n_public + 1) * sizeof(sp_g1_affine);
    if (pk->has_qap)
        b += csr_bytes(&pk->qap_a) + csr_bytes(&pk->qap_b);
    b += pk->mpc_len;
    if (k->has_cs)
        b += csr_bytes(&k->cs.a) + csr_bytes(&k->cs.b) + csr_bytes(&k->cs.c);
    return b;
}

static const sp_g16_pk *key_pk(const sp_dmn_key *k) { return &k->pk; }

static const sp_r1cs *key_cs(const sp_dmn_key *k) { return k->has_cs ? &k->cs : NULL; }

static const char *key_cache_str(int cache) { return sp_kc_outcome_str((sp_kc_outcome)cache); }

static sp_status zkey_shape(sp_dmn_key_shape *s, const char *path, char err[SP_ERR_LEN])
{
    sp_g16_vk vk;
    sp_zkey_info info;
    sp_status st = sp_zkey_read_vk(&vk, &info, path, 0, err);
    if (st == SP_OK) {
        *s = (sp_dmn_key_shape){info.n_vars, info.n_public, info.domain_size};
        sp_g16_vk_free(&vk);
    }
    return st;
}

static sp_status r1cs_shape(uint32_t *n_vars, uint32_t *n_public, uint64_t *rows, const char *path,
                            char err[SP_ERR_LEN])
{
    sp_r1cs cs;
    sp_status st = sp_r1cs_read(&cs, path, err);
    if (st != SP_OK)
        return st;
    *n_vars = cs.h.n_wires;
    *n_public = sp_r1cs_n_public(&cs.h);
    *rows = (uint64_t)cs.h.n_constraints + *n_public + 1;
    sp_r1cs_free(&cs);
    return SP_OK;
}

/* ---- witnesses, proofs, public signals ---- */

static void fr_to_bytes(uint8_t out[32], const sp_fr *w, size_t i) { sp_fr_to_bytes_le(out, &w[i]); }

static sp_status fr_from_bytes(sp_fr *w, size_t i, const uint8_t in[32]) { return sp_fr_from_bytes_le(&w[i], in); }

static sp_status proof_json(char **text, size_t *len, const sp_g16_proof *proofs, size_t i)
{
    return sp_g16_proof_json_encode(text, len, &proofs[i]);
}

static sp_status public_json(char **text, size_t *len, const sp_fr *pub, size_t at, size_t n)
{
    return sp_g16_public_json_encode(text, len, pub + at, n);
}

static void bp_encode(uint8_t out[SP_DMN_BP_PROOF_BYTES], const sp_g16_proof *proofs, size_t i)
{
    sp_bp_proof_encode(out, &proofs[i]);
}

static sp_status bp_decode(sp_g16_proof *proofs, size_t i, const uint8_t in[SP_DMN_BP_PROOF_BYTES],
                           char err[SP_ERR_LEN])
{
    return sp_bp_proof_decode(&proofs[i], in, 0, err);
}

/* ---- verification ---- */

static sp_status pvk_init(sp_dmn_pvk **out, const sp_dmn_key *k, char err[SP_ERR_LEN])
{
    *out = calloc(1, sizeof **out);
    if (!*out) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    sp_status st = sp_g16_pvk_init(&(*out)->pvk, &k->pk.vk, err);
    if (st != SP_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

static void pvk_free(sp_dmn_pvk *p)
{
    if (!p)
        return;
    sp_g16_pvk_free(&p->pvk);
    free(p);
}

static sp_status verify(int *valid, const sp_dmn_pvk *p, const sp_g16_proof *proofs, size_t i, const sp_fr *pub,
                        uint32_t n_public, char err[SP_ERR_LEN])
{
    return sp_g16_verify(valid, &p->pvk, &proofs[i], pub + i * n_public, n_public, err);
}

static sp_status verify_batch(int *valid, const sp_dmn_pvk *p, const sp_g16_proof *proofs, size_t n,
                              const sp_fr *pub, uint32_t n_public, char err[SP_ERR_LEN])
{
    return sp_g16_verify_batch(valid, &p->pvk, proofs, n, pub, n_public, err);
}

/* ---- circuits with their .wasm ---- */

static const sp_native_circuit *wasmc_bind(sp_dmn_wasmc *w, const sp_dmn_key *k)
{
    return sp_dmn_wasmc_bind(w, &k->pk, key_cs(k));
}

/* ---- native circuits: each kind's circuit layer ---- */

static sp_status porep_resolve(sp_porep_params *p, const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    sp_porep_overrides ov;
    sp_porep_overrides_init(&ov);
    ov.challenges = n->v[SP_DMN_P_CHALLENGES], ov.layers = n->v[SP_DMN_P_LAYERS], ov.nodes = n->v[SP_DMN_P_NODES];
    ov.drg_parents = n->v[SP_DMN_P_DRG], ov.exp_parents = n->v[SP_DMN_P_EXP];
    ov.label_parents = n->v[SP_DMN_P_LABEL];
    return sp_porep_params_from(p, n->preset[0] ? n->preset : NULL, &ov, err);
}

static sp_status porep_check(const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    sp_porep_params p;
    return porep_resolve(&p, n, err);
}

static sp_status porep_open(void **circ, const sp_native_circuit **nc, sp_dmn_native_shape *shape,
                            const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    sp_porep_params p;
    sp_porep *c = NULL;
    sp_status st = porep_resolve(&p, n, err);
    if (st == SP_OK)
        st = sp_porep_open(&c, &p, err);
    *circ = c;
    *nc = c ? sp_porep_native(c) : NULL;
    if (*nc)
        *shape = (sp_dmn_native_shape){(*nc)->n_vars, (*nc)->n_public, (*nc)->n_rows};
    return st;
}

static void porep_close(void *circ) { sp_porep_close(circ); }

static const char *porep_values(const void *circ, uint64_t v[SP_DMN_NATIVE_N_PARAMS])
{
    const sp_porep_params *p = sp_porep_params_of(circ);
    v[SP_DMN_P_CHALLENGES] = p->challenges, v[SP_DMN_P_LAYERS] = p->layers, v[SP_DMN_P_NODES] = p->nodes;
    v[SP_DMN_P_DRG] = p->drg_parents, v[SP_DMN_P_EXP] = p->exp_parents, v[SP_DMN_P_LABEL] = p->label_parents;
    return p->preset;
}

/* Unchanged since farms first digested porep-like circuits: a node with
 * this text in its digest finds the circuits recorded before. */
static void porep_ident(char *t, size_t len, const void *circ)
{
    const sp_porep_params *p = sp_porep_params_of(circ);
    int n = snprintf(t, len, "porep-like nodes=%llu layers=%u challenges=%u drg=%u exp=%u label=%u d=%u levels=%u "
                     "arity=", (unsigned long long)p->nodes, p->layers, p->challenges, p->drg_parents, p->exp_parents,
                     p->label_parents, p->d_depth, p->levels);
    for (uint32_t i = 0; i < p->levels && i < SP_POREP_MAX_LEVELS && n > 0 && (size_t)n < len - 8; i++)
        n += snprintf(t + n, len - (size_t)n, "%u,", p->arity[i]);
}

static sp_status post_resolve(sp_post_params *p, const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    return sp_post_params_from(p, n->preset[0] ? n->preset : NULL, n->v[SP_DMN_P_SECTORS],
                               n->v[SP_DMN_P_CHALLENGES], n->v[SP_DMN_P_NODES], err);
}

static sp_status post_check(const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    sp_post_params p;
    return post_resolve(&p, n, err);
}

static sp_status post_open(void **circ, const sp_native_circuit **nc, sp_dmn_native_shape *shape,
                           const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    sp_post_params p;
    sp_post *c = NULL;
    sp_status st = post_resolve(&p, n, err);
    if (st == SP_OK)
        st = sp_post_open(&c, &p, err);
    *circ = c;
    *nc = c ? sp_post_native(c) : NULL;
    if (*nc)
        *shape = (sp_dmn_native_shape){(*nc)->n_vars, (*nc)->n_public, (*nc)->n_rows};
    return st;
}

static void post_close(void *circ) { sp_post_close(circ); }

static const char *post_values(const void *circ, uint64_t v[SP_DMN_NATIVE_N_PARAMS])
{
    const sp_post_params *p = sp_post_params_of(circ);
    v[SP_DMN_P_SECTORS] = p->sectors, v[SP_DMN_P_CHALLENGES] = p->challenges, v[SP_DMN_P_NODES] = p->nodes;
    return p->preset;
}

static void post_ident(char *t, size_t len, const void *circ)
{
    const sp_post_params *p = sp_post_params_of(circ);
    int n = snprintf(t, len, "window-post-like nodes=%llu sectors=%u challenges=%u sbox_wire=%d levels=%u arity=",
                     (unsigned long long)p->nodes, p->sectors, p->challenges, p->sbox_wire, p->levels);
    for (uint32_t i = 0; i < p->levels && i < SP_POREP_MAX_LEVELS && n > 0 && (size_t)n < len - 8; i++)
        n += snprintf(t + n, len - (size_t)n, "%u,", p->arity[i]);
}

static const sp_dmn_native_ops native_[SP_DMN_NATIVE_N_KINDS] = {
    [SP_DMN_NATIVE_POREP] = {porep_check, porep_open, porep_close, porep_values, porep_ident},
    [SP_DMN_NATIVE_POST] = {post_check, post_open, post_close, post_values, post_ident},
};

const sp_dmn_ops sp_dmn_curve_ops = {
    .curve = SP_CURVE_ID_THIS,
    .synth = &sp_synth_curve_ops,
    .key_load = key_load,
    .key_free = key_free,
    .key_shape = key_shape,
    .key_bytes = key_bytes,
    .key_pk = key_pk,
    .key_cs = key_cs,
    .key_cache_str = key_cache_str,
    .zkey_shape = zkey_shape,
    .r1cs_shape = r1cs_shape,
    .wtns_parse = sp_wtns_parse,
    .fr_to_bytes = fr_to_bytes,
    .fr_from_bytes = fr_from_bytes,
    .proof_json = proof_json,
    .public_json = public_json,
#if SP_CURVE_BN254
    .has_bp = 0,
#else
    .has_bp = 1,
#endif
    .bp_encode = bp_encode,
    .bp_decode = bp_decode,
    .pvk_init = pvk_init,
    .pvk_free = pvk_free,
    .verify = verify,
    .verify_batch = verify_batch,
    .wasmc_open = sp_dmn_wasmc_open,
    .wasmc_close = sp_dmn_wasmc_close,
    .wasmc_witness_size = sp_dmn_wasmc_witness_size,
    .wasmc_bind = wasmc_bind,
    .wasmc_check_input = sp_dmn_wasmc_check_input,
    .native = native_,
    .backend_side_stage = sp_backend_side_stage,
};
