/*
 * One proof's device half on the CUDA backend (sp_backend.prove), and the
 * warm-up at key attach, which runs the same device work on stand-in
 * values (backend_common.h).
 *
 * One proof with a, b, c ready (the engine's), in order (the context's
 * stream unless said):
 *   1. a and b copied to the device through the staged upload (from the
 *      engine's pinned pool directly, from pageable memory through its
 *      ring): a first, then b on the upload's stream while a moves to the
 *      H step's coset (copy_ab: what the copies add to the H step);
 *   2. the witness upload starts on the staged upload's own thread and
 *      stream (sp_cuda_upload: pageable host memory through a pinned ring),
 *      overlapping 3 (wit_up is its own duration);
 *   3. c = a * b, the H step and the H MSM over the H scalars where they
 *      were made (h_ntt, msm_h);
 *   4. the upload waited for and the witness turned into MSM scalars in
 *      place on the device (wit_ready);
 *   5. the witness MSMs A, B1, C (a suffix) and B2 over that one copy
 *      (msm_a, msm_b1, msm_c, msm_b2), split 0/1 as asked, each after a
 *      pause point (in->pause: pause_point).
 * With a, b, c deferred (in->fill: a lone proof's synthesis), the witness
 * goes first: 2 and 4, then 5 while the fill makes a, b, c on a host
 * thread of its own (fill; asked for no host domain: the device needs the
 * domain's constants only) and that thread then does 1 through the staged
 * upload (ab_up, in place of copy_ab); then 3 (fill_wait: what it waited
 * for that thread).
 * c = a * b is what a satisfying witness gives; for one that does not,
 * the proof fails verification either way (groth16/backend.h).
 * Fallbacks, each said once on stderr, results unchanged: no device room
 * for a, b, c: the H step on the CPU; none for the witness: its scalars
 * made on the host and copied by every MSM; an MSM whose scratch does not
 * fit even in chunks: that MSM on the CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend_common.h"
#include "groth16/prove.h"

/* The staging ring: 4 pinned buffers of up to 64 MiB each (256 MiB per
 * backend for a witness of 256 MiB or more), a quarter of the witness
 * each for smaller ones (pinning costs ~0.4 ms per MiB). */
#define SP_CB_SLOT_MAX ((size_t)64 << 20)
#define SP_CB_SLOT_MIN ((size_t)1 << 20)
#define SP_CB_SLOTS 4

typedef struct {
    sp_backend *be;
    sp_cb_impl *c;
    const sp_g16_pk *pk;
    const sp_backend_proof *in; /* NULL in the warm-up: stand-in values made on the device */
    const sp_ntt_domain *d;
    int split;
    sp_scalar *ws_host; /* the witness as MSM scalars on the host, made when a path needs them */
    const sp_scalar *ws; /* what the witness MSMs read: c->wit (device) or ws_host */
    int uploading;       /* a witness upload is in flight */
    int ab_done;         /* a and b (c too) already on the device: the fill's thread sent them */
    const sp_pause *pause; /* between the witness MSMs (a, b, c ready only), or NULL */
} run;

/* *buf (device, *cap elements) grown to n elements, contents lost. */
static sp_status grow(sp_cb_impl *c, sp_fr **buf, size_t *cap, size_t n)
{
    if (*cap >= n)
        return SP_OK;
    sp_cuda_dev_free(c->cu, *buf);
    *buf = NULL;
    *cap = 0;
    sp_status st = sp_cuda_try_malloc(c->cu, (void **)buf, n * sizeof(sp_fr));
    if (st == SP_OK)
        *cap = n;
    return st;
}

static sp_status get_domain(sp_cb_impl *c, sp_cuda_ntt_domain **out, unsigned log_n, int roots)
{
    for (int i = 0; i < c->n_dom; i++)
        if (c->dom[i].log_n == log_n && c->dom[i].roots == roots) {
            *out = c->dom[i].d;
            return SP_OK;
        }
    if (c->n_dom == SP_CUDA_DOMAINS) { /* full: drop the oldest */
        sp_cuda_ntt_domain_free(c->cu, c->dom[0].d);
        memmove(c->dom, c->dom + 1, sizeof c->dom[0] * (SP_CUDA_DOMAINS - 1));
        c->n_dom--;
    }
    sp_status st = sp_cuda_ntt_domain_create(c->cu, out, log_n, roots);
    if (st == SP_OK)
        c->dom[c->n_dom++] = (sp_cb_domain){*out, log_n, roots};
    return st;
}

