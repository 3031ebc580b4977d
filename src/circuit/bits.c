/* Boolean gadgets, packing and unpacking (bits.h). */
#include <string.h>
#include "circuit/bits.h"
#include "circuit/gadget.h"

void sp_bits_debug_tamper(uint64_t wire, const char *path)
{
    sp_gl_tamper_wire_ = path ? UINT64_MAX : wire;
    sp_gl_tamper_path_ = path;
}

/* ---- single bits ---- */

void sp_bit_from_var(sp_cs *cs, sp_bit *r, sp_var var, int v)
{
    gl_booleanity(cs, var, v);
    r->var = var, r->kind = SP_BIT_IS, r->val = (uint8_t)v;
}

void sp_bit_alloc(sp_cs *cs, sp_bit *r, int v)
{
    v = v != 0;
    sp_var var = gl_alloc_bit(cs, &v);
    sp_bit_from_var(cs, r, var, v);
}

/* A new variable z = x * y for bit LCs x, y (1 constraint x * y = z). */
static void and_vars(sp_cs *cs, sp_bit *r, const sp_bit *x, const sp_bit *y)
{
    int z = x->val & y->val;
    sp_var v = gl_alloc_bit(cs, &z);
    if (gl_rec(cs)) {
        gl_lc a, b, c;
        gl_lc_of_bit(&a, x);
        gl_lc_of_bit(&b, y);
        gl_lc_start(&c, z);
        gl_lc_term(&c, v, gl_k(1));
        sp_cs_enforce(cs, &a.lc, &b.lc, &c.lc);
    } else {
        gl_enforce_vals(cs, x->val, y->val, z);
    }
    r->var = v, r->kind = SP_BIT_IS, r->val = (uint8_t)z;
}

void sp_bit_and(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b)
{
    if (a->kind == SP_BIT_CONST) {
        *r = a->val ? *b : sp_bit_const(0);
        return;
    }
    if (b->kind == SP_BIT_CONST) {
        *r = b->val ? *a : sp_bit_const(0);
        return;
    }
    and_vars(cs, r, a, b);
}

void sp_bit_and_not(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b)
{
    sp_bit nb = sp_bit_not(*b);
    sp_bit_and(cs, r, a, &nb);
}

void sp_bit_nor(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b)
{
    sp_bit na = sp_bit_not(*a), nb = sp_bit_not(*b);
    sp_bit_and(cs, r, &na, &nb);
}

void sp_bit_or(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b)
{
    sp_bit t;
    sp_bit_nor(cs, &t, a, b);
    *r = sp_bit_not(t);
}

/* z = x XOR y for two variables x, y (their values): (2x) * y = x + y - z. */
static sp_var xor_vars(sp_cs *cs, sp_var x, int xv, sp_var y, int yv, int *zv)
{
    int z = xv ^ yv;
    sp_var v = gl_alloc_bit(cs, &z);
    if (gl_rec(cs)) {
        gl_lc a, b, c;
        gl_lc_start(&a, 2 * xv);
        gl_lc_term(&a, x, gl_k(2));
        gl_lc_start(&b, yv);
        gl_lc_term(&b, y, gl_k(1));
        gl_lc_start(&c, xv + yv - z);
        gl_lc_term(&c, x, gl_k(1));
        gl_lc_term(&c, y, gl_k(1));
        gl_lc_term(&c, v, gl_k(-1));
        sp_cs_enforce(cs, &a.lc, &b.lc, &c.lc);
    } else {
        gl_enforce_vals(cs, 2 * xv, yv, xv + yv - z);
    }
    *zv = z;
    return v;
}

/* The xor of two bits folded as bellman does: with a constant it is a
 * copy or a negation; negations move out (NOT x XOR y = NOT (x XOR y)),
 * so only two plain variables ever meet in a constraint (u32.c reaches
 * that core through sp_gl_xor_var). */
void sp_bit_xor(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b)
{
    if (a->kind == SP_BIT_CONST) {
        *r = a->val ? sp_bit_not(*b) : *b;
        return;
    }
    if (b->kind == SP_BIT_CONST) {
        *r = b->val ? sp_bit_not(*a) : *a;
        return;
    }
    int na = a->kind == SP_BIT_NOT, nb = b->kind == SP_BIT_NOT, zv;
    sp_var v = xor_vars(cs, a->var, a->val ^ na, b->var, b->val ^ nb, &zv);
    r->var = v;
    r->kind = (na ^ nb) ? SP_BIT_NOT : SP_BIT_IS;
    r->val = (uint8_t)(zv ^ na ^ nb);
}

sp_var sp_gl_xor_var(sp_cs *cs, sp_var x, int xv, sp_var y, int yv, int *zv) { return xor_vars(cs, x, xv, y, yv, zv); }

void sp_bit_xnor(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b)
{
    sp_bit t;
    sp_bit_xor(cs, &t, a, b);
    *r = sp_bit_not(t);
}

static int same_bit(const sp_bit *a, const sp_bit *b)
{
    return a->kind == b->kind && (a->kind == SP_BIT_CONST ? a->val == b->val : a->var == b->var);
}

