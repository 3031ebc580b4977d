/* bellperson .params / .vk files and the 192-byte proof (see params.h). */
#include "groth16/params.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "groth16/pointio.h"
#include "util/curves.h"
#include "util/file.h"
#include "util/progress.h"

#define G1U 96
#define G2U 192
#define VK_HEAD (3 * G1U + 3 * G2U) /* alpha, beta, delta in G1; beta, gamma, delta in G2 */

sp_status sp_bp_curve_check(char err[SP_ERR_LEN])
{
#if SP_CURVE_BN254
    sp_bin_errf(err, "bellperson .params/.vk files and 192-byte proofs are bls12-381's; this is the %s prover",
                sp_curve_label(SP_CURVE_ID_THIS));
    return SP_ERR_UNSUPPORTED;
#else
    (void)err;
    return SP_OK;
#endif
}

/* ---- densities ---- */

size_t sp_g16_density_count(const uint64_t *bits, size_t n)
{
    size_t c = 0;
    for (size_t w = 0; w < n / 64; w++)
        c += (size_t)__builtin_popcountll(bits[w]);
    if (n % 64)
        c += (size_t)__builtin_popcountll(bits[n / 64] & ((1ULL << (n % 64)) - 1));
    return c;
}

static void bit_set(uint64_t *bits, size_t i)
{
    bits[i / 64] |= 1ULL << (i % 64);
}

sp_status sp_g16_density_alloc(sp_g16_density *d, uint32_t n_vars, uint32_t n_public)
{
    memset(d, 0, sizeof *d);
    if (n_public >= n_vars)
        return SP_ERR_INVALID_ARG;
    size_t words = ((size_t)n_vars + 63) / 64;
    d->a = calloc(words, sizeof *d->a);
    d->b = calloc(words, sizeof *d->b);
    if (!d->a || !d->b) {
        sp_g16_density_free(d);
        return SP_ERR_NOMEM;
    }
    d->n_vars = n_vars;
    d->n_public = n_public;
    for (size_t i = 0; i <= n_public; i++)
        bit_set(d->a, i);
    return SP_OK;
}

void sp_g16_density_free(sp_g16_density *d)
{
    free(d->a);
    free(d->b);
    memset(d, 0, sizeof *d);
}

sp_status sp_g16_density_from_r1cs(sp_g16_density *d, const sp_r1cs *cs)
{
    sp_status st = sp_g16_density_alloc(d, cs->h.n_wires, sp_r1cs_n_public(&cs->h));
    if (st != SP_OK)
        return st;
    for (uint64_t k = 0; k < cs->a.nnz; k++)
        bit_set(d->a, cs->a.col[k]);
    for (uint64_t k = 0; k < cs->b.nnz; k++)
        bit_set(d->b, cs->b.col[k]);
    return SP_OK;
}

sp_status sp_g16_density_from_pk(sp_g16_density *d, const sp_g16_pk *pk)
{
    sp_status st = sp_g16_density_alloc(d, pk->n_vars, pk->vk.n_public);
    if (st != SP_OK)
        return st;
    for (size_t i = 0; i < pk->n_vars; i++) {
        if (!sp_g1_affine_is_inf(&pk->a[i]))
            bit_set(d->a, i);
        if (!sp_g1_affine_is_inf(&pk->b1[i]))
            bit_set(d->b, i);
    }
    return SP_OK;
}

/* ---- file mapping ---- */

static sp_status map_file(const uint8_t **data, size_t *len, const char *path, const char *what, char *err)
{
    int fd;
    uint64_t size;
    if (sp_file_open_regular(&fd, &size, path, what, err) != SP_OK)
        return SP_ERR_IO;
    *len = (size_t)size;
    *data = (const uint8_t *)"";
    if (*len) {
        void *m = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            sp_bin_errf(err, "%s: cannot map %s: %s", what, path, strerror(errno));
            close(fd);
            return SP_ERR_IO;
        }
        *data = m;
    }
    close(fd);
    return SP_OK;
}

