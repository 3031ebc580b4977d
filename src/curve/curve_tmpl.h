/*
 * The group law of one curve y^2 = x^3 + b (a = 0), instantiated by g1.c
 * (over Fp) and g2.c (over Fp2). The includer defines, before including:
 *   G        the group's short name (g1 or g2)
 *   FIELD    the coordinate field's short name (fp or fp2)
 *   CURVE_B, GEN_X, GEN_Y   initialisers of the field type (Montgomery form)
 * Contracts are in curve.h. Formulas are from the Explicit-Formulas
 * Database (hyperelliptic.org/EFD, "g1p" shortw-jacobian-0 and xyzz),
 * named next to each function.
 */
#include <string.h>
#include "curve/curve.h"
#include "curve/names.h"

static const FE curve_b_ = CURVE_B;

/* ---- affine ---- */

void FN(generator)(AFF *r)
{
    static const AFF g = {GEN_X, GEN_Y};
    *r = g;
}

int FN(affine_is_inf)(const AFF *p) { return FEF(is_zero)(&p->x) & FEF(is_zero)(&p->y); }

void FN(affine_set_inf)(AFF *r)
{
    FEF(set_zero)(&r->x);
    FEF(set_zero)(&r->y);
}

int FN(affine_eq)(const AFF *a, const AFF *b) { return FEF(eq)(&a->x, &b->x) & FEF(eq)(&a->y, &b->y); }

void FN(affine_neg)(AFF *r, const AFF *p)
{
    r->x = p->x;
    FEF(neg)(&r->y, &p->y);
}

void FN(curve_rhs)(FE *r, const FE *x)
{
    FE t;
    FEF(sqr)(&t, x);
    FEF(mul)(&t, &t, x);
    FEF(add)(r, &t, &curve_b_);
}

int FN(affine_is_on_curve)(const AFF *p)
{
    FE l, rhs;
    FEF(sqr)(&l, &p->y);
    FN(curve_rhs)(&rhs, &p->x);
    return FEF(eq)(&l, &rhs) | FN(affine_is_inf)(p);
}

/* ---- Jacobian ---- */

void FN(jac_set_inf)(JAC *r)
{
    FEF(set_one)(&r->x);
    FEF(set_one)(&r->y);
    FEF(set_zero)(&r->z);
}

int FN(jac_is_inf)(const JAC *p) { return FEF(is_zero)(&p->z); }

void FN(jac_from_affine)(JAC *r, const AFF *p)
{
    FE zero;
    FEF(set_zero)(&zero);
    int inf = FN(affine_is_inf)(p);
    r->x = p->x;
    r->y = p->y;
    FEF(set_one)(&r->z);
    FEF(cmov)(&r->z, &zero, inf);
}

void FN(jac_to_affine)(AFF *r, const JAC *p)
{
    FE zi, zi2;
    FEF(inv)(&zi, &p->z); /* 1/0 = 0, so inf comes out as (0, 0) */
    FEF(sqr)(&zi2, &zi);
    FEF(mul)(&r->x, &p->x, &zi2);
    FEF(mul)(&zi2, &zi2, &zi);
    FEF(mul)(&r->y, &p->y, &zi2);
}

int FN(jac_eq)(const JAC *a, const JAC *b)
{
    /* x1 Z2^2 = x2 Z1^2 and y1 Z2^3 = y2 Z1^3, unless either is inf. */
    FE z1z1, z2z2, u1, u2, s1, s2;
    FEF(sqr)(&z1z1, &a->z);
    FEF(sqr)(&z2z2, &b->z);
    FEF(mul)(&u1, &a->x, &z2z2);
    FEF(mul)(&u2, &b->x, &z1z1);
    FEF(mul)(&s1, &a->y, &b->z);
    FEF(mul)(&s1, &s1, &z2z2);
    FEF(mul)(&s2, &b->y, &a->z);
    FEF(mul)(&s2, &s2, &z1z1);
    int inf1 = FEF(is_zero)(&a->z), inf2 = FEF(is_zero)(&b->z);
    int same = FEF(eq)(&u1, &u2) & FEF(eq)(&s1, &s2);
    return (inf1 & inf2) | (((inf1 | inf2) ^ 1) & same);
}

