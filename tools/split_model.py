#!/usr/bin/env python3
"""The index logic of the split bucket reduction (gpu/msm_kern.cuh:
msm_split_plan, msm_split_parts, msm_sum_groups over the parts,
msm_reduce_segments' weights, msm_split_join), modelled over integers: a
bucket is a number, adding is +, [k] P is k * P. For every lk (buckets a
window 2^lk), a few window counts and thread limits (the plan's 2^18,
scaled down so that every part count g occurs), checks that each window
comes out as sum_j j b_j (b_j its bucket j - 1), that every bucket is read
once by its row when its row is not 0 and once by its column when its
column is not 0 (the others weigh nothing there), and that no thread
reads outside its window. Run: python3 tools/split_model.py
"""
import random


def plan(lk, nwin, limit):
    m = (lk + 1) // 2
    g = 0
    while g < lk - m and (2 * nwin << (m + g + 1)) <= limit:
        g += 1
    return m, g


def parts(bk, lk, m, g, nwin, reads):
    K, Q, G = 1 << lk, 1 << m, 1 << g
    sh = m + g
    out = [0] * (2 * nwin * Q * G)
    for t in range(2 * nwin << sh):
        u, side, w = t & ((1 << sh) - 1), (t >> sh) & 1, t >> (sh + 1)
        base, acc = w * K, 0
        if side == 0:
            i, p = u >> g, u & (G - 1)
            h = i + 1
            if h <= K >> m:
                for k in range(Q >> g):
                    j = (h << m) + p + (k << g)
                    if j <= K:
                        assert 1 <= j <= K
                        reads[base + j - 1] += 1
                        acc += bk[base + j - 1]
        else:
            p, i = u >> m, u & (Q - 1)
            l, rows = (i + 1) & (Q - 1), 1 << (lk - m - g)
            if l:
                for k in range(rows):
                    j = ((p * rows + k) << m) + l
                    assert 1 <= j <= K
                    reads[base + j - 1] += 1
                    acc += bk[base + j - 1]
        out[(((w << 1) + side) * Q + i) * G + p] = acc
    return out


def check(lk, nwin, limit):
    K = 1 << lk
    bk = [random.randrange(1, 1 << 30) for _ in range(nwin * K)]
    m, g = plan(lk, nwin, limit)
    Q, G = 1 << m, 1 << g
    assert g <= lk - m and (K >> m) <= Q
    reads = [0] * (nwin * K)
    pt = parts(bk, lk, m, g, nwin, reads)
    hv = [sum(pt[x * G:(x + 1) * G]) for x in range(2 * nwin * Q)]  # msm_sum_groups
    # msm_reduce_segments over 2 nwin windows of Q: sum (index + 1) * point
    s2 = [sum((k + 1) * hv[v * Q + k] for k in range(Q)) for v in range(2 * nwin)]
    for w in range(nwin):
        got = (s2[2 * w] << m) + s2[2 * w + 1]  # msm_split_join
        want = sum((i + 1) * bk[w * K + i] for i in range(K))
        assert got == want, (lk, nwin, limit, w)
        for i in range(K):
            j = i + 1
            expect = (j >= Q) + (j % Q != 0)  # row h >= 1 (weight Q h), column l >= 1
            assert reads[w * K + i] == expect, (lk, nwin, i, reads[w * K + i])
    return g


def main():
    seen = set()
    for lk in range(1, 15):
        for nwin in (1, 2, 3, 11):
            for limit in (1 << 6, 1 << 9, 1 << 12, 1 << 18):
                seen.add((lk, check(lk, nwin, limit)))
    print("split model: %d (lk, g) pairs, every window equal to sum j b_j, "
          "each bucket read by its row and its column where they weigh" % len(seen))


if __name__ == "__main__":
    main()
