/*
 * The Groth16 H step on the device (contracts in sp_cuda_backend.h and
 * src/ntt/hstep.h): per input vector an inverse NTT, a multiplication by
 * the powers of the coset shift and a forward NTT (values on D -> values on
 * the coset), then the pointwise a*b - c; bellperson divides by the
 * constant Z = g^n - 1 on the coset and goes back to coefficients with a
 * coset inverse NTT. The last pass also leaves Montgomery form, so the
 * result is the MSM's canonical scalars without a trip through the host.
 */
#include <string.h>
#include "gpu/core/context.cuh"
#include "gpu/field/field.cuh"
#include "gpu/sp_cuda_backend.h"

namespace SP_CURVE_NS {

typedef fr_tm<SP_MUL_WIDE> frw_t; /* the 64-bit products: exact like the others, fast in bulk */

#define SP_H_THREADS 256
#define SP_H_PER_THREAD 16 /* elements per thread in the power kernel */

static_assert(sizeof(frw_t) == sizeof(sp_fr) && sizeof(sp_fr) == sizeof(sp_scalar), "Fr layout");

/* r = b^e */
static __device__ __forceinline__ void fr_pow_u64(frw_t &r, const frw_t &b, uint64_t e)
{
    frw_t x, base = b;
    f_set_one(x);
    while (e) {
        if (e & 1)
            f_mul(x, x, base);
        e >>= 1;
        if (e)
            f_sqr(base, base);
    }
    r = x;
}

/* x * R^-1: Montgomery form to the canonical value (a product with 1). */
static __device__ __forceinline__ void fr_from_mont(frw_t &x)
{
    frw_t one;
    f_set_zero(one);
    one.w[0] = 1;
    f_mul(x, x, one);
}

/*
 * out[i] = in[i] * shift^i. A block owns SP_H_THREADS * SP_H_PER_THREAD
 * consecutive elements; thread t takes t, t + 256, ... (coalesced), starts
 * from shift^i by exponentiation and steps by step = shift^256.
 */
__global__ void __launch_bounds__(SP_H_THREADS)
    h_scale_powers(frw_t *out, const frw_t *in, size_t n, frw_t shift, frw_t step, int canonical)
{
    size_t i = (size_t)blockIdx.x * (SP_H_THREADS * SP_H_PER_THREAD) + threadIdx.x;
    if (i >= n)
        return;
    frw_t p;
    fr_pow_u64(p, shift, i);
    for (int k = 0; k < SP_H_PER_THREAD && i < n; k++, i += SP_H_THREADS) {
        frw_t x;
        f_mul(x, in[i], p);
        if (canonical)
            fr_from_mont(x);
        out[i] = x;
        f_mul(p, p, step);
    }
}

/* h[i] = (a[i] * b[i] - c[i]) * scale */
__global__ void __launch_bounds__(SP_H_THREADS)
    h_abc(frw_t *h, const frw_t *a, const frw_t *b, const frw_t *c, size_t n, frw_t scale,
          int use_scale, int canonical)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    frw_t t;
    f_mul(t, a[i], b[i]);
    f_sub(t, t, c[i]);
    if (use_scale)
        f_mul(t, t, scale);
    if (canonical)
        fr_from_mont(t);
    h[i] = t;
}

/* c[i] = a[i] * b[i]: the C evaluations of a satisfying witness, made on
 * the device instead of copied (sp_backend_proof) */
__global__ void __launch_bounds__(SP_H_THREADS)
    h_mul(frw_t *c, const frw_t *a, const frw_t *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        f_mul(c[i], a[i], b[i]);
}

/* v[i] out of Montgomery form, in place: the witness into MSM scalars */
__global__ void __launch_bounds__(SP_H_THREADS) h_from_mont(frw_t *v, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    frw_t x = v[i];
    fr_from_mont(x);
    v[i] = x;
}

