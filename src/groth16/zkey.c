/* snarkjs .zkey reader and writer (see zkey.h for the checks). */
#include "groth16/zkey.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/pointio.h"
#include "util/curves.h"
#include "util/progress.h"

#define G1B (2 * SP_FP_BYTES) /* a point, x | y */
#define G2B (4 * SP_FP_BYTES)
#define PRIMES_BYTES (4 + SP_FP_BYTES + 4 + SP_FR_BYTES) /* n8q | q | n8r | r */
#define HEADER_BYTES (PRIMES_BYTES + 12 + 3 * G1B + 3 * G2B) /* 964 on BLS12-381, 664 on BN254 */
#define COEF_BYTES (12 + 32)
#define CONTRIB_FIXED (3 * G1B + G2B + 64 + 4 + 4) /* a section-10 record without params */
#define MPC_HEAD (64 + 4)

static const char *section_name(uint32_t id)
{
    static const char *names[] = {"?", "protocol", "header", "IC", "coefficients", "A", "B1", "B2",
                                  "C", "H", "MPC parameters"};
    return id <= 10 ? names[id] : "?";
}

static void limbs_le(uint8_t *out, const uint64_t *l, size_t n_limbs)
{
    for (size_t i = 0; i < n_limbs; i++)
        for (int j = 0; j < 8; j++)
            out[8 * i + j] = (uint8_t)(l[i] >> (8 * j));
}

static void le_limbs(uint64_t *l, const uint8_t *in, size_t n_limbs)
{
    for (size_t i = 0; i < n_limbs; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--)
            v = v << 8 | in[8 * i + j];
        l[i] = v;
    }
}

/* Header counts and points. */
typedef struct {
    uint32_t n_vars, n_public, domain_size;
    unsigned log2;
    sp_g1_affine alpha1, beta1, delta1;
    sp_g2_affine beta2, gamma2, delta2;
} zk_header;

static sp_status section(const sp_bin_section **s, const sp_binfile *bf, uint32_t id, int required, char *err)
{
    char name[40];
    snprintf(name, sizeof name, "%s", section_name(id));
    return sp_binfile_section(s, bf, id, name, required, err);
}

static sp_status check_protocol(const sp_binfile *bf, char *err)
{
    const sp_bin_section *s;
    sp_status st = section(&s, bf, 1, 1, err);
    if (st != SP_OK)
        return st;
    if (s->size != 4) {
        sp_bin_errf(err, "zkey section 1 (protocol): not 4 bytes");
        return SP_ERR_FORMAT;
    }
    uint32_t proto = sp_bin_le32(bf->data + s->offset);
    if (proto != 1) {
        const char *what = proto == 2 ? "PLONK" : proto == 10 ? "FFLONK" : "unknown";
        sp_bin_errf(err, "zkey: protocol %s; only Groth16 is supported", what);
        return SP_ERR_UNSUPPORTED;
    }
    return SP_OK;
}

/* Checks the field sizes and primes at the start of section 2: this
 * build's curve, or a message naming both curves. */
static sp_status check_primes(sp_bin_cursor *c, char *err)
{
    uint8_t r[SP_FR_BYTES];
    const uint8_t *fq, *fr;
    uint32_t n8q, n8r;
    limbs_le(r, SP_FR_MODULUS, SP_FR_LIMBS);
    if (!sp_bin_u32(c, &n8q) || !sp_bin_bytes(c, &fq, n8q < 256 ? n8q : 256)) {
        sp_bin_errf(err, "zkey section 2 (header): ends inside the base field prime");
        return SP_ERR_TRUNCATED;
    }
    sp_curve_id curve = sp_curve_from_base_prime(fq, n8q);
    if (curve != SP_CURVE_ID_THIS) {
        if (curve != SP_CURVE_ID_NONE)
            sp_curve_mismatch_msg(err, SP_ERR_LEN, "zkey", curve, SP_CURVE_ID_THIS);
        else
            sp_bin_errf(err, "zkey: base field of no curve snarkpipe knows (this is the %s prover)",
                        sp_curve_label(SP_CURVE_ID_THIS));
        return SP_ERR_UNSUPPORTED;
    }
    if (!sp_bin_u32(c, &n8r) || !sp_bin_bytes(c, &fr, n8r < 256 ? n8r : 256)) {
        sp_bin_errf(err, "zkey section 2 (header): ends inside the scalar field prime");
        return SP_ERR_TRUNCATED;
    }
    if (n8r != SP_FR_BYTES || memcmp(fr, r, SP_FR_BYTES)) {
        sp_bin_errf(err, "zkey: scalar field is not %s's r", sp_curve_label(SP_CURVE_ID_THIS));
        return SP_ERR_UNSUPPORTED;
    }
    return SP_OK;
}

