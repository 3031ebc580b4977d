/*
 * The two prime fields of the build's curve (field/consts.h), in Montgomery
 * form (R = 2^(64n)).
 *
 *   BLS12-381  Fp: base field, p = 0x1a0111ea...ffffaaab (381 bits), 6 limbs, 48 bytes.
 *              Fr: scalar field, r = 0x73eda753...00000001 (255 bits), 4 limbs, 32 bytes.
 *   BN254      Fp: p = 0x30644e72...d87cfd47 (254 bits), 4 limbs, 32 bytes.
 *              Fr: r = 0x30644e72...f0000001 (254 bits), 4 limbs, 32 bytes.
 *
 * Code outside the field layer never assumes a size: it uses SP_FP_LIMBS,
 * SP_FP_BYTES, SP_FP_DEC_MAX (and the SP_FR_ ones) from here.
 *
 * Representation invariant ("reduced"): an sp_fp / sp_fr always holds
 * x*R mod m with 0 <= x*R mod m < m. Every function below keeps it; the
 * only ways in from the outside are the checked conversions.
 *
 * Both fields have the same API, declared once by SP_DECLARE_PRIME_FIELD:
 * for F in {fp, fr}, with T = sp_F, N limbs and NB = 8N bytes:
 *
 *   void sp_F_add(T *r, const T *a, const T *b)     r = a + b
 *   void sp_F_sub(T *r, const T *a, const T *b)     r = a - b
 *   void sp_F_neg(T *r, const T *a)                  r = -a (and -0 = 0)
 *   void sp_F_dbl(T *r, const T *a)                  r = 2a
 *   void sp_F_mul(T *r, const T *a, const T *b)     r = a * b
 *   void sp_F_sqr(T *r, const T *a)                  r = a^2
 *   void sp_F_inv(T *r, const T *a)                  r = 1/a, and 1/0 = 0
 *   void sp_F_pow(T *r, const T *a, const uint64_t *e, size_t e_len)
 *            r = a^e with e given as e_len little-endian 64-bit limbs
 *   mul_portable / sqr_portable: the plain C path, always compiled, which
 *            the tests compare the assembly path against.
 *   int sp_F_is_zero / is_one / eq: 1 or 0, constant time.
 *   void sp_F_set_zero / set_one(T *r), sp_F_set_u64(T *r, uint64_t v)
 *   void sp_F_cmov(T *r, const T *a, int c): r = a when c is 1, else unchanged.
 *   sp_status sp_F_from_canonical(T *r, const uint64_t in[N]):
 *            SP_ERR_NOT_CANONICAL when in >= m (r untouched), else SP_OK.
 *   void sp_F_to_canonical(uint64_t out[N], const T *a)
 *   sp_status sp_F_from_bytes_be / from_bytes_le(T *r, const uint8_t in[NB])
 *   void sp_F_to_bytes_be / to_bytes_le(uint8_t out[NB], const T *a)
 *   void sp_F_random(T *r, sp_rng *rng): uniform in [0, m), for tests.
 *   sp_status sp_F_from_str(T *r, const char *s): canonical value written
 *            in decimal, or in hex after "0x"; no sign, no spaces;
 *            SP_ERR_BAD_ENCODING for other characters or an empty string,
 *            SP_ERR_NOT_CANONICAL when the value is >= m.
 *   sp_status sp_F_to_dec(char *out, size_t out_len, const T *a):
 *            the canonical value in decimal, NUL-terminated; needs
 *            out_len >= SP_F_DEC_MAX, else SP_ERR_INVALID_ARG.
 *
 * Outputs may alias inputs everywhere. Everything is constant time in the
 * values except from_str/to_dec (used on public data only) and pow, whose
 * time depends on e_len only.
 */
#ifndef SP_FIELD_FIELD_H
#define SP_FIELD_FIELD_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "field/consts.h"
#include "util/rng.h"

typedef struct { uint64_t l[SP_FP_LIMBS]; } sp_fp;
typedef struct sp_fr { uint64_t l[SP_FR_LIMBS]; } sp_fr; /* tagged: synth/ops.h names it */

