/*
 * The compute backend of the prover: one proof's H step and MSMs in one
 * call (prove), behind one C interface with a CPU implementation (always
 * built, the reference) and device ones registered by the programs that
 * link them (the CUDA backend, gpu/). A backend is chosen at start ("cpu",
 * "cuda:N") and handed to the prover; the prover never asks which it got.
 *
 * Residency: key_attach tells the backend that a proving key's base arrays
 * will be used many times; a GPU backend uploads them once (and sets up
 * what a proof with that key needs, so the first proof costs what later
 * ones do) and recognises them later by their host address. A proof with a
 * key never attached still works (the GPU copies its arrays each time).
 * Arrays that do not fit in device memory stay in host memory, pinned, and
 * the MSMs stream them to the device in chunks (key_memory says which).
 *
 * Threads: the CPU backend is reentrant. A CUDA backend serialises its
 * device work internally; the engine holds its own GPU lock around calls.
 */
#ifndef SP_GROTH16_BACKEND_H
#define SP_GROTH16_BACKEND_H

#include <stddef.h>
#include "snarkpipe.h"
#include "groth16/keys.h"
#include "groth16/ptau_comb.h"
#include "msm/msm.h"
#include "ntt/ntt.h"

typedef struct sp_backend sp_backend;

/* The roots family the H step must use for a key: snarkjs keys were made
 * with 5^t, bellperson keys with 7^t (ntt.h). */
sp_ntt_roots sp_g16_roots_for(const sp_g16_pk *pk);

/*
 * One proof's device half, the input of sp_backend.prove: the H step and
 * every MSM of the Groth16 recipe (groth16/prove.h) for one witness.
 */
typedef struct {
    const sp_g16_pk *pk;
    const sp_ntt_domain *d; /* n = pk->domain_size points, roots sp_g16_roots_for(pk) */
    const sp_fr *w;         /* pk->n_vars witness values (Montgomery form, w[0] = 1); read only */
    /* The n QAP evaluations; scratch, overwritten. c may be left unread:
     * a backend may use c[i] = a[i] * b[i] instead (a GPU then copies a
     * third less). For a witness that satisfies the circuit the two are
     * the same values; for one that does not, the proof fails verification
     * either way (ARCHITECTURE.md, "The flow of one proof"). */
    sp_fr *a, *b, *c;
    int split; /* the witness MSMs skip scalars 0 and add those equal to 1 (same result) */
    int g2;    /* 1: the B2 MSM too; 0: the caller does it (on the CPU, later) */
    /* Deferred a, b, c (optional). When fill is set, a, b, c hold nothing
     * yet and d is NULL: the backend calls fill once, through
     * sp_backend_fill, on a thread of its choosing, before it reads a, b,
     * c or a domain, and may run the witness MSMs meanwhile (the CUDA
     * backend does, so a lone proof's synthesis costs no device time).
     * fill writes a, b, c and, when d is not NULL, sets *d to a domain (as
     * d above) that stays valid until prove returns (d NULL: the backend
     * needs no host domain, and fill makes none); it returns SP_OK or an
     * error with err filled, which prove then returns. */
    sp_status (*fill)(void *fill_ctx, const sp_ntt_domain **d, char err[SP_ERR_LEN]);
    void *fill_ctx;
    /* Suspension (optional; only a backend with `pausable` set uses it):
     * NULL, or the pause point (util/par.h) the backend calls between its
     * stages and inside its H step and MSMs, so that whoever made the call
     * can hold the proof there while another uses the device. The proof
     * keeps its memory meanwhile. */
    const sp_pause *pause;
} sp_backend_proof;

/*
 * What a backend's prove calls before it reads in->a, b, c or the domain:
 * in->fill when set, then the domain checked against the key.
 * On output: *d the domain (in->d, or fill's); d NULL: none wanted (fill
 *   asked for none, nothing checked).
 * Returns SP_OK, fill's error (err filled by fill), or SP_ERR_INVALID_ARG
 *   (a domain of the wrong size or roots for in->pk; err names be).
 */