/* Once per backend: why an MSM ran on the CPU. */
static void log_cpu_msm(sp_cb_impl *c, const char *group, size_t n)
{
    if (!c->cpu_msm_logged++)
        fprintf(stderr, "snarkpipe %s: %s MSM of %zu points on the CPU: %s (logged once)\n", c->name, group, n,
                sp_cuda_error(c->cu));
}

/* r->ws_host: the witness's MSM scalars on the host (made once). */
static sp_status ws_host(run *r, char err[SP_ERR_LEN])
{
    size_t nv = r->pk->n_vars;
    if (r->ws_host)
        return SP_OK;
    if (!r->in) {
        snprintf(err, SP_ERR_LEN, "%s: warm-up: no host witness", r->c->name);
        return SP_ERR_NOMEM;
    }
    if (!(r->ws_host = malloc(nv * sizeof *r->ws_host))) {
        snprintf(err, SP_ERR_LEN, "%s: out of memory for %zu witness scalars", r->c->name, nv);
        return SP_ERR_NOMEM;
    }
    sp_msm_scalars_from_fr_par(r->ws_host, r->in->w, nv, sp_cb_host_threads(r->be));
    return SP_OK;
}

/* ---- the witness ---- */

/* The staged upload for `bytes` of witness: made at the first proof (or
 * warm-up) of a key, made again larger for a larger witness. */
static sp_status upload_ready(sp_cb_impl *c, size_t bytes)
{
    size_t slot = (bytes / SP_CB_SLOTS + SP_CB_SLOT_MIN - 1) / SP_CB_SLOT_MIN * SP_CB_SLOT_MIN;
    slot = slot < SP_CB_SLOT_MIN ? SP_CB_SLOT_MIN : slot > SP_CB_SLOT_MAX ? SP_CB_SLOT_MAX : slot;
    if (c->up && c->up_slot >= slot)
        return SP_OK;
    sp_cuda_upload_free(c->up); /* none in flight: every proof waits for its own */
    c->up = NULL;
    c->up_slot = 0;
    sp_status st = sp_cuda_upload_create(c->cu, &c->up, slot, SP_CB_SLOTS);
    if (st == SP_OK)
        c->up_slot = slot;
    return st;
}

/* The largest piece the staged upload carries for a proof with pk: the
 * witness, or a, b, c in one piece. */
static size_t up_bytes(const sp_g16_pk *pk)
{
    size_t nv = pk->n_vars, abc = 3 * (size_t)pk->domain_size;
    return (nv > abc ? nv : abc) * sizeof(sp_fr);
}

/* Host arrays k of a, b, c (2 or 3, n values each) to dst[0..k n) through
 * the staged upload u (ready), arrays adjacent in memory in one piece,
 * each piece waited for. Touches no context state, so the fill's thread
 * may run it. Returns SP_OK, or an error with the reason in why. */
static sp_status upload_inputs(sp_cuda_upload *u, const sp_backend_proof *in, sp_fr *dst, size_t n, int k,
                               int threads, double *ms, char *why, size_t why_len)
{
    const sp_fr *src[3] = {in->a, in->b, in->c};
    sp_status st = SP_OK;
    *ms = 0;
    for (int i = 0, len; i < k && st == SP_OK; i += len) {
        for (len = 1; i + len < k && src[i + len] == src[i] + (size_t)len * n;)
            len++;
        double piece = 0;
        if ((st = sp_cuda_upload_start(u, dst + i * n, src[i], (size_t)len * n * sizeof(sp_fr), threads)) != SP_OK)
            snprintf(why, why_len, "a second upload at once");
        else
            st = sp_cuda_upload_wait(u, &piece, why, why_len);
        *ms += piece;
    }
    return st;
}

/* Step 1 without the staged upload (its pinned ring cannot be had): a and
 * b to dst[0..2 n) with plain copies. */
static sp_status copy_ab_plain(run *r, sp_fr *dst, size_t n, char err[SP_ERR_LEN])
{
    sp_status st = sp_cuda_copy(r->c->cu, dst, r->in->a, n * sizeof(sp_fr));
    if (st == SP_OK)
        st = sp_cuda_copy(r->c->cu, dst + n, r->in->b, n * sizeof(sp_fr));
    return st == SP_OK ? SP_OK : sp_cb_fail(r->c, st, "copy of a, b to the device", err);
}

