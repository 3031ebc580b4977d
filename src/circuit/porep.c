/*
 * porep-like (porep.h): presets, the circuit's parts and their layout,
 * handed to native_util.h's drivers, which run them in parallel (witness)
 * or record them in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/bits.h"
#include "circuit/merkle_sha256.h"
#include "circuit/native_util.h"
#include "circuit/poseidon.h"
#include "circuit/porep_impl.h"
#include "circuit/sha256_gadget.h"

/* ---- parameters ---- */

typedef struct {
    const char *name;
    unsigned log_nodes, layers, challenges;
    unsigned base_levels, sub_arity, top_arity; /* 8-ary base tree, then Filecoin's sub/top levels */
    unsigned drg, exp, label;                   /* parents; 0: Filecoin's 6, 8 and 37 */
} preset_;

/* Filecoin's v1.1 PoRep parameters: 2 layers and 2 challenges for the test
 * sizes; 11 layers and 176 challenges over 10 partitions (18 each, the
 * count rounded up) for 32 and 64 GiB; trees 8-0-0, 8-8-0 and 8-8-2.
 * "tiny" is the smallest shape with every part (4 nodes in one 4-ary
 * level, 2 layers, one challenge, one parent of each kind, labels of 2
 * parents): a circuit to try things on, set up in seconds. */
static const preset_ PRESETS[] = {
    {"tiny", 2, 2, 1, 0, 4, 0, 1, 1, 2},
    {"2KiB", 6, 2, 2, 2, 0, 0, 0, 0, 0},     {"8MiB", 18, 2, 2, 6, 0, 0, 0, 0, 0},
    {"512MiB", 24, 2, 2, 8, 0, 0, 0, 0, 0},  {"32GiB", 30, 11, 18, 9, 8, 0, 0, 0, 0},
    {"64GiB", 31, 11, 18, 9, 8, 2, 0, 0, 0},
};

sp_status sp_porep_preset(sp_porep_params *p, const char *name)
{
    for (size_t i = 0; i < sizeof PRESETS / sizeof PRESETS[0]; i++) {
        const preset_ *q = &PRESETS[i];
        if (strcmp(q->name, name) != 0)
            continue;
        memset(p, 0, sizeof *p);
        snprintf(p->preset, sizeof p->preset, "%s", q->name);
        p->nodes = (uint64_t)1 << q->log_nodes;
        p->layers = q->layers;
        p->challenges = q->challenges;
        p->drg_parents = q->drg ? q->drg : 6;
        p->exp_parents = q->exp ? q->exp : 8;
        p->label_parents = q->label ? q->label : SP_POREP_TOTAL_PARENTS;
        p->d_depth = q->log_nodes;
        sp_porep_tree_levels(p->arity, &p->levels, q->base_levels, q->sub_arity, q->top_arity);
        return SP_OK;
    }
    return SP_ERR_INVALID_ARG;
}

void sp_porep_tree_levels(uint8_t *arity, uint32_t *levels, unsigned base, unsigned sub, unsigned top)
{
    for (unsigned l = 0; l < base; l++)
        arity[(*levels)++] = 8;
    if (sub)
        arity[(*levels)++] = (uint8_t)sub;
    if (top)
        arity[(*levels)++] = (uint8_t)top;
}

