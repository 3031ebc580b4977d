/*
 * Curve-layer benchmarks: scalar multiplication, subgroup checks, the
 * MSM bucket step, batch normalisation and point decoding, in ns per
 * operation (best of 5 runs). The single-step rows (G1/G2 mixed add and
 * double) are in bench_field's table.
 * Arguments: substrings that select rows by name (none: all rows).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "curve/curve.h"
#include "curve/encode.h"

enum { NPTS = 256 };

/* The curve's compressed point form: zcash (BLS12-381), arkworks (BN254). */
#if SP_CURVE_BN254
#define G1_CB SP_G1_ARK_COMPRESSED_BYTES
#define G2_CB SP_G2_ARK_COMPRESSED_BYTES
#define g1_compress sp_g1_to_ark_compressed
#define g2_compress sp_g2_to_ark_compressed
#define g1_decompress(r, in) sp_g1_from_ark_compressed(r, in, 1)
#define g2_decompress(r, in) sp_g2_from_ark_compressed(r, in, 1)
#else
#define G1_CB SP_G1_COMPRESSED_BYTES
#define G2_CB SP_G2_COMPRESSED_BYTES
#define g1_compress sp_g1_to_bytes_compressed
#define g2_compress sp_g2_to_bytes_compressed
#define g1_decompress(r, in) sp_g1_from_bytes(r, in, G1_CB, 1)
#define g2_decompress(r, in) sp_g2_from_bytes(r, in, G2_CB, 1)
#endif

static volatile uint64_t sink_;
static sp_g1_affine g1p_[NPTS];
static sp_g2_affine g2p_[NPTS];
static sp_g1_jac g1j_[NPTS];
static uint64_t k_[NPTS][SP_FR_LIMBS];
static sp_fr fr_[NPTS];
static uint8_t g1c_[NPTS][G1_CB];
static uint8_t g2c_[NPTS][G2_CB];

/* Random subgroup points, their encodings and random scalars below r. */
static void setup(void)
{
    sp_rng rng;
    sp_rng_seed(&rng, 7);
    sp_g1_jac a;
    sp_g2_jac b;
    sp_g1_generator(&g1p_[0]);
    sp_g2_generator(&g2p_[0]);
    for (int i = 0; i < NPTS; i++) {
        sp_fr_random(&fr_[i], &rng);
        sp_fr_to_canonical(k_[i], &fr_[i]);
        sp_g1_jac_from_affine(&a, &g1p_[0]);
        sp_g1_mul_var(&a, &a, k_[i], SP_FR_LIMBS);
        sp_g1_jac_to_affine(&g1p_[i], &a);
        g1j_[i] = a;
        sp_g2_jac_from_affine(&b, &g2p_[0]);
        sp_g2_mul_var(&b, &b, k_[i], SP_FR_LIMBS);
        sp_g2_jac_to_affine(&g2p_[i], &b);
        g1_compress(g1c_[i], &g1p_[i]);
        g2_compress(g2c_[i], &g2p_[i]);
    }
}

static void b_g1_mul_var(int i)
{
    sp_g1_jac r;
    sp_g1_mul_var(&r, &g1j_[i], k_[(i + 1) % NPTS], SP_FR_LIMBS);
    sink_ += r.x.l[0];
}

static void b_g2_mul_var(int i)
{
    sp_g2_jac r;
    sp_g2_jac_from_affine(&r, &g2p_[i]);
    sp_g2_mul_var(&r, &r, k_[(i + 1) % NPTS], SP_FR_LIMBS);
    sink_ += r.x.c0.l[0];
}

static void b_g1_mul_ct(int i)
{
    sp_g1_jac r;
    sp_g1_mul(&r, &g1j_[i], &fr_[(i + 1) % NPTS]);
    sink_ += r.x.l[0];
}

static void b_g2_mul_ct(int i)
{
    sp_g2_jac r;
    sp_g2_jac_from_affine(&r, &g2p_[i]);
    sp_g2_mul(&r, &r, &fr_[(i + 1) % NPTS]);
    sink_ += r.x.c0.l[0];
}