/* Step 2: the witness upload starts, when the variant and device memory
 * allow (else witness_ready makes host scalars). */
static sp_status witness_begin(run *r, char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    size_t nv = r->pk->n_vars;
    if (!c->wit_overlap || r->ws) /* r->ws: the witness went first (fill) */
        return SP_OK;
    sp_status st = grow(c, &c->wit, &c->wit_cap, nv);
    if (st == SP_OK)
        st = upload_ready(c, up_bytes(r->pk));
    if (st == SP_ERR_NOMEM)
        return SP_OK;
    if (st == SP_OK && (st = sp_cuda_upload_start(c->up, c->wit, r->in->w, nv * sizeof(sp_fr),
                                                  sp_cb_host_threads(r->be))) == SP_OK)
        r->uploading = 1;
    return st == SP_OK ? SP_OK : sp_cb_fail(c, st, "witness upload", err);
}

/* Waits for an upload in flight; with err NULL its status is dropped (an
 * earlier error is being returned). */
static sp_status witness_wait(run *r, char err[SP_ERR_LEN])
{
    double ms = 0;
    char why[SP_ERR_LEN - 32];
    r->uploading = 0;
    sp_status st = sp_cuda_upload_wait(r->c->up, &ms, why, sizeof why);
    if (err && st != SP_OK)
        snprintf(err, SP_ERR_LEN, "%s: %s", r->c->name, why);
    else if (err && r->be->stage_hook)
        r->be->stage_hook(r->be->stage_ctx, "wit_up", ms);
    return st;
}

/* Step 4: r->ws set to the witness's MSM scalars, on the device when it
 * has room for them. */
static sp_status witness_ready(run *r, char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    size_t nv = r->pk->n_vars;
    double t0 = sp_cb_now_ms();
    sp_status st = SP_OK;
    if (r->uploading || !r->in) { /* on the device, in Montgomery form */
        if (r->uploading && (st = witness_wait(r, err)) != SP_OK)
            return st;
        if ((st = sp_cuda_fr_to_scalars(c->cu, c->wit, nv)) != SP_OK)
            return sp_cb_fail(c, st, "witness to MSM scalars", err);
        r->ws = (const sp_scalar *)c->wit;
        sp_cb_stage(r->be, "wit_ready", t0);
        return SP_OK;
    }
    if ((st = ws_host(r, err)) != SP_OK) /* the host does it: no room (or forced, for the checks) */
        return st;
    r->ws = r->ws_host;
    if ((st = grow(c, &c->wit, &c->wit_cap, nv)) == SP_ERR_NOMEM)
        return SP_OK; /* every MSM copies its scalars */
    if (st == SP_OK && (st = sp_cuda_copy(c->cu, c->wit, r->ws_host, nv * sizeof(sp_scalar))) == SP_OK)
        r->ws = (const sp_scalar *)c->wit;
    if (st != SP_OK)
        return sp_cb_fail(c, st, "copy of the witness scalars", err);
    sp_cb_stage(r->be, "wit_up", t0);
    return SP_OK;
}

/* ---- MSMs ---- */

/* An MSM stage's time; with profiling on (SP_CUDA_PROFILE=1) also its
 * phases on stderr, then cleared for the next MSM. */
static void msm_stage(run *r, const char *name, double t0)
{
    sp_cb_stage(r->be, name, t0);
    const char *p = sp_cuda_profile(r->c->cu);
    if (p[0]) {
        fprintf(stderr, "snarkpipe %s: %s: %s\n", r->c->name, name, p);
        sp_cuda_set_profile(r->c->cu, 1);
    }
}

/* *out = the G1 MSM of bases[0..n) (the resident copy when attached) and
 * the witness scalars from index off; on the CPU when its scratch does not
 * fit even in chunks. */
