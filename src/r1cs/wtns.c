/* .wtns reading and writing. Contracts in r1cs.h; layout in docs/formats.md §3. */
#include <inttypes.h>
#include <stdlib.h>
#include "r1cs/internal.h"
#include "r1cs/r1cs.h"

static sp_status wtns_header(uint32_t *n, const sp_binfile *bf, const sp_bin_section *s, char *err)
{
    sp_bin_cursor c = sp_bin_cursor_of(bf, s);
    uint32_t n8;
    const uint8_t *prime;
    if (!sp_bin_u32(&c, &n8) || !sp_bin_bytes(&c, &prime, n8)) {
        sp_bin_errf(err, "wtns section 1: %" PRIu64 " bytes, too short for a header", s->size);
        return SP_ERR_FORMAT;
    }
    sp_status st = sp_fmt_check_prime("wtns", n8, prime, err);
    if (st != SP_OK)
        return st;
    if (!sp_bin_u32(&c, n) || c.left) {
        sp_bin_errf(err, "wtns section 1: %" PRIu64 " bytes, expected %d", s->size, 8 + SP_FR_BYTES);
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

static sp_status wtns_values(sp_fr **out, size_t *n_out, const sp_binfile *bf, char *err)
{
    const sp_bin_section *hs, *vs;
    uint32_t n;
    sp_status st = sp_binfile_section(&hs, bf, 1, "header", 1, err);
    if (st == SP_OK)
        st = sp_binfile_section(&vs, bf, 2, "values", 1, err);
    if (st == SP_OK)
        st = wtns_header(&n, bf, hs, err);
    if (st != SP_OK)
        return st;
    if (vs->size != (uint64_t)n * SP_FR_BYTES) {
        sp_bin_errf(err, "wtns section 2: %" PRIu64 " bytes, expected %" PRIu32 " values x %d = %" PRIu64, vs->size,
                    n, SP_FR_BYTES, (uint64_t)n * SP_FR_BYTES);
        return SP_ERR_FORMAT;
    }
    if (n == 0) {
        sp_bin_errf(err, "wtns: the witness is empty (w[0] = 1 is required)");
        return SP_ERR_FORMAT;
    }
    sp_fr *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        sp_bin_errf(err, "wtns: out of memory for %" PRIu32 " values", n);
        return SP_ERR_NOMEM;
    }
    const uint8_t *p = bf->data + vs->offset;
    for (uint32_t i = 0; i < n; i++) {
        if (sp_fr_from_bytes_le(&w[i], p + (size_t)i * SP_FR_BYTES) != SP_OK) {
            sp_bin_errf(err, "wtns: value %" PRIu32 " is not below r", i);
            free(w);
            return SP_ERR_NOT_CANONICAL;
        }
    }
    if (!sp_fr_is_one(&w[0])) {
        sp_bin_errf(err, "wtns: w[0] must be 1 (the constant wire)");
        free(w);
        return SP_ERR_FORMAT;
    }
    *out = w;
    *n_out = n;
    return SP_OK;
}

/* The values of a file opened with status st; closes the file. */
static sp_status values_opened(sp_fr **w, size_t *n, sp_binfile *bf, sp_status st, char *err)
{
    if (st != SP_OK)
        return st;
    st = wtns_values(w, n, bf, err);
    sp_binfile_close(bf);
    return st;
}

sp_status sp_wtns_parse(sp_fr **w, size_t *n, const uint8_t *data, size_t len, char err[SP_ERR_LEN])
{
    *w = NULL;
    *n = 0;
    sp_binfile bf;
    return values_opened(w, n, &bf, sp_binfile_parse(&bf, data, len, "wtns", 2, 2, err), err);
}

sp_status sp_wtns_read(sp_fr **w, size_t *n, const char *path, char err[SP_ERR_LEN])
{
    *w = NULL;
    *n = 0;
    sp_binfile bf;
    return values_opened(w, n, &bf, sp_binfile_open(&bf, path, "wtns", 2, 2, err), err);
}

sp_status sp_wtns_check_circuit(size_t n, const sp_r1cs_header *h, char err[SP_ERR_LEN])
{
    if (n == h->n_wires)
        return SP_OK;
    sp_bin_errf(err, "wtns: expected %" PRIu32 " values (nVars of the circuit), file holds %zu", h->n_wires, n);
    return SP_ERR_FORMAT;
}

/* ---- writer ---- */

struct sp_wtns_writer {
    sp_binw *bw;
    size_t n, put;
};

sp_status sp_wtns_writer_open(sp_wtns_writer **out, const char *path, size_t n, char err[SP_ERR_LEN])
{
    *out = NULL;
    if (n == 0 || n > UINT32_MAX) {
        sp_bin_errf(err, "wtns writer: %zu values cannot be stored (1 .. 2^32-1)", n);
        return SP_ERR_INVALID_ARG;
    }
    sp_wtns_writer *w = calloc(1, sizeof *w);
    if (!w) {
        sp_bin_errf(err, "wtns writer: out of memory");
        return SP_ERR_NOMEM;
    }
    w->n = n;
    uint8_t count[4]; /* the header after the field */
    sp_bin_put_u32(count, (uint32_t)n);
    sp_status st = sp_fmt_writer_open(&w->bw, path, "wtns", 2, 2, count, sizeof count, err);
    if (st != SP_OK) {
        sp_wtns_writer_abort(w);
        return st;
    }
    *out = w;
    return SP_OK;
}

sp_status sp_wtns_writer_put(sp_wtns_writer *w, const sp_fr *v, size_t count, char err[SP_ERR_LEN])
{
    if (count > w->n - w->put) {
        sp_bin_errf(err, "wtns writer: more than the %zu values announced", w->n);
        return SP_ERR_INVALID_ARG;
    }
    uint8_t buf[SP_FR_BYTES * 256];
    sp_status st = SP_OK;
    for (size_t i = 0; i < count && st == SP_OK;) {
        size_t k = 0;
        for (; k < 256 && i < count; k++, i++)
            sp_fr_to_bytes_le(buf + SP_FR_BYTES * k, &v[i]);
        st = sp_binw_write(w->bw, buf, SP_FR_BYTES * k, err);
    }
    if (st == SP_OK)
        w->put += count;
    return st;
}

sp_status sp_wtns_writer_close(sp_wtns_writer *w, char err[SP_ERR_LEN])
{
    sp_status st = SP_OK;
    if (w->put != w->n) {
        sp_bin_errf(err, "wtns writer: %zu values written, %zu announced", w->put, w->n);
        st = SP_ERR_INVALID_ARG;
    }
    return sp_fmt_writer_end(w->bw, st, w, err);
}

void sp_wtns_writer_abort(sp_wtns_writer *w)
{
    if (w)
        (void)sp_fmt_writer_end(w->bw, SP_ERR_CANCELLED, w, NULL);
}

sp_status sp_wtns_write(const char *path, const sp_fr *w, size_t n, char err[SP_ERR_LEN])
{
    sp_wtns_writer *ww;
    sp_status st = sp_wtns_writer_open(&ww, path, n, err);
    if (st != SP_OK)
        return st;
    st = sp_wtns_writer_put(ww, w, n, err);
    if (st != SP_OK) {
        sp_wtns_writer_abort(ww);
        return st;
    }
    return sp_wtns_writer_close(ww, err);
}
