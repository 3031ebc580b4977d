/*
 * porep-like instance data (porep.h): challenges, parents, columns,
 * labels, and sparse Merkle trees whose every path leads to one root.
 * Everything is derived from (seed, partition) by hashing, so the same
 * input always gives the same instance, on any number of threads.
 */
#include <stdlib.h>
#include <string.h>
#include "circuit/merkle_sha256.h"
#include "circuit/poseidon.h"
#include "circuit/porep_impl.h"
#include "util/par.h"
#include "util/sha256.h"

/* ---- pseudorandom values ---- */

enum { T_CHAL = 1, T_PARENT, T_COL, T_DATA, T_FILL_D, T_FILL_C, T_FILL_R, T_REPLICA };

/* A digest as Filecoin's domain value: little-endian, the top two bits
 * cleared, so below 2^254 < r (always canonical). */
static void digest_to_fr(sp_fr *out, uint8_t d[32])
{
    d[31] &= 0x3f;
    sp_status st = sp_fr_from_bytes_le(out, d);
    (void)st;
}

void sp_porep_prf_fr(sp_fr *out, uint64_t seed, unsigned tag, uint64_t a, uint64_t b)
{
    uint64_t m[4] = {seed, tag, a, b};
    uint8_t d[32];
    sp_sha256(d, m, sizeof m);
    digest_to_fr(out, d);
}

static uint64_t prf_u64(uint64_t seed, unsigned tag, uint64_t a, uint64_t b)
{
    uint64_t m[4] = {seed, tag, a, b};
    uint8_t d[32];
    sp_sha256(d, m, sizeof m);
    uint64_t v;
    memcpy(&v, d, 8);
    return v;
}

/* ---- native hashes ---- */

void sp_porep_sha_node(sp_fr *out, const sp_fr *left, const sp_fr *right)
{
    uint8_t l[32], r[32], d[32];
    sp_fr_to_bytes_le(l, left);
    sp_fr_to_bytes_le(r, right);
    sp_merkle_sha256_node(d, l, r);
    digest_to_fr(out, d);
}