#define SP_DECLARE_PRIME_FIELD(F, N)                                               \
    void sp_##F##_add(sp_##F *r, const sp_##F *a, const sp_##F *b);                \
    void sp_##F##_sub(sp_##F *r, const sp_##F *a, const sp_##F *b);                \
    void sp_##F##_neg(sp_##F *r, const sp_##F *a);                                 \
    void sp_##F##_dbl(sp_##F *r, const sp_##F *a);                                 \
    void sp_##F##_mul(sp_##F *r, const sp_##F *a, const sp_##F *b);                \
    void sp_##F##_sqr(sp_##F *r, const sp_##F *a);                                 \
    void sp_##F##_mul_portable(sp_##F *r, const sp_##F *a, const sp_##F *b);       \
    void sp_##F##_sqr_portable(sp_##F *r, const sp_##F *a);                        \
    void sp_##F##_inv(sp_##F *r, const sp_##F *a);                                 \
    void sp_##F##_pow(sp_##F *r, const sp_##F *a, const uint64_t *e, size_t e_len); \
    int sp_##F##_is_zero(const sp_##F *a);                                         \
    int sp_##F##_is_one(const sp_##F *a);                                          \
    int sp_##F##_eq(const sp_##F *a, const sp_##F *b);                             \
    void sp_##F##_set_zero(sp_##F *r);                                             \
    void sp_##F##_set_one(sp_##F *r);                                              \
    void sp_##F##_set_u64(sp_##F *r, uint64_t v);                                  \
    void sp_##F##_cmov(sp_##F *r, const sp_##F *a, int c);                         \
    sp_status sp_##F##_from_canonical(sp_##F *r, const uint64_t in[N]);            \
    void sp_##F##_to_canonical(uint64_t out[N], const sp_##F *a);                  \
    sp_status sp_##F##_from_bytes_be(sp_##F *r, const uint8_t in[8 * N]);          \
    sp_status sp_##F##_from_bytes_le(sp_##F *r, const uint8_t in[8 * N]);          \
    void sp_##F##_to_bytes_be(uint8_t out[8 * N], const sp_##F *a);                \
    void sp_##F##_to_bytes_le(uint8_t out[8 * N], const sp_##F *a);                \
    void sp_##F##_random(sp_##F *r, sp_rng *rng);                                  \
    sp_status sp_##F##_from_str(sp_##F *r, const char *s);                         \
    sp_status sp_##F##_to_dec(char *out, size_t out_len, const sp_##F *a);

SP_DECLARE_PRIME_FIELD(fp, SP_FP_LIMBS)
SP_DECLARE_PRIME_FIELD(fr, SP_FR_LIMBS)

/* The moduli as canonical little-endian limbs. */
extern const uint64_t SP_FP_MODULUS[SP_FP_LIMBS];
extern const uint64_t SP_FR_MODULUS[SP_FR_LIMBS];

/* Fp only. Returns 1 and sets r to a square root of a when a is a square
 * (p = 3 mod 4 on both curves, so r = a^((p+1)/4)); returns 0 and leaves r
 * unspecified otherwise. Constant time. */
int sp_fp_sqrt(sp_fp *r, const sp_fp *a);

/* Fp only. On output: e = (p + k) / 2^s (rounded down) for a small k
 * (|k| < 2^32) and 1 <= s <= 63, as SP_FP_LIMBS little-endian limbs: the
 * exponents of the square roots in Fp and Fp2, derived from the modulus. */
void sp_fp_exp_from_p(uint64_t e[SP_FP_LIMBS], int k, unsigned s);

/* Fp only. Returns 1 when the canonical value of a exceeds (p-1)/2, the
 * "lexicographically largest" test of the zcash point encoding (and the
 * arkworks y-sign flag, "y > -y"). */
int sp_fp_is_lexicographically_largest(const sp_fp *a);

/* Fr only. On output: *r uniform in [1, r) from the OS CSPRNG
 * (sp_os_random: getrandom(2)), by rejection sampling on r's bit length. For
 * secrets (the prover's r and s, the development setup's toxic waste);
 * sp_fr_random is the seeded one for tests. Returns SP_OK, or SP_ERR_IO
 * when the OS gives no randomness (*r untouched). */
sp_status sp_fr_random_os(sp_fr *r) SP_WARN_UNUSED;

/* Whether the x86-64 mulx/adcx/adox path is in use (chosen at run time from
 * CPUID; $SP_NO_ASM=1 or sp_field_use_asm(0) forces the portable path). */
int sp_field_asm_active(void);
/* Returns the previous setting; enabling on a CPU without ADX/BMI2 is ignored. */
int sp_field_use_asm(int on);

/* Whether the eight-lane AVX-512 IFMA path (field/fpv_ifma.h: Fp and Fp2
 * for the MSM's batched additions) is in use: chosen at run time from
 * CPUID and the OS's saved vector state; $SP_NO_ASM=1 or
 * sp_field_use_ifma(0) turns it off. */
int sp_field_ifma_active(void);
/* Returns the previous setting; enabling on a CPU without IFMA is ignored. */
int sp_field_use_ifma(int on);

#endif
