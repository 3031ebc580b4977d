/* Field elements in the circuit: packing bits, unpacking, equality,
 * conditional swap (bits.h). */
#include <string.h>
#include "circuit/bits.h"
#include "circuit/gadget.h"

/* ---- RECORD helpers ---- */

void sp_gl_lc_bit_pow2(sp_cs *cs, sp_lc *lc, const sp_bit *b, unsigned i, int neg, uint64_t kpos[4],
                       uint64_t kneg[4])
{
    if (b->kind == SP_BIT_CONST) {
        if (b->val)
            gl_u256_add_shl(neg ? kneg : kpos, 1, i);
        return;
    }
    sp_fr k = *sp_cs_fr_pow2(i);
    if (neg ^ (b->kind == SP_BIT_NOT))
        sp_fr_neg(&k, &k);
    if (b->kind == SP_BIT_NOT) /* 2^i (1 - var) */
        gl_u256_add_shl(neg ? kneg : kpos, 1, i);
    sp_lc_add_term(cs, lc, b->var, &k);
}

void sp_gl_lc_consts(sp_cs *cs, sp_lc *lc, const uint64_t kpos[4], const uint64_t kneg[4])
{
    static const uint64_t zero[4];
    if (!memcmp(kpos, zero, sizeof zero) && !memcmp(kneg, zero, sizeof zero))
        return;
    sp_fr p, n;
    sp_gl_fr_of_u256(&p, kpos);
    sp_gl_fr_of_u256(&n, kneg);
    sp_fr_sub(&p, &p, &n);
    sp_lc_add_term(cs, lc, SP_CS_ONE, &p);
}

/* sum 2^i bits[i] (i < n <= 256) as a 256-bit integer. */
static void bits_u256(uint64_t x[4], const sp_bit *bits, size_t n)
{
    memset(x, 0, 4 * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i / 64] |= (uint64_t)bits[i].val << (i % 64);
}

/* An LC that is just ONE (value 1). */
static void lc_one(sp_cs *cs, gl_lc *g)
{
    gl_lc_start(g, 1);
    if (gl_rec(cs))
        gl_lc_term(g, SP_CS_ONE, gl_k(1));
}

/* (sum 2^i a[i] - sum 2^i b[i]) * 1 = c, for n <= 255 bits; b may be NULL
 * (no negative part); c is a variable (cvar, value cval) or, when cval is
 * NULL, zero. */
static void enforce_packed(sp_cs *cs, const sp_bit *a, const sp_bit *b, size_t n, sp_var cvar, const sp_fr *cval)
{
    uint64_t pos[4], neg[4] = {0, 0, 0, 0};
    sp_lc la;
    sp_lc_init(&la);
    bits_u256(pos, a, n);
    sp_gl_fr_of_u256(&la.val, pos);
    if (b) {
        sp_fr t;
        bits_u256(neg, b, n);
        sp_gl_fr_of_u256(&t, neg);
        sp_fr_sub(&la.val, &la.val, &t);
    }
    if (gl_rec(cs)) {
        uint64_t kp[4] = {0, 0, 0, 0}, kn[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < n; i++) {
            sp_gl_lc_bit_pow2(cs, &la, &a[i], (unsigned)i, 0, kp, kn);
            if (b)
                sp_gl_lc_bit_pow2(cs, &la, &b[i], (unsigned)i, 1, kp, kn);
        }
        sp_gl_lc_consts(cs, &la, kp, kn);
    }
    gl_lc one, c;
    lc_one(cs, &one);
    if (cval) {
        c.lc.val = *cval, c.lc.t = c.t, c.lc.n = 0, c.lc.cap = GL_LC_TERMS;
        if (gl_rec(cs))
            gl_lc_term(&c, cvar, gl_k(1));
    } else {
        gl_lc_start(&c, 0);
    }
    sp_cs_enforce(cs, &la, &one.lc, &c.lc);
    sp_lc_free(&la);
}

/* ---- equality ---- */

static int same_bit(const sp_bit *a, const sp_bit *b)
{
    return a->kind == b->kind && (a->kind == SP_BIT_CONST ? a->val == b->val : a->var == b->var);
}

void sp_bits_enforce_eq(sp_cs *cs, const sp_bit *a, const sp_bit *b, size_t n)
{
    for (size_t s = 0; s < n; s += 254) {
        size_t m = n - s < 254 ? n - s : 254, i;
        for (i = 0; i < m && same_bit(&a[s + i], &b[s + i]); i++)
            ;
        if (i < m) /* something to enforce in this chunk */
            enforce_packed(cs, a + s, b + s, m, 0, NULL);
    }
}

void sp_bit_enforce_eq(sp_cs *cs, const sp_bit *a, const sp_bit *b)
{
    if (a->kind == SP_BIT_CONST && b->kind == SP_BIT_CONST && a->val == b->val)
        return;
    sp_bits_enforce_eq(cs, a, b, 1);
}

void sp_num_alloc(sp_cs *cs, sp_num *r, const sp_fr *v)
{
    r->val = *v;
    r->var = gl_alloc_num(cs, &r->val);
}