static void unmap_file(const uint8_t *data, size_t len)
{
    if (len)
        munmap((void *)data, len);
}

/* ---- layout: every count checked against the bytes left ---- */

typedef struct {
    uint64_t off; /* of the first point */
    uint32_t n;
} bp_vec;

typedef struct {
    bp_vec ic, h, l, a, bg1, bg2;
} bp_layout;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static sp_status vec_at(bp_vec *v, uint64_t *pos, size_t len, const uint8_t *d, int g2, const char *what,
                        const char *name, char *err)
{
    uint64_t psize = g2 ? G2U : G1U;
    if (len - *pos < 4) {
        sp_bin_errf(err, "%s: file ends before the %s count", what, name);
        return SP_ERR_TRUNCATED;
    }
    v->n = be32(d + *pos);
    *pos += 4;
    if ((uint64_t)v->n * psize > len - *pos) {
        sp_bin_errf(err, "%s: %s claims more points than the rest of the file holds", what, name);
        return SP_ERR_TRUNCATED;
    }
    v->off = *pos;
    *pos += v->n * psize;
    return SP_OK;
}

/* The vk part (header + ic), then for .params the five vectors; the file
 * must end exactly after the last one. */
static sp_status layout(bp_layout *lo, const uint8_t *d, size_t len, int full, const char *what, char *err)
{
    uint64_t pos = VK_HEAD;
    sp_status st;
    memset(lo, 0, sizeof *lo);
    if (len < VK_HEAD) {
        sp_bin_errf(err, "%s: too short for the %d-byte verifying-key header", what, VK_HEAD);
        return SP_ERR_TRUNCATED;
    }
    if ((st = vec_at(&lo->ic, &pos, len, d, 0, what, "ic", err)) != SP_OK)
        return st;
    if (full && ((st = vec_at(&lo->h, &pos, len, d, 0, what, "h", err)) != SP_OK ||
                 (st = vec_at(&lo->l, &pos, len, d, 0, what, "l", err)) != SP_OK ||
                 (st = vec_at(&lo->a, &pos, len, d, 0, what, "a", err)) != SP_OK ||
                 (st = vec_at(&lo->bg1, &pos, len, d, 0, what, "b_g1", err)) != SP_OK ||
                 (st = vec_at(&lo->bg2, &pos, len, d, 1, what, "b_g2", err)) != SP_OK))
        return st;
    if (pos != len) {
        sp_bin_errf(err, "%s: unexpected bytes after the last vector", what);
        return SP_ERR_FORMAT;
    }
    if (lo->ic.n == 0) {
        sp_bin_errf(err, "%s: ic is empty (it needs one point per input, wire 0 included)", what);
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

/* The counts against each other and the density. */
static sp_status check_counts(const bp_layout *lo, const sp_g16_density *d, char *err)
{
    uint64_t n_vars = (uint64_t)lo->ic.n + lo->l.n, n = (uint64_t)lo->h.n + 1;
    unsigned log2;
    if (n_vars > UINT32_MAX) {
        sp_bin_errf(err, "params: ic and l hold more than 2^32 - 1 wires");
        return SP_ERR_FORMAT;
    }
    if (!sp_g16_domain_log2(&log2, n)) {
        sp_bin_errf(err, "params: h must hold n - 1 points for a power-of-two domain n, and does not");
        return SP_ERR_FORMAT;
    }
    if (lo->bg1.n != lo->bg2.n) {
        sp_bin_errf(err, "params: b_g1 and b_g2 hold different numbers of points");
        return SP_ERR_FORMAT;
    }
    if (!d) {
        if (lo->a.n != n_vars || lo->bg1.n != n_vars) {
            sp_bin_errf(err, "params: a and b do not hold a point per wire: the circuit's density is needed");
            return SP_ERR_FORMAT;
        }
        return SP_OK;
    }
    if (d->n_vars != n_vars || d->n_public + 1ULL != lo->ic.n) {
        sp_bin_errf(err, "params: the density's wires or public inputs are not the file's");
        return SP_ERR_FORMAT;
    }
    size_t ca = sp_g16_density_count(d->a, d->n_vars), cb = sp_g16_density_count(d->b, d->n_vars);
    if (sp_g16_density_count(d->a, lo->ic.n) != lo->ic.n) {
        sp_bin_errf(err, "params: the A density must list every input wire (bellperson always does)");
        return SP_ERR_INVALID_ARG;
    }
    if (ca != lo->a.n || cb != lo->bg1.n) {
        sp_bin_errf(err, "params: a or b does not hold as many points as the circuit's densities have");
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

/* ---- decoding ---- */

static sp_status header_point(void *out, const uint8_t *in, int g2, const char *what, const char *name,
                              unsigned flags, char *err)
{
    sp_pt_err e = sp_pt_decode(out, in, SP_PTF_ZCASH_U, g2, 0, flags);
    if (e == SP_PT_OK)
        return SP_OK;
    sp_bin_errf(err, "%s: %s: %s", what, name, sp_pt_err_str(e));
    return sp_pt_err_status(e);
}

static sp_status decode_vk_head(sp_g16_vk *vk, const uint8_t *d, unsigned flags, const char *what, char *err)
{
    sp_status st;
    if ((st = header_point(&vk->alpha1, d, 0, what, "alpha_g1", flags, err)) != SP_OK ||
        (st = header_point(&vk->beta1, d + G1U, 0, what, "beta_g1", flags, err)) != SP_OK ||
        (st = header_point(&vk->beta2, d + 2 * G1U, 1, what, "beta_g2", flags, err)) != SP_OK ||
        (st = header_point(&vk->gamma2, d + 2 * G1U + G2U, 1, what, "gamma_g2", flags, err)) != SP_OK ||
        (st = header_point(&vk->delta1, d + 2 * G1U + 2 * G2U, 0, what, "delta_g1", flags, err)) != SP_OK ||
        (st = header_point(&vk->delta2, d + 3 * G1U + 2 * G2U, 1, what, "delta_g2", flags, err)) != SP_OK)
        return st;
    return SP_OK;
}

static sp_status decode_vec(void *out, const uint8_t *d, const bp_vec *v, int g2, const char *what,
                            const char *name, unsigned flags, int threads, char *err)
{
    size_t bad = 0;
    sp_progress_part(name);
    sp_pt_err e = sp_pt_decode_array(out, &bad, d + v->off, v->n, SP_PTF_ZCASH_U, g2, 0, flags, threads);
    if (e == SP_PT_OK)
        return SP_OK;
    sp_bin_errf(err, "%s: %s point %zu: %s", what, name, bad, sp_pt_err_str(e));
    return sp_pt_err_status(e);
}

/* Moves the n_set decoded points at the front of p (elements of esz bytes)
 * to the wires whose bit is set, infinity elsewhere. Works from the end:
 * a point only moves up, so nothing unread is overwritten. */
static void expand(void *p, size_t esz, size_t n_vars, const uint64_t *bits, size_t n_set)
{
    uint8_t *b = p;
    size_t k = n_set;
    for (size_t i = n_vars; i-- > 0;) {
        if (bits && !sp_g16_density_get(bits, i)) {
            memset(b + i * esz, 0, esz); /* (0, 0): infinity */
        } else {
            k--;
            if (k != i)
                memmove(b + i * esz, b + k * esz, esz);
        }
    }
}

sp_status sp_bp_vk_parse(sp_g16_vk *vk, const uint8_t *data, size_t len, unsigned flags, char err[SP_ERR_LEN])
{
    bp_layout lo;
    memset(vk, 0, sizeof *vk);
    sp_status st = sp_bp_curve_check(err);
    if (st == SP_OK)
        st = layout(&lo, data, len, 0, "vk", err);
    if (st != SP_OK)
        return st;
    if (sp_g16_vk_alloc(vk, lo.ic.n - 1) != SP_OK) {
        sp_bin_errf(err, "vk: out of memory");
        return SP_ERR_NOMEM;
    }
    if ((st = decode_vk_head(vk, data, flags, "vk", err)) != SP_OK ||
        (st = decode_vec(vk->ic, data, &lo.ic, 0, "vk", "ic", flags, 1, err)) != SP_OK)
        sp_g16_vk_free(vk);
    return st;
}

sp_status sp_bp_vk_read(sp_g16_vk *vk, const char *path, unsigned flags, char err[SP_ERR_LEN])
{
    const uint8_t *d;
    size_t len;
    memset(vk, 0, sizeof *vk);
    sp_status st = map_file(&d, &len, path, "vk", err);
    if (st != SP_OK)
        return st;
    st = sp_bp_vk_parse(vk, d, len, flags, err);
    unmap_file(d, len);
    return st;
}

static sp_status decode_params(sp_g16_pk *pk, const uint8_t *data, const bp_layout *lo, const sp_g16_density *d,
                               unsigned flags, int threads, char *err)
{
    const char *w = "params";
    sp_status st;
    if ((st = decode_vk_head(&pk->vk, data, flags, w, err)) != SP_OK ||
        (st = decode_vec(pk->vk.ic, data, &lo->ic, 0, w, "ic", flags, threads, err)) != SP_OK ||
        (st = decode_vec(pk->h, data, &lo->h, 0, w, "h", flags, threads, err)) != SP_OK ||
        (st = decode_vec(pk->c, data, &lo->l, 0, w, "l", flags, threads, err)) != SP_OK ||
        (st = decode_vec(pk->a, data, &lo->a, 0, w, "a", flags, threads, err)) != SP_OK ||
        (st = decode_vec(pk->b1, data, &lo->bg1, 0, w, "b_g1", flags, threads, err)) != SP_OK ||
        (st = decode_vec(pk->b2, data, &lo->bg2, 1, w, "b_g2", flags, threads, err)) != SP_OK)
        return st;
    expand(pk->a, sizeof *pk->a, pk->n_vars, d ? d->a : NULL, lo->a.n);
    expand(pk->b1, sizeof *pk->b1, pk->n_vars, d ? d->b : NULL, lo->bg1.n);
    expand(pk->b2, sizeof *pk->b2, pk->n_vars, d ? d->b : NULL, lo->bg2.n);
    return SP_OK;
}

sp_status sp_bp_params_parse(sp_g16_pk *pk, const uint8_t *data, size_t len, const sp_g16_density *d,
                             unsigned flags, int threads, char err[SP_ERR_LEN])
{
    bp_layout lo;
    memset(pk, 0, sizeof *pk);
    sp_status st = sp_bp_curve_check(err);
    if (st == SP_OK)
        st = layout(&lo, data, len, 1, "params", err);
    if (st == SP_OK)
        st = check_counts(&lo, d, err);
    if (st != SP_OK)
        return st;
    uint32_t n_vars = lo.ic.n + lo.l.n;
    if (sp_g16_pk_alloc(pk, n_vars, lo.ic.n - 1, lo.h.n + 1, SP_G16_H_BELLPERSON) != SP_OK) {
        sp_bin_errf(err, "params: out of memory for the key");
        return SP_ERR_NOMEM;
    }
    int sub = !(flags & SP_G16_SKIP_SUBGROUP_CHECK); /* progress: a unit a point decoded, one a point checked */
    sp_progress_begin(sub ? "params: checking points" : "params: reading points",
                      ((uint64_t)lo.ic.n + lo.h.n + lo.l.n + lo.a.n + lo.bg1.n + lo.bg2.n) * (sub ? 2 : 1));
    st = decode_params(pk, data, &lo, d, flags, threads, err);
    sp_progress_end();
    if (st != SP_OK)
        sp_g16_pk_free(pk);
    return st;
}

sp_status sp_bp_params_read(sp_g16_pk *pk, const char *path, const sp_g16_density *d, unsigned flags,
                            int threads, char err[SP_ERR_LEN])
{
    const uint8_t *data;
    size_t len;
    memset(pk, 0, sizeof *pk);
    sp_status st = map_file(&data, &len, path, "params", err);
    if (st != SP_OK)
        return st;
    st = sp_bp_params_parse(pk, data, len, d, flags, threads, err);
    unmap_file(data, len);
    return st;
}

/* ---- writing ---- */

typedef struct {
    FILE *f;
    int failed; /* errno of the first failed write, or 0 */
} bp_out;

static void out_bytes(bp_out *o, const void *p, size_t n)
{
    if (!o->failed && fwrite(p, 1, n, o->f) != n)
        o->failed = errno ? errno : EIO;
}

static void out_be32(bp_out *o, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    out_bytes(o, b, 4);
}

static void out_point(bp_out *o, const void *p, int g2)
{
    uint8_t b[G2U];
    sp_pt_encode(b, p, SP_PTF_ZCASH_U, g2);
    out_bytes(o, b, g2 ? G2U : G1U);
}

/* count, then the points p[i] with bit i set (all when bits is NULL). */
static void out_vec(bp_out *o, const void *p, size_t n, int g2, const uint64_t *bits)
{
    size_t esz = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine);
    out_be32(o, (uint32_t)(bits ? sp_g16_density_count(bits, n) : n));
    for (size_t i = 0; i < n; i++)
        if (!bits || sp_g16_density_get(bits, i))
            out_point(o, (const uint8_t *)p + i * esz, g2);
}

static void out_vk(bp_out *o, const sp_g16_vk *vk)
{
    out_point(o, &vk->alpha1, 0);
    out_point(o, &vk->beta1, 0);
    out_point(o, &vk->beta2, 1);
    out_point(o, &vk->gamma2, 1);
    out_point(o, &vk->delta1, 0);
    out_point(o, &vk->delta2, 1);
    out_vec(o, vk->ic, (size_t)vk->n_public + 1, 0, NULL);
}

static sp_status check_vk_finite(const sp_g16_vk *vk, const char *what, char *err)
{
    if (sp_g1_affine_is_inf(&vk->alpha1) || sp_g1_affine_is_inf(&vk->beta1) || sp_g1_affine_is_inf(&vk->delta1) ||
        sp_g2_affine_is_inf(&vk->beta2) || sp_g2_affine_is_inf(&vk->gamma2) || sp_g2_affine_is_inf(&vk->delta2)) {
        sp_bin_errf(err, "%s: a verifying-key point is at infinity", what);
        return SP_ERR_FORMAT;
    }
    for (size_t i = 0; i <= vk->n_public; i++) {
        if (sp_g1_affine_is_inf(&vk->ic[i])) {
            sp_bin_errf(err, "%s: ic point %zu is at infinity (bellperson refuses it)", what, i);
            return SP_ERR_FORMAT;
        }
    }
    return SP_OK;
}

/* The rules of params.h, checked before a byte is written. */
static sp_status check_pk_writable(const sp_g16_pk *pk, char *err)
{
    if (pk->h_kind != SP_G16_H_BELLPERSON || pk->n_h + 1 != pk->domain_size) {
        sp_bin_errf(err, "params: the key has snarkjs' odd-coset H bases; .params needs tau^i Z(tau) / delta");
        return SP_ERR_UNSUPPORTED;
    }
    sp_status st = check_vk_finite(&pk->vk, "params", err);
    if (st != SP_OK)
        return st;
    for (size_t i = 0; i < pk->n_vars; i++) {
        if (i <= pk->vk.n_public && sp_g1_affine_is_inf(&pk->a[i])) {
            sp_bin_errf(err, "params: input wire %zu has A at infinity; bellperson lists every input in a", i);
            return SP_ERR_FORMAT;
        }
        if (sp_g1_affine_is_inf(&pk->b1[i]) != sp_g2_affine_is_inf(&pk->b2[i])) {
            sp_bin_errf(err, "params: wire %zu has B at infinity in one group only", i);
            return SP_ERR_FORMAT;
        }
        if (i > pk->vk.n_public && sp_g1_affine_is_inf(&pk->c[i - pk->vk.n_public - 1])) {
            sp_bin_errf(err, "params: private wire %zu has its l point at infinity (bellperson refuses it)", i);
            return SP_ERR_FORMAT;
        }
    }
    return SP_OK;
}

static sp_status open_out(bp_out *o, const char *path, const char *what, char *err)
{
    o->failed = 0;
    o->f = fopen(path, "wb");
    if (!o->f) {
        sp_bin_errf(err, "%s: cannot create %s: %s", what, path, strerror(errno));
        return SP_ERR_IO;
    }
    return SP_OK;
}

/* Closes; on any failure removes the partial file. */
static sp_status close_out(bp_out *o, const char *path, const char *what, char *err)
{
    if (fclose(o->f) != 0 && !o->failed)
        o->failed = errno ? errno : EIO;
    if (o->failed) {
        sp_bin_errf(err, "%s: writing %s failed: %s", what, path, strerror(o->failed));
        remove(path);
        return SP_ERR_IO;
    }
    return SP_OK;
}

sp_status sp_bp_params_write(const char *path, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    sp_g16_density d;
    bp_out o;
    sp_status st = sp_bp_curve_check(err);
    if (st == SP_OK)
        st = check_pk_writable(pk, err);
    if (st != SP_OK)
        return st;
    if (sp_g16_density_from_pk(&d, pk) != SP_OK) {
        sp_bin_errf(err, "params: out of memory");
        return SP_ERR_NOMEM;
    }
    if ((st = open_out(&o, path, "params", err)) == SP_OK) {
        out_vk(&o, &pk->vk);
        out_vec(&o, pk->h, pk->n_h, 0, NULL);
        out_vec(&o, pk->c, (size_t)pk->n_vars - pk->vk.n_public - 1, 0, NULL);
        out_vec(&o, pk->a, pk->n_vars, 0, d.a);
        out_vec(&o, pk->b1, pk->n_vars, 0, d.b);
        out_vec(&o, pk->b2, pk->n_vars, 1, d.b);
        st = close_out(&o, path, "params", err);
    }
    sp_g16_density_free(&d);
    return st;
}

sp_status sp_bp_vk_write(const char *path, const sp_g16_vk *vk, char err[SP_ERR_LEN])
{
    bp_out o;
    sp_status st = sp_bp_curve_check(err);
    if (st == SP_OK)
        st = check_vk_finite(vk, "vk", err);
    if (st == SP_OK)
        st = open_out(&o, path, "vk", err);
    if (st != SP_OK)
        return st;
    out_vk(&o, vk);
    return close_out(&o, path, "vk", err);
}

/* ---- the 192-byte proof ---- */

void sp_bp_proof_encode(uint8_t out[SP_BP_PROOF_BYTES], const sp_g16_proof *proof)
{
    sp_pt_encode(out, &proof->a, SP_PTF_ZCASH_C, 0);
    sp_pt_encode(out + 48, &proof->b, SP_PTF_ZCASH_C, 1);
    sp_pt_encode(out + 144, &proof->c, SP_PTF_ZCASH_C, 0);
}

sp_status sp_bp_proof_decode(sp_g16_proof *proof, const uint8_t in[SP_BP_PROOF_BYTES], unsigned flags,
                             char err[SP_ERR_LEN])
{
    static const char *names[3] = {"A", "B", "C"};
    void *out[3] = {&proof->a, &proof->b, &proof->c};
    static const size_t at[3] = {0, 48, 144};
    sp_status st = sp_bp_curve_check(err);
    if (st != SP_OK)
        return st;
    for (int i = 0; i < 3; i++) {
        sp_pt_err e = sp_pt_decode(out[i], in + at[i], SP_PTF_ZCASH_C, i == 1, 0, flags);
        if (e != SP_PT_OK) {
            sp_bin_errf(err, "proof: %s: %s", names[i], sp_pt_err_str(e));
            return sp_pt_err_status(e);
        }
    }
    return SP_OK;
}
