/*
 * window-post-like (post.h): presets, the instance of one sector, and the
 * sector's part, handed to native_util.h's drivers, which run the parts
 * in parallel (witness) or record them in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/bits.h"
#include "circuit/native_util.h"
#include "circuit/porep_impl.h"
#include "circuit/poseidon.h"
#include "circuit/post.h"
#include "util/sha256.h"

/* ---- parameters ---- */

/* Filecoin's WindowPoSt: 10 challenges per sector; sectors per partition
 * 2 for the test sizes, 2349 for 32 GiB, 2300 for 64 GiB; nodes and
 * tree_r_last (8-0-0, 8-8-0, 8-8-2) those of porep-like's preset of the
 * same name. */
static const struct {
    const char *name;
    uint32_t sectors;
} PRESETS[] = {{"2KiB", 2}, {"8MiB", 2}, {"512MiB", 2}, {"32GiB", 2349}, {"64GiB", 2300}};

#define POST_CHALLENGES 10
#define POST_MAX_SECTORS 100000u
#define POST_MAX_CHALLENGES 4096u

sp_status sp_post_preset(sp_post_params *p, const char *name)
{
    sp_porep_params sector;
    for (size_t i = 0; i < sizeof PRESETS / sizeof PRESETS[0]; i++)
        if (strcmp(PRESETS[i].name, name) == 0 && sp_porep_preset(&sector, name) == SP_OK) {
            memset(p, 0, sizeof *p);
            snprintf(p->preset, sizeof p->preset, "%s", name);
            p->nodes = sector.nodes, p->levels = sector.levels;
            memcpy(p->arity, sector.arity, sizeof p->arity);
            p->sectors = PRESETS[i].sectors, p->challenges = POST_CHALLENGES, p->sbox_wire = 1;
            return SP_OK;
        }
    return SP_ERR_INVALID_ARG;
}

sp_status sp_post_check(const sp_post_params *p, char err[SP_ERR_LEN])
{
    unsigned log_nodes, tree_bits;
    sp_status st =
        sp_porep_tree_check(&log_nodes, &tree_bits, p->nodes, p->arity, p->levels, "window-post-like", err);
    if (st != SP_OK)
        return st;
    const char *why = NULL;
    if (p->sectors < 1 || p->sectors > POST_MAX_SECTORS)
        why = "sectors must be 1 to 100000";
    else if (p->challenges < 1 || p->challenges > POST_MAX_CHALLENGES)
        why = "challenges must be 1 to 4096 per sector";
    else if (p->levels < 1 || p->levels > SP_POREP_MAX_LEVELS || tree_bits != log_nodes)
        why = "tree_r_last's levels must cover the nodes exactly";
    return sp_native_refuse("window-post-like", why, err);
}

sp_status sp_post_params_from(sp_post_params *p, const char *preset, uint64_t sectors, uint64_t challenges,
                              uint64_t nodes, char err[SP_ERR_LEN])
{
    const char *name = preset ? preset : "2KiB";
    if (sp_post_preset(p, name) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "window-post-like: unknown preset '%.40s' (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                 name);
        return SP_ERR_INVALID_ARG;
    }
    int custom = 0;
    if (sectors != SP_POREP_UNSET)
        p->sectors = sectors > UINT32_MAX ? 0 : (uint32_t)sectors, custom = 1; /* 0: refused below */
    if (challenges != SP_POREP_UNSET)
        p->challenges = challenges > UINT32_MAX ? 0 : (uint32_t)challenges, custom = 1;
    if (nodes != SP_POREP_UNSET) {
        p->nodes = nodes, custom = 1;
        sp_porep_tree_fit(p->arity, &p->levels, nodes);
    }
    if (custom)
        snprintf(p->preset, sizeof p->preset, "%.14s%s", preset ? preset : "custom", preset ? "*" : "");
    return sp_post_check(p, err);
}

/* ---- one sector's instance ---- */

enum { T_POST_CHAL = 32, T_POST_LEAF, T_POST_COMMC, T_POST_FILL };

struct sp_post {
    sp_post_params p;
    sp_post_shape shape;
    sp_native_circuit nc;
    uint32_t n_sib; /* siblings of one path */
    uint64_t top_vars;
};

typedef struct {
    sp_fr comm_c, comm_r_last, comm_r;
    uint64_t *idx; /* challenged leaves */
    sp_fr *leaf;   /* their values */
    sp_fr *sib;    /* challenges * n_sib: each leaf's path, level by level */
    void *mem;
} sector_;

static uint64_t prf_u64(uint64_t seed, unsigned tag, uint64_t a, uint64_t b)
{
    uint64_t m[4] = {seed, tag, a, b}, v;
    uint8_t d[32];
    sp_sha256(d, m, sizeof m);
    memcpy(&v, d, 8);
    return v;
}