static sp_status msm_g1(run *r, sp_g1_jac *out, const sp_g1_affine *bases, size_t off, size_t n, const char *name,
                        char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    int gone;
    const sp_g1_affine *db = sp_cb_resident_view(c, bases, n * sizeof *bases, &gone);
    double t0 = sp_cb_now_ms();
    sp_status st = sp_cuda_msm_g1_stream(c->cu, out, db ? db : bases, r->ws + off, n, 0, r->split, 0);
    if (st == SP_ERR_NOMEM && gone) {
        sp_cb_no_fallback(c, "G1", n, err);
    } else if (st == SP_ERR_NOMEM && r->in) {
        log_cpu_msm(c, "G1", n);
        if ((st = ws_host(r, err)) == SP_OK)
            st = sp_cpu_msm_g1(r->be, out, bases, r->ws_host + off, n, r->split, NULL, err);
    } else if (st != SP_OK) {
        sp_cb_fail(c, st, "G1 MSM", err);
    }
    if (st == SP_OK)
        msm_stage(r, name, t0);
    return st;
}

static sp_status msm_g2(run *r, sp_g2_jac *out, const sp_g2_affine *bases, size_t n, const char *name,
                        char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    int gone;
    const sp_g2_affine *db = sp_cb_resident_view(c, bases, n * sizeof *bases, &gone);
    double t0 = sp_cb_now_ms();
    sp_status st = sp_cuda_msm_g2_stream(c->cu, out, db ? db : bases, r->ws, n, 0, r->split, 0);
    if (st == SP_ERR_NOMEM && gone) {
        sp_cb_no_fallback(c, "G2", n, err);
    } else if (st == SP_ERR_NOMEM && r->in) {
        log_cpu_msm(c, "G2", n);
        if ((st = ws_host(r, err)) == SP_OK)
            st = sp_cpu_msm_g2(r->be, out, bases, r->ws_host, n, r->split, NULL, err);
    } else if (st != SP_OK) {
        sp_cb_fail(c, st, "G2 MSM", err);
    }
    if (st == SP_OK)
        msm_stage(r, name, t0);
    return st;
}

/* A pause point (r->pause) before a witness MSM. Nothing is in flight
 * there and the proof's device state is the witness's scalars alone, so
 * mu is given up while the caller holds the proof: a proof that preempts
 * this one runs on the backend meanwhile. When anything used or freed the
 * buffers, the witness is staged again. */
static sp_status pause_point(run *r, char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    if (!r->pause)
        return SP_OK;
    unsigned long uses = c->uses;
    pthread_mutex_unlock(&c->mu);
    sp_pause_point(r->pause);
    pthread_mutex_lock(&c->mu);
    if (c->uses == uses)
        return SP_OK;
    sp_status st = sp_cuda_bind(c->cu);
    if (st != SP_OK)
        return sp_cb_fail(c, st, "select device", err);
    if (r->ws == r->ws_host) /* host scalars: each MSM copies its own */
        return SP_OK;
    r->ws = NULL;
    if ((st = witness_begin(r, err)) == SP_OK)
        st = witness_ready(r, err);
    return st;
}

/* Step 5 (all = 0, the warm-up: A and B2 only, which load every kernel
 * B1 and C use), a pause point before each MSM. */
static sp_status witness_msms(run *r, sp_backend_msms *out, int g2, int all, char err[SP_ERR_LEN])
{
    const sp_g16_pk *pk = r->pk;
    size_t nv = pk->n_vars, skip = (size_t)pk->vk.n_public + 1;
    sp_status st = pause_point(r, err);
    if (st == SP_OK)
        st = msm_g1(r, &out->a, pk->a, 0, nv, "msm_a", err);
    if (st == SP_OK && all && (st = pause_point(r, err)) == SP_OK)
        st = msm_g1(r, &out->b1, pk->b1, 0, nv, "msm_b1", err);
    if (st == SP_OK && all && (st = pause_point(r, err)) == SP_OK)
        st = msm_g1(r, &out->c, pk->c, skip, nv - skip, "msm_c", err);
    if (st == SP_OK && g2 && (st = pause_point(r, err)) == SP_OK)
        st = msm_g2(r, &out->b2, pk->b2, nv, "msm_b2", err);
    return st;
}

/* ---- the H step ---- */

/* The H MSM over H scalars s (device or host); on the CPU when its
 * scratch does not fit even in chunks (s copied back first when it is on
 * the device). */
