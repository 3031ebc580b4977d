/*
 * The curve of this build and the Montgomery constants of its two prime
 * fields. One curve per build of the tree (ARCHITECTURE.md, "Curves"):
 * `make CURVE=bn254` compiles everything with SP_CURVE_BN254=1, the default
 * is BLS12-381. The values live in one header per curve; every header
 * defines the same names:
 *
 *   SP_CURVE_NAME        "bls12-381" or "bn254" (messages, file checks)
 *   SP_CURVE_SNARKJS     the curve's name in snarkjs files ("bls12381", "bn128")
 *   SP_CURVE_NS          the CUDA backend's C++ namespace (sp_bls12_381,
 *                        sp_bn254): the two curves' kernels, template
 *                        instantiations and C++ functions keep apart in one
 *                        program (ARCHITECTURE.md, "Curves")
 *   SP_FP_LIMBS, SP_FP_BYTES, SP_FP_DEC_MAX     Fp: 64-bit limbs, bytes,
 *                        decimal buffer size (digits + NUL, rounded up)
 *   SP_FR_LIMBS, SP_FR_BYTES, SP_FR_DEC_MAX     the same for Fr
 *   SP_FP_MODULUS_INIT, SP_FP_MONT_ONE_INIT (R mod p), SP_FP_MONT_R2_INIT
 *                        (R^2 mod p): initialisers of little-endian uint64_t
 *                        limb arrays, R = 2^(64 SP_FP_LIMBS)
 *   SP_FP_N0             -p^-1 mod 2^64 (its low 32 bits are -p^-1 mod 2^32)
 *   SP_FR_MODULUS_INIT, SP_FR_MONT_ONE_INIT, SP_FR_MONT_R2_INIT, SP_FR_N0
 *                        the same for Fr, R = 2^(64 SP_FR_LIMBS)
 *
 * Both moduli of both curves leave the top bit of their top limb clear,
 * which the Montgomery code relies on (mont.h, fp_x86.c).
 *
 * One source for every backend: the CPU fields (fp.c, fr.c through
 * field_tmpl.h, fp_x86.c) and the CUDA backend (gpu/field/field.cuh), which
 * reads each 64-bit limb as two 32-bit words, low word first. Plain macros
 * so that both C11 and CUDA C++ can use them in constant expressions.
 * tools/gen_frobenius.py prints the values from the curve parameters.
 */
#ifndef SP_FIELD_CONSTS_H
#define SP_FIELD_CONSTS_H

#if SP_CURVE_BN254
#include "field/consts_bn254.h"
#else
#include "field/consts_bls12_381.h"
#endif

#endif