/* Sector s of partition in->partition. Returns 0 on out of memory. */
static int sector_make(sector_ *x, const sp_post *c, const sp_post_input *in, uint32_t s)
{
    const sp_post_params *p = &c->p;
    uint32_t C = p->challenges;
    uint64_t id = (uint64_t)in->partition * p->sectors + s;
    x->mem = malloc((size_t)C * (sizeof(uint64_t) + sizeof(sp_fr) * (1 + (size_t)c->n_sib)));
    if (!x->mem)
        return 0;
    x->leaf = x->mem;
    x->sib = x->leaf + C;
    x->idx = (uint64_t *)(x->sib + (size_t)C * c->n_sib);
    for (uint32_t j = 0; j < C; j++) { /* a repeated index has the same leaf value */
        x->idx[j] = prf_u64(in->seed, T_POST_CHAL, id, j) & (p->nodes - 1);
        sp_porep_prf_fr(&x->leaf[j], in->seed, T_POST_LEAF, id, x->idx[j]);
    }
    sp_porep_prf_fr(&x->comm_c, in->seed, T_POST_COMMC, id, 0);
    sp_porep_tree t = {p->arity, p->levels, T_POST_FILL, prf_u64(in->seed, T_POST_FILL, id, 0), 0};
    if (!sp_porep_sparse_tree(&x->comm_r_last, x->sib, &t, x->idx, x->leaf, C)) {
        free(x->mem);
        return 0;
    }
    sp_fr pair[2] = {x->comm_c, x->comm_r_last};
    sp_poseidon_hash(&x->comm_r, sp_poseidon_params(2), pair);
    return 1;
}

/* ---- the parts ---- */

/* Wire of sector s's comm_r; its challenges' inputs follow. */
static sp_var pub_wire(const sp_post *c, uint32_t s) { return (sp_var)(1 + (uint64_t)s * (1 + c->p.challenges)); }

/* The top: the public inputs, values pub (NULL: zeros, for counting). */
static void part_top(sp_cs *cs, const sp_post *c, const sp_fr *pub)
{
    sp_fr zero;
    sp_fr_set_zero(&zero);
    for (uint64_t i = 0; i < c->shape.n_public; i++)
        sp_cs_public(cs, pub ? &pub[i] : &zero);
}

/* Sector s: comm_r's hash, then every challenge's inclusion. */
static void part_sector(sp_cs *cs, const sp_post *c, const sector_ *x, uint32_t s)
{
    sp_var pw = pub_wire(c, s);
    sp_cs_pushf(cs, "sector %u", s);
    sp_num cc, crl;
    sp_native_comm_r(cs, &cc, &crl, &x->comm_c, &x->comm_r_last, pw, &x->comm_r);
    sp_native_tree t = {c->p.arity, c->p.levels, c->n_sib};
    for (uint32_t j = 0; j < c->p.challenges; j++) {
        sp_cs_pushf(cs, "challenge %u", j);
        sp_lc leaf;
        sp_fr index;
        sp_lc_init(&leaf);
        sp_lc_add_var(cs, &leaf, sp_cs_alloc(cs, &x->leaf[j]), &x->leaf[j]);
        sp_fr_set_u64(&index, x->idx[j]);
        sp_native_poseidon_path(cs, &t, &leaf, x->sib + (size_t)j * c->n_sib, x->idx[j], crl.var, &crl.val,
                                pw + 1 + j, &index);
        sp_lc_free(&leaf);
        sp_cs_pop(cs);
    }
    sp_cs_pop(cs);
}

/* The public inputs sector x gives (post.h's order), at out. */
static void sector_publics(sp_fr *out, const sector_ *x, uint32_t challenges)
{
    out[0] = x->comm_r;
    for (uint32_t j = 0; j < challenges; j++)
        sp_fr_set_u64(&out[1 + j], x->idx[j]);
}

/* ---- opening: the layout from counts ---- */

static sp_status layout(sp_post *c, char err[SP_ERR_LEN])
{
    sp_cs cs, sub;
    sector_ x;
    sp_post_input in = {0, 0};
    sp_status st = sp_cs_open(&cs, SP_CS_COUNT, 0);
    if (st != SP_OK)
        return st;
    cs.sbox_wire = c->p.sbox_wire;
    part_top(&cs, c, NULL);
    c->top_vars = cs.next_var;
    if (!sector_make(&x, c, &in, 0)) {
        sp_cs_close(&cs);
        snprintf(err, SP_ERR_LEN, "window-post-like: out of memory");
        return SP_ERR_NOMEM;
    }
    if ((st = sp_cs_sub_open(&sub, &cs, c->top_vars, 0)) == SP_OK) {
        part_sector(&sub, c, &x, 0);
        st = sp_cs_status(&sub);
    }
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "%s", sub.err[0] ? sub.err : "window-post-like: counting failed");
    uint64_t S = c->p.sectors;
    c->shape.sector_vars = sub.next_var - c->top_vars;
    c->shape.sector_rows = sub.next_row;
    c->shape.n_vars = c->top_vars + S * c->shape.sector_vars;
    c->shape.n_rows = S * c->shape.sector_rows;
    c->shape.n_bool = cs.n_bool + S * sub.n_bool;
    sp_cs_close(&sub);
    sp_cs_close(&cs);
    free(x.mem);
    if (st == SP_OK)
        st = sp_native_wires_check(c->shape.n_vars, "window-post-like", err);
    return st;
}

