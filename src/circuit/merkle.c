/*
 * Poseidon Merkle inclusion (merkle.h): the native root and the gadgets.
 *
 * Insertion network (our own; rust-fil-proofs' insert_8 uses 22
 * selections, this 17 constraints). With n the position (k bits) and
 * h_q = [n == q] its one-hot indicators, output p of the insertion is
 *   s[p]    when n > p,   x    when n == p,   s[p-1]  when n < p.
 * The indicators: h for one bit is (1 - b0, b0); each further bit b_j
 * splits every h_q into h_q * b_j (a product, one constraint) and
 * h_q - h_q * b_j; since the h_q sum to 1, the products sum to b_j, so one
 * of them is linear: 2^j - 1 constraints for bit j. With E_p = [n >= p]
 * and G_p = [n > p] (sums of indicators, linear):
 *   out[0] = s[0] + h_0 * (x - s[0])                       1 constraint
 *   u      = s[p-1] + E_p * (x - s[p-1])   (x or s[p-1])
 *   out[p] = u + G_p * (s[p] - u)          (s[p] or u)     2 constraints
 *   out[A-1] = x + sum(s) - sum(out[0..A-1))               linear
 * (the insertion only permutes, so the outputs sum to the inputs).
 */
#include <stdlib.h>
#include "circuit/merkle.h"
#include "circuit/poseidon.h"

#define ARITY_MAX 32

/* log2 of arity when it is a power of two in [2, 32], else 0. */
static unsigned log2_arity_(unsigned arity)
{
    for (unsigned k = 1; k <= 5; k++)
        if (arity == 1u << k)
            return k;
    return 0;
}

sp_status sp_merkle_root(sp_fr *root, const sp_fr *leaf, const sp_fr *sib, uint64_t index, unsigned levels,
                         unsigned arity)
{
    unsigned k = log2_arity_(arity);
    if (!k || (uint64_t)levels * k > 64)
        return SP_ERR_INVALID_ARG;
    const sp_poseidon *p = sp_poseidon_params(arity);
    if (!p)
        return SP_ERR_NOMEM;
    sp_fr node = *leaf, in[ARITY_MAX];
    for (unsigned l = 0; l < levels; l++, sib += arity - 1) {
        unsigned digit = (unsigned)(index & (arity - 1));
        index >>= k;
        /* the position may be secret: select without branching on it */
        for (unsigned i = 0; i < arity; i++) {
            in[i] = sib[i + 1 < arity ? i : i - 1];
            if (i > 0)
                sp_fr_cmov(&in[i], &sib[i - 1], i > digit);
            sp_fr_cmov(&in[i], &node, i == digit);
        }
        sp_poseidon_hash(&node, p, in);
    }
    *root = node;
    return SP_OK;
}

/* dst += sign * src (sign = +1 or -1), terms and value. */
static void lc_acc_(sp_cs *cs, sp_lc *dst, const sp_lc *src, int sign)
{
    const sp_fr *one = sign > 0 ? sp_cs_fr_one() : sp_cs_fr_minus_one();
    if (sign > 0)
        sp_fr_add(&dst->val, &dst->val, &src->val);
    else
        sp_fr_sub(&dst->val, &dst->val, &src->val);
    if (!sp_cs_recording(cs))
        return;
    for (uint32_t i = 0; i < src->n; i++) {
        sp_fr k;
        sp_fr_mul(&k, one, &src->t[i].k);
        sp_lc_add_term(cs, dst, src->t[i].var, &k);
    }
}

/* dst = a - b. */
static void lc_diff_(sp_cs *cs, sp_lc *dst, const sp_lc *a, const sp_lc *b)
{
    sp_lc_clear(dst);
    lc_acc_(cs, dst, a, 1);
    lc_acc_(cs, dst, b, -1);
}

/* A new variable z = base + sel * (to - base) with the constraint
 * sel * (to - base) = z - base; dst = z. */
