/*
 * QAP at tau (the setup's scalar half) against the prover's view of the
 * same polynomials: for a real circuit and witness,
 *   sum_i w_i A_i(tau) = A(tau), where A(X) interpolates a = A.w on the
 *   domain (inverse NTT, then Horner at tau), likewise for B and C, and
 *   sum_j h_j L2n_(2j+1)(tau) = A(tau) B(tau) - C(tau) for the snarkjs H
 *   scalars h_j: the identity that makes snarkjs' H bases work.
 */
#include <stdlib.h>
#include <string.h>
#include "groth16/qap.h"
#include "ntt/hstep.h"
#include "synth/synth.h"
#include "test.h"

static void horner(sp_fr *out, const sp_fr *coef, size_t n, const sp_fr *x)
{
    sp_fr_set_zero(out);
    for (size_t i = n; i-- > 0;) {
        sp_fr_mul(out, out, x);
        sp_fr_add(out, out, &coef[i]);
    }
}

static void dot(sp_fr *out, const sp_fr *a, const sp_fr *b, size_t n)
{
    sp_fr_set_zero(out);
    for (size_t i = 0; i < n; i++) {
        sp_fr t;
        sp_fr_mul(&t, &a[i], &b[i]);
        sp_fr_add(out, out, &t);
    }
}

/* The threaded evaluations give the serial results, for thread counts
 * that do and do not divide the sizes. */
static void same_threaded(const char *dir, const sp_ntt_domain *d, const sp_r1cs *cs, const sp_fr *tau,
                          const sp_fr *lag, const sp_fr *odd, const sp_fr *at, const sp_fr *bt, const sp_fr *ct)
{
    size_t n = d->n, nw = cs->h.n_wires;
    sp_fr *l2 = malloc(sizeof(sp_fr) * n), *o2 = malloc(sizeof(sp_fr) * n), *w2 = malloc(sizeof(sp_fr) * 3 * nw);
    static const int counts[] = {2, 3, 7, 16};
    for (int i = 0; i < 4; i++) {
        int t = counts[i];
        CHECK(sp_qap_lagrange_at(l2, d, tau, t) == SP_OK);
        CHECK(sp_qap_odd_lagrange_at(o2, d, tau, t) == SP_OK);
        CHECK(sp_qap_wires_at(w2, w2 + nw, w2 + 2 * nw, cs, l2, t) == SP_OK);
        CHECKF(memcmp(l2, lag, sizeof(sp_fr) * n) == 0, "%s: Lagrange basis differs on %d threads", dir, t);
        CHECKF(memcmp(o2, odd, sizeof(sp_fr) * n) == 0, "%s: odd basis differs on %d threads", dir, t);
        CHECKF(memcmp(w2, at, sizeof(sp_fr) * nw) == 0 && memcmp(w2 + nw, bt, sizeof(sp_fr) * nw) == 0 &&
                   memcmp(w2 + 2 * nw, ct, sizeof(sp_fr) * nw) == 0,
               "%s: wire sums differ on %d threads", dir, t);
    }
    free(l2), free(o2), free(w2);
}

