/*
 * The IFMA flush of one group, included by affine_ifma.c with:
 *   AI_FN     the function's name        AI_AFF  the affine point type
 *   VT, ST    the eight-lane and the scalar field type
 *   V_(op)    the eight-lane field ops (fpv_mul ...)
 *   L_(op)    load, store, blend, to_lanes, from_lanes (affine_ifma.c)
 *   S_(op)    the scalar field ops (sp_fp_mul ...)
 * Contract in msm_internal.h.
 */
SP_IFMA void AI_FN(AI_AFF *ab, const uint32_t *qb, const AI_AFF *const *qp, const uint8_t *qn, size_t nq,
                   void *scratch)
{
    enum { Y = sizeof(ST) }; /* byte offset of y in a point */
    size_t ng = (nq + 7) / 8;
    VT *vt = scratch, *vd = vt + ng; /* per group: the lane's running product before it, dx */
    VT acc, x1, x2, y1, y2, t, lam, x3, dp, dm;
    __m512i ba, pa;
    __mmask8 live;
    L_(load)(&acc, _mm512_setzero_si512(), 0, 1, 0); /* 1 in every lane */
    for (size_t g = 0; g < ng; g++) {
        group_addr(&ba, &pa, &live, (const char *)ab, sizeof *ab, qb, (const void *const *)qp, nq, g);
        L_(load)(&x1, ba, live, 0, 0);
        L_(load)(&x2, pa, live, 1, 0);
        V_(sub)(&vd[g], &x2, &x1);
        vt[g] = acc;
        V_(mul)(&acc, &acc, &vd[g]);
    }
    /* 1 / acc lane by lane: one scalar inversion of the product of all eight */
    ST tot[8], pre[9], inv;
    L_(to_lanes)(tot, &acc);
    S_(set_one)(&pre[0]);
    for (int k = 0; k < 8; k++)
        S_(mul)(&pre[k + 1], &pre[k], &tot[k]);
    S_(inv)(&inv, &pre[8]);
    for (int k = 8; k-- > 0;) {
        S_(mul)(&pre[k], &pre[k], &inv); /* 1 / tot[k] */
        S_(mul)(&inv, &inv, &tot[k]);
    }
    L_(from_lanes)(&acc, pre);
    for (size_t g = ng; g-- > 0;) {
        group_addr(&ba, &pa, &live, (const char *)ab, sizeof *ab, qb, (const void *const *)qp, nq, g);
        V_(mul)(&t, &acc, &vt[g]); /* 1/dx */
        V_(mul)(&acc, &acc, &vd[g]);
        L_(load)(&x1, ba, live, 0, 0);
        L_(load)(&y1, ba, live, 0, Y);
        L_(load)(&x2, pa, live, 1, 0);
        L_(load)(&y2, pa, live, 0, Y);
        __mmask8 neg = group_neg(qn, nq, g);
        /* a negated point: mu = (y2 + y1) / dx, y3 = mu (x3 - x1) - y1 */
        V_(add)(&dp, &y2, &y1);
        V_(sub)(&dm, &y2, &y1);
        L_(blend)(&lam, neg, &dm, &dp);
        V_(mul)(&lam, &lam, &t);
        V_(mul)(&x3, &lam, &lam);
        V_(sub)(&x3, &x3, &x1);
        V_(sub)(&x3, &x3, &x2);
        V_(sub)(&dp, &x3, &x1);
        V_(sub)(&dm, &x1, &x3);
        L_(blend)(&t, neg, &dm, &dp);
        V_(mul)(&t, &t, &lam);
        V_(sub)(&y1, &t, &y1);
        L_(store)(ba, live, &x3, 0);
        L_(store)(ba, live, &y1, Y);
    }
}

#undef AI_FN
#undef AI_AFF
#undef VT
#undef ST
#undef V_
#undef L_
#undef S_