void FN(jac_neg)(JAC *r, const JAC *p)
{
    r->x = p->x;
    FEF(neg)(&r->y, &p->y);
    r->z = p->z;
}

void FN(jac_cmov)(JAC *r, const JAC *a, int c)
{
    FEF(cmov)(&r->x, &a->x, c);
    FEF(cmov)(&r->y, &a->y, c);
    FEF(cmov)(&r->z, &a->z, c);
}

void FN(jac_dbl)(JAC *r, const JAC *p)
{
    /* dbl-2009-l. Z3 = 2 Y1 Z1 is 0 for inf, so inf needs no special case. */
    FE a, b, c, d, e, f;
    FEF(sqr)(&a, &p->x);
    FEF(sqr)(&b, &p->y);
    FEF(sqr)(&c, &b);
    FEF(add)(&d, &p->x, &b);
    FEF(sqr)(&d, &d);
    FEF(sub)(&d, &d, &a);
    FEF(sub)(&d, &d, &c);
    FEF(dbl)(&d, &d);           /* D = 2((X1 + B)^2 - A - C) */
    FEF(dbl)(&e, &a);
    FEF(add)(&e, &e, &a);       /* E = 3A */
    FEF(sqr)(&f, &e);
    FEF(mul)(&r->z, &p->y, &p->z); /* p->y, p->z are not read again */
    FEF(dbl)(&r->z, &r->z);
    FEF(sub)(&r->x, &f, &d);
    FEF(sub)(&r->x, &r->x, &d); /* X3 = F - 2D */
    FEF(sub)(&d, &d, &r->x);
    FEF(mul)(&d, &d, &e);
    FEF(dbl)(&c, &c);
    FEF(dbl)(&c, &c);
    FEF(dbl)(&c, &c);
    FEF(sub)(&r->y, &d, &c);    /* Y3 = E (D - X3) - 8C */
}

/*
 * add-2007-bl for p, q not inf. Returns 1 when H = 0 and R = 0 (p = q, where
 * the result is garbage and the caller must double); for p = -q it yields
 * Z3 = 0, which is inf.
 */
static int FN(jac_add_core_)(JAC *r, const JAC *p, const JAC *q)
{
    FE z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v;
    FEF(sqr)(&z1z1, &p->z);
    FEF(sqr)(&z2z2, &q->z);
    FEF(mul)(&u1, &p->x, &z2z2);
    FEF(mul)(&u2, &q->x, &z1z1);
    FEF(mul)(&s1, &p->y, &q->z);
    FEF(mul)(&s1, &s1, &z2z2);
    FEF(mul)(&s2, &q->y, &p->z);
    FEF(mul)(&s2, &s2, &z1z1);
    FEF(sub)(&h, &u2, &u1);
    FEF(sub)(&rr, &s2, &s1);
    int same = FEF(is_zero)(&h) & FEF(is_zero)(&rr);
    FEF(add)(&v, &p->z, &q->z);
    FEF(sqr)(&v, &v);
    FEF(sub)(&v, &v, &z1z1);
    FEF(sub)(&v, &v, &z2z2);
    FEF(mul)(&r->z, &v, &h);    /* all reads of p->z, q->z are done */
    FEF(dbl)(&i, &h);
    FEF(sqr)(&i, &i);           /* I = (2H)^2 */
    FEF(mul)(&j, &h, &i);
    FEF(dbl)(&rr, &rr);         /* r = 2(S2 - S1) */
    FEF(mul)(&v, &u1, &i);
    FEF(sqr)(&r->x, &rr);
    FEF(sub)(&r->x, &r->x, &j);
    FEF(sub)(&r->x, &r->x, &v);
    FEF(sub)(&r->x, &r->x, &v); /* X3 = r^2 - J - 2V */
    FEF(sub)(&v, &v, &r->x);
    FEF(mul)(&v, &v, &rr);
    FEF(mul)(&s1, &s1, &j);
    FEF(dbl)(&s1, &s1);
    FEF(sub)(&r->y, &v, &s1);   /* Y3 = r (V - X3) - 2 S1 J */
    return same;
}