static void check_circuit(const char *dir, sp_ntt_roots roots, sp_rng *rng)
{
    char path[256], err[SP_ERR_LEN];
    sp_r1cs cs;
    sp_fr *w = NULL;
    size_t wn = 0;
    unsigned log_n;
    snprintf(path, sizeof path, "tests/vectors/%s/circuit.r1cs", dir);
    CHECK(sp_r1cs_read(&cs, path, err) == SP_OK);
    snprintf(path, sizeof path, "tests/vectors/%s/witness.wtns", dir);
    CHECK(sp_wtns_read(&w, &wn, path, err) == SP_OK);
    CHECK(sp_synth_domain_log(&log_n, &cs.h, err) == SP_OK);
    sp_ntt_domain *d = NULL;
    CHECK(sp_ntt_domain_create(&d, log_n, roots, 1) == SP_OK);
    size_t n = d->n, nw = cs.h.n_wires;
    sp_fr *lag = malloc(sizeof(sp_fr) * n), *odd = malloc(sizeof(sp_fr) * n);
    sp_fr *at = malloc(sizeof(sp_fr) * nw), *bt = malloc(sizeof(sp_fr) * nw), *ct = malloc(sizeof(sp_fr) * nw);
    sp_fr *a = malloc(sizeof(sp_fr) * n), *b = malloc(sizeof(sp_fr) * n), *c = malloc(sizeof(sp_fr) * n);
    sp_fr *h = malloc(sizeof(sp_fr) * n);
    sp_fr tau, x, y, sum, one;
    sp_fr_random(&tau, rng);
    CHECK(sp_qap_lagrange_at(lag, d, &tau, 1) == SP_OK);
    CHECK(sp_qap_odd_lagrange_at(odd, d, &tau, 1) == SP_OK);
    sp_fr_set_zero(&sum);
    for (size_t j = 0; j < n; j++)
        sp_fr_add(&sum, &sum, &lag[j]);
    sp_fr_set_one(&one);
    CHECKF(sp_fr_eq(&sum, &one), "%s: Lagrange basis does not sum to 1", dir);

    CHECK(sp_qap_wires_at(at, bt, ct, &cs, lag, 1) == SP_OK);
    same_threaded(dir, d, &cs, &tau, lag, odd, at, bt, ct);
    size_t bad;
    CHECK(sp_synth_abc(a, b, c, n, &cs, w, wn, 1, 1, NULL, &bad, err) == SP_OK);
    sp_fr ev[3];
    sp_fr *vec[3] = {a, b, c}, *wires[3] = {at, bt, ct};
    for (int m = 0; m < 3; m++) {
        sp_fr *coef = malloc(sizeof(sp_fr) * n);
        for (size_t j = 0; j < n; j++)
            coef[j] = vec[m][j];
        sp_ntt_inverse(d, coef, 1);
        horner(&x, coef, n, &tau);
        dot(&y, wires[m], w, nw);
        CHECKF(sp_fr_eq(&x, &y), "%s: matrix %d: sum w_i M_i(tau) != M(tau)", dir, m);
        ev[m] = x;
        free(coef);
    }
    if (roots == SP_NTT_ROOTS_SNARKJS) {
        sp_h_snarkjs(h, a, b, c, d, 1, NULL);
        dot(&x, h, odd, n);
        sp_fr_mul(&y, &ev[0], &ev[1]);
        sp_fr_sub(&y, &y, &ev[2]);
        CHECKF(sp_fr_eq(&x, &y), "%s: sum h_j L2n_odd(tau) != A(tau)B(tau) - C(tau)", dir);
    }
    /* tau on the domain is refused, not divided by zero. */
    for (int threads = 1; threads <= 5; threads += 4) {
        sp_fr last; /* the last point of the domain: found by the last thread */
        uint64_t e = n - 1;
        sp_fr_pow(&last, &d->omega, &e, 1);
        CHECK(sp_qap_lagrange_at(lag, d, &d->omega, threads) == SP_ERR_INVALID_ARG);
        CHECK(sp_qap_lagrange_at(lag, d, &last, threads) == SP_ERR_INVALID_ARG);
        CHECK(sp_qap_odd_lagrange_at(odd, d, &d->omega_2n, threads) == SP_ERR_INVALID_ARG);
        CHECK(sp_qap_odd_lagrange_at(odd, d, &one, threads) == SP_ERR_INVALID_ARG); /* an even point */
    }
    free(lag), free(odd), free(at), free(bt), free(ct), free(a), free(b), free(c), free(h), free(w);
    sp_ntt_domain_free(d);
    sp_r1cs_free(&cs);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_qap", &rng);
    check_circuit(SP_TEST_VEC_DIR("multiplier"), SP_NTT_ROOTS_SNARKJS, &rng);
    check_circuit(SP_TEST_VEC_DIR("chain1021"), SP_NTT_ROOTS_SNARKJS, &rng);
    check_circuit(SP_TEST_VEC_DIR("chain1021"), SP_NTT_ROOTS_ZKCRYPTO, &rng);
    return sp_test_done();
}
