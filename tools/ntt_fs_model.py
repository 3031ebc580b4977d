#!/usr/bin/env python3
"""Model of gpu/ntt_fs.cu's two-barrier passes (implementations 13, 15, 16)
over the small NTT field p = 7 2^26 + 1, checked against a plain radix-2
NTT, forward and inverse.

It follows the kernel's index math step by step: the gather of a block's
rows (bit-reversed in the first pass), each thread's own unit (column
factors, stages 0 and 1), stages 2..k-1 in warp-local groups with the
positions derived as ntts_rounds_warp2 derives them (asserted equal to the
direct formulas of ntts_rounds_warp), the stores. Per pass it asserts that
a thread's own unit touches only the elements it copied, that no two
threads touch one element within a stage, and that no element changes warp
between stages 2..k-1 (what makes __syncwarp enough).

A pass of k stages has blocks of 2^k rows x 2^lc columns and 2^(k+lc-2)
threads: implementation 13 runs lc = 2 always (up to 512 threads),
implementation 15 (256 threads) lc = 1 in its 9-stage passes,
implementation 16 (128 threads) lc = 1 in 8-stage and lc = 0 in 9-stage
passes. In the shared layout a block
of 2^lc columns is the 4-column layout with row j >> (2 - lc) and column
(j mod 2^(2 - lc)) 2^lc + l.

Usage: python3 tools/ntt_fs_model.py   (a few minutes)
"""
import random
import sys

P = 7 * (1 << 26) + 1
G = 3


def rev(x, bits):
    return int(format(x, "0%db" % bits)[::-1], 2) if bits else 0