void FN(jac_add)(JAC *r, const JAC *p, const JAC *q)
{
    /* Compute both p + q and 2p, then select: no branch on the values. */
    JAC sum, d;
    int same = FN(jac_add_core_)(&sum, p, q);
    FN(jac_dbl)(&d, p);
    FN(jac_cmov)(&sum, &d, same);
    FN(jac_cmov)(&sum, q, FN(jac_is_inf)(p));
    FN(jac_cmov)(&sum, p, FN(jac_is_inf)(q));
    *r = sum;
}

void FN(jac_add_var)(JAC *r, const JAC *p, const JAC *q)
{
    if (FN(jac_is_inf)(p)) {
        *r = *q;
        return;
    }
    if (FN(jac_is_inf)(q)) {
        *r = *p;
        return;
    }
    JAC sum;
    if (FN(jac_add_core_)(&sum, p, q))
        FN(jac_dbl)(r, p);
    else
        *r = sum;
}

void FN(jac_add_affine_var)(JAC *r, const JAC *p, const AFF *q)
{
    /* madd-2007-bl, with Z3 = 2 Z1 H in place of (Z1 + H)^2 - Z1Z1 - HH. */
    if (FN(affine_is_inf)(q)) {
        *r = *p;
        return;
    }
    if (FN(jac_is_inf)(p)) {
        FN(jac_from_affine)(r, q);
        return;
    }
    FE z1z1, u2, s2, h, hh, i, j, rr, v;
    FEF(sqr)(&z1z1, &p->z);
    FEF(mul)(&u2, &q->x, &z1z1);
    FEF(mul)(&s2, &q->y, &p->z);
    FEF(mul)(&s2, &s2, &z1z1);
    FEF(sub)(&h, &u2, &p->x);
    FEF(sub)(&rr, &s2, &p->y);
    if (FEF(is_zero)(&h)) {
        if (FEF(is_zero)(&rr))
            FN(jac_dbl)(r, p);
        else
            FN(jac_set_inf)(r);
        return;
    }
    FEF(sqr)(&hh, &h);
    FEF(dbl)(&i, &hh);
    FEF(dbl)(&i, &i);           /* I = 4 HH */
    FEF(mul)(&j, &h, &i);
    FEF(dbl)(&rr, &rr);         /* r = 2(S2 - Y1) */
    FEF(mul)(&v, &p->x, &i);
    FEF(mul)(&s2, &p->y, &j);   /* reuse: Y1 J */
    FEF(mul)(&r->z, &p->z, &h);
    FEF(dbl)(&r->z, &r->z);
    FEF(sqr)(&r->x, &rr);
    FEF(sub)(&r->x, &r->x, &j);
    FEF(sub)(&r->x, &r->x, &v);
    FEF(sub)(&r->x, &r->x, &v); /* X3 = r^2 - J - 2V */
    FEF(sub)(&v, &v, &r->x);
    FEF(mul)(&v, &v, &rr);
    FEF(dbl)(&s2, &s2);
    FEF(sub)(&r->y, &v, &s2);   /* Y3 = r (V - X3) - 2 Y1 J */
}

/* ---- XYZZ ---- */

void FN(xyzz_set_inf)(XYZZ *r)
{
    FEF(set_one)(&r->x);
    FEF(set_one)(&r->y);
    FEF(set_zero)(&r->zz);
    FEF(set_zero)(&r->zzz);
}