static sp_status h_msm(run *r, sp_g1_jac *out, const sp_scalar *s, char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    const sp_g16_pk *pk = r->pk;
    int gone;
    const sp_g1_affine *db = sp_cb_resident_view(c, pk->h, pk->n_h * sizeof *pk->h, &gone);
    double t0 = sp_cb_now_ms();
    sp_status st = sp_cuda_msm_g1_stream(c->cu, out, db ? db : pk->h, s, pk->n_h, 0, 0, 0);
    if (st == SP_ERR_NOMEM && gone) {
        sp_cb_no_fallback(c, "H", pk->n_h, err);
    } else if (st == SP_ERR_NOMEM && r->in) {
        log_cpu_msm(c, "G1", pk->n_h);
        sp_scalar *hs = (const sp_fr *)s == c->abc ? malloc(pk->n_h * sizeof *hs) : NULL;
        if ((const sp_fr *)s == c->abc && !hs) {
            snprintf(err, SP_ERR_LEN, "%s: out of memory for %zu H scalars", c->name, pk->n_h);
            return SP_ERR_NOMEM;
        }
        if (hs && (st = sp_cuda_copy(c->cu, hs, s, pk->n_h * sizeof *hs)) != SP_OK)
            sp_cb_fail(c, st, "copy of the H scalars to the host", err);
        else
            st = sp_cpu_msm_g1(r->be, out, pk->h, hs ? hs : s, pk->n_h, 0, NULL, err);
        free(hs);
    } else if (st != SP_OK) {
        sp_cb_fail(c, st, "H MSM", err);
    }
    if (st == SP_OK)
        msm_stage(r, "msm_h", t0);
    return st;
}

/* Steps 1-3 when the device has no room for a, b, c: the witness upload
 * starts at once, the H step runs on the CPU, the H MSM from its host
 * scalars. */
static sp_status h_on_cpu(run *r, sp_g1_jac *out, char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    const sp_g16_pk *pk = r->pk;
    if (!c->cpu_h_logged++)
        fprintf(stderr, "snarkpipe %s: no device memory for a, b, c (%.1f MiB): H step on the CPU (%s)\n", c->name,
                3.0 * r->d->n * sizeof(sp_fr) / 1048576.0, sp_cuda_error(c->cu));
    sp_status st = witness_begin(r, err);
    sp_scalar *hs = st == SP_OK ? malloc(pk->n_h * sizeof *hs) : NULL;
    if (st == SP_OK && !hs) {
        snprintf(err, SP_ERR_LEN, "%s: out of memory for %zu H scalars", c->name, pk->n_h);
        st = SP_ERR_NOMEM;
    }
    /* a fill's proof carries the domain's constants only: the CPU's H
     * step needs its twiddles too */
    sp_ntt_domain *full = NULL;
    if (st == SP_OK && !r->d->tw && r->d->n > 1 &&
        sp_ntt_domain_create(&full, r->d->log_n, r->d->roots, sp_cb_host_threads(r->be)) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s: out of memory for a host domain of 2^%u", c->name, r->d->log_n);
        st = SP_ERR_NOMEM;
    }
    double t0 = sp_cb_now_ms();
    if (st == SP_OK && (st = sp_cpu_h_scalars(r->be, hs, r->in->a, r->in->b, r->in->c, pk, full ? full : r->d,
                                              err)) == SP_OK) {
        sp_cb_stage(r->be, "h", t0);
        st = h_msm(r, out, hs, err);
    }
    sp_ntt_domain_free(full);
    free(hs);
    return st;
}

/* Step 1 into c->abc's a and b with the H step's first move: a copied,
 * kept in c's place (c = a * b needs it), then b copied on the staged
 * upload's stream while a moves to the coset on the context's, and c =
 * a * b. *a_on_coset 1 when that happened (0: a and b copied one after the
 * other, when the staged upload's ring cannot be had). *coset_ms the time
 * of a's move, which the caller counts as the H step's: copy_ab is what
 * the copies added. */