sp_status sp_porep_tree_check(unsigned *log_nodes, unsigned *tree_bits, uint64_t nodes, const uint8_t *arity,
                              uint32_t levels, const char *what, char err[SP_ERR_LEN])
{
    if (sp_native_curve_check(err) != SP_OK)
        return SP_ERR_UNSUPPORTED;
    *log_nodes = 0, *tree_bits = 0;
    while (*log_nodes < 64 && ((uint64_t)1 << *log_nodes) < nodes)
        (*log_nodes)++;
    for (unsigned l = 0; l < levels && l < SP_POREP_MAX_LEVELS; l++) {
        unsigned a = arity[l], k = 0;
        while ((1u << k) < a)
            k++;
        if (a < 2 || a > 16 || (1u << k) != a) {
            snprintf(err, SP_ERR_LEN, "%s: tree level %u has arity %u (2, 4, 8 or 16)", what, l, a);
            return SP_ERR_INVALID_ARG;
        }
        *tree_bits += k;
    }
    if (nodes < 2 || ((uint64_t)1 << *log_nodes) != nodes || *log_nodes > 40) {
        snprintf(err, SP_ERR_LEN, "%s: the sector's node count must be a power of two from 2 to 2^40", what);
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

unsigned sp_porep_tree_fit(uint8_t *arity, uint32_t *levels, uint64_t nodes)
{
    unsigned k = 0, log_nodes;
    while (k < 63 && ((uint64_t)1 << k) < nodes)
        k++;
    log_nodes = k, *levels = 0;
    for (; k >= 3 && *levels < SP_POREP_MAX_LEVELS; k -= 3)
        arity[(*levels)++] = 8;
    if (k && *levels < SP_POREP_MAX_LEVELS)
        arity[(*levels)++] = (uint8_t)(1u << k);
    return log_nodes;
}

sp_status sp_porep_check(const sp_porep_params *p, char err[SP_ERR_LEN])
{
    unsigned log_nodes, tree_bits;
    sp_status st = sp_porep_tree_check(&log_nodes, &tree_bits, p->nodes, p->arity, p->levels, "porep-like", err);
    if (st != SP_OK)
        return st;
    const char *why = NULL;
    if (p->layers < 2 || p->layers > SP_POREP_MAX_LAYERS)
        why = "layers must be 2 to 16 (the column hash is a Poseidon of arity `layers`)";
    else if (p->challenges < 1 || p->challenges > 4096 || p->challenges >= p->nodes)
        why = "challenges must be 1 to 4096, and fewer than the nodes (parents are other nodes)";
    else if (p->drg_parents < 1 || p->drg_parents + p->exp_parents > POREP_MAX_PARENTS)
        why = "parents: at least 1 drg parent, at most 32 in all";
    else if (p->label_parents < p->drg_parents + p->exp_parents || p->label_parents > 256)
        why = "label parents must cover every parent and be at most 256";
    else if (p->d_depth != log_nodes)
        why = "tree_d's depth must be log2(nodes)";
    else if (p->levels < 1 || p->levels > SP_POREP_MAX_LEVELS || tree_bits != log_nodes)
        why = "tree_c / tree_r_last levels must cover the nodes exactly";
    return sp_native_refuse("porep-like", why, err);
}

uint64_t sp_porep_public_count(const sp_porep_params *p)
{
    return 3 + (uint64_t)p->challenges * (p->drg_parents + p->exp_parents + 4);
}

void sp_porep_overrides_init(sp_porep_overrides *o)
{
    o->challenges = o->layers = o->nodes = o->drg_parents = o->exp_parents = o->label_parents = SP_POREP_UNSET;
}

sp_status sp_porep_params_from(sp_porep_params *p, const char *preset, const sp_porep_overrides *o,
                               char err[SP_ERR_LEN])
{
    const char *name = preset ? preset : "2KiB";
    if (sp_porep_preset(p, name) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "porep-like: unknown preset '%.40s' (tiny, 2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", name);
        return SP_ERR_INVALID_ARG;
    }
    int custom = 0;
    const uint64_t *src[] = {&o->challenges, &o->layers, &o->drg_parents, &o->exp_parents, &o->label_parents};
    uint32_t *dst[] = {&p->challenges, &p->layers, &p->drg_parents, &p->exp_parents, &p->label_parents};
    for (int k = 0; k < 5; k++)
        if (*src[k] != SP_POREP_UNSET) {
            if (*src[k] > UINT32_MAX) {
                snprintf(err, SP_ERR_LEN, "porep-like: a shape parameter is out of range (%llu)",
                         (unsigned long long)*src[k]);
                return SP_ERR_INVALID_ARG;
            }
            *dst[k] = (uint32_t)*src[k], custom = 1;
        }
    if (o->nodes != SP_POREP_UNSET)
        p->nodes = o->nodes, p->d_depth = sp_porep_tree_fit(p->arity, &p->levels, o->nodes), custom = 1;
    if (custom)
        snprintf(p->preset, sizeof p->preset, "%.14s%s", preset ? preset : "custom", preset ? "*" : "");
    return sp_porep_check(p, err);
}

/* ---- small gadget helpers ---- */

/* n new bits holding x's low bits (booleanity each). */
static void alloc_bits(sp_cs *cs, sp_bit *out, uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sp_bit_alloc(cs, &out[i], (int)(x >> i & 1));
}

/* A tree_c or tree_r_last path from leaf to the root wire (value
 * *root_val), its bits packed into the public input pub. */
static void poseidon_path(sp_cs *cs, const sp_porep *c, const sp_lc *leaf, const sp_fr *sib_val, uint64_t index,
                          sp_var root, const sp_fr *root_val, sp_var pub, const sp_fr *pub_val)
{
    sp_native_tree t = {c->p.arity, c->p.levels, c->n_sib};
    sp_native_poseidon_path(cs, &t, leaf, sib_val, index, root, root_val, pub, pub_val);
}

/* Poseidon(arity = layers) of column variables, as a linear combination. */
static void column_hash(sp_cs *cs, sp_lc *out, const sp_var *col, const sp_fr *val, uint32_t layers)
{
    sp_lc in[SP_POREP_MAX_LAYERS];
    memset(in, 0, sizeof in);
    for (uint32_t l = 0; l < layers; l++) {
        sp_lc_init(&in[l]);
        sp_lc_add_var(cs, &in[l], col[l], &val[l]);
    }
    sp_poseidon_gadget(cs, out, in, layers);
    for (uint32_t l = 0; l < layers; l++)
        sp_lc_free(&in[l]);
}

/* ---- the parts ---- */

/* Wire of the j-th public input of challenge k (porep.h's order). */
static sp_var pub_wire(const sp_porep *c, uint32_t k, uint32_t j)
{
    return (sp_var)(1 + 3 + (uint64_t)k * (c->n_parents + 4) + j);
}

/* Top: public inputs, comm_c and comm_r_last, comm_r's hash, replica_id's
 * bits. cap (at open only) gets the wires the other parts read. */
static void part_top(sp_cs *cs, const sp_porep *c, const sp_porep_inst *x, sp_porep *cap)
{
    sp_cs_push(cs, "top");
    for (uint64_t i = 0; i < c->shape.n_public; i++)
        sp_cs_public(cs, &x->pub[i]);
    sp_num cc, crl, rid = {1, x->replica_id};
    sp_native_comm_r(cs, &cc, &crl, &x->comm_c, &x->comm_r_last, 3, &x->comm_r); /* wire 3: comm_r */
    if (cap)
        cap->comm_c_wire = cc.var, cap->comm_r_last_wire = crl.var;
    sp_bit bits[255];
    sp_cs_push(cs, "replica_id bits");
    sp_num_to_bits_le(cs, bits, &rid, 255);
    sp_cs_pop(cs);
    for (int i = 0; cap && i < 255; i++)
        cap->replica_bit[i] = bits[i].var;
    sp_cs_pop(cs);
}

/* Head of challenge k: its allocations (refs), tree_d, the parents' columns. */
static void part_head(sp_cs *cs, const sp_porep *c, const sp_porep_inst *x, uint32_t k, porep_head_refs *refs)
{
    const sp_porep_params *p = &c->p;
    const porep_chal *ch = &x->ch[k];
    uint64_t base = cs->next_var;
    uint32_t L = p->layers;
    sp_cs_pushf(cs, "challenge %u", k);
    sp_num leaf;
    sp_num_alloc(cs, &leaf, &ch->data_leaf);
    sp_var col0 = 0;
    for (uint32_t i = 0; i < c->n_parents * L; i++) {
        sp_var v = sp_cs_alloc(cs, &ch->cols[i]);
        col0 = i == 0 ? v : col0;
    }
    sp_bit node[64];
    alloc_bits(cs, node, ch->node, 64);
    if (refs)
        *refs = (porep_head_refs){leaf.var - base, col0 - base, node[0].var - base};
    sp_var pn = pub_wire(c, k, c->n_parents + 1);
    sp_native_pack_eq_public(cs, node, 64, pn, &x->pub[pn - 1]);

    sp_cs_push(cs, "tree_d");
    sp_bit path[64];
    sp_num sib[64], root;
    alloc_bits(cs, path, ch->node, p->d_depth);
    for (uint32_t l = 0; l < p->d_depth; l++)
        sp_num_alloc(cs, &sib[l], &ch->d_sib[l]);
    sp_merkle_sha256_gadget_root(cs, &root, &leaf, sib, path, p->d_depth);
    sp_num comm_d = {2, x->comm_d};
    sp_num_enforce_eq(cs, &root, &comm_d);
    sp_native_pack_eq_public(cs, path, p->d_depth, pub_wire(c, k, 0), &x->pub[pub_wire(c, k, 0) - 1]);
    sp_cs_pop(cs);

    for (uint32_t q = 0; q < c->n_parents; q++) {
        sp_cs_pushf(cs, "parent %u column", q);
        sp_var cv[SP_POREP_MAX_LAYERS];
        for (uint32_t l = 0; l < L; l++)
            cv[l] = col0 + q * L + l;
        sp_lc h;
        sp_lc_init(&h);
        column_hash(cs, &h, cv, ch->cols + q * L, L);
        sp_var pw = pub_wire(c, k, 1 + q);
        poseidon_path(cs, c, &h, ch->c_sib + (size_t)q * c->n_sib, ch->parent[q], (sp_var)c->comm_c_wire,
                      &x->comm_c, pw, &x->pub[pw - 1]);
        sp_lc_free(&h);
        sp_cs_pop(cs);
    }
    sp_cs_pop(cs);
}

/* Label of layer l (1-based) of challenge k, whose head starts at wire hb.
 * Returns the label's wire (the part's last). */
static sp_var part_label(sp_cs *cs, const sp_porep *c, const sp_porep_inst *x, uint32_t k, uint32_t l, uint64_t hb)
{
    const sp_porep_params *p = &c->p;
    const porep_chal *ch = &x->ch[k];
    uint32_t L = p->layers, n = 0;
    sp_cs_pushf(cs, "challenge %u/label %u", k, l);
    sp_bit *msg = malloc(sizeof(sp_bit) * 256 * (2 + p->label_parents));
    sp_bit(*par)[256] = malloc(sizeof(sp_bit) * 256 * POREP_MAX_PARENTS);
    if (!msg || !par) {
        sp_cs_fail(cs, SP_ERR_NOMEM, "porep-like: out of memory in a label");
        free(msg), free(par);
        sp_cs_pop(cs);
        return 0;
    }
    /* the parents' values of this layer (the expander ones of the layer below) */
    for (uint32_t q = 0; q < c->n_parents; q++) {
        if (q >= p->drg_parents && l == 1)
            break;
        uint32_t layer = q < p->drg_parents ? l - 1 : l - 2;
        sp_num v = {(sp_var)(hb + c->head.col + q * L + layer), ch->cols[q * L + layer]};
        sp_bit le[255];
        sp_num_to_bits_le(cs, le, &v, 255); /* bellperson's to_bits_le, as Filecoin's circuit */
        sp_merkle_sha256_msg_bits(par[n++], le);
    }
    sp_bit rid[255];
    uint8_t rb[32];
    sp_fr_to_bytes_le(rb, &x->replica_id);
    for (int i = 0; i < 255; i++)
        rid[i] = (sp_bit){(sp_var)c->replica_bit[i], SP_BIT_IS, (uint8_t)(rb[i / 8] >> (i % 8) & 1)};
    sp_merkle_sha256_msg_bits(msg, rid);
    for (int i = 0; i < 32; i++)
        msg[256 + i] = sp_bit_const((int)(l >> (31 - i) & 1));
    for (int i = 0; i < 64; i++)
        msg[288 + i] = (sp_bit){(sp_var)(hb + c->head.node_bit + 63 - i), SP_BIT_IS,
                                (uint8_t)(ch->node >> (63 - i) & 1)};
    for (int i = 352; i < 512; i++)
        msg[i] = sp_bit_const(0);
    for (uint32_t s = 0; s < p->label_parents; s++)
        memcpy(msg + 512 + 256 * s, par[s % n], sizeof par[0]);
    sp_bit d[256];
    sp_sha256_gadget(cs, d, msg, 256 * (size_t)(2 + p->label_parents));
    sp_num label;
    sp_merkle_sha256_pack_digest(cs, &label, d);
    free(msg), free(par);
    sp_cs_pop(cs);
    return label.var;
}

/* Tail of challenge k: the encoding, tree_r_last, the challenge's column. */
static void part_tail(sp_cs *cs, const sp_porep *c, const sp_porep_inst *x, uint32_t k, uint64_t hb,
                      const sp_var *label)
{
    const sp_porep_params *p = &c->p;
    const porep_chal *ch = &x->ch[k];
    uint32_t L = p->layers;
    sp_cs_pushf(cs, "challenge %u/tail", k);
    sp_num enc;
    sp_num_alloc(cs, &enc, &ch->encoded);
    sp_lc sum, one, e;
    sp_lc_init(&sum), sp_lc_init(&one), sp_lc_init(&e);
    sp_lc_add_var(cs, &sum, label[L - 1], &ch->labels[L - 1]);
    sp_lc_add_var(cs, &sum, (sp_var)(hb + c->head.data_leaf), &ch->data_leaf);
    sp_lc_add_const(cs, &one, sp_cs_fr_one());
    sp_lc_add_var(cs, &e, enc.var, &enc.val);
    sp_cs_push(cs, "encode");
    sp_cs_enforce(cs, &sum, &one, &e);
    sp_cs_pop(cs);
    sp_cs_push(cs, "tree_r_last");
    sp_var pr = pub_wire(c, k, c->n_parents + 2);
    poseidon_path(cs, c, &e, ch->r_sib, ch->node, (sp_var)c->comm_r_last_wire, &x->comm_r_last, pr, &x->pub[pr - 1]);
    sp_cs_pop(cs);
    sp_cs_push(cs, "column");
    sp_lc h;
    sp_lc_init(&h);
    column_hash(cs, &h, label, ch->labels, L);
    sp_var pc = pub_wire(c, k, c->n_parents + 3);
    poseidon_path(cs, c, &h, ch->c_sib + (size_t)c->n_parents * c->n_sib, ch->node, (sp_var)c->comm_c_wire,
                  &x->comm_c, pc, &x->pub[pc - 1]);
    sp_lc_free(&h);
    sp_cs_pop(cs);
    sp_lc_free(&sum), sp_lc_free(&one), sp_lc_free(&e);
    sp_cs_pop(cs);
}

/* ---- layout ---- */

static uint64_t chal_vars(const sp_porep *c)
{
    return c->head_vars + c->label_vars[0] + (uint64_t)(c->p.layers - 1) * c->label_vars[1] + c->tail_vars;
}
static uint64_t chal_rows(const sp_porep *c)
{
    return c->head_rows + c->label_rows[0] + (uint64_t)(c->p.layers - 1) * c->label_rows[1] + c->tail_rows;
}

/* Part number j of challenge k: 0 head, 1..layers labels, layers + 1 tail.
 * Its first wire and row. */
static void part_base(const sp_porep *c, uint32_t k, uint32_t j, uint64_t *vb, uint64_t *rb)
{
    uint64_t v = c->top_vars + (uint64_t)k * chal_vars(c), r = c->top_rows + (uint64_t)k * chal_rows(c);
    if (j > 0)
        v += c->head_vars, r += c->head_rows;
    if (j > 1)
        v += c->label_vars[0] + (uint64_t)(j - 2) * c->label_vars[1],
        r += c->label_rows[0] + (uint64_t)(j - 2) * c->label_rows[1]; /* labels 2 .. j - 1 */
    *vb = v, *rb = r;
}

/* Runs part j of challenge k on a system opened at its base. */
static void run_part(sp_cs *sub, const sp_porep *c, const sp_porep_inst *x, uint32_t k, uint32_t j)
{
    uint64_t hb, hr;
    part_base(c, k, 0, &hb, &hr);
    if (j == 0) {
        part_head(sub, c, x, k, NULL);
    } else if (j <= c->p.layers) {
        part_label(sub, c, x, k, j, hb);
    } else {
        sp_var label[SP_POREP_MAX_LAYERS];
        for (uint32_t l = 1; l <= c->p.layers; l++) {
            uint64_t lb, lr;
            part_base(c, k, l, &lb, &lr);
            label[l - 1] = (sp_var)(lb + c->label_vars[l > 1] - 1);
        }
        part_tail(sub, c, x, k, hb, label);
    }
}

/* ---- opening: the layout from counts ---- */

/* Counts one part at (vb, rb); adds its 0/1 values to *nb. */
static sp_status count_part(uint64_t *vars, uint64_t *rows, uint64_t *nb, sp_porep *c, const sp_porep_inst *x,
                            uint32_t j, sp_cs *top)
{
    uint64_t vb, rb;
    part_base(c, 0, j, &vb, &rb);
    sp_cs sub;
    if (sp_cs_sub_open(&sub, top, vb, rb) != SP_OK)
        return SP_ERR_NOMEM;
    if (j == 0) {
        part_head(&sub, c, x, 0, &c->head);
    } else if (j <= c->p.layers) {
        part_label(&sub, c, x, 0, j, c->top_vars); /* challenge 0's head starts after the top */
    } else {
        sp_var label[SP_POREP_MAX_LAYERS] = {0};
        part_tail(&sub, c, x, 0, c->top_vars, label);
    }
    *vars = sub.next_var - vb, *rows = sub.next_row - rb, *nb += sub.n_bool;
    sp_status st = sp_cs_status(&sub);
    sp_cs_close(&sub);
    return st;
}

static sp_status layout(sp_porep *c, const sp_porep_inst *x, char err[SP_ERR_LEN])
{
    sp_cs cs;
    sp_status st = sp_cs_open(&cs, SP_CS_COUNT, 0);
    if (st != SP_OK)
        return st;
    part_top(&cs, c, x, c);
    c->top_vars = cs.next_var, c->top_rows = cs.next_row;
    uint64_t nb_top = cs.n_bool, nb_head = 0, nb_l1 = 0, nb_ln = 0, nb_tail = 0;
    if ((st = sp_cs_status(&cs)) == SP_OK)
        st = count_part(&c->head_vars, &c->head_rows, &nb_head, c, x, 0, &cs);
    if (st == SP_OK)
        st = count_part(&c->label_vars[0], &c->label_rows[0], &nb_l1, c, x, 1, &cs);
    if (st == SP_OK) /* layers >= 2 (sp_porep_check) */
        st = count_part(&c->label_vars[1], &c->label_rows[1], &nb_ln, c, x, 2, &cs);
    if (st == SP_OK)
        st = count_part(&c->tail_vars, &c->tail_rows, &nb_tail, c, x, c->p.layers + 1, &cs);
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "%s", cs.err[0] ? cs.err : "porep-like: counting the parts failed");
    sp_cs_close(&cs);
    uint64_t K = c->p.challenges, L1 = c->p.layers - 1;
    c->shape.n_vars = c->top_vars + K * chal_vars(c);
    c->shape.n_rows = c->top_rows + K * chal_rows(c);
    c->shape.challenge_vars = chal_vars(c);
    c->shape.challenge_rows = chal_rows(c);
    c->shape.label_rows = c->label_rows[1];
    c->shape.n_bool = nb_top + K * (nb_head + nb_l1 + L1 * nb_ln + nb_tail);
    if (st == SP_OK)
        st = sp_native_wires_check(c->shape.n_vars, "porep-like", err);
    return st;
}

