/*
 * Device group law for y^2 = x^3 + b (a = 0) over F = fp_t (G1) or
 * fp2_t (G2), in XYZZ coordinates: x = X/ZZ, y = Y/ZZZ, infinity has
 * ZZ = 0. Formulas from the Explicit-Formulas Database (hyperelliptic.org
 * /EFD, g1p/auto-shortw-xyzz), named at each function. The layouts match
 * sp_g1_xyzz / sp_g1_affine (and the g2 ones) byte for byte.
 *
 * These branch on infinity, P == Q and P == -Q: public data only (MSM).
 */
#ifndef SP_GPU_CURVE_CUH
#define SP_GPU_CURVE_CUH

#include "gpu/field/field.cuh"

namespace SP_CURVE_NS {

template <class F> struct affine_t { F x, y; };
template <class F> struct xyzz_t { F x, y, zz, zzz; };

template <class F>
static __device__ __forceinline__ bool aff_is_inf(const affine_t<F> &p)
{
    return f_is_zero(p.x) && f_is_zero(p.y);
}

template <class F>
static __device__ __forceinline__ void xyzz_set_inf(xyzz_t<F> &r)
{
    f_set_zero(r.x);
    f_set_one(r.y);
    f_set_zero(r.zz);
    f_set_zero(r.zzz);
}

template <class F>
static __device__ __forceinline__ bool xyzz_is_inf(const xyzz_t<F> &p) { return f_is_zero(p.zz); }

/* r = 2p for affine p (not infinity): "mdbl-2008-s-1". */
template <class F>
static __device__ __noinline__ void xyzz_dbl_affine(xyzz_t<F> &r, const affine_t<F> &p)
{
    F u, v, w, s, m, t;
    f_add(u, p.y, p.y);  /* U = 2Y */
    f_sqr(v, u);         /* V = U^2 */
    f_mul(w, u, v);      /* W = U V */
    f_mul(s, p.x, v);    /* S = X V */
    f_sqr(m, p.x);
    f_add(t, m, m);
    f_add(m, t, m);      /* M = 3 X^2 */
    f_sqr(t, m);
    f_sub(t, t, s);
    f_sub(r.x, t, s);    /* X3 = M^2 - 2S */
    f_sub(t, s, r.x);
    f_mul(t, m, t);
    f_mul(u, w, p.y);
    f_sub(r.y, t, u);    /* Y3 = M (S - X3) - W Y */
    r.zz = v;
    r.zzz = w;
}

/* r = 2p: "dbl-2008-s-1". Infinity maps to infinity. */
template <class F>
static __device__ __noinline__ void xyzz_dbl(xyzz_t<F> &r, const xyzz_t<F> &p)
{
    F u, v, w, s, m, t;
    f_add(u, p.y, p.y);
    f_sqr(v, u);
    f_mul(w, u, v);
    f_mul(s, p.x, v);
    f_sqr(m, p.x);
    f_add(t, m, m);
    f_add(m, t, m);
    f_sqr(t, m);
    f_sub(t, t, s);
    F x3;
    f_sub(x3, t, s);
    f_sub(t, s, x3);
    f_mul(t, m, t);
    f_mul(u, w, p.y);
    f_sub(r.y, t, u);
    f_mul(r.zz, v, p.zz);
    f_mul(r.zzz, w, p.zzz);
    r.x = x3;
}

/* acc += q for affine q (q not infinity): "madd-2008-s", 8M + 2S. */
template <class F>
static __device__ __forceinline__ void xyzz_add_affine(xyzz_t<F> &acc, const affine_t<F> &q)
{
    if (xyzz_is_inf(acc)) {
        acc.x = q.x;
        acc.y = q.y;
        f_set_one(acc.zz);
        f_set_one(acc.zzz);
        return;
    }
    F p, r, pp, ppp, t;
    f_mul(p, q.x, acc.zz);
    f_sub(p, p, acc.x);   /* P = X2 ZZ1 - X1 */
    f_mul(r, q.y, acc.zzz);
    f_sub(r, r, acc.y);   /* R = Y2 ZZZ1 - Y1 */
    if (f_is_zero(p)) {
        if (f_is_zero(r))
            xyzz_dbl_affine(acc, q);
        else
            xyzz_set_inf(acc);
        return;
    }
    f_sqr(pp, p);
    f_mul(ppp, p, pp);
    f_mul(acc.zz, acc.zz, pp);
    f_mul(acc.zzz, acc.zzz, ppp);
    f_mul(pp, acc.x, pp); /* Q = X1 PP */
    f_sqr(t, r);
    f_sub(t, t, ppp);
    f_sub(t, t, pp);
    f_sub(t, t, pp);      /* X3 = R^2 - PPP - 2Q */
    f_mul(ppp, acc.y, ppp);
    f_sub(pp, pp, t);
    f_mul(r, r, pp);
    f_sub(acc.y, r, ppp); /* Y3 = R (Q - X3) - Y1 PPP */
    acc.x = t;
}

/* acc += q: "add-2008-s", 12M + 2S. */
template <class F>
static __device__ __noinline__ void xyzz_add(xyzz_t<F> &acc, const xyzz_t<F> &q)
{
    if (xyzz_is_inf(q))
        return;
    if (xyzz_is_inf(acc)) {
        acc = q;
        return;
    }
    F u1, s1, p, r, pp, ppp, t;
    f_mul(u1, acc.x, q.zz);  /* U1 = X1 ZZ2 */
    f_mul(p, q.x, acc.zz);   /* U2 = X2 ZZ1 */
    f_mul(s1, acc.y, q.zzz); /* S1 = Y1 ZZZ2 */
    f_mul(r, q.y, acc.zzz);  /* S2 = Y2 ZZZ1 */
    f_sub(p, p, u1);         /* P = U2 - U1 */
    f_sub(r, r, s1);         /* R = S2 - S1 */
    if (f_is_zero(p)) {
        if (f_is_zero(r))
            xyzz_dbl(acc, acc);
        else
            xyzz_set_inf(acc);
        return;
    }
    f_sqr(pp, p);
    f_mul(ppp, p, pp);
    f_mul(acc.zz, acc.zz, q.zz);
    f_mul(acc.zz, acc.zz, pp);    /* ZZ3 = ZZ1 ZZ2 PP */
    f_mul(acc.zzz, acc.zzz, q.zzz);
    f_mul(acc.zzz, acc.zzz, ppp); /* ZZZ3 = ZZZ1 ZZZ2 PPP */
    f_mul(u1, u1, pp);            /* Q = U1 PP */
    f_sqr(t, r);
    f_sub(t, t, ppp);
    f_sub(t, t, u1);
    f_sub(t, t, u1);              /* X3 = R^2 - PPP - 2Q */
    f_mul(s1, s1, ppp);
    f_sub(u1, u1, t);
    f_mul(r, r, u1);
    f_sub(acc.y, r, s1);          /* Y3 = R (Q - X3) - S1 PPP */
    acc.x = t;
}

} // namespace SP_CURVE_NS

#endif