static sp_status copy_ab(run *r, const sp_cuda_ntt_domain *gd, int bellperson, int *a_on_coset, double *coset_ms,
                         char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    size_t n = r->pk->domain_size;
    sp_fr *da = c->abc, *db = da + n, *dc = db + n;
    sp_status st = upload_ready(c, up_bytes(r->pk));
    if (st == SP_ERR_NOMEM)
        return copy_ab_plain(r, da, n, err);
    if (st != SP_OK)
        return sp_cb_fail(c, st, "staged upload", err);
    int threads = sp_cb_host_threads(r->be);
    double ms;
    char why[SP_ERR_LEN - 48];
    if ((st = upload_inputs(c->up, r->in, da, n, 1, threads, &ms, why, sizeof why)) == SP_OK &&
        (st = sp_cuda_upload_start(c->up, db, r->in->b, n * sizeof(sp_fr), threads)) == SP_OK) {
        double t0 = sp_cb_now_ms();
        sp_status dev = sp_cuda_copy(c->cu, dc, da, n * sizeof(sp_fr));
        if (dev == SP_OK)
            dev = sp_cuda_h_coset(c->cu, da, gd, r->d, bellperson);
        *coset_ms = sp_cb_now_ms() - t0;
        st = sp_cuda_upload_wait(c->up, &ms, why, sizeof why); /* waited for even after an error: it writes db */
        if (dev != SP_OK)
            return sp_cb_fail(c, dev, "H step", err);
        if (st == SP_OK && (dev = sp_cuda_fr_mul(c->cu, dc, dc, db, n)) != SP_OK)
            return sp_cb_fail(c, dev, "c = a * b", err);
    }
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s: copy of a, b to the device: %s", c->name,
                 st == SP_ERR_INVALID_ARG ? "a second upload at once" : why);
        return st;
    }
    *a_on_coset = 1;
    return SP_OK;
}

/* Steps 1-3 (with the warm-up's stand-in a and b made on the device). */
static sp_status h_part(run *r, sp_g1_jac *out, char err[SP_ERR_LEN])
{
    sp_cb_impl *c = r->c;
    const sp_g16_pk *pk = r->pk;
    size_t n = pk->domain_size;
    sp_cuda_ntt_domain *gd;
    sp_status st = get_domain(c, &gd, pk->log2_domain, (int)sp_g16_roots_for(pk));
    if (st != SP_OK)
        return sp_cb_fail(c, st, "NTT domain", err);
    if ((st = grow(c, &c->abc, &c->abc_cap, 3 * n)) == SP_ERR_NOMEM && r->in)
        return h_on_cpu(r, out, err);
    if (st != SP_OK)
        return sp_cb_fail(c, st, "device buffer for a, b, c", err);
    sp_fr *da = c->abc, *db = da + n, *dc = db + n;
    int bellperson = pk->h_kind != SP_G16_H_SNARKJS;
    double t0 = sp_cb_now_ms(), coset_ms = 0;
    int a_on_coset = 0;
    if (!r->in) {
        if ((st = sp_cuda_fr_fill_sample(c->cu, da, 2 * n, 0x5eed, 0)) != SP_OK)
            return sp_cb_fail(c, st, "stand-in a, b", err);
    } else {
        if (!r->ab_done) {
            if ((st = copy_ab(r, gd, bellperson, &a_on_coset, &coset_ms, err)) != SP_OK)
                return st;
            sp_cb_stage(r->be, "copy_ab", t0 + coset_ms);
        }
        if ((st = witness_begin(r, err)) != SP_OK)
            return st;
    }
    t0 = sp_cb_now_ms() - coset_ms;
    if (!a_on_coset && (st = sp_cuda_fr_mul(c->cu, dc, da, db, n)) != SP_OK)
        return sp_cb_fail(c, st, "c = a * b", err);
    if ((st = sp_cuda_h_step(c->cu, (sp_scalar *)da, da, db, dc, gd, r->d, bellperson, a_on_coset)) != SP_OK)
        return sp_cb_fail(c, st, "H step", err);
    sp_cb_stage(r->be, "h_ntt", t0);
    /* the warm-up's H MSM over scalars mostly 0 and 1: the kernels and the
     * scratch of a real one (sized by the count, not the values) in a
     * fraction of its time */
    if (!r->in && ((st = sp_cuda_fr_fill_sample(c->cu, da, pk->n_h, 0x4a11, 64)) != SP_OK ||
                   (st = sp_cuda_fr_to_scalars(c->cu, da, pk->n_h)) != SP_OK))
        return sp_cb_fail(c, st, "stand-in H scalars", err);
    return h_msm(r, out, (const sp_scalar *)da, err);
}

/* The constants of the CPU domain that sp_cuda_h_step reads (no twiddles:
 * building those costs 32 bytes and a multiplication per point). */
static sp_status domain_consts(sp_ntt_domain *d, const sp_g16_pk *pk)
{
    memset(d, 0, sizeof *d);
    d->log_n = pk->log2_domain;
    d->n = (size_t)1 << d->log_n;
    d->roots = sp_g16_roots_for(pk);
    sp_fr_set_u64(&d->gen, (uint64_t)d->roots);
    if (d->log_n > SP_NTT_MAX_LOG || sp_ntt_root_of_unity(&d->omega, d->log_n, d->roots) != SP_OK ||
        sp_ntt_root_of_unity(&d->omega_2n, d->log_n + 1, d->roots) != SP_OK)
        return SP_ERR_INVALID_ARG;
    return SP_OK;
}

