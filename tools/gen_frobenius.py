#!/usr/bin/env python3
"""Derives the constants of the extension tower and of the curves that
src/field/ and src/curve/ hard-code, with plain Python big integers, and
prints them as C initialisers in Montgomery form (R = 2^(64 n), the layout
of sp_fp), for the curve given on the command line.

Tower: Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v),
with xi = 1 + u (BLS12-381) or 9 + u (BN254).  Since v^3 = xi and w^6 = xi:
  v^(p^k) = v * xi^((p^k - 1)/3)        (Fp6 Frobenius, coefficient of v)
  (v^2)^(p^k) = v^2 * xi^(2(p^k - 1)/3) (coefficient of v^2)
  w^(p^k) = w * xi^((p^k - 1)/6)        (Fp12 Frobenius, coefficient of w)
for k = 1, 2, 3.  tests/test_tower.c checks the C code built from these
against plain exponentiation by p, p^2, p^3.

The curve part (--curve bn254 only; the BLS12-381 values were written
before this tool printed them and are checked by the tests the same way):
the field constants of src/field/consts_bn254.h, b and the generators of
G1 and G2 (D-type twist y^2 = x^3 + b/xi), the coefficients of the
endomorphism psi (untwist-Frobenius-twist) and the signed digits of the
Miller loop's 6x+2.

Usage: python3 tools/gen_frobenius.py [bls12-381|bn254]   (default bls12-381)
"""
import sys

CURVES = {
    "bls12-381": {
        "p": 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
        "limbs": 6,
        "xi": (1, 1),
    },
    "bn254": {
        "p": 21888242871839275222246405745257275088696311157297823662689037894645226208583,
        "r": 21888242871839275222246405745257275088548364400416034343698204186575808495617,
        "x": 4965661367192848881,
        "limbs": 4,
        "xi": (9, 1),
        "b": 3,
        # EIP-197's G2 generator: (x.c0 + x.c1 u, y.c0 + y.c1 u)
        "g1": (1, 2),
        "g2": ((10857046999023057135944570762232829481370756359578518086990519993285655852781,
                11559732032986387107991004021392285783925812861821192530917403151452391805634),
               (8495653923123431417604973247489272438418190587263600148770280649306958101930,
                4082367875863433681332203403145435568316851327593401208105741076214120093531)),
    },
}

P = 0
N = 0


def f2_add(a, b):
    return ((a[0] + b[0]) % P, (a[1] + b[1]) % P)


def f2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)


def f2_inv(a):
    n = pow(a[0] * a[0] + a[1] * a[1], -1, P)
    return (a[0] * n % P, -a[1] * n % P)


def f2_pow(a, e):
    acc = (1, 0)
    while e:
        if e & 1:
            acc = f2_mul(acc, a)
        a = f2_mul(a, a)
        e >>= 1
    return acc


def limbs(x, mont=True, n=None):
    n = n or N
    m = (x << (64 * N)) % P if mont else x
    return ", ".join("0x%016xULL" % ((m >> (64 * i)) & (2**64 - 1)) for i in range(n))


def c_fp2(name, a):
    return "    /* %s */\n    {{{%s}},\n     {{%s}}}," % (name, limbs(a[0]), limbs(a[1]))


def naf(k):
    d = []
    while k:
        z = (2 - k % 4) if k & 1 else 0
        d.append(z)
        k = (k - z) // 2
    return d