void sp_num_enforce_eq(sp_cs *cs, const sp_num *a, const sp_num *b)
{
    gl_lc la, one, lb;
    la.lc.val = a->val, la.lc.t = la.t, la.lc.n = 0, la.lc.cap = GL_LC_TERMS;
    lb.lc.val = b->val, lb.lc.t = lb.t, lb.lc.n = 0, lb.lc.cap = GL_LC_TERMS;
    lc_one(cs, &one);
    if (gl_rec(cs)) {
        gl_lc_term(&la, a->var, gl_k(1));
        gl_lc_term(&lb, b->var, gl_k(1));
    }
    sp_cs_enforce(cs, &la.lc, &one.lc, &lb.lc);
}

/* ---- packing and unpacking ---- */

void sp_bits_pack_le(sp_cs *cs, sp_num *r, const sp_bit *bits, size_t n)
{
    assert(n <= 255);
    uint64_t x[4];
    bits_u256(x, bits, n);
    sp_fr v;
    sp_gl_fr_of_u256(&v, x);
    sp_num_alloc(cs, r, &v);
    enforce_packed(cs, bits, NULL, n, r->var, &r->val);
}

void sp_num_to_bits_le(sp_cs *cs, sp_bit *out, const sp_num *x, size_t n)
{
    assert(n <= 255);
    uint64_t c[4];
    sp_fr_to_canonical(c, &x->val);
    for (size_t i = 0; i < n; i++)
        sp_bit_alloc(cs, &out[i], (int)(c[i / 64] >> (i % 64)) & 1);
    enforce_packed(cs, out, NULL, n, x->var, &x->val);
}

void sp_gl_num_to_bits_strict_from(sp_cs *cs, sp_bit out[255], const sp_num *x, const uint64_t c[4])
{
    uint64_t rm1[4];
    memcpy(rm1, SP_FR_MODULUS, sizeof rm1);
    rm1[0] -= 1; /* r is odd */
    int lowest_zero = -1;
    for (int i = 0; i < 255; i++) {
        int b = (int)(c[i / 64] >> (i % 64)) & 1;
        out[i].var = gl_alloc_bit(cs, &b);
        out[i].kind = SP_BIT_IS, out[i].val = (uint8_t)b;
        if (lowest_zero < 0 && !((rm1[i / 64] >> (i % 64)) & 1))
            lowest_zero = i;
    }
    for (int i = 0; i < 255; i++) /* booleanity where r - 1 has a 1 */
        if ((rm1[i / 64] >> (i % 64)) & 1)
            gl_booleanity(cs, out[i].var, out[i].val);
    /* e = 1 while the bits above equal those of r - 1 */
    sp_bit e = sp_bit_const(1);
    for (int i = 254; i >= 0; i--) {
        const sp_bit *b = &out[i];
        if ((rm1[i / 64] >> (i % 64)) & 1) {
            if (i > lowest_zero) /* an AND nothing below would read is skipped */
                sp_bit_and(cs, &e, &e, b);
            continue;
        }
        /* (1 - e - b) * b = 0: b = 0 when e = 1, else booleanity */
        int va = 1 - e.val - b->val;
        if (gl_rec(cs)) {
            gl_lc la, lb, lz;
            gl_lc_start(&la, va);
            gl_lc_term(&la, SP_CS_ONE, gl_k(1));
            gl_lc_bit(&la, &e, -1);
            gl_lc_bit(&la, b, -1);
            gl_lc_of_bit(&lb, b);
            gl_lc_start(&lz, 0);
            sp_cs_enforce(cs, &la.lc, &lb.lc, &lz.lc);
        } else {
            gl_enforce_vals(cs, va, b->val, 0);
        }
    }
    enforce_packed(cs, out, NULL, 255, x->var, &x->val);
}

void sp_num_to_bits_le_strict(sp_cs *cs, sp_bit out[255], const sp_num *x)
{
    uint64_t c[4];
    sp_fr_to_canonical(c, &x->val);
    sp_gl_num_to_bits_strict_from(cs, out, x, c);
}

void sp_num_cond_swap(sp_cs *cs, sp_num *l, sp_num *r, const sp_bit *c, const sp_num *x, const sp_num *y)
{
    if (c->kind == SP_BIT_CONST) {
        *l = c->val ? *y : *x;
        *r = c->val ? *x : *y;
        return;
    }
    const sp_num *in[2] = {x, y};
    sp_num *out[2] = {l, r};
    for (int k = 0; k < 2; k++) { /* (u - v) * c = u - out, out = c ? v : u */
        const sp_num *u = in[k], *v = in[1 - k];
        sp_fr uv;
        sp_fr_sub(&uv, &u->val, &v->val);
        sp_num_alloc(cs, out[k], c->val ? &v->val : &u->val);
        gl_lc la, lb, lc;
        la.lc.val = uv, la.lc.t = la.t, la.lc.n = 0, la.lc.cap = GL_LC_TERMS;
        gl_lc_of_bit(&lb, c);
        lc.lc.t = lc.t, lc.lc.n = 0, lc.lc.cap = GL_LC_TERMS;
        sp_fr_sub(&lc.lc.val, &u->val, &out[k]->val);
        if (gl_rec(cs)) {
            gl_lc_term(&la, u->var, gl_k(1));
            gl_lc_term(&la, v->var, gl_k(-1));
            gl_lc_term(&lc, u->var, gl_k(1));
            gl_lc_term(&lc, out[k]->var, gl_k(-1));
        }
        sp_cs_enforce(cs, &la.lc, &lb.lc, &lc.lc);
    }
}