sp_status sp_post_open(sp_post **out, const sp_post_params *p, char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_status st = sp_post_check(p, err);
    if (st != SP_OK)
        return st;
    sp_post *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "window-post-like: out of memory");
        return SP_ERR_NOMEM;
    }
    c->p = *p;
    c->n_sib = sp_native_tree_sibs(p->arity, p->levels);
    c->shape.n_public = (uint64_t)p->sectors * (1 + p->challenges);
    if ((st = layout(c, err)) != SP_OK) {
        free(c);
        return st;
    }
    sp_native_describe(&c->nc, "window-post-like", p->preset, c->shape.n_vars, c->shape.n_public, c->shape.n_rows,
                       sizeof(sp_post_input), sp_post_witness, c);
    *out = c;
    return SP_OK;
}

void sp_post_close(sp_post *c) { free(c); }
const sp_native_circuit *sp_post_native(const sp_post *c) { return &c->nc; }
const sp_post_shape *sp_post_shape_of(const sp_post *c) { return &c->shape; }
const sp_post_params *sp_post_params_of(const sp_post *c) { return &c->p; }

/* ---- witness and record: a sector a part (native_util.h) ---- */

typedef struct {
    const sp_post *c;
    const sp_post_input *in;
    sp_fr *pub; /* witness: the public inputs, filled per sector; record: NULL (zeros) */
} parts_ctx_;

static void parts_top(const void *ctx, sp_cs *cs)
{
    const parts_ctx_ *j = ctx;
    part_top(cs, j->c, j->pub);
}

static void parts_base(const void *ctx, size_t s, uint64_t *vb, uint64_t *rb)
{
    const sp_post *c = ((const parts_ctx_ *)ctx)->c;
    *vb = c->top_vars + s * c->shape.sector_vars, *rb = s * c->shape.sector_rows;
}

/* Sector s; its public inputs into j->pub (when given). */
static sp_status parts_run(const void *ctx, sp_cs *sys, size_t s, char err[SP_ERR_LEN])
{
    const parts_ctx_ *j = ctx;
    const sp_post *c = j->c;
    sector_ x;
    if (!sector_make(&x, c, j->in, (uint32_t)s)) {
        snprintf(err, SP_ERR_LEN, "window-post-like: out of memory for sector %zu", s);
        return SP_ERR_NOMEM;
    }
    if (j->pub)
        sector_publics(j->pub + s * (1 + c->p.challenges), &x, c->p.challenges);
    part_sector(sys, c, &x, (uint32_t)s);
    free(x.mem);
    return SP_OK;
}

/* The top (its values come from the sectors) after the sectors. */
static sp_native_parts parts_of(const parts_ctx_ *j)
{
    const sp_post *c = j->c;
    return (sp_native_parts){.kind = "window-post-like", .unit = "sector", .ctx = j, .n_vars = c->shape.n_vars,
                             .n_public = c->shape.n_public, .n_rows = c->shape.n_rows, .parts = c->p.sectors,
                             .sbox_wire = c->p.sbox_wire, .top_last = 1, .top = parts_top, .base = parts_base,
                             .run = parts_run};
}

sp_status sp_post_witness(const sp_native_circuit *nc, const void *input, sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *cc,
                          size_t n, int threads, int check, const atomic_int *cancel, char err[SP_ERR_LEN])
{
    const sp_post *c = nc->ctx;
    parts_ctx_ j = {c, input, malloc(sizeof(sp_fr) * c->shape.n_public)};
    if (!j.pub) {
        snprintf(err, SP_ERR_LEN, "window-post-like: out of memory");
        return SP_ERR_NOMEM;
    }
    sp_native_parts d = parts_of(&j);
    sp_status st = sp_native_parts_witness(&d, w, a, b, cc, n, threads, check, cancel, err);
    free(j.pub);
    return st;
}

sp_status sp_post_record(sp_cs_rec **rec, const sp_post *c, const sp_post_input *input, int threads,
                         char err[SP_ERR_LEN])
{
    parts_ctx_ j = {c, input, NULL}; /* the matrices do not depend on the values */
    sp_native_parts d = parts_of(&j);
    return sp_native_parts_record(rec, &d, threads, err);
}