static void select_(sp_cs *cs, sp_lc *dst, const sp_lc *sel, const sp_lc *base, const sp_lc *to, sp_lc *tmp_a,
                    sp_lc *tmp_c)
{
    sp_fr z;
    lc_diff_(cs, tmp_a, to, base);
    sp_fr_mul(&z, &sel->val, &tmp_a->val);
    sp_fr_add(&z, &z, &base->val);
    sp_var vz = sp_cs_alloc(cs, &z);
    sp_lc_clear(tmp_c);
    sp_lc_add_var(cs, tmp_c, vz, &z);
    lc_acc_(cs, tmp_c, base, -1);
    sp_cs_enforce(cs, sel, tmp_a, tmp_c);
    sp_lc_clear(dst);
    sp_lc_add_var(cs, dst, vz, &z);
}

/* h[0..2^k) = the one-hot indicators of the position bits. */
static void one_hot_(sp_cs *cs, sp_lc *h, const sp_var *bits, const sp_fr *bv, unsigned k, sp_lc *b)
{
    sp_lc_clear(&h[0]);
    sp_lc_add_const(cs, &h[0], sp_cs_fr_one());
    sp_lc_sub_var(cs, &h[0], bits[0], &bv[0]);
    sp_lc_clear(&h[1]);
    sp_lc_add_var(cs, &h[1], bits[0], &bv[0]);
    for (unsigned j = 1; j < k; j++) {
        unsigned m = 1u << j;
        sp_lc_clear(b);
        sp_lc_add_var(cs, b, bits[j], &bv[j]);
        sp_lc_clear(&h[m]); /* h_0 * b_j = b_j - the other products */
        lc_acc_(cs, &h[m], b, 1);
        for (unsigned q = 1; q < m; q++) {
            sp_fr pv;
            sp_fr_mul(&pv, &h[q].val, &bv[j]);
            sp_var vp = sp_cs_alloc(cs, &pv);
            sp_lc_clear(&h[m + q]);
            sp_lc_add_var(cs, &h[m + q], vp, &pv);
            sp_cs_enforce(cs, &h[q], b, &h[m + q]); /* h_q * b_j = p_q */
            lc_acc_(cs, &h[m], &h[m + q], -1);
        }
        for (unsigned q = 0; q < m; q++)
            lc_acc_(cs, &h[q], &h[m + q], -1);
    }
}

void sp_merkle_insert_gadget(sp_cs *cs, sp_lc *out, const sp_lc *node, const sp_lc *sib, const sp_var *bits,
                             const uint8_t *bit_val, unsigned arity)
{
    unsigned k = log2_arity_(arity);
    if (!k) {
        sp_cs_fail(cs, SP_ERR_INVALID_ARG, "merkle: arity %u is not a power of two in [2, 32]", arity);
        return;
    }
    sp_cs_push(cs, "insert");
    sp_fr bv[5];
    for (unsigned j = 0; j < k; j++)
        sp_cs_fr_u64(&bv[j], bit_val[j]);
    sp_lc h[ARITY_MAX], e, g, ta, tc;
    for (unsigned q = 0; q < arity; q++)
        sp_lc_init(&h[q]);
    sp_lc_init(&e), sp_lc_init(&g), sp_lc_init(&ta), sp_lc_init(&tc);
    one_hot_(cs, h, bits, bv, k, &ta);
    select_(cs, &out[0], &h[0], &sib[0], node, &ta, &tc);
    /* G_p = sum of h_q for q > p, built from the top */
    for (unsigned q = 2; q < arity; q++)
        lc_acc_(cs, &g, &h[q], 1);
    for (unsigned p = 1; p + 1 < arity; p++) {
        sp_lc_clear(&e); /* E_p = G_p + h_p */
        lc_acc_(cs, &e, &g, 1);
        lc_acc_(cs, &e, &h[p], 1);
        sp_lc u;
        sp_lc_init(&u);
        select_(cs, &u, &e, &sib[p - 1], node, &ta, &tc);
        select_(cs, &out[p], &g, &u, &sib[p], &ta, &tc);
        sp_lc_free(&u);
        lc_acc_(cs, &g, &h[p + 1], -1); /* G_{p+1} */
    }
    sp_lc *last = &out[arity - 1];
    sp_lc_clear(last);
    lc_acc_(cs, last, node, 1);
    for (unsigned p = 0; p + 1 < arity; p++) {
        lc_acc_(cs, last, &sib[p], 1);
        lc_acc_(cs, last, &out[p], -1);
    }
    for (unsigned q = 0; q < arity; q++)
        sp_lc_free(&h[q]);
    sp_lc_free(&e), sp_lc_free(&g), sp_lc_free(&ta), sp_lc_free(&tc);
    sp_cs_pop(cs);
}