static void b_g1_in_subgroup(int i) { sink_ += (uint64_t)sp_g1_in_subgroup(&g1p_[i]); }
static void b_g1_in_subgroup_slow(int i) { sink_ += (uint64_t)sp_g1_in_subgroup_slow(&g1p_[i]); }
static void b_g2_in_subgroup(int i) { sink_ += (uint64_t)sp_g2_in_subgroup(&g2p_[i]); }
static void b_g2_in_subgroup_slow(int i) { sink_ += (uint64_t)sp_g2_in_subgroup_slow(&g2p_[i]); }

static void b_g1_decompress(int i)
{
    sp_g1_affine r;
    if (g1_decompress(&r, g1c_[i]) == SP_OK)
        sink_ += r.x.l[0];
}

static void b_g2_decompress(int i)
{
    sp_g2_affine r;
    if (g2_decompress(&r, g2c_[i]) == SP_OK)
        sink_ += r.x.c0.l[0];
}

/* NPTS bucket steps into one xyzz accumulator (counted per step below). */
static void b_g1_xyzz_add_affine(int i)
{
    sp_g1_xyzz acc;
    sp_g1_xyzz_from_affine(&acc, &g1p_[i]);
    for (int j = 0; j < NPTS; j++)
        sp_g1_xyzz_add_affine_var(&acc, &acc, &g1p_[j]);
    sink_ += acc.x.l[0];
}

static void b_g1_jac_add_ct(int i)
{
    sp_g1_jac acc = g1j_[i];
    for (int j = 0; j < NPTS; j++)
        sp_g1_jac_add(&acc, &acc, &g1j_[j]);
    sink_ += acc.x.l[0];
}

static void b_g1_jac_add_var(int i)
{
    sp_g1_jac acc = g1j_[i];
    for (int j = 0; j < NPTS; j++)
        sp_g1_jac_add_var(&acc, &acc, &g1j_[j]);
    sink_ += acc.x.l[0];
}

static void b_g1_batch_to_affine(int i)
{
    static sp_g1_affine out[NPTS];
    sp_g1_batch_to_affine(out, g1j_, NPTS);
    sink_ += out[i].x.l[0];
}

typedef struct {
    const char *name;
    void (*fn)(int i);
    int calls; /* how many times to run fn */
    int per;   /* operations per call */
} row;

static const row rows_[] = {
    {"g1_mul_var (wNAF)", b_g1_mul_var, 200, 1},
    {"g2_mul_var (wNAF)", b_g2_mul_var, 60, 1},
    {"g1_mul (const time)", b_g1_mul_ct, 100, 1},
    {"g2_mul (const time)", b_g2_mul_ct, 30, 1},
    {"g1_in_subgroup", b_g1_in_subgroup, 200, 1},
    {"g1_in_subgroup_slow", b_g1_in_subgroup_slow, 100, 1},
    {"g2_in_subgroup", b_g2_in_subgroup, 100, 1},
    {"g2_in_subgroup_slow", b_g2_in_subgroup_slow, 30, 1},
    {"g1_decompress+check", b_g1_decompress, 200, 1},
    {"g2_decompress+check", b_g2_decompress, 60, 1},
    {"g1_xyzz_add_affine", b_g1_xyzz_add_affine, 40, NPTS},
    {"g1_jac_add_var", b_g1_jac_add_var, 40, NPTS},
    {"g1_jac_add (const)", b_g1_jac_add_ct, 40, NPTS},
    {"g1_batch_to_affine/pt", b_g1_batch_to_affine, 40, NPTS},
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    setup();
    printf("%-24s %12s   (%s, field path: %s)\n", "operation", "ns/op", SP_CURVE_NAME,
           sp_field_asm_active() ? "x86-64 adx" : "portable C");
    for (size_t r = 0; r < sizeof rows_ / sizeof rows_[0]; r++) {
        int sel = argc <= 1;
        for (int a = 1; a < argc; a++)
            sel |= strstr(rows_[r].name, argv[a]) != NULL;
        if (!sel)
            continue;
        double best = 0;
        for (int rep = 0; rep < 5; rep++) {
            double t0 = now_ns();
            for (int c = 0; c < rows_[r].calls; c++)
                rows_[r].fn(c % NPTS);
            double ns = (now_ns() - t0) / ((double)rows_[r].calls * rows_[r].per);
            if (rep == 0 || ns < best)
                best = ns;
        }
        printf("%-24s %12.1f\n", rows_[r].name, best);
        fflush(stdout);
    }
    return 0;
}
