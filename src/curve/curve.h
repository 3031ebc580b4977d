/*
 * G1 (over Fp) and G2 (over Fp2, the sextic M-twist) of BLS12-381.
 *
 *   G1: y^2 = x^3 + 4         G2: y^2 = x^3 + 4(1 + u)
 *
 * Coordinates:
 *   affine  (x, y); the point at infinity is (0, 0), which is not on
 *           either curve, so no flag word is needed (bases stay 96/192 bytes).
 *   jac     Jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3; infinity has Z = 0.
 *   xyzz    (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; infinity
 *           has ZZ = 0. Cheapest for accumulating many mixed additions
 *           (MSM buckets).
 *
 * All group laws here are complete over their inputs: they handle
 * infinity, P + P and P + (-P) correctly (the _var functions branch on
 * those cases). Outputs may alias inputs.
 */
#ifndef SP_CURVE_CURVE_H
#define SP_CURVE_CURVE_H

#include <stddef.h>
#include <stdint.h>
#include "field/field.h"
#include "field/fp2.h"

typedef struct { sp_fp x, y; } sp_g1_affine;
typedef struct { sp_fp x, y, z; } sp_g1_jac;
typedef struct { sp_fp x, y, zz, zzz; } sp_g1_xyzz;

typedef struct { sp_fp2 x, y; } sp_g2_affine;
typedef struct { sp_fp2 x, y, z; } sp_g2_jac;
typedef struct { sp_fp2 x, y, zz, zzz; } sp_g2_xyzz;

#endif