sp_status sp_porep_open(sp_porep **out, const sp_porep_params *p, char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_status st = sp_porep_check(p, err);
    if (st != SP_OK)
        return st;
    sp_porep *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "porep-like: out of memory");
        return SP_ERR_NOMEM;
    }
    c->p = *p;
    c->n_parents = p->drg_parents + p->exp_parents;
    c->n_sib = sp_native_tree_sibs(p->arity, p->levels);
    c->shape.n_public = sp_porep_public_count(p);
    sp_porep_inst *x = NULL;
    sp_porep_input in = {0, 0};
    if ((st = sp_porep_inst_make(&x, c, &in, 1, err)) == SP_OK)
        st = layout(c, x, err);
    sp_porep_inst_free(x);
    if (st != SP_OK) {
        free(c);
        return st;
    }
    sp_native_describe(&c->nc, "porep-like", p->preset, c->shape.n_vars, c->shape.n_public, c->shape.n_rows,
                       sizeof(sp_porep_input), sp_porep_witness, c);
    *out = c;
    return SP_OK;
}

void sp_porep_close(sp_porep *c) { free(c); }
const sp_native_circuit *sp_porep_native(const sp_porep *c) { return &c->nc; }
const sp_porep_shape *sp_porep_shape_of(const sp_porep *c) { return &c->shape; }
const sp_porep_params *sp_porep_params_of(const sp_porep *c) { return &c->p; }

