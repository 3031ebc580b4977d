/*
 * Internals shared by the .cu files: the context, the checked-call macros
 * and the scratch buffers.
 */
#ifndef SP_GPU_CU_UTIL_CUH
#define SP_GPU_CU_UTIL_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include "gpu/sp_cuda.h"

/* Scratch buffers, kept between calls and grown on demand. */
enum {
    SP_SCR_BASES,   /* bases copied from the host */
    SP_SCR_SCALARS, /* scalars copied from the host */
    SP_SCR_KEYS,    /* MSM (window, digit) keys, two buffers for the sort */
    SP_SCR_KEYS2,
    SP_SCR_VALS,    /* MSM point index | sign, two buffers */
    SP_SCR_VALS2,
    SP_SCR_SORT,    /* CUB temporary storage */
    SP_SCR_RANGE,   /* MSM bucket start/end offsets */
    SP_SCR_BUCKETS, /* MSM bucket sums */
    SP_SCR_SEGS,    /* MSM per-segment partial sums */
    SP_SCR_PARTS,   /* MSM per-chunk partial bucket sums */
    SP_SCR_SMALL,   /* window sums, flags */
    SP_SCR_SPLIT_IDX,     /* split MSM: indices of "other" and of one scalars */
    SP_SCR_SPLIT_BASES,   /* split MSM: gathered bases of the "other" scalars */
    SP_SCR_SPLIT_SCALARS, /* split MSM: their scalars */
    SP_SCR_SPLIT_SUM,     /* split MSM: partial sums of the bases with scalar 1 */
    SP_SCR_A,       /* element-wise test buffers */
    SP_SCR_B,
    SP_SCR_C,
    SP_SCR_STREAM0, /* streamed MSM (msm/stream.cu): the two chunk buffers */
    SP_SCR_STREAM1,
    SP_SCR_COUNT
};

#define SP_CU_EVENTS 5 /* MSM phase marks when profiling */
#define SP_B2_STREAMS 2 /* the batch-affine rounds' side streams (msm/batch_affine.cu) */
#define SP_B2_EVENTS 5  /* and their events */

/* Scratch of the NTT's passes and the batch-affine MSM accumulation (a
 * second set, after the fields above: same rules as SP_SCR_*). */
enum {
    SP_XSCR_NTT,     /* NTT passes: the out-of-place vector (ntt/radix4.cu) */
    SP_XSCR_BA_PTS0, /* batch-affine rounds: two point arrays (msm/batch_affine.cu) */
    SP_XSCR_BA_PTS1,
    SP_XSCR_BA_BKT,  /* their bucket ids, two arrays in one */
    SP_XSCR_BA_PRE,  /* per-thread prefix products of the denominators */
    SP_XSCR_BA_SMALL, /* per-bucket lengths and starts, per-thread and per-block products */
    SP_XSCR_COUNT
};

/* struct sp_cuda is sp_cuda.h's (global, for its C API); the rest of the
 * backend lives in a namespace per curve (SP_CURVE_NS, field/consts.h). */
namespace SP_CURVE_NS {
struct sp_cu_table;
}

struct sp_cuda {
    int device;
    int sm_count;
    cudaStream_t stream;
    void *scr[SP_SCR_COUNT];
    size_t scr_cap[SP_SCR_COUNT];
    int profile;    /* record per-phase times (sp_cuda_set_profile) */
    char prof[256]; /* the last call's phase times */
    cudaEvent_t ev[SP_CU_EVENTS];
    int ev_ready;   /* ev[] created */
    char err[512];
    char info[256];
    /* streamed MSM (msm/stream.cu): a copy stream and an event per chunk
     * buffer, created on first use */
    cudaStream_t copy_stream;
    cudaEvent_t copy_ev[2];
    int copy_ready;
    /* device memory cap (core/host.cu, sp_cuda_set_mem_limit): 0 = none; base =
     * free device memory when the context was created */
    size_t mem_limit, mem_base;
    void *xscr[SP_XSCR_COUNT]; /* SP_XSCR_* scratch */
    size_t xscr_cap[SP_XSCR_COUNT];
    /* the setters of sp_cuda_tune.h (0: by size, as in the product) */
    int ntt_form;          /* SP_CUDA_NTT_* */
    int msm_acc;           /* SP_CUDA_ACC_* */
    unsigned ba_max_group; /* batch-affine: most windows per group, 0 = memory decides */
    int msm_table_off;     /* 1: MSMs ignore kept tables */
    /* precomputed window tables of resident bases (msm/table.cu) */
    SP_CURVE_NS::sp_cu_table *tabs;
    int n_tabs, cap_tabs;
    /* batch-affine rounds (msm/batch_affine.cu): the lists' stream and the
     * inversions' stream, their events, created on first use */
    cudaStream_t b2_side[SP_B2_STREAMS];
    cudaEvent_t b2_ev[SP_B2_EVENTS];
    int b2_ready;
    unsigned ba_threads; /* the rounds' threads wanted, 0 = by the device (sp_cuda_set_ba_threads) */
    size_t scr_releases; /* releases of held scratch (sp_cuda_scratch_releases) */
};

