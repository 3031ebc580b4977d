/*
 * The CUDA backend's state and the functions its two files share:
 * backend_cuda.c (residency of keys, host memory, opening, the provider)
 * and backend_proof.c (one proof's device half, sp_backend.prove, and the
 * warm-up at key attach). The small helpers both use are defined in
 * backend_common.c, below both. Plain C; internal to gpu/.
 *
 * Locking: mu covers every field and all device work; the functions below
 * whose names end in _locked are called with mu held and the device bound
 * (sp_cuda_bind).
 */
#ifndef SP_GPU_BACKEND_COMMON_H
#define SP_GPU_BACKEND_COMMON_H

#include <pthread.h>
#include "groth16/backend.h"
#include "gpu/sp_cuda.h"
#include "gpu/sp_cuda_backend.h"

#define SP_CUDA_DOMAINS 4 /* NTT domains kept (distinct key sizes in use) */

typedef struct {
    const void *host;   /* the key's array */
    void *dev;          /* its resident copy */
    size_t bytes;
    const sp_g16_pk *pk;
    int refs;           /* attachments of pk */
    int host_released;  /* its host copy is gone (key_release_host): no CPU fallback */
} sp_cb_resident;

typedef struct {
    const void *host;   /* the key's array, left in host memory */
    size_t bytes;
    const sp_g16_pk *pk;
    int refs;           /* attachments of pk */
    int pinned;         /* registered (sp_cuda_host_register) */
} sp_cb_streamed;

typedef struct {
    sp_cuda_ntt_domain *d;
    unsigned log_n;
    int roots;
} sp_cb_domain;

typedef struct {
    sp_cuda *cu;
    int device;
    char name[16];
    pthread_mutex_t mu;
    sp_cb_resident *res;
    size_t n_res, cap_res, resident_bytes;
    sp_cb_streamed *str; /* key arrays streamed from host memory */
    size_t n_str, cap_str, streamed_bytes;
    int cpu_msm_logged, cpu_h_logged; /* fallbacks to the CPU reported */
    sp_cb_domain dom[SP_CUDA_DOMAINS];
    int n_dom;
    /* Kept and grown between proofs, made at key attach (the warm-up):
     * a, b, c on the device (3 x domain), the witness on the device
     * (n_vars values: Montgomery form as uploaded, then MSM scalars in
     * place), and the staged upload that brings the witness up. */
    sp_fr *abc;
    size_t abc_cap; /* elements */
    sp_fr *wit;
    size_t wit_cap; /* elements */
    sp_cuda_upload *up;
    size_t up_slot; /* bytes of each of its pinned buffers */
    /* 1 (the default): the witness uploaded through the pinned ring during
     * the H step and converted on the device; 0: converted on the host and
     * copied after the H MSM, the path a device without room for it takes
     * (sp_backend_cuda_witness_on_host forces it for the checks). */
    int wit_overlap;
    /* Proofs begun, warm-ups and frees of the buffers above: a proof
     * paused at a pause point that finds it moved knows another used (or
     * freed) the buffers meanwhile, and stages its witness again. */
    unsigned long uses;
    /* Bytes all precomputed MSM tables of this backend may take, and the
     * fewest points of a key array that gets one (sp_backend_cuda_set_tables,
     * SP_CUDA_MSM_TABLES). */
    size_t table_budget, table_min;
} sp_cb_impl;

/* Milliseconds of a monotonic clock. */
double sp_cb_now_ms(void);
/* Reports the stage `name` that began at t0 through be->stage_hook. */
void sp_cb_stage(sp_backend *be, const char *name, double t0);
/* Writes "cuda:N: what: reason" to err (the context's message for
 * SP_ERR_GPU); returns st. */
sp_status sp_cb_fail(const sp_cb_impl *c, sp_status st, const char *what, char err[SP_ERR_LEN]);
/* The device copy of [host, host + bytes) when it lies inside a resident
 * key array, else NULL. On output *host_released (when given) is 1 when
 * that array's host copy was released (key_release_host), else 0. */
const void *sp_cb_resident_view(const sp_cb_impl *c, const void *host, size_t bytes, int *host_released);
/* The error of an MSM over resident bases whose scratch does not fit the
 * device when their host copy was released (no CPU fallback); returns
 * SP_ERR_NOMEM. */
sp_status sp_cb_no_fallback(const sp_cb_impl *c, const char *what, size_t n, char err[SP_ERR_LEN]);
/* Host threads for host-side work: be->threads, or every core. */
int sp_cb_host_threads(const sp_backend *be);

/* backend_proof.c: be->prove. */
sp_status sp_cb_prove(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in, char err[SP_ERR_LEN]);
/* Device memory a proof with pk takes besides the key and the MSM scratch:
 * a, b, c, the NTT twiddles and scratch (5 vectors of the domain) and the
 * witness (n_vars values). */
size_t sp_cb_proof_bytes(const sp_g16_pk *pk);
/* Sets up what a proof with pk needs (buffers, the staging ring, the NTT
 * domain, MSM scratch, every kernel's first load) by running a proof's
 * device work on stand-in values. Best effort: a failure is said once on
 * stderr and leaves the rest to the first proof. */
void sp_cb_warm_locked(sp_backend *be, const sp_g16_pk *pk);
/* Frees what the proofs kept (buffers, domains, the upload). */
void sp_cb_proof_free_locked(sp_cb_impl *c);

#endif