static sp_status header_point(void *out, const uint8_t *in, int g2, const char *name, unsigned flags,
                              char *err)
{
    sp_pt_err e = sp_pt_decode(out, in, SP_PTF_LEM, g2, 0, flags);
    if (e == SP_PT_OK)
        return SP_OK;
    sp_bin_errf(err, "zkey section 2 (header): %s: %s", name, sp_pt_err_str(e));
    return sp_pt_err_status(e);
}

static sp_status header_points(zk_header *h, const uint8_t *p, unsigned flags, char *err)
{
    sp_status st;
    if ((st = header_point(&h->alpha1, p, 0, "alpha1", flags, err)) != SP_OK ||
        (st = header_point(&h->beta1, p + G1B, 0, "beta1", flags, err)) != SP_OK ||
        (st = header_point(&h->beta2, p + 2 * G1B, 1, "beta2", flags, err)) != SP_OK ||
        (st = header_point(&h->gamma2, p + 2 * G1B + G2B, 1, "gamma2", flags, err)) != SP_OK ||
        (st = header_point(&h->delta1, p + 2 * G1B + 2 * G2B, 0, "delta1", flags, err)) != SP_OK ||
        (st = header_point(&h->delta2, p + 3 * G1B + 2 * G2B, 1, "delta2", flags, err)) != SP_OK)
        return st;
    return SP_OK;
}

static sp_status read_header(zk_header *h, const sp_binfile *bf, unsigned flags, char *err)
{
    const sp_bin_section *s;
    sp_status st = check_protocol(bf, err);
    if (st == SP_OK)
        st = section(&s, bf, 2, 1, err);
    if (st != SP_OK)
        return st;
    sp_bin_cursor c = sp_bin_cursor_of(bf, s);
    if ((st = check_primes(&c, err)) != SP_OK)
        return st;
    if (s->size != HEADER_BYTES) {
        sp_bin_errf(err, "zkey section 2 (header): not the %d bytes of a %s header", HEADER_BYTES,
                    sp_curve_label(SP_CURVE_ID_THIS));
        return SP_ERR_FORMAT;
    }
    const uint8_t *p = bf->data + s->offset + PRIMES_BYTES;
    h->n_vars = sp_bin_le32(p);
    h->n_public = sp_bin_le32(p + 4);
    h->domain_size = sp_bin_le32(p + 8);
    if (!sp_g16_domain_log2(&h->log2, h->domain_size)) {
        sp_bin_errf(err, "zkey section 2 (header): the domain size is not a power of two >= 2");
        return SP_ERR_FORMAT;
    }
    if (h->n_vars == 0 || h->n_public >= h->n_vars || h->n_public >= h->domain_size) {
        sp_bin_errf(err, "zkey section 2 (header): nPublic must be below nVars and the domain size, and is not");
        return SP_ERR_FORMAT;
    }
    return header_points(h, p + 12, flags, err);
}