namespace SP_CURVE_NS {

/* Records "what (file:line): message" in ctx->err, and takes the error
 * from the runtime (cudaGetLastError), so that a later launch check does
 * not report it as its own (a sticky error stays, as it must). */
void sp_cu_record(sp_cuda *ctx, const char *what, const char *file, int line, cudaError_t e);

/* cudaMalloc of bytes (at least 1) into *dev, with no cap check. On
 * failure *dev = NULL, the error is cleared for later launches and
 * recorded; returns SP_ERR_NOMEM when the device is out of memory,
 * SP_ERR_GPU on any other failure. */
sp_status sp_cu_malloc(sp_cuda *ctx, void **dev, size_t bytes);

/* Checks a CUDA runtime call; on failure records it and returns SP_ERR_GPU. */
#define SP_CU(ctx, call)                                                     \
    do {                                                                     \
        cudaError_t e_ = (call);                                             \
        if (e_ != cudaSuccess) {                                             \
            sp_cu_record((ctx), #call, __FILE__, __LINE__, e_);              \
            return SP_ERR_GPU;                                               \
        }                                                                    \
    } while (0)

/* After a kernel launch (name: a string literal): checks the launch itself
 * (configuration errors, earlier asynchronous faults). */
#define SP_CU_LAUNCHED(ctx, name)                                            \
    do {                                                                     \
        cudaError_t e_ = cudaGetLastError();                                 \
        if (e_ != cudaSuccess) {                                             \
            sp_cu_record((ctx), "launch of " name, __FILE__, __LINE__, e_);  \
            return SP_ERR_GPU;                                               \
        }                                                                    \
    } while (0)

/* Propagates a non-OK sp_status. */
#define SP_TRY(expr)                                                         \
    do {                                                                     \
        sp_status s_ = (expr);                                               \
        if (s_ != SP_OK)                                                     \
            return s_;                                                       \
    } while (0)

/* On output: *p is scratch buffer `slot` with room for `bytes` (grown,
 * contents lost, when smaller). */
sp_status sp_cu_scratch(sp_cuda *ctx, int slot, size_t bytes, void **p);

/* The same for the SP_XSCR_* slots. */
sp_status sp_cu_xscratch(sp_cuda *ctx, int slot, size_t bytes, void **p);

/*
 * Makes a device-readable view of `src` (bytes long): src itself when it
 * is device memory, else a copy in scratch buffer `slot`.
 */
sp_status sp_cu_device_view(sp_cuda *ctx, int slot, const void *src, size_t bytes,
                            const void **view);

/* The device's address of host memory [p, p + bytes) when it lies within
 * one range pinned by sp_cuda_host_register and mapped into the current
 * device's address space (kernels may then read it in place, each access
 * crossing the bus); NULL otherwise (also for bytes = 0). The view is
 * valid while the range stays registered. */
const void *sp_cu_host_view(const void *p, size_t bytes);

/* 1 when p is device (or managed) memory of the current device. */
int sp_cu_is_device_ptr(const void *p);

/* Destroys the streamed MSM's copy stream and events (msm/stream.cu);
 * called by sp_cuda_free. */
void sp_cu_stream_release(sp_cuda *ctx);

/* Destroys the batch-affine rounds' streams and events (msm/batch_affine.cu);
 * called by sp_cuda_free. */
void sp_cu_b2_release(sp_cuda *ctx);

/* Frees every precomputed table of the context and its registry
 * (msm/table.cu); called by sp_cuda_free. */
void sp_cu_table_release(sp_cuda *ctx);

static inline unsigned sp_cu_blocks(size_t n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

} // namespace SP_CURVE_NS

#endif
