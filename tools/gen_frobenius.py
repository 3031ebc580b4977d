#!/usr/bin/env python3
"""Derives the BLS12-381 tower constants used by src/field/fp6.c, fp12.c and
fp2.c, with plain Python big integers, and prints them as C initialisers in
Montgomery form (R = 2^384), the layout of sp_fp.

Tower: Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v),
xi = 1 + u.  Since v^3 = xi and w^6 = xi:
  v^(p^k) = v * xi^((p^k - 1)/3)        (Fp6 Frobenius, coefficient of v)
  (v^2)^(p^k) = v^2 * xi^(2(p^k - 1)/3) (coefficient of v^2)
  w^(p^k) = w * xi^((p^k - 1)/6)        (Fp12 Frobenius, coefficient of w)
for k = 1, 2, 3.  tests/test_tower.c checks the C code built from these
against plain exponentiation by p, p^2, p^3.

Usage: python3 tools/gen_frobenius.py   (prints the C fragments)
"""

P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
R = 1 << 384


def f2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)


def f2_pow(a, e):
    acc = (1, 0)
    while e:
        if e & 1:
            acc = f2_mul(acc, a)
        a = f2_mul(a, a)
        e >>= 1
    return acc


def limbs(x):
    m = (x * R) % P
    return ", ".join("0x%016xULL" % ((m >> (64 * i)) & (2**64 - 1)) for i in range(6))


def c_fp2(name, a):
    return "    /* %s */\n    {{{%s}},\n     {{%s}}}," % (name, limbs(a[0]), limbs(a[1]))


def c_exp(name, e, n):
    return "static const uint64_t %s[%d] = {%s};" % (
        name, n, ", ".join("0x%016xULL" % ((e >> (64 * i)) & (2**64 - 1)) for i in range(n)))


def main():
    assert P % 4 == 3 and P % 6 == 1
    xi = (1, 1)
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
    print("/* fp2.c: exponents of the square root (Adj & Rodriguez-Henriquez, Alg. 9) */")
    print(c_exp("SQRT_E1", (P - 3) // 4, 6) + " /* (p - 3) / 4 */")
    print(c_exp("SQRT_E2", (P - 1) // 2, 6) + " /* (p - 1) / 2 */")


if __name__ == "__main__":
    main()
