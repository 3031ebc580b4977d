/* .r1cs reading and writing. Contracts in r1cs.h; layout in docs/formats.md §2. */
#include "r1cs/r1cs.h"

#include <inttypes.h>
#include <stdlib.h>
#include "r1cs/internal.h"
#include "util/curves.h"

static const char *const LC_NAME[3] = {"A", "B", "C"};

sp_status sp_fmt_check_prime(const char *where, uint32_t n8, const uint8_t *prime, char err[SP_ERR_LEN])
{
    sp_curve_id c = sp_curve_from_scalar_prime(prime, n8);
    if (c == SP_CURVE_ID_THIS)
        return SP_OK;
    if (c != SP_CURVE_ID_NONE) {
        sp_curve_mismatch_msg(err, SP_ERR_LEN, where, c, SP_CURVE_ID_THIS);
        return SP_ERR_UNSUPPORTED;
    }
    if (n8 != SP_FR_BYTES) {
        sp_bin_errf(err, "%s: field elements of another size than 32 bytes; this is the %s prover (32-byte scalars)",
                    where, sp_curve_label(SP_CURVE_ID_THIS));
        return SP_ERR_UNSUPPORTED;
    }
    sp_bin_errf(err, "%s: the prime is neither bls12-381's nor bn254's scalar field (this is the %s prover)", where,
                sp_curve_label(SP_CURVE_ID_THIS));
    return SP_ERR_UNSUPPORTED;
}

sp_status sp_fmt_writer_open(sp_binw **w, const char *path, const char *magic, uint32_t version,
                             uint32_t n_sections, const uint8_t *rest, size_t rest_len, char err[SP_ERR_LEN])
{
    uint8_t field[4 + SP_FR_BYTES];
    sp_bin_put_u32(field, SP_FR_BYTES);
    for (int i = 0; i < SP_FR_LIMBS; i++)
        sp_bin_put_u64(field + 4 + 8 * i, SP_FR_MODULUS[i]);
    *w = NULL;
    sp_status st = sp_binw_open(w, path, magic, version, n_sections, err);
    if (st == SP_OK)
        st = sp_binw_section(*w, 1, err);
    if (st == SP_OK)
        st = sp_binw_write(*w, field, sizeof field, err);
    if (st == SP_OK)
        st = sp_binw_write(*w, rest, rest_len, err);
    if (st == SP_OK)
        st = sp_binw_section(*w, 2, err);
    if (st != SP_OK) {
        sp_binw_abort(*w);
        *w = NULL;
    }
    return st;
}

sp_status sp_fmt_writer_end(sp_binw *w, sp_status st, void *owner, char err[SP_ERR_LEN])
{
    if (st == SP_OK)
        st = sp_binw_close(w, err);
    else
        sp_binw_abort(w);
    free(owner);
    return st;
}

/* The wires a header places before the private inputs: ONE, the outputs,
 * the public inputs (reader and writer check them against nWires alike).
 * nPrvInputs is left out: circom counts the private inputs its optimizer
 * removed from the wires too (unused ones at --O2, bus fields), and
 * snarkjs reads such files. */
static uint64_t named_wires(const sp_r1cs_header *h) { return 1 + (uint64_t)h->n_outputs + h->n_pub_inputs; }