def tower(xi):
    print("/* fp6.c: FROB6_V[k-1] = xi^((p^k-1)/3), FROB6_V2[k-1] = xi^(2(p^k-1)/3) */")
    for tag, mult in (("FROB6_V", 1), ("FROB6_V2", 2)):
        print("static const sp_fp2 %s[3] = {" % tag)
        for k in (1, 2, 3):
            q = P**k
            assert (q - 1) % 3 == 0
            print(c_fp2("k = %d" % k, f2_pow(xi, mult * (q - 1) // 3)))
        print("};")
    print("/* fp12.c: FROB12_W[k-1] = xi^((p^k-1)/6) */")
    print("static const sp_fp2 FROB12_W[3] = {")
    for k in (1, 2, 3):
        q = P**k
        assert (q - 1) % 6 == 0
        print(c_fp2("k = %d" % k, f2_pow(xi, (q - 1) // 6)))
    print("};")


def bn254(c, xi):
    r, x = c["r"], c["x"]
    assert P == 36 * x**4 + 36 * x**3 + 24 * x**2 + 6 * x + 1
    assert r == 36 * x**4 + 36 * x**3 + 18 * x**2 + 6 * x + 1
    R = 1 << 256
    print("/* consts_bn254.h */")
    for name, m in (("FP", P), ("FR", r)):
        print("%s modulus {%s}" % (name, limbs(m, False)))
        print("%s R mod m {%s}" % (name, limbs(R % m, False)))
        print("%s R^2 mod m {%s}" % (name, limbs(R * R % m, False)))
        print("%s n0 0x%016xULL" % (name, (-pow(m, -1, 2**64)) % 2**64))
    b = c["b"]
    b2 = f2_mul((b, 0), f2_inv(xi))
    (gx, gy), (hx, hy) = c["g1"], c["g2"]
    assert (gy * gy - gx**3 - b) % P == 0
    assert f2_mul(hy, hy) == f2_add(f2_mul(f2_mul(hx, hx), hx), b2)
    print("/* g1.c: b = %d and the generator (%d, %d) */" % (b, gx, gy))
    print("CURVE_B {{%s}}" % limbs(b))
    print("GEN_X {{%s}}" % limbs(gx))
    print("GEN_Y {{%s}}" % limbs(gy))
    print("/* g2.c: b' = b / xi = %d + %d u and the generator */" % b2)
    print("CURVE_B {{{%s}}, {{%s}}}" % (limbs(b2[0]), limbs(b2[1])))
    for name, v in (("GEN_X", hx), ("GEN_Y", hy)):
        print("%s {{{%s}}, {{%s}}}" % (name, limbs(v[0]), limbs(v[1])))
    # psi(x, y) = (conj(x) cx, conj(y) cy) on the D-type twist: the untwist
    # (x, y) -> (x w^2, y w^3), then Frobenius, then back: w^(2p) = w^2 xi^((p-1)/3),
    # w^(3p) = w^3 xi^((p-1)/2).
    tb = f2_mul((3, 0), b2)
    print("/* pairing.c: 3 b' = 9 / xi */")
    print("THREE_B_TWIST {{{%s}}, {{%s}}}" % (limbs(tb[0]), limbs(tb[1])))
    print("/* g2.c: psi coefficients cx = xi^((p-1)/3), cy = xi^((p-1)/2) */")
    for name, e in (("PSI_CX", (P - 1) // 3), ("PSI_CY", (P - 1) // 2)):
        v = f2_pow(xi, e)
        print("%s {{{%s}}, {{%s}}}" % (name, limbs(v[0]), limbs(v[1])))
    print("/* the G2 cofactor h2 = 2p - r and 6x^2 (psi acts as [6x^2] on G2) */")
    print("H2 %d" % (2 * P - r))
    print("SIX_X2 {%s}" % limbs(6 * x * x, False, 2))
    d = naf(6 * x + 2)
    print("/* pairing.c: NAF of 6x+2 = %d, %d digits, %d nonzero, most significant first */"
          % (6 * x + 2, len(d), sum(1 for z in d if z)))
    print("{" + ", ".join(str(z) for z in reversed(d)) + "}")


def main():
    global P, N
    name = sys.argv[1] if len(sys.argv) > 1 else "bls12-381"
    if name not in CURVES:
        sys.exit("usage: gen_frobenius.py [bls12-381|bn254]")
    c = CURVES[name]
    P, N = c["p"], c["limbs"]
    assert P % 4 == 3 and P % 6 == 1
    xi = c["xi"]
    tower(xi)
    if name == "bn254":
        bn254(c, xi)


if __name__ == "__main__":
    main()