int FN(xyzz_is_inf)(const XYZZ *p) { return FEF(is_zero)(&p->zz); }

void FN(xyzz_from_affine)(XYZZ *r, const AFF *p)
{
    JAC j; /* Z = 1, or 0 for inf: the same as ZZ and ZZZ */
    FN(jac_from_affine)(&j, p);
    r->x = j.x;
    r->y = j.y;
    r->zz = j.z;
    r->zzz = j.z;
}

void FN(xyzz_to_jac)(JAC *r, const XYZZ *p)
{
    /* Z = ZZ: X/ZZ = X ZZ / ZZ^2 and Y/ZZZ = Y ZZZ / ZZ^3 (ZZ^3 = ZZZ^2). */
    FE t;
    FEF(mul)(&t, &p->x, &p->zz);
    FEF(mul)(&r->y, &p->y, &p->zzz);
    r->z = p->zz;
    r->x = t;
}

void FN(xyzz_to_affine)(AFF *r, const XYZZ *p)
{
    /* 1/ZZ = (ZZ / ZZZ)^2; 1/0 = 0 maps inf to (0, 0). */
    FE zi, t;
    FEF(inv)(&zi, &p->zzz);
    FEF(mul)(&t, &p->zz, &zi);
    FEF(sqr)(&t, &t);
    FEF(mul)(&r->x, &p->x, &t);
    FEF(mul)(&r->y, &p->y, &zi);
}

void FN(xyzz_dbl)(XYZZ *r, const XYZZ *p)
{
    /* dbl-2008-s-1; ZZ3 = V ZZ1 is 0 for inf. */
    FE u, v, w, s, m;
    FEF(dbl)(&u, &p->y);
    FEF(sqr)(&v, &u);
    FEF(mul)(&w, &u, &v);
    FEF(mul)(&s, &p->x, &v);
    FEF(sqr)(&m, &p->x);
    FEF(dbl)(&u, &m);
    FEF(add)(&m, &m, &u);       /* M = 3 X1^2 */
    FEF(mul)(&u, &w, &p->y);    /* W Y1 */
    FEF(mul)(&r->zz, &v, &p->zz);
    FEF(mul)(&r->zzz, &w, &p->zzz);
    FEF(sqr)(&r->x, &m);
    FEF(sub)(&r->x, &r->x, &s);
    FEF(sub)(&r->x, &r->x, &s); /* X3 = M^2 - 2S */
    FEF(sub)(&s, &s, &r->x);
    FEF(mul)(&s, &s, &m);
    FEF(sub)(&r->y, &s, &u);    /* Y3 = M (S - X3) - W Y1 */
}

/* Shared tail of add-2008-s and madd-2008-s: given U1, S1, P = U2 - U1 and
 * R = S2 - S1 (P != 0), writes X3, Y3 and the factors PP, PPP for ZZ3, ZZZ3. */
static void FN(xyzz_add_tail_)(XYZZ *r, FE *pp, FE *ppp, const FE *u1, const FE *s1,
                               const FE *p, const FE *rr)
{
    FE q, t;
    FEF(sqr)(pp, p);
    FEF(mul)(ppp, p, pp);
    FEF(mul)(&q, u1, pp);
    FEF(mul)(&t, s1, ppp);
    FEF(sqr)(&r->x, rr);
    FEF(sub)(&r->x, &r->x, ppp);
    FEF(sub)(&r->x, &r->x, &q);
    FEF(sub)(&r->x, &r->x, &q); /* X3 = R^2 - PPP - 2Q */
    FEF(sub)(&q, &q, &r->x);
    FEF(mul)(&q, &q, rr);
    FEF(sub)(&r->y, &q, &t);    /* Y3 = R (Q - X3) - S1 PPP */
}

