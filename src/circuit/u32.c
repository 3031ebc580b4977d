/* 32-bit word gadgets (u32.h). */
#include <string.h>
#include "circuit/gadget.h"
#include "circuit/u32.h"

static inline uint32_t rotr32(uint32_t x, unsigned n) { return n ? (x >> n) | (x << (32 - n)) : x; }

void sp_u32_const(sp_u32 *r, uint32_t v)
{
    r->val = v;
    r->cmask = 0xffffffffu;
    r->nmask = 0;
    memset(r->var, 0, sizeof r->var);
}

void sp_u32_alloc(sp_cs *cs, sp_u32 *r, uint32_t v)
{
    uint32_t got = 0;
    for (unsigned i = 0; i < 32; i++) {
        sp_bit b;
        sp_bit_alloc(cs, &b, (int)(v >> i) & 1);
        r->var[i] = b.var;
        got |= (uint32_t)b.val << i;
    }
    r->val = got;
    r->cmask = r->nmask = 0;
}

sp_bit sp_u32_bit(const sp_u32 *w, unsigned i)
{
    sp_bit b;
    b.val = (uint8_t)((w->val >> i) & 1);
    if ((w->cmask >> i) & 1) {
        b.var = 0, b.kind = SP_BIT_CONST;
    } else {
        b.var = w->var[i];
        b.kind = ((w->nmask >> i) & 1) ? SP_BIT_NOT : SP_BIT_IS;
    }
    return b;
}

void sp_u32_set_bit(sp_u32 *w, unsigned i, const sp_bit *b)
{
    uint32_t m = 1u << i;
    w->val = (w->val & ~m) | ((uint32_t)b->val << i);
    w->cmask = (w->cmask & ~m) | (b->kind == SP_BIT_CONST ? m : 0);
    w->nmask = (w->nmask & ~m) | (b->kind == SP_BIT_NOT ? m : 0);
    w->var[i] = b->kind == SP_BIT_CONST ? 0 : b->var;
}

void sp_u32_from_bits_le(sp_u32 *r, const sp_bit bits[32])
{
    for (unsigned i = 0; i < 32; i++)
        sp_u32_set_bit(r, i, &bits[i]);
}

void sp_u32_from_bits_be(sp_u32 *r, const sp_bit bits[32])
{
    for (unsigned i = 0; i < 32; i++)
        sp_u32_set_bit(r, 31 - i, &bits[i]);
}

void sp_u32_to_bits_le(sp_bit bits[32], const sp_u32 *w)
{
    for (unsigned i = 0; i < 32; i++)
        bits[i] = sp_u32_bit(w, i);
}

void sp_u32_to_bits_be(sp_bit bits[32], const sp_u32 *w)
{
    for (unsigned i = 0; i < 32; i++)
        bits[i] = sp_u32_bit(w, 31 - i);
}

void sp_u32_rotr(sp_u32 *r, const sp_u32 *a, unsigned n)
{
    n &= 31;
    sp_u32 t;
    t.val = rotr32(a->val, n);
    t.cmask = rotr32(a->cmask, n);
    t.nmask = rotr32(a->nmask, n);
    memcpy(t.var, a->var + n, (32 - n) * sizeof t.var[0]);
    memcpy(t.var + (32 - n), a->var, n * sizeof t.var[0]);
    *r = t;
}

void sp_u32_shr(sp_u32 *r, const sp_u32 *a, unsigned n)
{
    n &= 31;
    sp_u32 t;
    t.val = a->val >> n;
    t.cmask = n ? (a->cmask >> n) | ~(0xffffffffu >> n) : a->cmask;
    t.nmask = a->nmask >> n;
    memcpy(t.var, a->var + n, (32 - n) * sizeof t.var[0]);
    memset(t.var + (32 - n), 0, n * sizeof t.var[0]);
    *r = t;
}

void sp_u32_xor(sp_cs *cs, sp_u32 *r, const sp_u32 *a, const sp_u32 *b)
{
    /* Per bit as sp_bit_xor, on masks: constants make copies or
     * negations, negations move out of the constraint, and only bits
     * where both are variables cost a constraint. */
    uint32_t ca = a->cmask, cb = b->cmask;
    uint32_t only_a = ca & ~cb, only_b = cb & ~ca, vv = ~(ca | cb);
    uint32_t ua = a->val ^ a->nmask, ub = b->val ^ b->nmask; /* the variables' values */
    sp_u32 t;
    t.val = a->val ^ b->val;
    t.cmask = ca & cb;
    t.nmask = ((b->nmask ^ a->val) & only_a) | ((a->nmask ^ b->val) & only_b) | ((a->nmask ^ b->nmask) & vv);
    for (unsigned i = 0; i < 32; i++) {
        uint32_t m = 1u << i;
        if (vv & m) {
            int z;
            t.var[i] = sp_gl_xor_var(cs, a->var[i], (int)(ua >> i) & 1, b->var[i], (int)(ub >> i) & 1, &z);
            /* z is the variable's value: the tamper hook may have flipped it */
            t.val = (t.val & ~m) | (((uint32_t)z ^ ((t.nmask >> i) & 1)) << i);
        } else if (only_a & m) {
            t.var[i] = b->var[i];
        } else if (only_b & m) {
            t.var[i] = a->var[i];
        } else {
            t.var[i] = 0;
        }
    }
    *r = t;
}