/* ---- witness and record: the parts (native_util.h) ---- */

typedef struct {
    const sp_porep *c;
    sp_porep_inst *x; /* owned: the drivers only read it */
} parts_ctx_;

static void parts_top(const void *ctx, sp_cs *cs)
{
    const parts_ctx_ *j = ctx;
    part_top(cs, j->c, j->x, NULL);
}

/* Part i is part i % (layers + 2) of challenge i / (layers + 2). */
static void parts_base(const void *ctx, size_t i, uint64_t *vb, uint64_t *rb)
{
    const sp_porep *c = ((const parts_ctx_ *)ctx)->c;
    size_t per = c->p.layers + 2;
    part_base(c, (uint32_t)(i / per), (uint32_t)(i % per), vb, rb);
}

/* Task t: heads first (the largest parts), then labels, then tails, so the
 * pool ends on small parts. */
static size_t parts_order(const void *ctx, size_t t)
{
    const sp_porep *c = ((const parts_ctx_ *)ctx)->c;
    size_t K = c->p.challenges, L = c->p.layers, per = L + 2;
    if (t < K)
        return t * per;
    if (t < K + K * L)
        return (t - K) / L * per + 1 + (t - K) % L;
    return (t - K - K * L) * per + L + 1;
}

static sp_status parts_run(const void *ctx, sp_cs *sys, size_t i, char err[SP_ERR_LEN])
{
    const parts_ctx_ *j = ctx;
    size_t per = j->c->p.layers + 2;
    run_part(sys, j->c, j->x, (uint32_t)(i / per), (uint32_t)(i % per));
    return SP_OK;
}

