#!/usr/bin/env python3
"""Prints the GLV constants of src/msm/glv.c and the G1 endomorphism's beta
of src/curve/g1.c, for bls12-381 or bn254 (argument), from the curve's
parameters alone, checking each claim it prints on the curve's generator.

An endomorphism acts on G as [lam] mod r (G1: phi(x, y) = (beta x, y), a
cube root of unity; G2: psi for BN254, psi^2 for BLS12-381, acting as p and
p^2 mod r). A scalar k < r splits as k = k1 + k2 lam mod r with the short
basis v1 = (a1, b1), v2 = (a2, b2) of the lattice {(a, b): a + b lam = 0
mod r} (extended Euclid, as Gallant-Lambert-Vanstone 2001): c1 =
round(k b2 / det), c2 = round(-k b1 / det), k1 = k - c1 a1 - c2 a2, k2 =
-c1 b1 - c2 b2. glv.c computes c1, c2 as round(k g / 2^256) with g =
round(|b2 / det| 2^256) (and the same for -b1), off from the exact
quotients by less than 3/4 (k < 2^255), so |k1| <= 3/4 (|a1| + |a2|) and
|k2| <= 3/4 (|b1| + |b2|); the script checks that both bounds are below
2^128, which glv.c relies on.
"""
import math
import sys

CURVES = {
    "bn254": dict(
        p=0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,
        r=0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001,
        b=3, gen=(1, 2), x=0x44E992B44A6909F1, limbs=4),
    "bls12-381": dict(
        p=0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
        r=0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
        b=4,
        gen=(0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
             0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1),
        x=-0xD201000000010000, limbs=6),
}


def add(P, Q, p):
    if P is None:
        return Q
    if Q is None:
        return P
    if P[0] == Q[0]:
        if (P[1] + Q[1]) % p == 0:
            return None
        lam = 3 * P[0] * P[0] * pow(2 * P[1], -1, p) % p
    else:
        lam = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
    x = (lam * lam - P[0] - Q[0]) % p
    return (x, (lam * (P[0] - x) - P[1]) % p)


def mul(P, k, p):
    R = None
    while k:
        if k & 1:
            R = add(R, P, p)
        P = add(P, P, p)
        k >>= 1
    return R


def short_basis(r, lam):
    """Two short vectors (a, b) with a + b lam = 0 mod r."""
    rows = [(r, 0), (lam % r, 1)]  # (s, t): s = t lam mod r
    while rows[-1][0] >= math.isqrt(r):
        (s0, t0), (s1, t1) = rows[-2], rows[-1]
        q = s0 // s1
        rows.append((s0 - q * s1, t0 - q * t1))
    (s0, t0), (s1, t1) = rows[-2], rows[-1]
    q = s0 // s1
    nxt = (s0 - q * s1, t0 - q * t1)
    v1 = (s1, -t1)
    v2 = min([(s0, -t0), (nxt[0], -nxt[1])], key=lambda v: v[0] ** 2 + v[1] ** 2)
    return v1, v2


def limbs(v, n):
    return ", ".join("0x%016xULL" % ((v >> (64 * i)) & (2**64 - 1)) for i in range(n))


def emit(name, r, lam):
    (a1, b1), (a2, b2) = short_basis(r, lam)
    assert (a1 + b1 * lam) % r == 0 and (a2 + b2 * lam) % r == 0
    det = a1 * b2 - a2 * b1
    assert abs(det) == r
    g1 = (abs(b2) * 2**256 * 2 + r) // (2 * r)  # round(|b2 / det| 2^256)
    g2 = (abs(b1) * 2**256 * 2 + r) // (2 * r)
    s1 = (b2 * det < 0)  # sign of b2 / det
    s2 = (-b1 * det < 0)  # sign of -b1 / det
    assert max(g1, g2) < 2**192
    assert 3 * (abs(a1) + abs(a2)) < 4 * 2**128 and 3 * (abs(b1) + abs(b2)) < 4 * 2**128
    print("/* %s: lambda = 0x%x */" % (name, lam))
    print("{{%s},\n {%s},\n {%s}, %d, %d," % (limbs(lam, 4), limbs(g1, 3), limbs(g2, 3), s1, s2))
    for v in (a1, b1, a2, b2):
        print(" {{%s}, %d}," % (limbs(abs(v), 2), v < 0))
    print("}")


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "bls12-381"
    c = CURVES[name]
    p, r, x = c["p"], c["r"], c["x"]
    gen = c["gen"]
    assert (gen[1] ** 2 - gen[0] ** 3 - c["b"]) % p == 0
    if name == "bls12-381":
        # g1.c's sigma: beta of the subgroup test, acting as -z^2 = -x^2
        lam_g1 = (-x * x) % r
        lam_g2 = (x * x) % r  # psi^2 = [p^2] = [x^2]
    else:
        lam_g2 = p % r  # psi = [p] = [6x^2]
        assert lam_g2 == 6 * x * x
        lam_g1 = None
    # beta: the cube root of unity in Fp with phi = [lam_g1] on G1
    found = None
    for h in range(2, 50):
        beta = pow(h, (p - 1) // 3, p)
        if beta == 1:
            continue
        for bb in (beta, beta * beta % p):
            img = (bb * gen[0] % p, gen[1])
            for lam in ([lam_g1] if lam_g1 else [pow(g, (r - 1) // 3, r) for g in range(2, 20)]):
                if lam != 1 and mul(gen, lam, p) == img:
                    found = (bb, lam)
                    break
            if found:
                break
        if found:
            break
    beta, lam_g1 = found
    R = 2 ** (64 * c["limbs"])
    print("/* %s G1 beta (Montgomery form), phi(x, y) = (beta x, y) acts as [lambda_g1] */" % name)
    print("{{%s}}" % limbs(beta * R % p, c["limbs"]))
    emit(name + " G1", r, lam_g1)
    emit(name + " G2", r, lam_g2)


main()
