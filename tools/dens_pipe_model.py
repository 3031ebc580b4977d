#!/usr/bin/env python3
"""The index logic of gpu/msm_b2_kern.cuh's b2_dens_pipe (SP_BA_DENS_PIPE),
modelled step by step: two chains alternating by step, item k + 3's head,
item k + 2's records, item k + 1's x coordinates, item k's denominator.
Checks, over random item counts K (0..9), heads and both sources (round 0's
records, later rounds' points), that every item 0..K-1 takes its own
element, pair bit and x coordinates, and that no step past K counts
(the loop's last pair of steps may pass K: the first device run wrote a
slot beyond the thread's items there). Run: python3 tools/dens_pipe_model.py
"""
import random
def run(K, heads, vals, pts_mode):
    # heads[j] = (e0, two); x(e) = ('x', base index)
    A = dict(h=None,e0=0,two=0,v0=None,v1=None,x0=None,x1=None)
    B = dict(A)
    out = {}
    def step(k, C, N):
        e0k = N['e0']; cls=None; den=None
        if 0 <= k < K and N["two"]:
            den = (e0k, C['x0'], C['x1'])
        if k+1 >= 0 and k+1 < K and C['two']:
            if pts_mode: a0, a1 = C['e0'], C['e0']+1
            else: a0, a1 = C['v0'], C['v1']
            N['x0'], N['x1'] = ('x', a0), ('x', a1)
        if k+2 >= 0 and k+2 < K:
            N['e0'], N['two'] = C['h']
            if not pts_mode and N['two']:
                N['v0'], N['v1'] = vals[N['e0']], vals[N['e0']+1]
        if k+3 < K:
            N['h'] = heads[k+3]
        if 0 <= k < K:
            out[k] = (e0k, den)
    k = -3
    while k < K:
        step(k, A, B); step(k+1, B, A); k += 2
    return out
for trial in range(2000):
    K = random.randint(0, 9)
    heads = [(random.randint(0, 50)*2, random.randint(0,1)) for _ in range(K)]
    vals = list(range(1000, 1200))
    pm = random.randint(0,1)
    out = run(K, heads, vals, pm)
    for j in range(K):
        e0, two = heads[j]
        exp_den = (e0, ('x', e0 if pm else vals[e0]), ('x', e0+1 if pm else vals[e0+1])) if two else None
        assert out[j] == (e0, exp_den), (K, j, out[j], e0, exp_den)
    assert set(out) == set(range(K))
print("ok")