/* Makes input's instance into j (j->x NULL on failure: free it either way
 * with sp_porep_inst_free) and describes the parts to the drivers. */
static sp_status parts_open(parts_ctx_ *j, sp_native_parts *d, const sp_porep *c, const sp_porep_input *in,
                            int threads, char err[SP_ERR_LEN])
{
    sp_porep_inst *x = NULL;
    sp_status st = sp_porep_inst_make(&x, c, in, threads, err);
    *j = (parts_ctx_){c, x};
    *d = (sp_native_parts){.kind = "porep-like", .unit = "part", .ctx = j, .n_vars = c->shape.n_vars,
                           .n_public = c->shape.n_public, .n_rows = c->shape.n_rows,
                           .parts = (size_t)c->p.challenges * (c->p.layers + 2), .top = parts_top,
                           .base = parts_base, .order = parts_order, .run = parts_run};
    return st;
}

sp_status sp_porep_witness(const sp_native_circuit *nc, const void *input, sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *cc,
                           size_t n, int threads, int check, const atomic_int *cancel, char err[SP_ERR_LEN])
{
    parts_ctx_ j;
    sp_native_parts d;
    sp_status st = parts_open(&j, &d, nc->ctx, input, threads, err);
    if (st == SP_OK)
        st = sp_native_parts_witness(&d, w, a, b, cc, n, threads, check, cancel, err);
    sp_porep_inst_free(j.x);
    return st;
}

sp_status sp_porep_record(sp_cs_rec **rec, const sp_porep *c, const sp_porep_input *input, int threads,
                          char err[SP_ERR_LEN])
{
    *rec = NULL;
    parts_ctx_ j;
    sp_native_parts d;
    sp_status st = parts_open(&j, &d, c, input, threads, err);
    if (st == SP_OK)
        st = sp_native_parts_record(rec, &d, threads, err);
    sp_porep_inst_free(j.x);
    return st;
}
