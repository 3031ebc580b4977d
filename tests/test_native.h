/*
 * Checks shared by the native circuits' tests (test_porep.c, test_post.c):
 * on one small circuit, its recordings against each other and the fast
 * count, and its parallel witness against the recorded matrices times w.
 */
#ifndef SP_TESTS_TEST_NATIVE_H
#define SP_TESTS_TEST_NATIVE_H

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/bits.h"
#include "circuit/native.h"
#include "circuit/rec.h"
#include "test.h"

/* Whether two recordings hold the same matrices. */
static inline int sp_test_same_rec(const sp_cs_rec *x, const sp_cs_rec *y)
{
    if (x->n_rows != y->n_rows || x->n_vars != y->n_vars || x->n_public != y->n_public)
        return 0;
    for (int m = 0; m < 3; m++) {
        if (x->m[m].nnz != y->m[m].nnz || memcmp(x->m[m].row, y->m[m].row, (x->n_rows + 1) * 8) ||
            memcmp(x->m[m].var, y->m[m].var, x->m[m].nnz * 4))
            return 0;
        for (uint64_t i = 0; i < x->m[m].nnz; i++)
            if (!sp_fr_eq(&x->coef[x->m[m].kid[i]], &y->coef[y->m[m].kid[i]]))
                return 0;
    }
    return 1;
}

/* a, b, c of w (n rows each, at abc) through nc's witness function. */
static inline sp_status sp_test_native_abc(const sp_native_circuit *nc, const void *in, sp_fr *w, sp_fr *abc,
                                           size_t n, int threads, int check, const atomic_int *cancel,
                                           char err[SP_ERR_LEN])
{
    return nc->witness(nc, in, w, abc, abc + n, abc + 2 * n, n, threads, check, cancel, err);
}

/*
 * The checks every native circuit passes, on nc recorded as r (input in,
 * 2 threads) and r2 (input other, 1 thread):
 *   - r and r2 the same matrices (they do not depend on the instance), of
 *     nc's sizes;
 *   - the witness on 2 threads with every constraint checked equal to the
 *     one on 1 thread unchecked; its a, b, c equal to the recorded
 *     matrices times w row by row; the witness alone equal to w;
 *   - other: other public inputs, every constraint satisfied;
 *   - a wrong private value rejected by the matrices; a bit tampered under
 *     the gadget path `tamper` named by the debug check; a raised cancel
 *     flag and a too small domain refused.
 * Returns the witness of in (nc->n_vars values, freed by the caller) for
 * the circuit's own checks, or NULL when it could not be made.
 */
static inline sp_fr *sp_test_native_witness(const sp_native_circuit *nc, const sp_cs_rec *r, const sp_cs_rec *r2,
                                            const void *in, const void *other, const char *tamper, sp_rng *rng)
{
    char err[SP_ERR_LEN] = "";
    uint64_t n_vars = nc->n_vars, n_public = nc->n_public;
    CHECK(r->n_rows == nc->n_rows && r->n_vars == n_vars && r->n_public == n_public);
    CHECK(sp_test_same_rec(r, r2));
    size_t n = 1;
    while (n < nc->n_rows + n_public + 1)
        n <<= 1;
    sp_fr *w = malloc(sizeof(sp_fr) * n_vars), *w1 = malloc(sizeof(sp_fr) * n_vars);
    sp_fr *abc = malloc(sizeof(sp_fr) * 3 * n), *ref = malloc(sizeof(sp_fr) * 3 * n);
    sp_fr *abc1 = malloc(sizeof(sp_fr) * 3 * n);
    CHECK(w && w1 && abc && ref && abc1);
    if (!w || !w1 || !abc || !ref || !abc1) {
        free(w), free(w1), free(abc), free(ref), free(abc1);
        return NULL;
    }
    CHECKF(sp_test_native_abc(nc, in, w, abc, n, 2, 1, NULL, err) == SP_OK, "%s", err);
    CHECKF(sp_test_native_abc(nc, in, w1, abc1, n, 1, 0, NULL, err) == SP_OK, "%s", err);
    CHECK(memcmp(w, w1, sizeof(sp_fr) * n_vars) == 0 && memcmp(abc, abc1, sizeof(sp_fr) * 3 * n) == 0);
    uint64_t bad = 0;
    CHECKF(sp_cs_rec_abc(ref, ref + n, ref + 2 * n, n, r, w, 1, 2, &bad, err) == SP_OK, "%s", err);
    size_t diff = 0;
    for (size_t i = 0; i < 3 * n; i++)
        diff += !sp_fr_eq(&abc[i], &ref[i]);
    CHECKF(diff == 0, "%zu of %zu a, b, c values differ from the recorded matrices", diff, 3 * n);
    CHECK(nc->witness(nc, in, w1, NULL, NULL, NULL, 0, 2, 0, NULL, err) == SP_OK &&
          memcmp(w, w1, sizeof(sp_fr) * n_vars) == 0);
    /* another partition: other public inputs, the same circuit satisfied */
    CHECK(sp_test_native_abc(nc, other, w1, abc1, n, 2, 1, NULL, err) == SP_OK);
    CHECK(memcmp(w + 1, w1 + 1, sizeof(sp_fr) * n_public) != 0);
    CHECK(sp_cs_rec_abc(ref, ref + n, ref + 2 * n, n, r, w1, 1, 2, &bad, err) == SP_OK);
    /* a wrong value: the matrices reject it, debug mode names the gadget */
    size_t at = n_public + 1 + (size_t)(sp_rng_u64(rng) % (n_vars - n_public - 1));
    memcpy(w1, w, sizeof(sp_fr) * n_vars);
    sp_fr_add(&w1[at], &w[at], sp_cs_fr_one());
    CHECK(sp_cs_rec_abc(ref, ref + n, ref + 2 * n, n, r, w1, 1, 2, &bad, err) == SP_ERR_UNSATISFIED);
    sp_bits_debug_tamper(UINT64_MAX, tamper);
    sp_status st = sp_test_native_abc(nc, in, w1, abc1, n, 1, 1, NULL, err);
    sp_bits_debug_tamper(UINT64_MAX, NULL);
    char named[SP_CS_PATH_MAX + 1];
    snprintf(named, sizeof named, "(%s", tamper);
    CHECKF(st == SP_ERR_UNSATISFIED && strstr(err, named), "%s (%s)", err, sp_status_str(st));
    /* cancelled before it starts; a domain without room for the tail */
    atomic_int stop = 1;
    CHECK(sp_test_native_abc(nc, in, w1, abc1, n, 2, 0, &stop, err) == SP_ERR_CANCELLED);
    CHECK(nc->witness(nc, in, w1, abc1, abc1 + n, abc1 + 2 * n, nc->n_rows, 2, 0, NULL, err) == SP_ERR_INVALID_ARG);
    free(w1), free(abc), free(ref), free(abc1);
    return w;
}

#endif