void sp_porep_label(sp_fr *out, const sp_fr *replica_id, uint32_t layer, uint64_t node, const sp_fr *parents,
                    uint32_t n_parents, uint32_t total_parents)
{
    uint8_t head[64] = {0}, v[32], d[32];
    sp_fr_to_bytes_le(head, replica_id);
    for (int i = 0; i < 4; i++)
        head[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        head[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    sp_sha256_ctx h;
    sp_sha256_init(&h);
    sp_sha256_update(&h, head, sizeof head);
    for (uint32_t k = 0; k < total_parents; k++) {
        sp_fr_to_bytes_le(v, &parents[k % n_parents]);
        sp_sha256_update(&h, v, sizeof v);
    }
    sp_sha256_final(d, &h);
    digest_to_fr(out, d);
}

/* ---- sparse trees ---- */

typedef struct {
    uint64_t idx;
    sp_fr val;
} node_;

static int node_cmp(const void *x, const void *y)
{
    const node_ *a = x, *b = y;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static void hash_children(const sp_porep_tree *t, sp_fr *out, const sp_fr *ch, unsigned arity)
{
    if (t->sha)
        sp_porep_sha_node(out, &ch[0], &ch[1]);
    else
        sp_poseidon_hash(out, sp_poseidon_params(arity), ch);
}

int sp_porep_sparse_tree(sp_fr *root, sp_fr *sib, const sp_porep_tree *t, const uint64_t *idx, const sp_fr *val,
                         size_t n)
{
    /* groups[level]: for each parent at that level, its arity children */
    node_ *cur = malloc(n * sizeof *cur);
    sp_fr **kids = calloc(t->levels, sizeof *kids);
    uint64_t **gidx = calloc(t->levels, sizeof *gidx);
    size_t *ng = calloc(t->levels, sizeof *ng);
    int ok = cur && kids && gidx && ng;
    size_t m = 0;
    for (size_t i = 0; ok && i < n; i++)
        cur[i].idx = idx[i], cur[i].val = val[i];
    if (ok) {
        qsort(cur, n, sizeof *cur, node_cmp);
        for (size_t i = 0; i < n; i++) /* unique */
            if (m == 0 || cur[m - 1].idx != cur[i].idx)
                cur[m++] = cur[i];
    }
    for (unsigned l = 0; ok && l < t->levels; l++) {
        unsigned A = t->arity[l];
        kids[l] = malloc(m * A * sizeof(sp_fr));
        gidx[l] = malloc(m * sizeof(uint64_t));
        if (!kids[l] || !gidx[l]) {
            ok = 0;
            break;
        }
        size_t g = 0;
        for (size_t i = 0; i < m;) {
            uint64_t parent = cur[i].idx / A;
            sp_fr *ch = kids[l] + g * A;
            for (unsigned k = 0; k < A; k++)
                sp_porep_prf_fr(&ch[k], t->seed, t->fill_tag, l, parent * A + k);
            for (; i < m && cur[i].idx / A == parent; i++)
                ch[cur[i].idx % A] = cur[i].val;
            gidx[l][g++] = parent;
        }
        for (size_t k = 0; k < g; k++) {
            hash_children(t, &cur[k].val, kids[l] + k * A, A);
            cur[k].idx = gidx[l][k];
        }
        ng[l] = g, m = g;
    }
    if (ok) {
        *root = cur[0].val;
        size_t per = 0; /* siblings of one path */
        for (unsigned l = 0; l < t->levels; l++)
            per += t->arity[l] - 1;
        for (size_t i = 0; i < n; i++) {
            uint64_t x = idx[i];
            sp_fr *out = sib + i * per;
            for (unsigned l = 0; l < t->levels; l++) {
                unsigned A = t->arity[l];
                uint64_t parent = x / A;
                size_t lo = 0, hi = ng[l];
                while (hi - lo > 1) { /* gidx[l] is sorted */
                    size_t mid = (lo + hi) / 2;
                    if (gidx[l][mid] <= parent)
                        lo = mid;
                    else
                        hi = mid;
                }
                const sp_fr *ch = kids[l] + lo * A;
                for (unsigned k = 0; k < A; k++)
                    if (k != x % A)
                        *out++ = ch[k];
                x = parent;
            }
        }
    }
    for (unsigned l = 0; kids && gidx && l < t->levels; l++)
        free(kids[l]), free(gidx[l]);
    free(kids), free(gidx), free(ng), free(cur);
    return ok;
}

/* ---- the instance ---- */

static int is_challenge(const sp_porep_inst *x, uint32_t n, uint64_t v)
{
    for (uint32_t j = 0; j < n; j++)
        if (x->ch[j].node == v)
            return 1;
    return 0;
}

/* Distinct pseudorandom challenges, then parents that are not challenges
 * (a parent's column is pseudorandom, a challenge's is its labels, so a
 * node must not be both). A drawn node that is taken moves to the next
 * free one; sp_porep_check makes sure there is one (nodes > challenges). */
static void pick_nodes(sp_porep_inst *x, const sp_porep *c, const sp_porep_input *in)
{
    const sp_porep_params *p = &c->p;
    uint64_t mask = p->nodes - 1, salt = in->partition;
    for (uint32_t k = 0; k < p->challenges; k++) {
        uint64_t v = prf_u64(in->seed, T_CHAL, salt << 32 | k, 0) & mask;
        while (is_challenge(x, k, v))
            v = (v + 1) & mask;
        x->ch[k].node = v;
    }
    for (uint32_t k = 0; k < p->challenges; k++)
        for (uint32_t q = 0; q < c->n_parents; q++) {
            uint64_t v = prf_u64(in->seed, T_PARENT, x->ch[k].node, q) & mask;
            while (is_challenge(x, p->challenges, v))
                v = (v + 1) & mask;
            x->ch[k].parent[q] = v;
        }
}

typedef struct {
    sp_porep_inst *x;
    const sp_porep *c;
    uint64_t seed;
} chal_job_;

/* Columns, data leaf and labels of challenge k. */
static void chal_task(void *ctx, int tid, size_t k)
{
    chal_job_ *j = ctx;
    const sp_porep_params *p = &j->c->p;
    porep_chal *ch = &j->x->ch[k];
    uint32_t L = p->layers, np = j->c->n_parents;
    for (uint32_t q = 0; q < np; q++)
        for (uint32_t l = 0; l < L; l++)
            sp_porep_prf_fr(&ch->cols[q * L + l], j->seed, T_COL, ch->parent[q], l);
    sp_porep_prf_fr(&ch->data_leaf, j->seed, T_DATA, ch->node, 0);
    sp_fr par[POREP_MAX_PARENTS];
    for (uint32_t l = 0; l < L; l++) {
        uint32_t n = 0;
        for (uint32_t q = 0; q < p->drg_parents; q++)
            par[n++] = ch->cols[q * L + l];
        if (l > 0)
            for (uint32_t q = p->drg_parents; q < np; q++)
                par[n++] = ch->cols[q * L + l - 1];
        sp_porep_label(&ch->labels[l], &j->x->replica_id, l + 1, ch->node, par, n, p->label_parents);
    }
    sp_fr_add(&ch->encoded, &ch->labels[L - 1], &ch->data_leaf);
}

/* Column hashes: the leaves of tree_c, task per challenge. */
typedef struct {
    chal_job_ *j;
    sp_fr *leaf;  /* challenges * (n_parents + 1) */
} col_job_;

static void col_task(void *ctx, int tid, size_t k)
{
    col_job_ *cj = ctx;
    const sp_porep *c = cj->j->c;
    const porep_chal *ch = &cj->j->x->ch[k];
    const sp_poseidon *ps = sp_poseidon_params(c->p.layers);
    uint32_t np = c->n_parents, L = c->p.layers;
    for (uint32_t q = 0; q < np; q++)
        sp_poseidon_hash(&cj->leaf[k * (np + 1) + q], ps, ch->cols + q * L);
    sp_poseidon_hash(&cj->leaf[k * (np + 1) + np], ps, ch->labels);
}

static size_t inst_bytes(const sp_porep *c)
{
    const sp_porep_params *p = &c->p;
    size_t per = (size_t)c->n_parents * p->layers + p->layers + p->d_depth + (size_t)(c->n_parents + 2) * c->n_sib;
    return sizeof(porep_chal) * p->challenges + sizeof(sp_fr) * (per * p->challenges + c->shape.n_public);
}

static void inst_layout(sp_porep_inst *x, const sp_porep *c)
{
    const sp_porep_params *p = &c->p;
    x->ch = x->mem;
    sp_fr *f = (sp_fr *)(x->ch + p->challenges);
    for (uint32_t k = 0; k < p->challenges; k++) {
        porep_chal *ch = &x->ch[k];
        ch->cols = f, f += (size_t)c->n_parents * p->layers;
        ch->labels = f, f += p->layers;
        ch->d_sib = f, f += p->d_depth;
        ch->c_sib = f, f += (size_t)(c->n_parents + 1) * c->n_sib;
        ch->r_sib = f, f += c->n_sib;
    }
    x->pub = f;
}

/* The three trees and the public inputs. Returns 0 on out of memory. */
static int inst_trees(sp_porep_inst *x, const sp_porep *c, const sp_porep_input *in, int threads)
{
    const sp_porep_params *p = &c->p;
    uint32_t K = p->challenges, np = c->n_parents;
    size_t nc = (size_t)K * (np + 1);
    uint64_t *idx = malloc(nc * sizeof *idx);
    sp_fr *leaf = malloc(nc * sizeof *leaf), *sib = malloc(nc * c->n_sib * sizeof *sib);
    uint8_t two[SP_POREP_MAX_LEVELS];
    memset(two, 2, sizeof two);
    int ok = idx && leaf && sib;
    uint64_t seed = in->seed ^ ((uint64_t)in->partition << 40);
    if (ok) { /* tree_d over the data leaves */
        for (uint32_t k = 0; k < K; k++)
            idx[k] = x->ch[k].node, leaf[k] = x->ch[k].data_leaf;
        sp_porep_tree t = {two, p->d_depth, T_FILL_D, seed, 1};
        ok = sp_porep_sparse_tree(&x->comm_d, sib, &t, idx, leaf, K);
        for (uint32_t k = 0; ok && k < K; k++)
            memcpy(x->ch[k].d_sib, sib + (size_t)k * p->d_depth, p->d_depth * sizeof(sp_fr));
    }
    if (ok) { /* tree_r_last over the replica nodes */
        for (uint32_t k = 0; k < K; k++)
            idx[k] = x->ch[k].node, leaf[k] = x->ch[k].encoded;
        sp_porep_tree t = {p->arity, p->levels, T_FILL_R, seed, 0};
        ok = sp_porep_sparse_tree(&x->comm_r_last, sib, &t, idx, leaf, K);
        for (uint32_t k = 0; ok && k < K; k++)
            memcpy(x->ch[k].r_sib, sib + (size_t)k * c->n_sib, c->n_sib * sizeof(sp_fr));
    }
    if (ok) { /* tree_c over the columns of parents and challenges */
        chal_job_ j = {x, c, in->seed};
        col_job_ cj = {&j, leaf};
        sp_par_tasks(threads, K, col_task, &cj);
        for (uint32_t k = 0; k < K; k++) {
            for (uint32_t q = 0; q < np; q++)
                idx[k * (np + 1) + q] = x->ch[k].parent[q];
            idx[k * (np + 1) + np] = x->ch[k].node;
        }
        sp_porep_tree t = {p->arity, p->levels, T_FILL_C, seed, 0};
        ok = sp_porep_sparse_tree(&x->comm_c, sib, &t, idx, leaf, nc);
        for (uint32_t k = 0; ok && k < K; k++)
            memcpy(x->ch[k].c_sib, sib + (size_t)k * (np + 1) * c->n_sib, (np + 1) * c->n_sib * sizeof(sp_fr));
    }
    free(idx), free(leaf), free(sib);
    return ok;
}

/* Public inputs in wire order (porep.h): every packed path is a node index. */
static void inst_publics(sp_porep_inst *x, const sp_porep *c)
{
    sp_fr *q = x->pub;
    *q++ = x->replica_id;
    *q++ = x->comm_d;
    *q++ = x->comm_r;
    for (uint32_t k = 0; k < c->p.challenges; k++) {
        const porep_chal *ch = &x->ch[k];
        sp_fr_set_u64(q++, ch->node);
        for (uint32_t j = 0; j < c->n_parents; j++)
            sp_fr_set_u64(q++, ch->parent[j]);
        sp_fr_set_u64(q++, ch->node);
        sp_fr_set_u64(q++, ch->node);
        sp_fr_set_u64(q++, ch->node);
    }
}

sp_status sp_porep_inst_make(sp_porep_inst **out, const sp_porep *c, const sp_porep_input *in, int threads,
                             char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_porep_inst *x = calloc(1, sizeof *x);
    if (!x || !(x->mem = calloc(1, inst_bytes(c)))) {
        free(x);
        snprintf(err, SP_ERR_LEN, "porep-like: out of memory for the instance");
        return SP_ERR_NOMEM;
    }
    inst_layout(x, c);
    sp_porep_prf_fr(&x->replica_id, in->seed, T_REPLICA, 0, 0);
    pick_nodes(x, c, in);
    chal_job_ j = {x, c, in->seed};
    sp_par_tasks(threads, c->p.challenges, chal_task, &j);
    if (!inst_trees(x, c, in, threads)) {
        sp_porep_inst_free(x);
        snprintf(err, SP_ERR_LEN, "porep-like: out of memory for the trees");
        return SP_ERR_NOMEM;
    }
    sp_fr pair[2] = {x->comm_c, x->comm_r_last};
    sp_poseidon_hash(&x->comm_r, sp_poseidon_params(2), pair);
    inst_publics(x, c);
    *out = x;
    return SP_OK;
}

void sp_porep_inst_free(sp_porep_inst *x)
{
    if (!x)
        return;
    free(x->mem);
    free(x);
}