void FN(xyzz_add_var)(XYZZ *r, const XYZZ *p, const XYZZ *q)
{
    if (FN(xyzz_is_inf)(p)) {
        *r = *q;
        return;
    }
    if (FN(xyzz_is_inf)(q)) {
        *r = *p;
        return;
    }
    FE u1, u2, s1, s2, pp, ppp;
    FEF(mul)(&u1, &p->x, &q->zz);
    FEF(mul)(&u2, &q->x, &p->zz);
    FEF(mul)(&s1, &p->y, &q->zzz);
    FEF(mul)(&s2, &q->y, &p->zzz);
    FEF(sub)(&u2, &u2, &u1);    /* P */
    FEF(sub)(&s2, &s2, &s1);    /* R */
    if (FEF(is_zero)(&u2)) {
        if (FEF(is_zero)(&s2))
            FN(xyzz_dbl)(r, p);
        else
            FN(xyzz_set_inf)(r);
        return;
    }
    FE zz, zzz;
    FEF(mul)(&zz, &p->zz, &q->zz);
    FEF(mul)(&zzz, &p->zzz, &q->zzz);
    FN(xyzz_add_tail_)(r, &pp, &ppp, &u1, &s1, &u2, &s2);
    FEF(mul)(&r->zz, &zz, &pp);
    FEF(mul)(&r->zzz, &zzz, &ppp);
}

void FN(xyzz_add_affine_var)(XYZZ *r, const XYZZ *p, const AFF *q)
{
    if (FN(affine_is_inf)(q)) {
        *r = *p;
        return;
    }
    if (FN(xyzz_is_inf)(p)) {
        FN(xyzz_from_affine)(r, q);
        return;
    }
    FE u2, s2, pp, ppp;
    FEF(mul)(&u2, &q->x, &p->zz);
    FEF(mul)(&s2, &q->y, &p->zzz);
    FEF(sub)(&u2, &u2, &p->x);  /* P */
    FEF(sub)(&s2, &s2, &p->y);  /* R */
    if (FEF(is_zero)(&u2)) {
        if (FEF(is_zero)(&s2))
            FN(xyzz_dbl)(r, p); /* p = q */
        else
            FN(xyzz_set_inf)(r);
        return;
    }
    FE zz = p->zz, zzz = p->zzz; /* r may alias p */
    FN(xyzz_add_tail_)(r, &pp, &ppp, &p->x, &p->y, &u2, &s2);
    FEF(mul)(&r->zz, &zz, &pp);
    FEF(mul)(&r->zzz, &zzz, &ppp);
}

/* ---- batches ---- */

/*
 * Montgomery's trick: for the n field elements at z (byte stride z_stride),
 * writes 1/z_i, or 0 where z_i = 0, to inv (byte stride inv_stride), using
 * one inversion and about 3n multiplications. inv first holds the
 * prefix products, so it must not overlap z.
 */
static void FN(batch_inv_)(char *inv, size_t inv_stride, const char *z, size_t z_stride, size_t n)
{
    FE acc, one, t;
    FEF(set_one)(&one);
    acc = one;
    for (size_t i = 0; i < n; i++) {
        FE zi = *(const FE *)(const void *)(z + i * z_stride);
        FEF(cmov)(&zi, &one, FEF(is_zero)(&zi)); /* skip zeros in the product */
        *(FE *)(void *)(inv + i * inv_stride) = acc;
        FEF(mul)(&acc, &acc, &zi);
    }
    FEF(inv)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        FE zi = *(const FE *)(const void *)(z + i * z_stride);
        FE *out = (FE *)(void *)(inv + i * inv_stride);
        int zero = FEF(is_zero)(&zi);
        FEF(cmov)(&zi, &one, zero);
        FEF(mul)(&t, &acc, out); /* 1/z_i = (z_0 .. z_i)^-1 (z_0 .. z_{i-1}) */
        FEF(mul)(&acc, &acc, &zi);
        FEF(set_zero)(out);
        FEF(cmov)(out, &t, zero ^ 1);
    }
}