sp_status sp_backend_fill(const sp_backend *be, const sp_backend_proof *in, const sp_ntt_domain **d,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* 1 when `stage` is one a backend reports beside others (wit_up, fill,
 * ab_up: their durations are not part of the proof's sequence of
 * stages), else 0. */
int sp_backend_side_stage(const char *stage);

/* Progress units of a G2 point in an MSM (a G1 point counts 1): about
 * their relative cost. */
#define SP_G16_PROGRESS_G2 3

/* What sp_backend.prove returns: the MSMs before blinding. */
typedef struct {
    sp_g1_jac a;  /* sum_{i < n_vars} w_i A_i */
    sp_g1_jac b1; /* sum w_i B1_i */
    sp_g1_jac c;  /* sum_{i > n_public} w_i C_i */
    sp_g1_jac h;  /* sum_{j < n_h} h_j H_j, h the H scalars of pk's convention */
    sp_g2_jac b2; /* sum w_i B2_i; only when in->g2 */
} sp_backend_msms;

struct sp_backend {
    const char *name; /* "cpu", "cuda:0", ... */
    void *impl;       /* the implementation's state */
    int threads;      /* host threads the backend may use (0 = all cores) */
    /* 1: prove calls in->pause, and a second prove may run on this backend
     * while the first is held there (the CPU backend inside its H step and
     * MSMs, the CUDA backend before each witness MSM); 0: prove never
     * pauses. */
    int pausable;
    /* 1: prove computes on the host's cores (cpu), which the rest of a
     * proof (the finish) needs too. */
    int host_cores;
    /*
     * One proof's device half in one call: the witness goes to the device
     * once, the H step and the MSMs (A, B1, C, H, and B2 when in->g2) run
     * there, and the backend reports its stages through stage_hook as they
     * end (names below). Called by one thread at a time per backend (the
     * engine holds its device lock around it).
     * On input: in as documented at sp_backend_proof; sizes already checked
     *   against the key by the caller (sp_g16_prove_start).
     * On output: *out (b2 only when in->g2); in->a, b, c overwritten. Nothing
     *   is kept: the caller may free or reuse w, a, b, c at once.
     * Returns SP_OK, SP_ERR_NOMEM, SP_ERR_GPU, SP_ERR_INVALID_ARG; err says
     *   why, with the backend's name.
     * Stages: cpu: fill (with in->fill), scalars (witness to MSM scalars),
     *   h, msm_h, msm_a, msm_b1, msm_c, msm_b2. cuda: copy_ab,
     *   h_ntt, msm_h, wit_up (the witness's upload, overlapped with h_ntt
     *   and msm_h, or with the fill), wit_ready (what the MSMs waited for
     *   it), msm_a, msm_b1, msm_c, msm_b2, and with in->fill: fill (its
     *   duration, beside the witness MSMs), ab_up (then a and b sent from
     *   the fill's thread, in place of copy_ab) and fill_wait (what the H
     *   step waited for both after the witness MSMs) (gpu/backend/backend_proof.c).
     *   Stages that run beside others (wit_up, fill, ab_up) are those
     *   sp_backend_side_stage names.
     */
    sp_status (*prove)(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in, char err[SP_ERR_LEN]);
    /* (prove, continued) Progress (util/progress.h): a backend may name
     * its running step (sp_progress_part) and count units as steps end:
     * the H step domain_size / 2, a G1 MSM its length, the G2 MSM
     * SP_G16_PROGRESS_G2 times its length (the cpu backend does);
     * sp_g16_prove_device adds what it did not count when it returns. */
    sp_status (*key_attach)(sp_backend *be, const sp_g16_pk *pk, char err[SP_ERR_LEN]);
    void (*key_detach)(sp_backend *be, const sp_g16_pk *pk);
    /* Device memory in bytes held for attached keys, and free (0 on CPU). */
    void (*memory)(sp_backend *be, size_t *resident, size_t *free_bytes);
    void (*destroy)(sp_backend *be);
    /* Optional members below: NULL when a backend does not provide them. */
    /* Host memory for buffers the backend reads on every proof (the
     * engine's a, b, c pool). A GPU backend returns pinned memory usable by
     * every device of the process. Call them through sp_backend_host_alloc
     * and sp_backend_host_free, which fall back to malloc and free. */
    void *(*host_alloc)(sp_backend *be, size_t bytes);
    void (*host_free)(sp_backend *be, void *p, size_t bytes);
    /* Stage timings: when stage_hook is set, the backend reports each of
     * its stages as it ends, e.g. ("copy_ab", 12.5 ms). Whoever uses the
     * backend exclusively sets it before its calls (the engine does,
     * holding its device lock) and clears it after. */
    void (*stage_hook)(void *ctx, const char *stage, double ms);
    void *stage_ctx;
    /* Fixed-base multiplication for the development setup (groth16/setup.h):
     * out[i] = [k[i]] base for i < n, the contract of
     * sp_g1_fixed_base_mul_var / sp_g2_fixed_base_mul_var in
     * groth16/fixed_base.h (affine out, infinity as (0, 0), k in Montgomery
     * form), with be->threads host threads. NULL: the setup uses those CPU
     * functions. Returns SP_OK or an error with err filled. */
    sp_status (*fixed_base_g1)(sp_backend *be, sp_g1_affine *out, const sp_g1_affine *base, const sp_fr *k,
                               size_t n, char err[SP_ERR_LEN]);
    sp_status (*fixed_base_g2)(sp_backend *be, sp_g2_affine *out, const sp_g2_affine *base, const sp_fr *k,
                               size_t n, char err[SP_ERR_LEN]);
    /* Where an attached key's base arrays live (pk NULL: all attached
     * keys together; array non-NULL: only the attached array whose host
     * copy starts there): on output *resident = bytes kept in device
     * memory, whose host copy the backend no longer reads, *streamed =
     * bytes kept in (pinned) host memory and copied to the device in
     * chunks by every MSM over them, because they did not fit.
     * NULL for backends without device memory (cpu). */
    void (*key_memory)(sp_backend *be, const sp_g16_pk *pk, const void *array, size_t *resident, size_t *streamed);
    /* Marks the attached array whose host copy starts at array as released
     * by its owner: from then on its MSMs run on the device or fail with
     * SP_ERR_NOMEM, never on the CPU (which would read the host copy).
     * Returns 1 when marked (the array is resident), 0 when not (streamed
     * or unknown: the owner must keep that copy). NULL for backends
     * without device memory (cpu). */
    int (*key_release_host)(sp_backend *be, const void *array);
    /* The setup from a .ptau on the device (groth16/ptau_setup.h): the
     * contracts and the points of sp_g1_ptau_comb / sp_g2_ptau_comb and
     * sp_g1_ptau_intt / sp_g2_ptau_intt (groth16/ptau_comb.h), with
     * be->threads host threads. NULL: the setup uses those CPU functions,
     * as it does when one returns SP_ERR_NOMEM (device memory short).
     * Returns SP_OK or an error with err filled. */
    sp_status (*ptau_comb_g1)(sp_backend *be, sp_g1_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                              char err[SP_ERR_LEN]);
    sp_status (*ptau_comb_g2)(sp_backend *be, sp_g2_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                              char err[SP_ERR_LEN]);
    sp_status (*ptau_intt_g1)(sp_backend *be, sp_g1_affine *out, const sp_g1_affine *in, unsigned log_n,
                              const sp_scalar *tw, const sp_scalar *pre, char err[SP_ERR_LEN]);
    sp_status (*ptau_intt_g2)(sp_backend *be, sp_g2_affine *out, const sp_g2_affine *in, unsigned log_n,
                              const sp_scalar *tw, const sp_scalar *pre, char err[SP_ERR_LEN]);
};

/*
 * Opens a backend by name: "cpu" (or "cpu:N", N 0..255: the same CPU
 * backend under that name, so that an engine can run several named CPU
 * devices, as tests of multi-device routing do), or a registered
 * provider's ("cuda" / "cuda:N", device N, default 0, when the CUDA
 * backend is linked); "auto" opens the first provider's auto_name when it
 * works (cuda:0 with a usable GPU), else cpu.
 * On output: *be a new backend (free with sp_backend_close), NULL on error.
 * Returns SP_OK, SP_ERR_UNSUPPORTED (CUDA not built in, unknown name),
 * SP_ERR_GPU (no such device), SP_ERR_NOMEM; err says why.
 */
sp_status sp_backend_open(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_backend_close(sp_backend *be);

/* How many devices the backend family `prefix` has here ("cuda": the CUDA
 * devices present, through its provider's count; "cpu": 1): what
 * "prefix:all" expands to. Returns -1 for an unknown prefix or a provider
 * that cannot count. */
int sp_backend_count(const char *prefix);

/* be->host_alloc / host_free when the backend has them, else malloc /
 * free. host_alloc returns NULL when out of memory. */
void *sp_backend_host_alloc(sp_backend *be, size_t bytes);
void sp_backend_host_free(sp_backend *be, void *p, size_t bytes);

/* The CPU backend, and the CPU's pieces of a proof for composition: a GPU
 * backend falls back to them when device memory is short, the prover's
 * finish phase runs the deferred G2 MSM with sp_cpu_msm_g2, and tests
 * compare with them. be supplies the thread count (be->threads).
 * sp_cpu_h_scalars: on input a, b, c the n = d->n evaluations (overwritten);
 *   on output h[0..pk->n_h) the H scalars of pk's convention.
 * sp_cpu_msm_g1/_g2: out = sum [s_i] bases_i, split != 0 the 0/1-aware MSM;
 *   pause: NULL, or the pause point its threads call between tasks.
 * Return SP_OK, SP_ERR_NOMEM, SP_ERR_NOT_CANONICAL (a scalar >= r). */
sp_status sp_backend_cpu_open(sp_backend **be, int threads) SP_WARN_UNUSED;
sp_status sp_cpu_h_scalars(sp_backend *be, sp_scalar *h, sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk,
                           const sp_ntt_domain *d, char err[SP_ERR_LEN]);
sp_status sp_cpu_msm_g1(sp_backend *be, sp_g1_jac *out, const sp_g1_affine *bases, const sp_scalar *s, size_t n,
                        int split, const sp_pause *pause, char err[SP_ERR_LEN]);
sp_status sp_cpu_msm_g2(sp_backend *be, sp_g2_jac *out, const sp_g2_affine *bases, const sp_scalar *s, size_t n,
                        int split, const sp_pause *pause, char err[SP_ERR_LEN]);

/*
 * Backends other than cpu come from providers that the program linking
 * them registers (the CUDA backend registers itself when its object is
 * linked in: gpu/backend/backend_cuda.c), so the library never names one.
 * A provider answers to `prefix` and `prefix:N`; `auto_name` is what
 * "auto" tries first (NULL: not tried).
 */
typedef struct {
    const char *prefix;    /* "cuda" */
    const char *auto_name; /* "cuda:0" */
    /* Opens the backend `name` (prefix or prefix:N); returns as
     * sp_backend_open, err filled on failure. */
    sp_status (*open)(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN]);
    /* The number of devices present (0 when none or the driver fails);
     * NULL: the provider cannot count (sp_backend_count returns -1). */
    int (*count)(void);
} sp_backend_provider;

/* Registers p (kept by pointer, so it must outlive every open; at most 8,
 * the first of a prefix wins). Call it before any sp_backend_open, as a
 * program starts: registration and opening are not synchronised. */
void sp_backend_register(const sp_backend_provider *p);

#endif