void sp_bit_select(sp_cs *cs, sp_bit *r, const sp_bit *c, const sp_bit *a, const sp_bit *b)
{
    if (c->kind == SP_BIT_CONST) {
        *r = c->val ? *a : *b;
        return;
    }
    if (same_bit(a, b)) {
        *r = *a;
        return;
    }
    if (a->kind == SP_BIT_CONST && b->kind == SP_BIT_CONST) { /* differ: c or NOT c */
        *r = a->val ? *c : sp_bit_not(*c);
        return;
    }
    sp_bit cc = *c, aa = *a, bb = *b; /* r may alias the inputs */
    int z = cc.val ? aa.val : bb.val;
    sp_var v = gl_alloc_bit(cs, &z);
    /* c * (a - b) = r - b */
    if (gl_rec(cs)) {
        gl_lc la, lb, lc;
        gl_lc_of_bit(&la, &cc);
        gl_lc_start(&lb, aa.val - bb.val);
        gl_lc_bit(&lb, &aa, 1);
        gl_lc_bit(&lb, &bb, -1);
        gl_lc_start(&lc, z - bb.val);
        gl_lc_term(&lc, v, gl_k(1));
        gl_lc_bit(&lc, &bb, -1);
        sp_cs_enforce(cs, &la.lc, &lb.lc, &lc.lc);
    } else {
        gl_enforce_vals(cs, cc.val, aa.val - bb.val, z - bb.val);
    }
    r->var = v, r->kind = SP_BIT_IS, r->val = (uint8_t)z;
}

void sp_bit_ch(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b, const sp_bit *c)
{
    /* Folding: a constant selects; constant b or c turns ch into one AND
     * (bellman's cases), a single constraint either way. */
    if (a->kind == SP_BIT_CONST) {
        *r = a->val ? *b : *c;
        return;
    }
    if (b->kind == SP_BIT_CONST || c->kind == SP_BIT_CONST) {
        sp_bit na = sp_bit_not(*a), t;
        if (b->kind == SP_BIT_CONST && c->kind == SP_BIT_CONST)
            *r = b->val == c->val ? *b : (b->val ? *a : na);
        else if (b->kind == SP_BIT_CONST && !b->val) /* NOT a AND c */
            sp_bit_and(cs, r, &na, c);
        else if (c->kind == SP_BIT_CONST && !c->val) /* a AND b */
            sp_bit_and(cs, r, a, b);
        else if (c->kind == SP_BIT_CONST) { /* c = 1: NOT (a AND NOT b) */
            sp_bit nb = sp_bit_not(*b);
            sp_bit_and(cs, &t, a, &nb);
            *r = sp_bit_not(t);
        } else { /* b = 1: NOT (NOT a AND NOT c) */
            sp_bit nc = sp_bit_not(*c);
            sp_bit_and(cs, &t, &na, &nc);
            *r = sp_bit_not(t);
        }
        return;
    }
    sp_bit aa = *a, bb = *b, cc = *c;
    int z = aa.val ? bb.val : cc.val;
    sp_var v = gl_alloc_bit(cs, &z);
    /* (b - c) * a = ch - c */
    if (gl_rec(cs)) {
        gl_lc la, lb, lc;
        gl_lc_start(&la, bb.val - cc.val);
        gl_lc_bit(&la, &bb, 1);
        gl_lc_bit(&la, &cc, -1);
        gl_lc_of_bit(&lb, &aa);
        gl_lc_start(&lc, z - cc.val);
        gl_lc_term(&lc, v, gl_k(1));
        gl_lc_bit(&lc, &cc, -1);
        sp_cs_enforce(cs, &la.lc, &lb.lc, &lc.lc);
    } else {
        gl_enforce_vals(cs, bb.val - cc.val, aa.val, z - cc.val);
    }
    r->var = v, r->kind = SP_BIT_IS, r->val = (uint8_t)z;
}

void sp_bit_maj(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b, const sp_bit *c)
{
    /* One constant input: maj is the AND (0) or the OR (1) of the others. */
    const sp_bit *in[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        if (in[i]->kind != SP_BIT_CONST)
            continue;
        const sp_bit *x = in[(i + 1) % 3], *y = in[(i + 2) % 3];
        if (in[i]->val)
            sp_bit_or(cs, r, x, y);
        else
            sp_bit_and(cs, r, x, y);
        return;
    }
    sp_bit aa = *a, bb = *b, cc = *c, bc;
    sp_bit_and(cs, &bc, &bb, &cc);
    int z = (aa.val + bb.val + cc.val) >= 2;
    sp_var v = gl_alloc_bit(cs, &z);
    /* (2bc - b - c) * a = bc - maj */
    int va = 2 * bc.val - bb.val - cc.val;
    if (gl_rec(cs)) {
        gl_lc la, lb, lc;
        gl_lc_start(&la, va);
        gl_lc_term(&la, bc.var, gl_k(2));
        gl_lc_bit(&la, &bb, -1);
        gl_lc_bit(&la, &cc, -1);
        gl_lc_of_bit(&lb, &aa);
        gl_lc_start(&lc, bc.val - z);
        gl_lc_term(&lc, bc.var, gl_k(1));
        gl_lc_term(&lc, v, gl_k(-1));
        sp_cs_enforce(cs, &la.lc, &lb.lc, &lc.lc);
    } else {
        gl_enforce_vals(cs, va, aa.val, bc.val - z);
    }
    r->var = v, r->kind = SP_BIT_IS, r->val = (uint8_t)z;
}
