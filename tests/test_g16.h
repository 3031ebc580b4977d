/*
 * Helpers shared by the Groth16 key/format tests (test_zkey, test_params,
 * test_verify): whole-file reads, a test-only iden3 container splitter
 * (written independently of src/r1cs/binfile.c so each checks the other),
 * and decimal point parsing straight from snarkjs' JSON.
 */
#ifndef SP_TESTS_TEST_G16_H
#define SP_TESTS_TEST_G16_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "curve/curve.h"
#include "groth16/keys.h"
#include "util/json.h"

#define VEC "tests/vectors/"


static inline uint32_t tg_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void tg_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* One section of a container file. */
typedef struct {
    uint32_t id;
    size_t hdr;  /* offset of the 12-byte section header */
    size_t off;  /* offset of the payload */
    size_t size;
} tg_section;

/* Splits a well-formed container; returns the section count (<= max). */
static inline int tg_sections(tg_section *s, int max, const uint8_t *d, size_t len)
{
    size_t pos = 12;
    int n = (int)tg_le32(d + 8), k = 0;
    for (int i = 0; i < n && k < max && pos + 12 <= len; i++) {
        s[k].id = tg_le32(d + pos);
        s[k].hdr = pos;
        s[k].size = (size_t)tg_le32(d + pos + 4) | (size_t)tg_le32(d + pos + 8) << 32;
        s[k].off = pos + 12;
        pos = s[k].off + s[k].size;
        k++;
    }
    return k;
}

static inline const tg_section *tg_find(const tg_section *s, int n, uint32_t id)
{
    for (int i = 0; i < n; i++)
        if (s[i].id == id)
            return &s[i];
    return NULL;
}

/*
 * A copy of the container d with section `id`'s payload replaced by
 * repl[0..repl_len) (sizes fixed up). Caller frees.
 */
static inline uint8_t *tg_replace_section(size_t *out_len, const uint8_t *d, size_t len, uint32_t id,
                                          const uint8_t *repl, size_t repl_len)
{
    tg_section s[32];
    int n = tg_sections(s, 32, d, len);
    const tg_section *t = tg_find(s, n, id);
    if (!t)
        return NULL;
    size_t nl = len - t->size + repl_len;
    uint8_t *o = malloc(nl);
    if (!o)
        return NULL;
    memcpy(o, d, t->off);
    memcpy(o + t->off, repl, repl_len);
    memcpy(o + t->off + repl_len, d + t->off + t->size, len - t->off - t->size);
    uint64_t sz = repl_len;
    tg_put32(o + t->hdr + 4, (uint32_t)sz);
    tg_put32(o + t->hdr + 8, (uint32_t)(sz >> 32));
    *out_len = nl;
    return o;
}

/* A container from n (id, payload) pairs, in the given order. Caller frees. */
typedef struct {
    uint32_t id;
    const uint8_t *p;
    size_t len;
} tg_part;

static inline uint8_t *tg_build(size_t *out_len, const char *magic, uint32_t version, const tg_part *parts, int n)
{
    size_t len = 12;
    for (int i = 0; i < n; i++)
        len += 12 + parts[i].len;
    uint8_t *o = malloc(len), *q = o;
    if (!o)
        return NULL;
    memcpy(q, magic, 4);
    tg_put32(q + 4, version);
    tg_put32(q + 8, (uint32_t)n);
    q += 12;
    for (int i = 0; i < n; i++) {
        tg_put32(q, parts[i].id);
        tg_put32(q + 4, (uint32_t)parts[i].len);
        tg_put32(q + 8, (uint32_t)((uint64_t)parts[i].len >> 32));
        memcpy(q + 12, parts[i].p, parts[i].len);
        q += 12 + parts[i].len;
    }
    *out_len = len;
    return o;
}

/* ---- snarkjs JSON numbers and points ---- */

static inline int tg_fp(sp_fp *r, const sp_json_val *v)
{
    return v && v->type == SP_JSON_STRING && sp_fp_from_str(r, v->text) == SP_OK;
}