void sp_u32_ch(sp_cs *cs, sp_u32 *r, const sp_u32 *a, const sp_u32 *b, const sp_u32 *c)
{
    sp_u32 t = {.val = 0};
    for (unsigned i = 0; i < 32; i++) {
        sp_bit x = sp_u32_bit(a, i), y = sp_u32_bit(b, i), z = sp_u32_bit(c, i), o;
        sp_bit_ch(cs, &o, &x, &y, &z);
        sp_u32_set_bit(&t, i, &o);
    }
    *r = t;
}

void sp_u32_maj(sp_cs *cs, sp_u32 *r, const sp_u32 *a, const sp_u32 *b, const sp_u32 *c)
{
    sp_u32 t = {.val = 0};
    for (unsigned i = 0; i < 32; i++) {
        sp_bit x = sp_u32_bit(a, i), y = sp_u32_bit(b, i), z = sp_u32_bit(c, i), o;
        sp_bit_maj(cs, &o, &x, &y, &z);
        sp_u32_set_bit(&t, i, &o);
    }
    *r = t;
}

/* ---- shared packing equations and addition ---- */

void sp_multieq_init(sp_multieq *m)
{
    memset(m, 0, sizeof *m);
    sp_lc_init(&m->l);
    sp_lc_init(&m->r);
}

void sp_multieq_flush(sp_cs *cs, sp_multieq *m)
{
    if (!m->bits)
        return;
    /* both sides are below 2^254 < r: their values need no reduction */
    sp_gl_fr_of_u256(&m->l.val, m->lhs);
    sp_gl_fr_of_u256(&m->r.val, m->rhs);
    gl_lc one;
    gl_lc_start(&one, 1);
    if (gl_rec(cs)) {
        sp_gl_lc_consts(cs, &m->l, m->kpos, m->kneg);
        gl_lc_term(&one, SP_CS_ONE, gl_k(1));
    }
    sp_cs_enforce(cs, &m->l, &one.lc, &m->r);
    sp_lc_clear(&m->l);
    sp_lc_clear(&m->r);
    memset(m->lhs, 0, sizeof m->lhs);
    memset(m->rhs, 0, sizeof m->rhs);
    memset(m->kpos, 0, sizeof m->kpos);
    memset(m->kneg, 0, sizeof m->kneg);
    m->bits = 0;
}

void sp_multieq_finish(sp_cs *cs, sp_multieq *m)
{
    sp_multieq_flush(cs, m);
    sp_lc_free(&m->l);
    sp_lc_free(&m->r);
}

/* The equation lhs = rhs of nb bits, into m (RECORD terms: the operands'
 * bits on the left, the result's on the right). */
static void multieq_add(sp_cs *cs, sp_multieq *m, const sp_u32 *const *ops, size_t n, uint64_t sum,
                        const sp_var *rvars, uint64_t rv, unsigned nb)
{
    if (m->bits + nb >= 254) /* bellman's capacity test (Fr::CAPACITY = 254) */
        sp_multieq_flush(cs, m);
    unsigned s = m->bits;
    gl_u256_add_shl(m->lhs, sum, s);
    gl_u256_add_shl(m->rhs, rv, s);
    if (gl_rec(cs)) {
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++) {
                sp_bit b = sp_u32_bit(ops[k], i);
                sp_gl_lc_bit_pow2(cs, &m->l, &b, s + i, 0, m->kpos, m->kneg);
            }
        for (unsigned j = 0; j < nb; j++)
            sp_lc_add_term(cs, &m->r, rvars[j], sp_cs_fr_pow2(s + j));
    }
    m->bits += nb;
}

void sp_u32_add(sp_cs *cs, sp_multieq *m, sp_u32 *r, const sp_u32 *const *ops, size_t n)
{
    assert(n >= 1 && n <= 64);
    uint64_t sum = 0;
    int all_const = 1;
    for (size_t k = 0; k < n; k++) {
        sum += ops[k]->val;
        all_const &= ops[k]->cmask == 0xffffffffu;
    }
    if (all_const) {
        sp_u32_const(r, (uint32_t)sum);
        return;
    }
    uint64_t max = (uint64_t)n * 0xffffffffu;
    unsigned nb = 64 - (unsigned)__builtin_clzll(max);
    sp_var rvars[64];
    uint64_t rv = 0; /* the result bits' values (the tamper hook may flip one) */
    for (unsigned j = 0; j < nb; j++) {
        int b = (int)(sum >> j) & 1;
        rvars[j] = gl_alloc_bit(cs, &b);
        gl_booleanity(cs, rvars[j], b);
        rv |= (uint64_t)b << j;
    }
    if (m) {
        multieq_add(cs, m, ops, n, sum, rvars, rv, nb);
    } else {
        sp_multieq own;
        sp_multieq_init(&own);
        multieq_add(cs, &own, ops, n, sum, rvars, rv, nb);
        sp_multieq_finish(cs, &own);
    }
    r->val = (uint32_t)rv;
    r->cmask = r->nmask = 0;
    memcpy(r->var, rvars, sizeof r->var);
}
