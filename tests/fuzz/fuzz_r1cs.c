/* libFuzzer target: the circom .r1cs reader (sp_r1cs_parse). An accepted
 * circuit must have consistent CSR matrices and survive a write / read
 * round trip unchanged. */
#include "fuzz.h"
#include "r1cs/r1cs.h"

static void check_csr(const sp_csr *m, const sp_r1cs_header *h)
{
    FUZZ_CHECK(m->n_rows == h->n_constraints);
    FUZZ_CHECK(m->row[0] == 0 && m->row[m->n_rows] == m->nnz);
    for (size_t i = 0; i < m->n_rows; i++)
        FUZZ_CHECK(m->row[i] <= m->row[i + 1]);
    for (uint64_t k = 0; k < m->nnz; k++) {
        FUZZ_CHECK(m->col[k] < h->n_wires);
        FUZZ_CHECK(fuzz_limbs_lt(m->val[k].l, SP_FR_MODULUS, SP_FR_LIMBS));
    }
}

static int csr_equal(const sp_csr *x, const sp_csr *y)
{
    return x->n_rows == y->n_rows && x->nnz == y->nnz &&
           !memcmp(x->row, y->row, (x->n_rows + 1) * sizeof *x->row) &&
           !memcmp(x->col, y->col, x->nnz * sizeof *x->col) && !memcmp(x->val, y->val, x->nnz * sizeof *x->val);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    sp_r1cs cs;
    sp_status st = sp_r1cs_parse(&cs, data, size, err);
    if (st != SP_OK) {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        sp_r1cs_free(&cs); /* documented as harmless on failure */
        return 0;
    }
    FUZZ_CHECK(1 + (uint64_t)cs.h.n_outputs + cs.h.n_pub_inputs <= cs.h.n_wires);
    check_csr(&cs.a, &cs.h);
    check_csr(&cs.b, &cs.h);
    check_csr(&cs.c, &cs.h);

    /* A small file may announce up to 2^32 - 1 wires (unused ones cost the
     * reader nothing), but the writer labels each: round-trip small ones. */
    if (cs.h.n_wires > (1u << 16)) {
        sp_r1cs_free(&cs);
        return 0;
    }
    /* Our writer always labels every wire; the reader ignores labels. */
    if (cs.h.n_labels < cs.h.n_wires)
        cs.h.n_labels = cs.h.n_wires;
    const char *tmp = fuzz_tmp_path();
    FUZZ_CHECK(sp_r1cs_write(tmp, &cs, err) == SP_OK);
    sp_r1cs back;
    FUZZ_CHECK(sp_r1cs_read(&back, tmp, err) == SP_OK);
    FUZZ_CHECK(!memcmp(&back.h, &cs.h, sizeof cs.h));
    FUZZ_CHECK(csr_equal(&back.a, &cs.a) && csr_equal(&back.b, &cs.b) && csr_equal(&back.c, &cs.c));
    sp_r1cs_free(&back);
    sp_r1cs_free(&cs);
    return 0;
}