static sp_status parse_header(sp_r1cs_header *h, const sp_binfile *bf, const sp_bin_section *s, char *err)
{
    sp_bin_cursor c = sp_bin_cursor_of(bf, s);
    uint32_t n8;
    const uint8_t *prime;
    if (!sp_bin_u32(&c, &n8)) {
        sp_bin_errf(err, "r1cs section 1: too short for a header");
        return SP_ERR_FORMAT;
    }
    if (!sp_bin_bytes(&c, &prime, n8)) {
        sp_bin_errf(err, "r1cs section 1: the prime's size is larger than the section");
        return SP_ERR_FORMAT;
    }
    sp_status st = sp_fmt_check_prime("r1cs", n8, prime, err);
    if (st != SP_OK)
        return st;
    if (!sp_bin_u32(&c, &h->n_wires) || !sp_bin_u32(&c, &h->n_outputs) || !sp_bin_u32(&c, &h->n_pub_inputs) ||
        !sp_bin_u32(&c, &h->n_prv_inputs) || !sp_bin_u64(&c, &h->n_labels) || !sp_bin_u32(&c, &h->n_constraints)) {
        sp_bin_errf(err, "r1cs section 1: too short for a header");
        return SP_ERR_FORMAT;
    }
    if (c.left) {
        sp_bin_errf(err, "r1cs section 1: longer than a header");
        return SP_ERR_FORMAT;
    }
    if (named_wires(h) > h->n_wires) {
        sp_bin_errf(err, "r1cs section 1: 1 + outputs + public inputs exceed nWires");
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

/* Pass 1: checks the structure of section 2 and counts the entries of A, B, C. */
static sp_status count_entries(uint64_t nnz[3], const sp_r1cs_header *h, sp_bin_cursor c, char *err)
{
    nnz[0] = nnz[1] = nnz[2] = 0;
    for (uint32_t i = 0; i < h->n_constraints; i++) {
        for (int m = 0; m < 3; m++) {
            uint32_t k;
            if (!sp_bin_u32(&c, &k) || k > c.left / (4 + SP_FR_BYTES)) {
                sp_bin_errf(err, "r1cs section 2: section ends inside constraint %" PRIu32 " (%s)", i, LC_NAME[m]);
                return SP_ERR_TRUNCATED;
            }
            for (uint32_t t = 0; t < k; t++) {
                uint32_t wire = sp_bin_le32(c.p + (size_t)t * (4 + SP_FR_BYTES));
                if (wire >= h->n_wires) {
                    sp_bin_errf(err, "r1cs section 2: constraint %" PRIu32 " (%s) refers to a wire past nWires", i,
                                LC_NAME[m]);
                    return SP_ERR_FORMAT;
                }
            }
            c.p += (size_t)k * (4 + SP_FR_BYTES);
            c.left -= (uint64_t)k * (4 + SP_FR_BYTES);
            nnz[m] += k;
        }
    }
    if (c.left) {
        sp_bin_errf(err, "r1cs section 2: bytes left after the last constraint");
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

static sp_status csr_alloc(sp_csr *m, size_t n_rows, uint64_t nnz)
{
    m->n_rows = n_rows;
    m->nnz = nnz;
    m->row = malloc((n_rows + 1) * sizeof *m->row);
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((nnz ? nnz : 1) * sizeof *m->val);
    if (!m->row || !m->col || !m->val)
        return SP_ERR_NOMEM;
    m->row[0] = 0;
    return SP_OK;
}

/* Pass 2: fills the matrices. The lengths are checked again only so that
 * a file changed under the mapping cannot overrun the arrays. */
static sp_status fill_entries(sp_r1cs *cs, sp_bin_cursor c, char *err)
{
    sp_csr *mat[3] = {&cs->a, &cs->b, &cs->c};
    uint64_t pos[3] = {0, 0, 0};
    for (uint32_t i = 0; i < cs->h.n_constraints; i++) {
        for (int m = 0; m < 3; m++) {
            uint32_t k;
            if (!sp_bin_u32(&c, &k) || k > c.left / (4 + SP_FR_BYTES) || k > mat[m]->nnz - pos[m]) {
                sp_bin_errf(err, "r1cs: the file changed while being read");
                return SP_ERR_IO;
            }
            c.left -= (uint64_t)k * (4 + SP_FR_BYTES);
            for (uint32_t t = 0; t < k; t++, c.p += 4 + SP_FR_BYTES) {
                uint64_t at = pos[m]++;
                mat[m]->col[at] = sp_bin_le32(c.p);
                if (sp_fr_from_bytes_le(&mat[m]->val[at], c.p + 4) != SP_OK) {
                    sp_bin_errf(err, "r1cs section 2: constraint %" PRIu32 " (%s): a coefficient is not below r", i,
                                LC_NAME[m]);
                    return SP_ERR_NOT_CANONICAL;
                }
            }
            mat[m]->row[i + 1] = pos[m];
        }
    }
    return SP_OK;
}

static sp_status parse_constraints(sp_r1cs *cs, const sp_binfile *bf, const sp_bin_section *s, char *err)
{
    uint64_t nnz[3];
    sp_bin_cursor c = sp_bin_cursor_of(bf, s);
    sp_status st = count_entries(nnz, &cs->h, c, err);
    if (st != SP_OK)
        return st;
    sp_csr *mat[3] = {&cs->a, &cs->b, &cs->c};
    for (int m = 0; m < 3; m++) {
        if (csr_alloc(mat[m], cs->h.n_constraints, nnz[m]) != SP_OK) {
            sp_bin_errf(err, "r1cs: out of memory for the entries of %s", LC_NAME[m]);
            return SP_ERR_NOMEM;
        }
    }
    return fill_entries(cs, c, err);
}

static sp_status parse_file(sp_r1cs *cs, const sp_binfile *bf, char *err)
{
    const sp_bin_section *hs, *cons, *gates;
    sp_status st = sp_binfile_section(&hs, bf, 1, "header", 1, err);
    if (st == SP_OK)
        st = sp_binfile_section(&cons, bf, 2, "constraints", 1, err);
    if (st != SP_OK)
        return st;
    for (uint32_t id = 4; id <= 5; id++) {
        if ((st = sp_binfile_section(&gates, bf, id, "custom gates", 0, err)) != SP_OK)
            return st;
        if (gates) {
            sp_bin_errf(err, "r1cs: section %" PRIu32 " holds custom gates (PLONK only); not usable for Groth16", id);
            return SP_ERR_UNSUPPORTED;
        }
    }
    if ((st = parse_header(&cs->h, bf, hs, err)) != SP_OK)
        return st;
    return parse_constraints(cs, bf, cons, err);
}

/* The circuit of a file opened with status st; closes the file. */
static sp_status parse_opened(sp_r1cs *cs, sp_binfile *bf, sp_status st, char *err)
{
    if (st != SP_OK)
        return st;
    st = parse_file(cs, bf, err);
    sp_binfile_close(bf);
    if (st != SP_OK)
        sp_r1cs_free(cs);
    return st;
}

sp_status sp_r1cs_parse(sp_r1cs *cs, const uint8_t *data, size_t len, char err[SP_ERR_LEN])
{
    memset(cs, 0, sizeof *cs);
    sp_binfile bf;
    return parse_opened(cs, &bf, sp_binfile_parse(&bf, data, len, "r1cs", 1, 1, err), err);
}

sp_status sp_r1cs_read(sp_r1cs *cs, const char *path, char err[SP_ERR_LEN])
{
    memset(cs, 0, sizeof *cs);
    sp_binfile bf;
    return parse_opened(cs, &bf, sp_binfile_open(&bf, path, "r1cs", 1, 1, err), err);
}

static void csr_free(sp_csr *m)
{
    free(m->row);
    free(m->col);
    free(m->val);
}

void sp_r1cs_free(sp_r1cs *cs)
{
    csr_free(&cs->a);
    csr_free(&cs->b);
    csr_free(&cs->c);
    memset(cs, 0, sizeof *cs);
}

/* ---- writer ---- */

struct sp_r1cs_writer {
    sp_binw *bw;
    sp_r1cs_header h;
    uint32_t added;
    sp_fr one, minus_one; /* the common coefficients, with their bytes cached */
    uint8_t one_le[SP_FR_BYTES], minus_one_le[SP_FR_BYTES];
};

sp_status sp_r1cs_writer_open(sp_r1cs_writer **out, const char *path, const sp_r1cs_header *h,
                              char err[SP_ERR_LEN])
{
    *out = NULL;
    uint64_t named = named_wires(h);
    if (named > h->n_wires || h->n_labels < h->n_wires) {
        sp_bin_errf(err, "r1cs writer: inconsistent header (nWires %" PRIu32 ", %" PRIu64 " named wires, nLabels %"
                         PRIu64 ")", h->n_wires, named, h->n_labels);
        return SP_ERR_INVALID_ARG;
    }
    sp_r1cs_writer *w = calloc(1, sizeof *w);
    if (!w) {
        sp_bin_errf(err, "r1cs writer: out of memory");
        return SP_ERR_NOMEM;
    }
    w->h = *h;
    sp_fr_set_one(&w->one);
    sp_fr_neg(&w->minus_one, &w->one);
    sp_fr_to_bytes_le(w->one_le, &w->one);
    sp_fr_to_bytes_le(w->minus_one_le, &w->minus_one);
    uint8_t rest[28]; /* the header after the field */
    sp_bin_put_u32(rest, h->n_wires);
    sp_bin_put_u32(rest + 4, h->n_outputs);
    sp_bin_put_u32(rest + 8, h->n_pub_inputs);
    sp_bin_put_u32(rest + 12, h->n_prv_inputs);
    sp_bin_put_u64(rest + 16, h->n_labels);
    sp_bin_put_u32(rest + 24, h->n_constraints);
    sp_status st = sp_fmt_writer_open(&w->bw, path, "r1cs", 1, 3, rest, sizeof rest, err);
    if (st != SP_OK) {
        sp_r1cs_writer_abort(w);
        return st;
    }
    *out = w;
    return SP_OK;
}

static sp_status write_lc(sp_r1cs_writer *w, const sp_r1cs_lc *lc, char *err)
{
    uint8_t buf[4 + SP_FR_BYTES];
    sp_bin_put_u32(buf, (uint32_t)lc->n);
    sp_status st = sp_binw_write(w->bw, buf, 4, err);
    for (size_t i = 0; i < lc->n && st == SP_OK; i++) {
        sp_bin_put_u32(buf, lc->wire[i]);
        if (sp_fr_eq(&lc->coef[i], &w->one))
            memcpy(buf + 4, w->one_le, SP_FR_BYTES);
        else if (sp_fr_eq(&lc->coef[i], &w->minus_one))
            memcpy(buf + 4, w->minus_one_le, SP_FR_BYTES);
        else
            sp_fr_to_bytes_le(buf + 4, &lc->coef[i]);
        st = sp_binw_write(w->bw, buf, sizeof buf, err);
    }
    return st;
}

sp_status sp_r1cs_writer_add(sp_r1cs_writer *w, const sp_r1cs_lc *a, const sp_r1cs_lc *b, const sp_r1cs_lc *c,
                             char err[SP_ERR_LEN])
{
    const sp_r1cs_lc *lc[3] = {a, b, c};
    if (w->added == w->h.n_constraints) {
        sp_bin_errf(err, "r1cs writer: more than the %" PRIu32 " constraints announced", w->h.n_constraints);
        return SP_ERR_INVALID_ARG;
    }
    for (int m = 0; m < 3; m++) { /* check everything before writing anything */
        if (lc[m]->n > UINT32_MAX) {
            sp_bin_errf(err, "r1cs writer: constraint %" PRIu32 " (%s) has too many terms", w->added, LC_NAME[m]);
            return SP_ERR_INVALID_ARG;
        }
        for (size_t i = 0; i < lc[m]->n; i++) {
            if (lc[m]->wire[i] >= w->h.n_wires) {
                sp_bin_errf(err, "r1cs writer: constraint %" PRIu32 " (%s) refers to wire %" PRIu32
                                 ", nWires is %" PRIu32, w->added, LC_NAME[m], lc[m]->wire[i], w->h.n_wires);
                return SP_ERR_INVALID_ARG;
            }
        }
    }
    sp_status st = SP_OK;
    for (int m = 0; m < 3 && st == SP_OK; m++)
        st = write_lc(w, lc[m], err);
    if (st == SP_OK)
        w->added++;
    return st;
}

sp_status sp_r1cs_writer_close(sp_r1cs_writer *w, char err[SP_ERR_LEN])
{
    sp_status st = SP_OK;
    if (w->added != w->h.n_constraints) {
        sp_bin_errf(err, "r1cs writer: %" PRIu32 " constraints added, %" PRIu32 " announced", w->added,
                    w->h.n_constraints);
        st = SP_ERR_INVALID_ARG;
    }
    if (st == SP_OK)
        st = sp_binw_section(w->bw, 3, err);
    uint8_t buf[8 * 512];
    for (uint64_t i = 0; i < w->h.n_wires && st == SP_OK;) { /* wire i -> label i */
        size_t k = 0;
        for (; k < 512 && i < w->h.n_wires; k++, i++)
            sp_bin_put_u64(buf + 8 * k, i);
        st = sp_binw_write(w->bw, buf, 8 * k, err);
    }
    return sp_fmt_writer_end(w->bw, st, w, err);
}

void sp_r1cs_writer_abort(sp_r1cs_writer *w)
{
    if (w)
        (void)sp_fmt_writer_end(w->bw, SP_ERR_CANCELLED, w, NULL);
}

sp_status sp_r1cs_write(const char *path, const sp_r1cs *cs, char err[SP_ERR_LEN])
{
    sp_r1cs_writer *w;
    sp_status st = sp_r1cs_writer_open(&w, path, &cs->h, err);
    if (st != SP_OK)
        return st;
    const sp_csr *mat[3] = {&cs->a, &cs->b, &cs->c};
    for (uint32_t i = 0; i < cs->h.n_constraints && st == SP_OK; i++) {
        sp_r1cs_lc lc[3];
        for (int m = 0; m < 3; m++) {
            uint64_t lo = mat[m]->row[i], hi = mat[m]->row[i + 1];
            lc[m] = (sp_r1cs_lc){(size_t)(hi - lo), mat[m]->col + lo, mat[m]->val + lo};
        }
        st = sp_r1cs_writer_add(w, &lc[0], &lc[1], &lc[2], err);
    }
    if (st != SP_OK) {
        sp_r1cs_writer_abort(w);
        return st;
    }
    return sp_r1cs_writer_close(w, err);
}