/* Finds section id and checks that it holds exactly n points. */
static sp_status point_section(const sp_bin_section **s, const sp_binfile *bf, uint32_t id, uint64_t n, int g2,
                               char *err)
{
    sp_status st = section(s, bf, id, 1, err);
    if (st != SP_OK)
        return st;
    uint64_t want = n * (g2 ? G2B : G1B);
    if ((*s)->size != want) {
        sp_bin_errf(err, "zkey section %" PRIu32 " (%s): not the size of the points the header calls for", id,
                    section_name(id));
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

/* Decodes a whole point section into out. */
static sp_status decode_section(void *out, const sp_binfile *bf, uint32_t id, uint64_t n, int g2, int allow_inf,
                                unsigned flags, int threads, char *err)
{
    const sp_bin_section *s;
    sp_status st = point_section(&s, bf, id, n, g2, err);
    if (st != SP_OK)
        return st;
    sp_progress_part(section_name(id));
    size_t bad = 0;
    sp_pt_err e = sp_pt_decode_array(out, &bad, bf->data + s->offset, (size_t)n, SP_PTF_LEM, g2, allow_inf,
                                     flags, threads);
    if (e == SP_PT_OK)
        return SP_OK;
    sp_bin_errf(err, "zkey section %" PRIu32 " (%s): point %zu: %s", id, section_name(id), bad, sp_pt_err_str(e));
    return sp_pt_err_status(e);
}

/* Checks every size before anything is allocated. */
static sp_status check_sizes(const zk_header *h, const sp_binfile *bf, uint32_t *n_coefs, char *err)
{
    static const struct { uint32_t id; int g2; } secs[] = {{3, 0}, {5, 0}, {6, 0}, {7, 1}, {8, 0}, {9, 0}};
    uint64_t counts[] = {(uint64_t)h->n_public + 1, h->n_vars, h->n_vars, h->n_vars,
                         (uint64_t)h->n_vars - h->n_public - 1, h->domain_size};
    const sp_bin_section *s;
    sp_status st;
    for (size_t i = 0; i < 6; i++)
        if ((st = point_section(&s, bf, secs[i].id, counts[i], secs[i].g2, err)) != SP_OK)
            return st;
    if ((st = section(&s, bf, 4, 1, err)) != SP_OK)
        return st;
    if (s->size < 4) {
        sp_bin_errf(err, "zkey section 4 (coefficients): too short for the count");
        return SP_ERR_TRUNCATED;
    }
    *n_coefs = sp_bin_le32(bf->data + s->offset);
    uint64_t want = 4 + (uint64_t)*n_coefs * COEF_BYTES;
    if (s->size != want) {
        sp_bin_errf(err, "zkey section 4 (coefficients): not the size its count of entries calls for");
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

/* ---- section 4: the QAP coefficients ---- */

typedef struct {
    uint32_t m, row, wire;
    const uint8_t *value;
} coef_entry;

static void coef_at(coef_entry *e, const uint8_t *p)
{
    e->m = sp_bin_le32(p);
    e->row = sp_bin_le32(p + 4);
    e->wire = sp_bin_le32(p + 8);
    e->value = p + 12;
}

/* The file stores c * R^2 (R = 2^256); Montgomery multiplication by the
 * plain integer 1 turns that into c * R, our Montgomery form of c. */
static int coef_value(sp_fr *out, const uint8_t *in)
{
    sp_fr raw, one_plain = {{1, 0, 0, 0}};
    le_limbs(raw.l, in, SP_FR_LIMBS);
    for (int i = 3; i >= 0; i--) {
        if (raw.l[i] != SP_FR_MODULUS[i]) {
            if (raw.l[i] > SP_FR_MODULUS[i])
                return 0;
            break;
        }
        if (i == 0)
            return 0; /* equal to r */
    }
    sp_fr_mul(out, &raw, &one_plain);
    return 1;
}

/* Pass 1: validates every entry and counts per matrix. */
static sp_status scan_coefs(uint64_t nnz[2], const uint8_t *p, uint32_t n, const zk_header *h, char *err)
{
    nnz[0] = nnz[1] = 0;
    for (uint32_t i = 0; i < n; i++, p += COEF_BYTES) {
        coef_entry e;
        sp_fr v;
        coef_at(&e, p);
        if (e.m > 1) {
            sp_bin_errf(err, "zkey section 4 (coefficients): entry %" PRIu32 ": the matrix is neither 0 (A) nor 1 (B)",
                        i);
            return SP_ERR_FORMAT;
        }
        if (e.row >= h->domain_size || e.wire >= h->n_vars) {
            sp_bin_errf(err, "zkey section 4 (coefficients): entry %" PRIu32 ": row or wire outside the domain size "
                        "or nVars", i);
            return SP_ERR_FORMAT;
        }
        if (!coef_value(&v, e.value)) {
            sp_bin_errf(err, "zkey section 4 (coefficients): entry %" PRIu32 ": value >= r", i);
            return SP_ERR_NOT_CANONICAL;
        }
        nnz[e.m]++;
    }
    return SP_OK;
}

/* Passes 2 and 3: row counts, then a stable fill (file order within rows). */
static void fill_qap(sp_g16_pk *pk, const uint8_t *p0, uint32_t n)
{
    sp_csr *mat[2] = {&pk->qap_a, &pk->qap_b};
    const uint8_t *p = p0;
    for (uint32_t i = 0; i < n; i++, p += COEF_BYTES) {
        coef_entry e;
        coef_at(&e, p);
        mat[e.m]->row[e.row + 1]++;
    }
    for (int m = 0; m < 2; m++)
        for (size_t r = 0; r < mat[m]->n_rows; r++)
            mat[m]->row[r + 1] += mat[m]->row[r];
    /* row[r] serves as the insertion cursor of row r, then is shifted back. */
    p = p0;
    for (uint32_t i = 0; i < n; i++, p += COEF_BYTES) {
        coef_entry e;
        coef_at(&e, p);
        uint64_t at = mat[e.m]->row[e.row]++;
        mat[e.m]->col[at] = e.wire;
        coef_value(&mat[e.m]->val[at], e.value);
    }
    for (int m = 0; m < 2; m++) {
        for (size_t r = mat[m]->n_rows; r > 0; r--)
            mat[m]->row[r] = mat[m]->row[r - 1];
        mat[m]->row[0] = 0;
    }
}

static sp_status read_coefs(sp_g16_pk *pk, uint32_t *n_b, const sp_binfile *bf, const zk_header *h, char *err)
{
    const sp_bin_section *s;
    sp_status st = section(&s, bf, 4, 1, err);
    if (st != SP_OK)
        return st;
    const uint8_t *p = bf->data + s->offset;
    uint32_t n = sp_bin_le32(p);
    uint64_t nnz[2];
    if ((st = scan_coefs(nnz, p + 4, n, h, err)) != SP_OK)
        return st;
    if (sp_g16_pk_alloc_qap(pk, nnz[0], nnz[1]) != SP_OK) {
        sp_bin_errf(err, "zkey: out of memory for the QAP coefficients");
        return SP_ERR_NOMEM;
    }
    fill_qap(pk, p + 4, n);
    *n_b = (uint32_t)nnz[1];
    return SP_OK;
}

/* ---- section 10 ---- */

/* Checks that the contribution records add up to the section size. */
static sp_status check_mpc(uint32_t *n_contrib, const uint8_t *p, uint64_t size, char *err)
{
    if (size < MPC_HEAD) {
        sp_bin_errf(err, "zkey section 10 (MPC parameters): shorter than its %d-byte head", MPC_HEAD);
        return SP_ERR_TRUNCATED;
    }
    uint32_t n = sp_bin_le32(p + 64);
    uint64_t pos = MPC_HEAD;
    for (uint32_t i = 0; i < n; i++) {
        if (size - pos < CONTRIB_FIXED) {
            sp_bin_errf(err, "zkey section 10 (MPC parameters): ends inside contribution %" PRIu32, i + 1);
            return SP_ERR_TRUNCATED;
        }
        uint32_t params = sp_bin_le32(p + pos + CONTRIB_FIXED - 4);
        pos += CONTRIB_FIXED;
        if (size - pos < params) {
            sp_bin_errf(err, "zkey section 10 (MPC parameters): contribution %" PRIu32 " claims more parameter bytes "
                        "than the section has left", i + 1);
            return SP_ERR_TRUNCATED;
        }
        pos += params;
    }
    if (pos != size) {
        sp_bin_errf(err, "zkey section 10 (MPC parameters): bytes after the last contribution");
        return SP_ERR_FORMAT;
    }
    *n_contrib = n;
    return SP_OK;
}

static sp_status read_mpc(sp_zkey_info *info, uint8_t **copy, size_t *copy_len, const sp_binfile *bf, char *err)
{
    const sp_bin_section *s;
    sp_status st = section(&s, bf, 10, 0, err);
    if (st != SP_OK || !s)
        return st;
    const uint8_t *p = bf->data + s->offset;
    if ((st = check_mpc(&info->n_contributions, p, s->size, err)) != SP_OK)
        return st;
    info->has_mpc = 1;
    memcpy(info->cs_hash, p, 64);
    if (!copy)
        return SP_OK;
    *copy = malloc((size_t)s->size);
    if (!*copy) {
        sp_bin_errf(err, "zkey: out of memory for section 10");
        return SP_ERR_NOMEM;
    }
    memcpy(*copy, p, (size_t)s->size);
    *copy_len = (size_t)s->size;
    return SP_OK;
}

static void info_from(sp_zkey_info *info, const sp_binfile *bf, const zk_header *h, uint32_t n_coefs)
{
    info->version = bf->version;
    info->n_sections = bf->n_sections;
    for (uint32_t i = 0; i < bf->n_sections && i < SP_ZKEY_MAX_SECTIONS_LISTED; i++)
        info->section_order[i] = bf->sections[i].id;
    info->n_vars = h->n_vars;
    info->n_public = h->n_public;
    info->domain_size = h->domain_size;
    info->n_coefs = n_coefs;
}

static void vk_from_header(sp_g16_vk *vk, const zk_header *h)
{
    vk->alpha1 = h->alpha1;
    vk->beta1 = h->beta1;
    vk->beta2 = h->beta2;
    vk->gamma2 = h->gamma2;
    vk->delta1 = h->delta1;
    vk->delta2 = h->delta2;
}

/* ---- reading ---- */

static sp_status decode_points(sp_g16_pk *pk, const sp_binfile *bf, unsigned flags, int threads, char *err)
{
    uint64_t n_c = (uint64_t)pk->n_vars - pk->vk.n_public - 1;
    sp_status st;
    if ((st = decode_section(pk->vk.ic, bf, 3, (uint64_t)pk->vk.n_public + 1, 0, 0, flags, threads, err)) ||
        (st = decode_section(pk->a, bf, 5, pk->n_vars, 0, 1, flags, threads, err)) ||
        (st = decode_section(pk->b1, bf, 6, pk->n_vars, 0, 1, flags, threads, err)) ||
        (st = decode_section(pk->b2, bf, 7, pk->n_vars, 1, 1, flags, threads, err)) ||
        (st = decode_section(pk->c, bf, 8, n_c, 0, 1, flags, threads, err)) ||
        (st = decode_section(pk->h, bf, 9, pk->domain_size, 0, 0, flags, threads, err)))
        return st;
    return SP_OK;
}

static sp_status parse_bf(sp_g16_pk *pk, sp_zkey_info *info_out, const sp_binfile *bf, unsigned flags,
                          int threads, char *err)
{
    zk_header h;
    sp_zkey_info info;
    uint32_t n_coefs = 0;
    uint8_t *mpc = NULL;
    size_t mpc_len = 0;
    memset(&info, 0, sizeof info);
    sp_status st = read_header(&h, bf, flags, err);
    if (st == SP_OK)
        st = check_sizes(&h, bf, &n_coefs, err);
    if (st == SP_OK)
        st = read_mpc(&info, &mpc, &mpc_len, bf, err);
    if (st == SP_OK && sp_g16_pk_alloc(pk, h.n_vars, h.n_public, h.domain_size, SP_G16_H_SNARKJS) != SP_OK) {
        sp_bin_errf(err, "zkey: out of memory for the key");
        st = SP_ERR_NOMEM;
    }
    if (st == SP_OK) {
        /* progress: a unit a point decoded and one a point subgroup-checked, a unit per 8 coefficients */
        uint64_t pts = (uint64_t)h.n_public + 1 + 3 * (uint64_t)h.n_vars + (h.n_vars - h.n_public - 1) + h.domain_size;
        sp_progress_begin(flags & SP_G16_SKIP_SUBGROUP_CHECK ? "zkey: reading points" : "zkey: checking points",
                          pts * (flags & SP_G16_SKIP_SUBGROUP_CHECK ? 1 : 2) + n_coefs / 8);
        sp_progress_part("coefficients");
        vk_from_header(&pk->vk, &h);
        st = read_coefs(pk, &info.n_coefs_b, bf, &h, err);
        sp_progress_add(n_coefs / 8);
        if (st == SP_OK)
            st = decode_points(pk, bf, flags, threads, err);
        sp_progress_end();
    }
    if (st != SP_OK) {
        free(mpc);
        sp_g16_pk_free(pk);
        return st;
    }
    pk->mpc = mpc;
    pk->mpc_len = mpc_len;
    info_from(&info, bf, &h, n_coefs);
    if (info_out)
        *info_out = info;
    return SP_OK;
}

sp_status sp_zkey_parse(sp_g16_pk *pk, sp_zkey_info *info, const uint8_t *data, size_t len, unsigned flags,
                        int threads, char err[SP_ERR_LEN])
{
    sp_binfile bf;
    memset(pk, 0, sizeof *pk);
    memset(&bf, 0, sizeof bf);
    sp_status st = sp_binfile_parse(&bf, data, len, "zkey", 1, 2, err);
    if (st == SP_OK)
        st = parse_bf(pk, info, &bf, flags, threads, err);
    sp_binfile_close(&bf);
    return st;
}

sp_status sp_zkey_read(sp_g16_pk *pk, sp_zkey_info *info, const char *path, unsigned flags, int threads,
                       char err[SP_ERR_LEN])
{
    sp_binfile bf;
    memset(pk, 0, sizeof *pk);
    memset(&bf, 0, sizeof bf);
    sp_status st = sp_binfile_open(&bf, path, "zkey", 1, 2, err);
    if (st == SP_OK)
        st = parse_bf(pk, info, &bf, flags, threads, err);
    sp_binfile_close(&bf);
    return st;
}

static sp_status read_vk_bf(sp_g16_vk *vk, sp_zkey_info *info, const sp_binfile *bf, unsigned flags, char *err)
{
    zk_header h;
    uint32_t n_coefs;
    sp_status st = read_header(&h, bf, flags, err);
    if (st == SP_OK)
        st = check_sizes(&h, bf, &n_coefs, err);
    if (st == SP_OK)
        st = read_mpc(info, NULL, NULL, bf, err);
    if (st == SP_OK && sp_g16_vk_alloc(vk, h.n_public) != SP_OK) {
        sp_bin_errf(err, "zkey: out of memory for the IC points");
        st = SP_ERR_NOMEM;
    }
    if (st == SP_OK)
        st = decode_section(vk->ic, bf, 3, (uint64_t)h.n_public + 1, 0, 0, flags, 1, err);
    if (st != SP_OK) {
        sp_g16_vk_free(vk);
        return st;
    }
    vk_from_header(vk, &h);
    info_from(info, bf, &h, n_coefs);
    return SP_OK;
}

sp_status sp_zkey_read_vk(sp_g16_vk *vk, sp_zkey_info *info_out, const char *path, unsigned flags,
                          char err[SP_ERR_LEN])
{
    sp_binfile bf;
    sp_zkey_info info;
    memset(vk, 0, sizeof *vk);
    memset(&bf, 0, sizeof bf);
    memset(&info, 0, sizeof info);
    sp_status st = sp_binfile_open(&bf, path, "zkey", 1, 2, err);
    if (st == SP_OK)
        st = read_vk_bf(vk, &info, &bf, flags, err);
    sp_binfile_close(&bf);
    if (st == SP_OK && info_out)
        *info_out = info;
    return st;
}

/* ---- writing ---- */

static sp_status put_points(sp_binw *w, const void *pts, size_t n, int g2, char *err)
{
    enum { CHUNK = 1024 };
    size_t esz = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine), psz = g2 ? G2B : G1B;
    uint8_t *buf = malloc(CHUNK * G2B);
    if (!buf) {
        sp_bin_errf(err, "zkey: out of memory while writing");
        return SP_ERR_NOMEM;
    }
    sp_status st = SP_OK;
    for (size_t i = 0; i < n && st == SP_OK; i += CHUNK) {
        size_t k = n - i < CHUNK ? n - i : CHUNK;
        sp_pt_encode_array(buf, (const uint8_t *)pts + i * esz, k, SP_PTF_LEM, g2);
        st = sp_binw_write(w, buf, k * psz, err);
    }
    free(buf);
    return st;
}

static sp_status put_u32(sp_binw *w, uint32_t v, char *err)
{
    uint8_t b[4];
    sp_bin_put_u32(b, v);
    return sp_binw_write(w, b, 4, err);
}

static sp_status put_header(sp_binw *w, const sp_g16_pk *pk, char *err)
{
    uint8_t b[HEADER_BYTES], *p = b;
    sp_bin_put_u32(p, SP_FP_BYTES);
    limbs_le(p + 4, SP_FP_MODULUS, SP_FP_LIMBS);
    sp_bin_put_u32(p + 4 + SP_FP_BYTES, SP_FR_BYTES);
    limbs_le(p + 8 + SP_FP_BYTES, SP_FR_MODULUS, SP_FR_LIMBS);
    p += PRIMES_BYTES;
    sp_bin_put_u32(p, pk->n_vars);
    sp_bin_put_u32(p + 4, pk->vk.n_public);
    sp_bin_put_u32(p + 8, pk->domain_size);
    p += 12;
    sp_pt_encode(p, &pk->vk.alpha1, SP_PTF_LEM, 0);
    sp_pt_encode(p + G1B, &pk->vk.beta1, SP_PTF_LEM, 0);
    sp_pt_encode(p + 2 * G1B, &pk->vk.beta2, SP_PTF_LEM, 1);
    sp_pt_encode(p + 2 * G1B + G2B, &pk->vk.gamma2, SP_PTF_LEM, 1);
    sp_pt_encode(p + 2 * G1B + 2 * G2B, &pk->vk.delta1, SP_PTF_LEM, 0);
    sp_pt_encode(p + 3 * G1B + 2 * G2B, &pk->vk.delta2, SP_PTF_LEM, 1);
    return sp_binw_write(w, b, sizeof b, err);
}

static sp_status put_coef(sp_binw *w, uint32_t m, uint32_t row, uint32_t wire, const sp_fr *v, char *err)
{
    uint8_t b[COEF_BYTES];
    sp_fr r2;
    sp_bin_put_u32(b, m);
    sp_bin_put_u32(b + 4, row);
    sp_bin_put_u32(b + 8, wire);
    /* The file holds c*R^2: from_canonical of our limbs c*R multiplies by R. */
    sp_fr_from_canonical(&r2, v->l);
    limbs_le(b + 12, r2.l, SP_FR_LIMBS);
    return sp_binw_write(w, b, sizeof b, err);
}

/* Row by row, A entries then B entries: the order snarkjs writes. */
static sp_status put_coefs(sp_binw *w, const sp_g16_pk *pk, char *err)
{
    const sp_csr *mat[2] = {&pk->qap_a, &pk->qap_b};
    sp_status st = put_u32(w, (uint32_t)(pk->qap_a.nnz + pk->qap_b.nnz), err);
    for (size_t r = 0; r < pk->domain_size && st == SP_OK; r++)
        for (uint32_t m = 0; m < 2; m++)
            for (uint64_t k = mat[m]->row[r]; k < mat[m]->row[r + 1] && st == SP_OK; k++)
                st = put_coef(w, m, (uint32_t)r, mat[m]->col[k], &mat[m]->val[k], err);
    return st;
}

static sp_status put_mpc(sp_binw *w, const sp_g16_pk *pk, char *err)
{
    if (pk->mpc)
        return sp_binw_write(w, pk->mpc, pk->mpc_len, err);
    uint8_t b[MPC_HEAD] = {0}; /* zero csHash, no contributions */
    return sp_binw_write(w, b, sizeof b, err);
}

static sp_status check_writable(const sp_g16_pk *pk, char *err)
{
    if (pk->h_kind != SP_G16_H_SNARKJS || pk->n_h != pk->domain_size) {
        sp_bin_errf(err, "zkey: the key has bellperson-style H bases; a .zkey needs snarkjs' odd-coset bases");
        return SP_ERR_UNSUPPORTED;
    }
    if (!pk->has_qap || pk->qap_a.n_rows != pk->domain_size || pk->qap_b.n_rows != pk->domain_size) {
        sp_bin_errf(err, "zkey: the key has no QAP coefficients (section 4)");
        return SP_ERR_UNSUPPORTED;
    }
    if (pk->qap_a.nnz + pk->qap_b.nnz > UINT32_MAX) {
        sp_bin_errf(err, "zkey: %" PRIu64 " QAP coefficients exceed the format's 2^32 - 1",
                    pk->qap_a.nnz + pk->qap_b.nnz);
        return SP_ERR_UNSUPPORTED;
    }
    return SP_OK;
}

static sp_status write_in_order(const char *path, const sp_g16_pk *pk, const uint32_t order[10],
                                char err[SP_ERR_LEN])
{
    sp_binw *w = NULL;
    size_t n_c = (size_t)pk->n_vars - pk->vk.n_public - 1;
    sp_status st = check_writable(pk, err);
    if (st == SP_OK)
        st = sp_binw_open(&w, path, "zkey", 1, 10, err);
    if (st != SP_OK)
        return st;
    for (int i = 0; i < 10 && st == SP_OK; i++) {
        uint32_t id = order[i];
        if ((st = sp_binw_section(w, id, err)) != SP_OK)
            break;
        switch (id) {
        case 1: st = put_u32(w, 1, err); break;
        case 2: st = put_header(w, pk, err); break;
        case 3: st = put_points(w, pk->vk.ic, (size_t)pk->vk.n_public + 1, 0, err); break;
        case 4: st = put_coefs(w, pk, err); break;
        case 5: st = put_points(w, pk->a, pk->n_vars, 0, err); break;
        case 6: st = put_points(w, pk->b1, pk->n_vars, 0, err); break;
        case 7: st = put_points(w, pk->b2, pk->n_vars, 1, err); break;
        case 8: st = put_points(w, pk->c, n_c, 0, err); break;
        case 9: st = put_points(w, pk->h, pk->n_h, 0, err); break;
        default: st = put_mpc(w, pk, err); break;
        }
    }
    if (st != SP_OK) {
        sp_binw_abort(w);
        return st;
    }
    return sp_binw_close(w, err);
}

sp_status sp_zkey_write(const char *path, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    static const uint32_t by_id[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    return write_in_order(path, pk, by_id, err);
}

sp_status sp_zkey_write_setup(const char *path, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    static const uint32_t setup[10] = {1, 2, 4, 3, 9, 8, 5, 6, 7, 10}; /* zkey_new.js */
    return write_in_order(path, pk, setup, err);
}