void FN(batch_to_affine)(AFF *out, const JAC *in, size_t n)
{
    if (n == 0)
        return;
    FN(batch_inv_)((char *)&out->x, sizeof *out, (const char *)&in->z, sizeof *in, n);
    for (size_t i = 0; i < n; i++) {
        FE zi = out[i].x, zi2;
        FEF(sqr)(&zi2, &zi);
        FEF(mul)(&out[i].x, &in[i].x, &zi2);
        FEF(mul)(&zi2, &zi2, &zi);
        FEF(mul)(&out[i].y, &in[i].y, &zi2);
    }
}

void FN(xyzz_batch_to_affine)(AFF *out, const XYZZ *in, size_t n)
{
    if (n == 0)
        return;
    FN(batch_inv_)((char *)&out->x, sizeof *out, (const char *)&in->zzz, sizeof *in, n);
    for (size_t i = 0; i < n; i++) {
        FE zi = out[i].x, t;
        FEF(mul)(&t, &in[i].zz, &zi);
        FEF(sqr)(&t, &t);
        FEF(mul)(&out[i].x, &in[i].x, &t);
        FEF(mul)(&out[i].y, &in[i].y, &zi);
    }
}

/* ---- scalar multiplication ---- */

#define WNAF_W 5
#define WNAF_MAX_LIMBS 8 /* longer scalars are split (see mul_var) */

/*
 * Width-w NAF of k (k_len <= WNAF_MAX_LIMBS): d[i] in {0, +-1, +-3, ..,
 * +-(2^(w-1) - 1)}, k = sum d[i] 2^i, at most one nonzero digit in any w
 * consecutive ones. Returns the number of digits (0 for k = 0).
 */
static size_t FN(wnaf_)(int8_t *d, const uint64_t *k, size_t k_len)
{
    uint64_t t[WNAF_MAX_LIMBS + 1] = {0};
    memcpy(t, k, k_len * sizeof *k);
    size_t len = k_len + 1, n = 0, top = 0;
    for (;;) {
        uint64_t any = 0;
        for (size_t i = 0; i < len; i++)
            any |= t[i];
        if (!any)
            break;
        int digit = 0;
        if (t[0] & 1) {
            digit = (int)(t[0] & ((1u << WNAF_W) - 1));
            if (digit >= 1 << (WNAF_W - 1))
                digit -= 1 << WNAF_W;
            if (digit > 0) {
                t[0] -= (uint64_t)digit; /* only clears low bits: no borrow */
            } else {
                uint64_t c = (uint64_t)-digit;
                for (size_t i = 0; i < len && c; i++) {
                    t[i] += c;
                    c = t[i] < c;
                }
            }
            top = n;
        }
        d[n++] = (int8_t)digit;
        for (size_t i = 0; i < len; i++) /* t >>= 1 */
            t[i] = (t[i] >> 1) | (i + 1 < len ? t[i + 1] << 63 : 0);
    }
    return n ? top + 1 : 0;
}

static void FN(mul_wnaf_)(JAC *r, const JAC *p, const uint64_t *k, size_t k_len)
{
    int8_t d[64 * WNAF_MAX_LIMBS + 1];
    size_t n = FN(wnaf_)(d, k, k_len);
    if (n == 0) {
        FN(jac_set_inf)(r);
        return;
    }
    JAC tab[1 << (WNAF_W - 2)], p2, acc, t; /* tab[i] = (2i + 1) p */
    tab[0] = *p;
    FN(jac_dbl)(&p2, p);
    for (size_t i = 1; i < sizeof tab / sizeof tab[0]; i++)
        FN(jac_add_var)(&tab[i], &tab[i - 1], &p2);
    acc = tab[(d[n - 1] - 1) / 2]; /* the top digit is positive */
    for (size_t i = n - 1; i-- > 0;) {
        FN(jac_dbl)(&acc, &acc);
        if (d[i] > 0) {
            FN(jac_add_var)(&acc, &acc, &tab[d[i] / 2]);
        } else if (d[i] < 0) {
            FN(jac_neg)(&t, &tab[-d[i] / 2]);
            FN(jac_add_var)(&acc, &acc, &t);
        }
    }
    *r = acc;
}