/* in->fill on a host thread of its own, beside the witness's work; then,
 * when dst is set, a and b (c too: k = 3) sent to dst through the staged
 * upload from that thread, still beside the witness MSMs. */
typedef struct {
    const sp_backend *be;
    const sp_backend_proof *in;
    sp_cuda_upload *up;
    sp_fr *dst;
    size_t n;
    int k, threads;
    sp_status st;
    double ms, up_ms;
    char err[SP_ERR_LEN];
} fill_job;

static void *fill_main(void *arg)
{
    fill_job *j = arg;
    double t0 = sp_cb_now_ms();
    j->st = sp_backend_fill(j->be, j->in, NULL, j->err);
    j->ms = sp_cb_now_ms() - t0;
    char why[SP_ERR_LEN - 48];
    if (j->st == SP_OK && j->dst &&
        (j->st = upload_inputs(j->up, j->in, j->dst, j->n, j->k, j->threads, &j->up_ms, why, sizeof why)) != SP_OK)
        snprintf(j->err, SP_ERR_LEN, "%s: copy of a, b, c to the device: %s", j->be->name, why);
    return NULL;
}

/* The proof with a, b, c deferred: the witness's upload, then its MSMs
 * while the fill runs and sends a and b, then the H part. fill is always
 * waited for before returning (it writes the caller's a, b, c). */
static sp_status prove_filled(run *r, sp_backend_msms *out, char err[SP_ERR_LEN])
{
    /* The device needs only the domain's constants, so the fill is asked
     * for none; the witness's upload ends before the fill starts (its
     * host copies would share the cores with the synthesis and slow it
     * down, while the witness MSMs waited for it). */
    sp_cb_impl *c = r->c;
    size_t n = r->pk->domain_size;
    sp_ntt_domain consts;
    sp_status st = domain_consts(&consts, r->pk);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s: no domain of 2^%u", c->name, r->pk->log2_domain);
        return st;
    }
    r->d = &consts;
    if ((st = witness_begin(r, err)) == SP_OK)
        st = witness_ready(r, err);
    if (st != SP_OK)
        return st;
    fill_job j = {r->be, r->in, NULL, NULL, n, 2, sp_cb_host_threads(r->be), SP_OK, 0, 0, ""};
    /* room and a ring for a, b, c: the fill's thread sends them (else the
     * H part copies them, or runs on the CPU) */
    if (grow(c, &c->abc, &c->abc_cap, 3 * n) == SP_OK && upload_ready(c, up_bytes(r->pk)) == SP_OK) {
        j.up = c->up;
        j.dst = c->abc;
    }
    pthread_t th;
    int threaded = pthread_create(&th, NULL, fill_main, &j) == 0;
    if (!threaded) /* no thread to be had: one after the other */
        fill_main(&j);
    st = witness_msms(r, out, r->in->g2, 1, err);
    double t0 = sp_cb_now_ms();
    if (threaded)
        pthread_join(th, NULL);
    if (st != SP_OK)
        return st;
    if (r->be->stage_hook) {
        r->be->stage_hook(r->be->stage_ctx, "fill", j.ms);
        if (j.dst && j.st == SP_OK)
            r->be->stage_hook(r->be->stage_ctx, "ab_up", j.up_ms);
        sp_cb_stage(r->be, "fill_wait", t0);
    }
    if (j.st != SP_OK) {
        memcpy(err, j.err, SP_ERR_LEN);
        return j.st;
    }
    r->ab_done = j.dst != NULL;
    st = h_part(r, &out->h, err);
    r->d = NULL; /* consts goes out of scope */
    return st;
}