/* b * b = b for each of the k bits (booleanity). */
static void enforce_bits_(sp_cs *cs, const sp_var *bits, const uint8_t *bit_val, unsigned k, sp_lc *b)
{
    for (unsigned j = 0; j < k; j++) {
        sp_fr v;
        sp_cs_fr_u64(&v, bit_val[j]);
        sp_lc_clear(b);
        sp_lc_add_var(cs, b, bits[j], &v);
        sp_cs_pushf(cs, "bit %u", j);
        sp_cs_enforce(cs, b, b, b);
        sp_cs_pop(cs);
    }
}

void sp_merkle_poseidon_gadget(sp_cs *cs, sp_lc *root, const sp_lc *leaf, const sp_var *sib, const sp_fr *sib_val,
                               const sp_var *bits, const uint8_t *bit_val, unsigned levels, unsigned arity,
                               int enforce_bits)
{
    unsigned k = log2_arity_(arity);
    if (!k) {
        sp_cs_fail(cs, SP_ERR_INVALID_ARG, "merkle: arity %u is not a power of two in [2, 32]", arity);
        return;
    }
    sp_cs_push(cs, "merkle");
    sp_lc s[ARITY_MAX], kids[ARITY_MAX];
    for (unsigned i = 0; i < arity; i++)
        sp_lc_init(&s[i]), sp_lc_init(&kids[i]);
    sp_lc_clear(root);
    lc_acc_(cs, root, leaf, 1); /* root holds the current node */
    for (unsigned l = 0; l < levels; l++) {
        sp_cs_pushf(cs, "level %u", l);
        const sp_var *lb = bits + (size_t)l * k;
        const uint8_t *lbv = bit_val + (size_t)l * k;
        if (enforce_bits)
            enforce_bits_(cs, lb, lbv, k, &s[0]);
        for (unsigned i = 0; i + 1 < arity; i++) {
            size_t at = (size_t)l * (arity - 1) + i;
            sp_lc_clear(&s[i]);
            sp_lc_add_var(cs, &s[i], sib[at], &sib_val[at]);
        }
        sp_merkle_insert_gadget(cs, kids, root, s, lb, lbv, arity);
        sp_poseidon_gadget(cs, root, kids, arity);
        sp_cs_pop(cs);
    }
    for (unsigned i = 0; i < arity; i++)
        sp_lc_free(&s[i]), sp_lc_free(&kids[i]);
    sp_cs_pop(cs);
}

void sp_merkle_enforce_equal(sp_cs *cs, const sp_lc *lc, sp_var var, const sp_fr *val)
{
    sp_lc one, c;
    sp_lc_init(&one), sp_lc_init(&c);
    sp_lc_add_const(cs, &one, sp_cs_fr_one());
    sp_lc_add_var(cs, &c, var, val);
    sp_cs_push(cs, "equal");
    sp_cs_enforce(cs, lc, &one, &c);
    sp_cs_pop(cs);
    sp_lc_free(&one), sp_lc_free(&c);
}

uint64_t sp_merkle_poseidon_gadget_rows(unsigned levels, unsigned arity, int enforce_bits)
{
    unsigned k = log2_arity_(arity);
    if (!k)
        return 0;
    uint64_t insert = (arity - k - 1) + 1 + 2 * (uint64_t)(arity - 2);
    return levels * (insert + sp_poseidon_gadget_rows(arity) + (enforce_bits ? k : 0));
}
