/*
 * Shared by the gadget tests (test_bits.c, test_sha_gadget.c): run one
 * circuit-building function in the three modes and check that they agree.
 */
#ifndef SP_TESTS_TEST_GADGET_H
#define SP_TESTS_TEST_GADGET_H

#include <stdlib.h>
#include <string.h>
#include "circuit/bits.h"
#include "circuit/cs.h"
#include "circuit/rec.h"
#include "test.h"

typedef void (*gadget_fn)(sp_cs *cs, void *ctx);

/*
 * Runs f in COUNT mode, RECORD mode (check on) and WITNESS mode (check on,
 * w, a, b, c written), in that order, and checks: every run's status is
 * OK; the counts agree; every row has a * b = c; the recorded rows times
 * the WITNESS w equal the WITNESS a, b, c row by row. Returns the WITNESS w
 * (n_vars values; the caller frees it) and the counts; f's context holds
 * what the WITNESS run (the last) left in it.
 */
static sp_fr *gadget_run3(gadget_fn f, void *ctx, uint64_t *n_vars, uint64_t *n_rows)
{
    sp_cs cs;
    CHECK(sp_cs_open(&cs, SP_CS_COUNT, 0) == SP_OK);
    f(&cs, ctx);
    CHECKF(sp_cs_status(&cs) == SP_OK, "count: %s", cs.err);
    uint64_t nv = sp_cs_n_vars(&cs), nr = sp_cs_n_rows(&cs);
    sp_cs_close(&cs);

    CHECK(sp_cs_open(&cs, SP_CS_RECORD, 1) == SP_OK);
    f(&cs, ctx);
    CHECKF(sp_cs_status(&cs) == SP_OK, "record: %s", cs.err);
    CHECK(sp_cs_n_vars(&cs) == nv && sp_cs_n_rows(&cs) == nr);
    sp_cs_rec *rec = sp_cs_take_rec(&cs);
    sp_cs_close(&cs);

    sp_fr *w = calloc(nv, sizeof *w), *abc = calloc(3 * (nr + 1), sizeof *abc);
    sp_fr *a = abc, *b = abc + nr + 1, *c = abc + 2 * (nr + 1);
    CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
    sp_cs_set_outputs(&cs, w, nv, a, b, c, nr);
    f(&cs, ctx);
    CHECKF(sp_cs_status(&cs) == SP_OK, "witness: %s", cs.err);
    CHECK(sp_cs_n_vars(&cs) == nv && sp_cs_n_rows(&cs) == nr);
    sp_cs_close(&cs);

    unsigned long bad = 0;
    for (uint64_t i = 0; rec && i < nr; i++) {
        sp_fr ab, d[3];
        sp_fr_mul(&ab, &a[i], &b[i]);
        for (int m = 0; m < 3; m++)
            sp_cs_rec_row_dot(&d[m], rec, m, i, w);
        if (!sp_fr_eq(&ab, &c[i]) || !sp_fr_eq(&d[0], &a[i]) || !sp_fr_eq(&d[1], &b[i]) || !sp_fr_eq(&d[2], &c[i]))
            bad++;
    }
    CHECKF(rec && bad == 0, "%lu of %llu rows disagree", bad, (unsigned long long)nr);
    sp_cs_rec_free(rec);
    free(abc);
    *n_vars = nv, *n_rows = nr;
    return w;
}

/* Whether a bit's value is the witness's (constants always are). */
static int bit_in_w(const sp_bit *b, const sp_fr *w)
{
    if (b->kind == SP_BIT_CONST)
        return 1;
    sp_fr v;
    sp_fr_set_u64(&v, (uint64_t)(b->kind == SP_BIT_NOT ? 1 - b->val : b->val));
    return sp_fr_eq(&w[b->var], &v);
}

#endif