static inline int tg_g1(sp_g1_affine *p, const sp_json_val *v)
{
    return v && v->n == 3 && tg_fp(&p->x, sp_json_at(v, 0)) && tg_fp(&p->y, sp_json_at(v, 1)) &&
           strcmp(sp_json_at(v, 2)->text, "1") == 0;
}

static inline int tg_g2(sp_g2_affine *p, const sp_json_val *v)
{
    const sp_json_val *x = sp_json_at(v, 0), *y = sp_json_at(v, 1);
    return v && v->n == 3 && tg_fp(&p->x.c0, sp_json_at(x, 0)) && tg_fp(&p->x.c1, sp_json_at(x, 1)) &&
           tg_fp(&p->y.c0, sp_json_at(y, 0)) && tg_fp(&p->y.c1, sp_json_at(y, 1));
}

/* Parses a JSON file; NULL on any failure. */
static inline sp_json_doc *tg_json_file(const char *path)
{
    size_t len;
    uint8_t *t = sp_test_slurp(path, &len);
    sp_json_doc *doc = NULL;
    if (t && sp_json_parse(&doc, (const char *)t, len, NULL, NULL, 0) != SP_OK)
        doc = NULL;
    free(t);
    return doc;
}

/* A point on E(Fp) outside the order-r subgroup (the first x = 1, 2, ...
 * that works), for negative tests. */
static inline void tg_g1_outside_subgroup(sp_g1_affine *p)
{
    for (uint64_t x = 1;; x++) {
        sp_fp rhs;
        sp_fp_set_u64(&p->x, x);
        sp_g1_curve_rhs(&rhs, &p->x);
        if (sp_fp_sqrt(&p->y, &rhs) && !sp_g1_in_subgroup_slow(p))
            return;
    }
}

static inline void tg_g2_outside_subgroup(sp_g2_affine *p)
{
    for (uint64_t x = 1;; x++) {
        sp_fp2 rhs;
        sp_fp_set_u64(&p->x.c0, x);
        sp_fp_set_u64(&p->x.c1, 1);
        sp_g2_curve_rhs(&rhs, &p->x);
        if (sp_fp2_sqrt(&p->y, &rhs) && !sp_g2_in_subgroup_slow(p))
            return;
    }
}

/* Deep equality of two proving keys (points, QAP, mpc bytes). */
static inline int tg_csr_equal(const sp_csr *a, const sp_csr *b)
{
    if (!a->row || !b->row)
        return !a->row && !b->row;
    return a->n_rows == b->n_rows && a->nnz == b->nnz &&
           !memcmp(a->row, b->row, (a->n_rows + 1) * sizeof *a->row) &&
           (!a->nnz || (!memcmp(a->col, b->col, a->nnz * sizeof *a->col) &&
                        !memcmp(a->val, b->val, a->nnz * sizeof *a->val)));
}

static inline int tg_pk_equal(const sp_g16_pk *x, const sp_g16_pk *y)
{
    size_t nc = x->n_vars - x->vk.n_public - 1u;
    return x->n_vars == y->n_vars && x->vk.n_public == y->vk.n_public && x->domain_size == y->domain_size &&
           x->h_kind == y->h_kind && x->n_h == y->n_h &&
           !memcmp(&x->vk.alpha1, &y->vk.alpha1, offsetof(sp_g16_vk, n_public)) &&
           !memcmp(x->vk.ic, y->vk.ic, (x->vk.n_public + 1u) * sizeof *x->vk.ic) &&
           !memcmp(x->a, y->a, x->n_vars * sizeof *x->a) && !memcmp(x->b1, y->b1, x->n_vars * sizeof *x->b1) &&
           !memcmp(x->b2, y->b2, x->n_vars * sizeof *x->b2) && !memcmp(x->c, y->c, nc * sizeof *x->c) &&
           !memcmp(x->h, y->h, x->n_h * sizeof *x->h) && x->has_qap == y->has_qap &&
           tg_csr_equal(&x->qap_a, &y->qap_a) && tg_csr_equal(&x->qap_b, &y->qap_b) && x->mpc_len == y->mpc_len &&
           (!x->mpc_len || !memcmp(x->mpc, y->mpc, x->mpc_len));
}

#endif
