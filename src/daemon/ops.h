/*
 * What the daemon needs from a curve, as one table of operations, so that
 * the daemon is compiled once and serves either curve (ARCHITECTURE.md,
 * "Curves"), as the engine does through synth/ops.h. Each curve's build
 * defines one table, sp_dmn_curve_ops (ops.c, compiled with the curve's
 * arithmetic and linked in its instance: sp_bn254_dmn_curve_ops in the
 * two-curve binary); the command line's `daemon` hands it to sp_dmn_main,
 * and the daemon reaches its curve through it alone.
 *
 * This header is curve-neutral, as synth/ops.h: the curve's types are
 * incomplete structs, held by pointer and sized or read through the
 * table. An array of sp_fr or sp_g16_proof is passed whole with the index
 * of the element meant. ops.c and wasmcirc.c are the daemon's only files
 * compiled per curve; they include the curve's headers.
 */
#ifndef SP_DAEMON_OPS_H
#define SP_DAEMON_OPS_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "daemon/native.h"
#include "daemon/wasmcirc.h"
#include "synth/ops.h"
#include "util/curves.h"

/* bellperson's encoding of a proof (groth16/params.h). */
#define SP_DMN_BP_PROOF_BYTES 192

/* A circuit's key, parsed and checked, with its r1cs when it has one. */
typedef struct sp_dmn_key sp_dmn_key;
/* A prepared verifying key (the farm checks the proofs of its nodes). */
typedef struct sp_dmn_pvk sp_dmn_pvk;

/* Where a key comes from: its file mapped, and how to load it. */
typedef struct {
    const char *path;           /* the key's file: a .zkey, or bellperson .params (zkey 0) */
    int zkey;
    const void *data;           /* the key's file, mapped */
    size_t len;
    const char *r1cs;           /* its r1cs's path ("" without; messages) */
    const void *cs_data;        /* the r1cs, mapped (NULL without; needed for .params) */
    size_t cs_len;
    const char *cache_dir;      /* the key cache ("" = none) */
    size_t cache_max;
    int skip_subgroup_check;
    int threads;
} sp_dmn_key_src;

/* What the key cache did for one load (groth16/keycache.h). */
typedef struct {
    int outcome;                /* sp_kc_outcome; 0 = no cache */
    int stored;                 /* this load wrote the entry */
    char warning[SP_ERR_LEN];   /* a cache problem worth a line ("" when none) */
} sp_dmn_key_cache;

/* A key's shape. */
typedef struct {
    uint32_t n_vars, n_public, domain_size;
} sp_dmn_key_shape;

typedef struct {
    sp_curve_id curve;
    const sp_synth_ops *synth; /* the engine's table (sp_engine_create) */

    /* ---- keys (registry.c) ---- */

    /*
     * Parses the r1cs (when given) and the key, through the key cache when
     * src->cache_dir names one.
     * On output: *k (key_free) on success, NULL on failure; *kc what the
     *   cache did (left as it was when the r1cs did not parse).
     * Returns the parsers' or the cache's status, err saying why.
     */
    sp_status (*key_load)(sp_dmn_key **k, sp_dmn_key_cache *kc, const sp_dmn_key_src *src, char err[SP_ERR_LEN]);
    void (*key_free)(sp_dmn_key *k); /* NULL allowed */
    sp_dmn_key_shape (*key_shape)(const sp_dmn_key *k);
    size_t (*key_bytes)(const sp_dmn_key *k); /* memory its parsed arrays hold */
    /* What the engine registers (sp_engine_register); cs NULL without. */
    const sp_g16_pk *(*key_pk)(const sp_dmn_key *k);
    const sp_r1cs *(*key_cs)(const sp_dmn_key *k);
    const char *(*key_cache_str)(int cache); /* an outcome's name */

    /* A .zkey's shape from its header, without loading the key. */
    sp_status (*zkey_shape)(sp_dmn_key_shape *s, const char *path, char err[SP_ERR_LEN]);
    /* An r1cs's wires, public inputs and rows (constraints + public + 1). */
    sp_status (*r1cs_shape)(uint32_t *n_vars, uint32_t *n_public, uint64_t *rows, const char *path,
                            char err[SP_ERR_LEN]);

    /* ---- witnesses, proofs and public signals (jobs.c, api.c, the farm) ---- */

    /* A .wtns file: *w its n values (free()). */
    sp_status (*wtns_parse)(sp_fr **w, size_t *n, const uint8_t *data, size_t len, char err[SP_ERR_LEN]);
    /* w[i] as 32 bytes, little-endian, and back (SP_ERR_FORMAT: not below r). */
    void (*fr_to_bytes)(uint8_t out[32], const sp_fr *w, size_t i);
    sp_status (*fr_from_bytes)(sp_fr *w, size_t i, const uint8_t in[32]);
    /* proofs[i], and the n public signals pub[at..at+n), as snarkjs's JSON texts (free()). */
    sp_status (*proof_json)(char **text, size_t *len, const sp_g16_proof *proofs, size_t i);
    sp_status (*public_json)(char **text, size_t *len, const sp_fr *pub, size_t at, size_t n);
    /* bellperson's encoding of proofs[i], and back; has_bp 0 where the
     * curve has none (BN254). */
    int has_bp;
    void (*bp_encode)(uint8_t out[SP_DMN_BP_PROOF_BYTES], const sp_g16_proof *proofs, size_t i);
    sp_status (*bp_decode)(sp_g16_proof *proofs, size_t i, const uint8_t in[SP_DMN_BP_PROOF_BYTES],
                           char err[SP_ERR_LEN]);

    /* ---- verification (the farm's assembly) ---- */

    sp_status (*pvk_init)(sp_dmn_pvk **pvk, const sp_dmn_key *k, char err[SP_ERR_LEN]);
    void (*pvk_free)(sp_dmn_pvk *pvk); /* NULL allowed */
    /* *valid = 1 when proofs[i] verifies for the n_public signals at pub + i * n_public. */
    sp_status (*verify)(int *valid, const sp_dmn_pvk *pvk, const sp_g16_proof *proofs, size_t i, const sp_fr *pub,
                        uint32_t n_public, char err[SP_ERR_LEN]);
    /* The same for all n proofs at once (*valid = 0: one or more fail). */
    sp_status (*verify_batch)(int *valid, const sp_dmn_pvk *pvk, const sp_g16_proof *proofs, size_t n,
                              const sp_fr *pub, uint32_t n_public, char err[SP_ERR_LEN]);

    /* ---- circuits with their witness generator (wasmcirc.h) ---- */

    sp_status (*wasmc_open)(sp_dmn_wasmc **out, const char *path, const sp_dmn_wasm_limits *lim,
                            char err[SP_ERR_LEN]);
    void (*wasmc_close)(sp_dmn_wasmc *w);
    uint32_t (*wasmc_witness_size)(const sp_dmn_wasmc *w);
    const sp_native_circuit *(*wasmc_bind)(sp_dmn_wasmc *w, const sp_dmn_key *k);
    int (*wasmc_check_input)(const char *json, size_t len, char err[SP_ERR_LEN]);

    /* ---- native circuits (native.h), one entry per kind ---- */

    const sp_dmn_native_ops *native;

    /* A stage the backend reports of its own (groth16/backend.h). */
    int (*backend_side_stage)(const char *stage);
} sp_dmn_ops;

/* This build's curve (ops.c), for the command line's `daemon` in its
 * instance: the daemon never names it, it is given the table. */
extern const sp_dmn_ops sp_dmn_curve_ops;

#endif