void FN(mul_var)(JAC *r, const JAC *p, const uint64_t *k, size_t k_len)
{
    while (k_len > 0 && k[k_len - 1] == 0)
        k_len--;
    if (k_len <= WNAF_MAX_LIMBS) {
        FN(mul_wnaf_)(r, p, k, k_len);
        return;
    }
    /* [k]p = [2^(64 M)]([k_hi]p) + [k_lo]p with M = WNAF_MAX_LIMBS. */
    JAC hi, lo;
    FN(mul_var)(&hi, p, k + WNAF_MAX_LIMBS, k_len - WNAF_MAX_LIMBS);
    for (int i = 0; i < 64 * WNAF_MAX_LIMBS; i++)
        FN(jac_dbl)(&hi, &hi);
    FN(mul_wnaf_)(&lo, p, k, WNAF_MAX_LIMBS);
    FN(jac_add_var)(r, &hi, &lo);
}

void FN(mul)(JAC *r, const JAC *p, const sp_fr *k)
{
    uint64_t e[SP_FR_LIMBS];
    sp_fr_to_canonical(e, k);
    JAC tab[16], acc, sel; /* tab[i] = [i]p */
    FN(jac_set_inf)(&tab[0]);
    tab[1] = *p;
    for (int i = 2; i < 16; i++) {
        if (i & 1)
            FN(jac_add)(&tab[i], &tab[i - 1], p);
        else
            FN(jac_dbl)(&tab[i], &tab[i / 2]);
    }
    FN(jac_set_inf)(&acc);
    for (int w = 16 * SP_FR_LIMBS - 1; w >= 0; w--) { /* 4-bit windows, top first */
        for (int j = 0; j < 4; j++)
            FN(jac_dbl)(&acc, &acc);
        unsigned nib = (unsigned)(e[w / 16] >> (4 * (w % 16))) & 15;
        FN(jac_set_inf)(&sel);
        for (unsigned j = 1; j < 16; j++) /* scan the whole table: constant time */
            FN(jac_cmov)(&sel, &tab[j], (int)(((j ^ nib) - 1) >> 31));
        FN(jac_add)(&acc, &acc, &sel);
    }
    *r = acc;
}

/* ---- subgroup ---- */

#if !SP_CURVE_BN254
/* r = [z]p for the BLS parameter z = -x (sparse: 63 doublings and 5
 * additions). Variable time; z is public and so are the points it is used
 * on. (inline: only g1 uses it, and an unused static would be warned about.) */
static inline void FN(mul_by_z_)(JAC *r, const JAC *p)
{
    JAC acc = *p;
    for (int i = 62; i >= 0; i--) {
        FN(jac_dbl)(&acc, &acc);
        if ((SP_BLS_Z >> i) & 1)
            FN(jac_add_var)(&acc, &acc, p);
    }
    *r = acc;
}

/* The same from an affine p: the additions are mixed ones (7M + 4S
 * instead of 11M + 5S). */
static void FN(mul_by_z_affine_)(JAC *r, const AFF *p)
{
    JAC acc;
    FN(jac_from_affine)(&acc, p);
    for (int i = 62; i >= 0; i--) {
        FN(jac_dbl)(&acc, &acc);
        if ((SP_BLS_Z >> i) & 1)
            FN(jac_add_affine_var)(&acc, &acc, p);
    }
    *r = acc;
}

#endif

int FN(in_subgroup_slow)(const AFF *p)
{
    JAC t;
    FN(jac_from_affine)(&t, p);
    FN(mul_var)(&t, &t, SP_FR_MODULUS, SP_FR_LIMBS);
    return FN(jac_is_inf)(&t);
}

#undef WNAF_W
#undef WNAF_MAX_LIMBS