/* splitmix64 */
static __device__ __forceinline__ uint64_t h_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The warm-up's stand-in values (sp_cuda_fr_fill_sample). */
__global__ void __launch_bounds__(SP_H_THREADS)
    h_fill(frw_t *v, size_t n, uint64_t seed, unsigned other_mod, frw_t one)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t h = h_mix(seed ^ h_mix(i));
    frw_t x;
    if (other_mod <= 1 || h % other_mod == 0) { /* below 2^252 < r: a field element */
        for (int k = 0; k < 4; k++) {
            uint64_t r = h_mix(h + k);
            x.w[2 * k] = (uint32_t)r;
            x.w[2 * k + 1] = (uint32_t)(r >> 32);
        }
        x.w[7] &= 0x0fffffffu;
    } else if ((h >> 40) & 1) {
        x = one;
    } else {
        f_set_zero(x);
    }
    v[i] = x;
}

static frw_t to_dev(const sp_fr *x)
{
    frw_t r;
    memcpy(&r, x, sizeof r);
    return r;
}

extern "C" sp_status sp_cuda_fr_scale_powers(sp_cuda *ctx, sp_fr *out, const sp_fr *in, size_t n,
                                             const sp_fr *shift, int canonical)
{
    if (n == 0)
        return SP_OK;
    if (!sp_cu_is_device_ptr(out) || !sp_cu_is_device_ptr(in))
        return SP_ERR_INVALID_ARG;
    sp_fr step;
    uint64_t e = SP_H_THREADS;
    sp_fr_pow(&step, shift, &e, 1);
    size_t per_block = (size_t)SP_H_THREADS * SP_H_PER_THREAD;
    unsigned blocks = (unsigned)((n + per_block - 1) / per_block);
    h_scale_powers<<<blocks, SP_H_THREADS, 0, ctx->stream>>>((frw_t *)out, (const frw_t *)in, n,
                                                             to_dev(shift), to_dev(&step), canonical);
    SP_CU_LAUNCHED(ctx, "h_scale_powers");
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

extern "C" sp_status sp_cuda_fr_abc(sp_cuda *ctx, sp_fr *h, const sp_fr *a, const sp_fr *b,
                                    const sp_fr *c, size_t n, const sp_fr *scale, int canonical)
{
    if (n == 0)
        return SP_OK;
    if (!sp_cu_is_device_ptr(h) || !sp_cu_is_device_ptr(a) || !sp_cu_is_device_ptr(b) ||
        !sp_cu_is_device_ptr(c))
        return SP_ERR_INVALID_ARG;
    sp_fr one;
    sp_fr_set_one(&one);
    h_abc<<<sp_cu_blocks(n, SP_H_THREADS), SP_H_THREADS, 0, ctx->stream>>>(
        (frw_t *)h, (const frw_t *)a, (const frw_t *)b, (const frw_t *)c, n,
        to_dev(scale ? scale : &one), scale != NULL, canonical);
    SP_CU_LAUNCHED(ctx, "h_abc");
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

extern "C" sp_status sp_cuda_fr_mul(sp_cuda *ctx, sp_fr *c, const sp_fr *a, const sp_fr *b, size_t n)
{
    if (n == 0)
        return SP_OK;
    if (!sp_cu_is_device_ptr(c) || !sp_cu_is_device_ptr(a) || !sp_cu_is_device_ptr(b))
        return SP_ERR_INVALID_ARG;
    h_mul<<<sp_cu_blocks(n, SP_H_THREADS), SP_H_THREADS, 0, ctx->stream>>>((frw_t *)c, (const frw_t *)a,
                                                                          (const frw_t *)b, n);
    SP_CU_LAUNCHED(ctx, "h_mul");
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

extern "C" sp_status sp_cuda_fr_to_scalars(sp_cuda *ctx, sp_fr *v, size_t n)
{
    if (n == 0)
        return SP_OK;
    if (!sp_cu_is_device_ptr(v))
        return SP_ERR_INVALID_ARG;
    h_from_mont<<<sp_cu_blocks(n, SP_H_THREADS), SP_H_THREADS, 0, ctx->stream>>>((frw_t *)v, n);
    SP_CU_LAUNCHED(ctx, "h_from_mont");
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

extern "C" sp_status sp_cuda_fr_fill_sample(sp_cuda *ctx, sp_fr *v, size_t n, uint64_t seed,
                                            unsigned other_mod)
{
    if (n == 0)
        return SP_OK;
    if (!sp_cu_is_device_ptr(v))
        return SP_ERR_INVALID_ARG;
    sp_fr one;
    sp_fr_set_one(&one);
    h_fill<<<sp_cu_blocks(n, SP_H_THREADS), SP_H_THREADS, 0, ctx->stream>>>((frw_t *)v, n, seed, other_mod,
                                                                           to_dev(&one));
    SP_CU_LAUNCHED(ctx, "h_fill");
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

/* v: values on D -> values on the coset shift * D. */
static sp_status to_coset(sp_cuda *ctx, const sp_cuda_ntt_domain *gd, sp_fr *v, size_t n,
                          const sp_fr *shift)
{
    SP_TRY(sp_cuda_ntt(ctx, gd, v, 1));
    SP_TRY(sp_cuda_fr_scale_powers(ctx, v, v, n, shift, 0));
    return sp_cuda_ntt(ctx, gd, v, 0);
}

static const sp_fr *coset_shift(const sp_ntt_domain *d, int bellperson)
{
    return bellperson ? &d->gen : &d->omega_2n;
}

extern "C" sp_status sp_cuda_h_coset(sp_cuda *ctx, sp_fr *v, const sp_cuda_ntt_domain *gd,
                                     const sp_ntt_domain *d, int bellperson)
{
    if (!sp_cu_is_device_ptr(v))
        return SP_ERR_INVALID_ARG;
    return to_coset(ctx, gd, v, d->n, coset_shift(d, bellperson));
}

extern "C" sp_status sp_cuda_h_step(sp_cuda *ctx, sp_scalar *h, sp_fr *a, sp_fr *b, sp_fr *c,
                                    const sp_cuda_ntt_domain *gd, const sp_ntt_domain *d,
                                    int bellperson, int a_on_coset)
{
    if (!sp_cu_is_device_ptr(h) || !sp_cu_is_device_ptr(a) || !sp_cu_is_device_ptr(b) ||
        !sp_cu_is_device_ptr(c))
        return SP_ERR_INVALID_ARG;
    const size_t n = d->n;
    const sp_fr *shift = coset_shift(d, bellperson);
    if (!a_on_coset)
        SP_TRY(to_coset(ctx, gd, a, n, shift));
    SP_TRY(to_coset(ctx, gd, b, n, shift));
    SP_TRY(to_coset(ctx, gd, c, n, shift));
    if (!bellperson)
        return sp_cuda_fr_abc(ctx, (sp_fr *)h, a, b, c, n, NULL, 1);
    /* Z(g * omega^j) = g^n - 1 for every j: one constant factor */
    sp_fr z_inv, one, g_inv;
    uint64_t e = n;
    sp_fr_pow(&z_inv, &d->gen, &e, 1);
    sp_fr_set_one(&one);
    sp_fr_sub(&z_inv, &z_inv, &one);
    sp_fr_inv(&z_inv, &z_inv);
    sp_fr_inv(&g_inv, &d->gen);
    SP_TRY(sp_cuda_fr_abc(ctx, a, a, b, c, n, &z_inv, 0));
    SP_TRY(sp_cuda_ntt(ctx, gd, a, 1)); /* coset inverse: iNTT, then times g^-i */
    return sp_cuda_fr_scale_powers(ctx, (sp_fr *)h, a, n, &g_inv, 1);
}

} // namespace SP_CURVE_NS