sp_status sp_cb_prove(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in, char err[SP_ERR_LEN])
{
    sp_cb_impl *c = be->impl;
    const sp_g16_pk *pk = in->pk;
    const sp_ntt_domain *d = NULL;
    sp_status st = SP_OK;
    if (!in->fill && (st = sp_backend_fill(be, in, &d, err)) != SP_OK)
        return st;
    if (d && d->log_n > SP_NTT_MAX_LOG) {
        snprintf(err, SP_ERR_LEN, "%s: a domain of 2^%u", c->name, d->log_n);
        return SP_ERR_INVALID_ARG;
    }
    /* a fill's proof does not pause: its fill thread sends a and b to the
     * device during the witness MSMs */
    run r = {be, c, pk, in, d, in->split, NULL, NULL, 0, 0, in->fill ? NULL : in->pause};
    pthread_mutex_lock(&c->mu);
    c->uses++;
    if ((st = sp_cuda_bind(c->cu)) != SP_OK)
        sp_cb_fail(c, st, "select device", err);
    else if (in->fill)
        st = prove_filled(&r, out, err);
    else if ((st = h_part(&r, &out->h, err)) == SP_OK && (st = witness_ready(&r, err)) == SP_OK)
        st = witness_msms(&r, out, in->g2, 1, err);
    if (r.uploading) /* an error came first: the upload still reads w and writes c->wit */
        witness_wait(&r, NULL);
    pthread_mutex_unlock(&c->mu);
    free(r.ws_host);
    return st;
}

size_t sp_cb_proof_bytes(const sp_g16_pk *pk)
{
    return 5 * (size_t)pk->domain_size * sizeof(sp_fr) + (size_t)pk->n_vars * sizeof(sp_fr);
}

/* ---- warm-up ---- */

/* The staged upload's thread, stream and ring once, on a page of zeros. */
static sp_status warm_upload(sp_cb_impl *c, size_t bytes, char err[SP_ERR_LEN])
{
    static const sp_fr zeros[64];
    double ms;
    char why[SP_ERR_LEN - 32];
    sp_status st = upload_ready(c, bytes);
    if (st == SP_OK && c->wit_cap >= 64 && (st = sp_cuda_upload_start(c->up, c->wit, zeros, sizeof zeros, 1)) == SP_OK &&
        (st = sp_cuda_upload_wait(c->up, &ms, why, sizeof why)) != SP_OK)
        snprintf(err, SP_ERR_LEN, "%s: %s", c->name, why);
    else if (st != SP_OK)
        sp_cb_fail(c, st, "staged upload", err);
    return st;
}

void sp_cb_warm_locked(sp_backend *be, const sp_g16_pk *pk)
{
    sp_cb_impl *c = be->impl;
    char err[SP_ERR_LEN] = "";
    sp_ntt_domain d;
    sp_g1_jac h;
    sp_backend_msms m;
    run r = {be, c, pk, NULL, &d, 1, NULL, NULL, 0, 0, NULL};
    c->uses++;
    void (*hook)(void *, const char *, double) = be->stage_hook; /* stand-in stages are nobody's */
    be->stage_hook = NULL;
    sp_status st = domain_consts(&d, pk);
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "%s: no domain of 2^%u", c->name, pk->log2_domain);
    if (st == SP_OK && (st = grow(c, &c->wit, &c->wit_cap, pk->n_vars)) != SP_OK)
        sp_cb_fail(c, st, "device buffer for the witness", err);
    if (st == SP_OK)
        st = warm_upload(c, up_bytes(pk), err);
    if (st == SP_OK)
        st = h_part(&r, &h, err);
    if (st == SP_OK && (st = sp_cuda_fr_fill_sample(c->cu, c->wit, pk->n_vars, 0x3177, 16)) != SP_OK)
        sp_cb_fail(c, st, "stand-in witness", err);
    if (st == SP_OK)
        st = witness_ready(&r, err);
    if (st == SP_OK)
        st = witness_msms(&r, &m, 1, 0, err);
    be->stage_hook = hook;
    if (st != SP_OK)
        fprintf(stderr, "snarkpipe %s: warm-up for the key of 2^%u not done (%s); the first proof sets up its "
                "buffers\n", c->name, pk->log2_domain, err);
}

void sp_cb_proof_free_locked(sp_cb_impl *c)
{
    c->uses++;
    sp_cuda_upload_free(c->up);
    c->up = NULL;
    c->up_slot = 0;
    for (int i = 0; i < c->n_dom; i++)
        sp_cuda_ntt_domain_free(c->cu, c->dom[i].d);
    c->n_dom = 0;
    sp_cuda_dev_free(c->cu, c->abc);
    sp_cuda_dev_free(c->cu, c->wit);
    c->abc = c->wit = NULL;
    c->abc_cap = c->wit_cap = 0;
}