def passes(log_n, most=9):
    np_ = (log_n + most - 1) // most
    return [log_n // np_ + (1 if i < log_n % np_ else 0) for i in range(np_)]


def at4(j, l):
    """ntts_at: row j, column l < 4 of the 4-column layout."""
    f = j ^ (j >> 2) ^ (j >> 4) ^ (j >> 6) ^ (j >> 8)
    return (j << 2) | (l ^ (f & 3))


def at(j, l, lc):
    d = 2 - lc
    return at4(j >> d, ((j & ((1 << d) - 1)) << lc) | l)


def tw_at(i):
    return at4(i >> 2, i & 3)


def reference(a, log_n, inverse):
    n = 1 << log_n
    w = pow(G, (P - 1) >> log_n, P)
    if inverse:
        w = pow(w, P - 2, P)
    x = [a[rev(i, log_n)] for i in range(n)]
    m = 1
    while m < n:
        wm = pow(w, n // (2 * m), P)
        for s in range(0, n, 2 * m):
            wk = 1
            for r in range(m):
                t = x[s + r + m] * wk % P
                x[s + r + m] = (x[s + r] - t) % P
                x[s + r] = (x[s + r] + t) % P
                wk = wk * wm % P
        m *= 2
    if inverse:
        ni = pow(n, P - 2, P)
        x = [v * ni % P for v in x]
    return x


class Pass:
    """One block of one pass, thread by thread."""

    def __init__(self, s, sw, lc, k, nthr):
        self.s, self.sw, self.lc, self.k, self.nthr = s, sw, lc, k, nthr
        self.owner = {}  # element slot -> the thread that copied it

    def pair(self, tid, p0, p1, w, touched):
        for p in (p0, p1):
            assert p not in touched, ("two threads on one slot", p)
            touched[p] = tid
        s = self.s
        t = s[p1] * w % P if w is not None else s[p1]
        s[p0], s[p1] = (s[p0] + t) % P, (s[p0] - t) % P


def run(a, log_n, inverse, thr, lc_rule, most, stats):
    n = 1 << log_n
    w = pow(G, (P - 1) >> log_n, P)
    if inverse:
        w = pow(w, P - 2, P)
    tw = [pow(w, j, P) for j in range(n // 2)]
    ks = passes(log_n, most)
    assert len(ks) >= 2
    bits1 = ks[0] + ks[1]
    ni = pow(n, P - 2, P) if inverse else 1
    tab1 = [tw[i << (log_n - bits1)] * ni % P for i in range(1 << (bits1 - 1))]
    src, tmp = a, [None] * n
    s0 = 0
    for pi, k in enumerate(ks):
        lc = lc_rule(k)
        C = 1 << lc
        nthr = 1 << (k + lc - 2)
        assert k >= 4 and nthr <= thr
        first = pi == 0
        lh = log_n - k
        stab = tab1 if pi == 1 else tw
        bits = s0 + k if pi == 1 else log_n
        sh = 0 if pi == 1 else log_n - s0 - k
        inp = a if first else tmp
        out = [None] * n
        for blk in range(n >> (k + lc)):
            if first:
                g0, col0, high = blk << lc, 0, 0
            else:
                lhigh = log_n - s0 - k
                high = blk & ((1 << lhigh) - 1)
                col0 = (blk >> lhigh) << lc
                g0 = 0

            def gaddr(j, l):
                if first:
                    return (rev(j, k) << lh) | (g0 + l)
                return (col0 + l) | (j << s0) | (high << (s0 + k))

            s = [None] * (1 << (k + lc))
            sw = [None] * (1 << (k - 1))
            ps = Pass(s, sw, lc, k, nthr)
            for tid in range(nthr):  # the gather: each thread its own unit
                for m in range(4):
                    j, l = ((tid >> lc) << 2) | m, tid & (C - 1)
                    p = at(j, l, lc)
                    assert s[p] is None
                    s[p] = inp[gaddr(j, l)]
                    ps.owner[p] = tid
            for i in range(1 << (k - 1)):
                sw[tw_at(i)] = tw[i << lh]
            assert None not in s and None not in sw
            for tid in range(nthr):  # own unit, no barrier before
                l, j0 = tid & (C - 1), (tid >> lc) << 2
                pos = [at(j0 + m, l, lc) for m in range(4)]
                assert all(ps.owner[p] == tid for p in pos)
                if not first:
                    for m in range(4):
                        ex = ((col0 + l) * rev(j0 + m, k)) << sh
                        f = stab[ex & ((1 << (bits - 1)) - 1)]
                        if (ex >> (bits - 1)) & 1:
                            f = P - f
                        s[pos[m]] = s[pos[m]] * f % P
                        stats["products"] += 1
                own = {}
                ps.pair(tid, pos[0], pos[1], None, own)
                own = {}
                ps.pair(tid, pos[2], pos[3], None, own)
                own = {}
                ps.pair(tid, pos[0], pos[2], None, own)
                own = {}
                ps.pair(tid, pos[1], pos[3], tw[1 << (k - 2 + lh)], own)
                stats["products"] += 1
            # barrier; stages 2..k-1 in warp groups
            lg = k - 4
            D = 2 - lc
            warp_of = {}
            for q in range(2, k):
                t = q - 2
                tm = (1 << t) - 1
                touched = {}
                slot_busy = {}  # per warp: product slots used this stage
                for tid in range(nthr):
                    grp, i = tid >> lg, tid & ((1 << lg) - 1)
                    l, lo = grp & (C - 1), grp >> lc
                    b = 2 * i
                    m0 = ((b >> t) << (t + 1)) | (b & tm)
                    j = lo | (m0 << 2)
                    pa = at(j, l, lc)
                    Pq = q - D
                    pb = (pa + (1 << (Pq + 2))) ^ (1 << (Pq & 1))
                    e = (lo | ((b & tm) << 2)) << (k - 1 - q)
                    pe = tw_at(e)
                    pp = k + 1 - q
                    pe2 = (pe + (1 << pp)) ^ (1 << (pp & 1)) if t else pe
                    Pd = (2 if t else 3) - D
                    d, x = 1 << (Pd + 2), 1 << (Pd & 1)
                    derived = [(pa, pb, pe, e == 0),
                               ((pa + d) ^ x, (pb + d) ^ x, pe2, t == 0 and e == 0)]
                    for h in range(2):  # the direct formulas (ntts_rounds_warp)
                        bb = b + h
                        mm = ((bb >> t) << (t + 1)) | (bb & tm)
                        jj = lo | (mm << 2)
                        ee = (lo | ((bb & tm) << 2)) << (k - 1 - q)
                        direct = (at(jj, l, lc), at(jj + (1 << q), l, lc), tw_at(ee), ee == 0)
                        dd = derived[h]
                        assert dd[:2] == direct[:2] and dd[3] == direct[3], (k, lc, q, tid, h)
                        assert dd[3] or dd[2] == direct[2], (k, lc, q, tid, h)
                    for h, (p0, p1, pw, triv) in enumerate(derived):
                        for p in (p0, p1):
                            wp = warp_of.setdefault(p, tid >> 5)
                            assert wp == tid >> 5, ("slot changes warp", k, lc, q, p)
                        ps.pair(tid, p0, p1, None if triv else sw[pw], touched)
                        if not triv:
                            slot_busy[(tid >> 5, h)] = 1
                            stats["products"] += 1
                stats["slots"] += 32 * len(slot_busy)
            # barrier; stores
            for e in range(1 << (k + lc)):
                if first:
                    j, l = e & ((1 << k) - 1), e >> k
                    g = j | (rev(g0 + l, lh) << k)
                else:
                    j, l = e >> lc, e & (C - 1)
                    g = gaddr(j, l)
                assert out[g] is None
                out[g] = s[at(j, l, lc)]
        assert None not in out
        if pi + 1 == len(ks):
            a = out
        else:
            tmp = out
        s0 += k
    return a


def main():
    seed = random.randrange(1 << 32)
    print("seed", seed)
    rnd = random.Random(seed)
    def cols(lt):  # ntts_log_cols for THR = 2^lt
        return lambda k: 2 if k <= lt else lt + 2 - k
    impls = {  # name: (THR, log2 columns of a k-stage pass, most stages)
        13: (512, cols(9), 9),
        15: (256, cols(8), 9),
        16: (128, cols(7), 9),
        # smaller blocks and passes (the split's most stages), so that
        # three passes exercise every block shape, the compact factor table
        # (second pass) and the domain's (third) with 1 and 2 columns
        "15 at 32 threads": (32, cols(5), 6),
        "15 at 64 threads": (64, cols(6), 7),
        "16 at 32 threads": (32, cols(5), 7),
    }
    sizes = {13: [12, 17], 15: [12, 16, 17, 18], 16: [12, 16, 17, 18],
             "15 at 32 threads": [12, 16, 17, 18], "15 at 64 threads": [14, 19],
             "16 at 32 threads": [13, 17, 19]}
    for name, (thr, rule, most) in impls.items():
        for log_n in sizes[name]:
            ks = passes(log_n, most)
            assert all((1 << (k + rule(k) - 2)) <= thr for k in ks), (name, ks)
            n = 1 << log_n
            a = [rnd.randrange(P) for _ in range(n)]
            stats = {"products": 0, "slots": 0}
            fwd = run(a, log_n, False, thr, rule, most, stats)
            assert fwd == reference(a, log_n, False), (name, log_n, "forward")
            inv = run(fwd, log_n, True, thr, rule, most, stats)
            assert inv == a, (name, log_n, "inverse")
            print("ok %-17s 2^%d passes %s lc %s (stages 2..k-1: %d lane slots)"
                  % (name, log_n, ks, [rule(k) for k in ks], stats["slots"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
