/*
 * Native Poseidon (poseidon.h): the parameters (round numbers, Grain round
 * constants, Cauchy MDS matrix), the plain permutation and its fast form.
 *
 * The fast form, derived here from the plain one (tests/test_poseidon.c
 * checks the two agree on random states):
 *
 * 1. Constants. In a partial round only element 0 goes through the S-box,
 *    so a constant added to elements 1..t-1 passes it unchanged and can be
 *    moved past the round's matrix: adding (0, c_1..c_{t-1}) before the
 *    round equals adding M * (0, c_1..c_{t-1}) after it, i.e. to the next
 *    round's constants. Walking forward, every partial round keeps one
 *    constant (on element 0, pk) and the last carry lands on the first full
 *    round after them (mid_rc).
 *
 * 2. Matrices. Write a partial round's matrix A = [[a00, v], [w, B]] (v a
 *    row, w a column, B the (t-1)x(t-1) minor) as S * D with
 *    D = diag(1, B), applied first, and the sparse S = [[a00, v B^-1],
 *    [w, I]]. D leaves element 0 alone, so it commutes with that round's
 *    constant and S-box and can be moved to the end of the previous round,
 *    whose matrix becomes D * M and is factored the same way. Walking
 *    backward from the last partial round, every partial round gets a
 *    sparse S (2t - 1 multiplications instead of t^2), and the D left over
 *    at the front joins the last full round before them: pre = D * M.
 *
 * Every S-box sees the same input in both forms (element 0 is untouched by
 * the moved D's, the full rounds' inputs are equal by construction), which
 * is what the gadget's witness relies on (sp_poseidon_hash_trace).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/poseidon.h"

#define W_MAX SP_POSEIDON_MAX_WIDTH

/* ---- round numbers ---- */

/* The paper's inequalities (as neptune evaluates them, in single
 * precision with n = 256 and M = 128): whether (rf, rp) is secure for t. */
static int rounds_secure_(unsigned t, unsigned rf, unsigned rp)
{
    const float n = 256.0f, m = 128.0f, ft = (float)t, frp = (float)rp;
    float need[4];
    need[0] = m <= (n - 3.0f) * (ft + 1.0f) ? 6.0f : 10.0f;  /* statistical */
    need[1] = ceilf(0.43f * m + log2f(ft) - frp);             /* interpolation */
    need[2] = ceilf(0.21f * n - frp);                          /* Groebner 1 */
    need[3] = ceilf((0.14f * n - 1.0f - frp) / (ft - 1.0f));   /* Groebner 2 */
    float max = 0.0f;
    for (int i = 0; i < 4; i++)
        max = need[i] > max ? need[i] : max;
    return (float)rf >= max;
}

void sp_poseidon_round_numbers(unsigned *rf, unsigned *rp, unsigned t)
{
    /* neptune's search (round_numbers.rs): the cheapest t * R_F + R_P
     * after the margin, ties to the smaller R_F. Its loop also raises the
     * outer R_F by 2 at every secure hit of the inner loop; mirrored here,
     * though it only ever adds dearer candidates. */
    unsigned best_rf = 0, best_rp = 0, best = UINT32_MAX;
    for (unsigned rf0 = 2; rf0 <= 1000; rf0 += 2) {
        unsigned rf_test = rf0;
        for (unsigned rp_test = 4; rp_test < 200; rp_test++) {
            if (!rounds_secure_(t, rf_test, rp_test))
                continue;
            rf_test += 2;
            unsigned rp_m = (unsigned)ceilf(1.075f * (float)rp_test);
            unsigned cost = t * rf_test + rp_m;
            if (cost < best || (cost == best && rf_test < best_rf)) {
                best_rf = rf_test, best_rp = rp_m, best = cost;
            }
        }
    }
    *rf = best_rf, *rp = best_rp;
}

/* ---- Grain LFSR (create_rcs_grain.sage) ---- */

typedef struct {
    uint8_t b[80]; /* ring: b[i] is the oldest bit */
    unsigned i;
} grain_;

static int grain_step_(grain_ *g)
{
    unsigned i = g->i;
#define AT(k) g->b[(i + (k)) % 80]
    int bit = AT(62) ^ AT(51) ^ AT(38) ^ AT(23) ^ AT(13) ^ AT(0);
#undef AT
    g->b[i] = (uint8_t)bit; /* the new bit takes the oldest one's place */
    g->i = (i + 1) % 80;
    return bit;
}

static void grain_put_(grain_ *g, unsigned *at, unsigned bits, unsigned v)
{
    for (unsigned k = bits; k-- > 0;)
        g->b[(*at)++] = (uint8_t)(v >> k & 1);
}

static void grain_init_(grain_ *g, unsigned sbox, unsigned n, unsigned t, unsigned rf, unsigned rp)
{
    unsigned at = 0;
    grain_put_(g, &at, 2, 1); /* GF(p) */
    grain_put_(g, &at, 4, sbox);
    grain_put_(g, &at, 12, n);
    grain_put_(g, &at, 12, t);
    grain_put_(g, &at, 10, rf);
    grain_put_(g, &at, 10, rp);
    while (at < 80)
        g->b[at++] = 1;
    g->i = 0;
    for (int k = 0; k < 160; k++)
        grain_step_(g);
}

/* Self-shrinking: of each pair of bits, the second counts when the first is 1. */
static int grain_bit_(grain_ *g)
{
    for (;;) {
        int keep = grain_step_(g);
        int bit = grain_step_(g);
        if (keep)
            return bit;
    }
}

/* n round constants: 255-bit big-endian candidates, those >= r skipped. */
static void grain_constants_(sp_fr *out, size_t n, unsigned t, unsigned rf, unsigned rp)
{
    grain_ g;
    grain_init_(&g, 1, 255, t, rf, rp);
    for (size_t i = 0; i < n;) {
        uint8_t be[32] = {0};
        for (unsigned k = 0; k < 255; k++) {
            unsigned pos = 254 - k; /* first bit out is the top one */
            if (grain_bit_(&g))
                be[31 - pos / 8] |= (uint8_t)(1u << (pos % 8));
        }
        if (sp_fr_from_bytes_be(&out[i], be) == SP_OK)
            i++;
    }
}

/* ---- small linear algebra over Fr (public data, variable time) ---- */

/* r = a * b for t x t row-major matrices (r must not alias). */
static void mat_mul_(sp_fr *r, const sp_fr *a, const sp_fr *b, unsigned t)
{
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            sp_fr acc, x;
            sp_fr_set_zero(&acc);
            for (unsigned k = 0; k < t; k++) {
                sp_fr_mul(&x, &a[i * t + k], &b[k * t + j]);
                sp_fr_add(&acc, &acc, &x);
            }
            r[i * t + j] = acc;
        }
}

/* Solves x * B = v for the row x, B n x n (given with row stride `stride`)
 * by Gauss-Jordan on the transpose. Returns 0 when B is singular. */
static int solve_row_(sp_fr *x, const sp_fr *b, unsigned stride, const sp_fr *v, unsigned n)
{
    /* augmented [B^T | v^T], n x (n + 1) */
    sp_fr *a = malloc((size_t)n * (n + 1) * sizeof *a);
    if (!a)
        return 0;
    unsigned w = n + 1;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < n; j++)
            a[i * w + j] = b[j * stride + i];
        a[i * w + n] = v[i];
    }
    int ok = 1;
    for (unsigned c = 0; c < n && ok; c++) {
        unsigned piv = c;
        while (piv < n && sp_fr_is_zero(&a[piv * w + c]))
            piv++;
        if (piv == n) {
            ok = 0;
            break;
        }
        for (unsigned j = 0; j < w; j++) {
            sp_fr tmp = a[c * w + j];
            a[c * w + j] = a[piv * w + j], a[piv * w + j] = tmp;
        }
        sp_fr inv, f, y;
        sp_fr_inv(&inv, &a[c * w + c]);
        for (unsigned j = c; j < w; j++)
            sp_fr_mul(&a[c * w + j], &a[c * w + j], &inv);
        for (unsigned i = 0; i < n; i++) {
            if (i == c || sp_fr_is_zero(&a[i * w + c]))
                continue;
            f = a[i * w + c];
            for (unsigned j = c; j < w; j++) {
                sp_fr_mul(&y, &f, &a[c * w + j]);
                sp_fr_sub(&a[i * w + j], &a[i * w + j], &y);
            }
        }
    }
    for (unsigned i = 0; ok && i < n; i++)
        x[i] = a[i * w + n];
    free(a);
    return ok;
}

/* ---- building an instance ---- */

/* Step 1 of the fast form: the partial rounds' constants on element 0 and
 * the carry into the next full round (see the top of the file). */
static void fold_constants_(sp_fr *pk, sp_fr *mid_rc, const sp_poseidon *p)
{
    unsigned t = p->t, half = p->rf / 2;
    sp_fr carry[W_MAX], c[W_MAX], x;
    for (unsigned i = 0; i < t; i++)
        sp_fr_set_zero(&carry[i]);
    for (unsigned r = 0; r < p->rp; r++) {
        const sp_fr *rc = p->rc + (size_t)(half + r) * t;
        for (unsigned i = 0; i < t; i++)
            sp_fr_add(&c[i], &rc[i], &carry[i]);
        pk[r] = c[0];
        for (unsigned i = 0; i < t; i++) { /* carry = M * (0, c_1..c_{t-1}) */
            sp_fr_set_zero(&carry[i]);
            for (unsigned j = 1; j < t; j++) {
                sp_fr_mul(&x, &p->mds[i * t + j], &c[j]);
                sp_fr_add(&carry[i], &carry[i], &x);
            }
        }
    }
    const sp_fr *rc = p->rc + (size_t)(half + p->rp) * t;
    for (unsigned i = 0; i < t; i++)
        sp_fr_add(&mid_rc[i], &rc[i], &carry[i]);
}

/* Step 2: the sparse matrices, backward, and pre. Returns 0 on a singular
 * minor (never for these Cauchy matrices) or out of memory. */
static int factor_matrices_(sp_fr *sparse, sp_fr *pre, const sp_poseidon *p)
{
    unsigned t = p->t, n = t - 1, sw = 2 * t - 1;
    sp_fr *a = malloc(2 * (size_t)t * t * sizeof *a);
    if (!a)
        return 0;
    sp_fr *d = a + (size_t)t * t;
    memcpy(a, p->mds, (size_t)t * t * sizeof *a); /* the last partial round's matrix */
    for (unsigned r = p->rp; r-- > 0;) {
        sp_fr *s = sparse + (size_t)r * sw;
        s[0] = a[0];
        if (!solve_row_(s + 1, a + t + 1, t, a + 1, n)) { /* v B^-1 */
            free(a);
            return 0;
        }
        for (unsigned i = 1; i < t; i++)
            s[t + i - 1] = a[i * t]; /* w */
        /* D = diag(1, B) moves to the previous round: its matrix is D * M */
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++)
                sp_fr_set_zero(&d[i * t + j]);
        sp_fr_set_one(&d[0]);
        for (unsigned i = 1; i < t; i++)
            for (unsigned j = 1; j < t; j++)
                d[i * t + j] = a[i * t + j];
        mat_mul_(r ? a : pre, d, p->mds, t);
    }
    free(a);
    return 1;
}

static sp_poseidon *build_(unsigned arity)
{
    unsigned t = arity + 1, rf, rp;
    sp_poseidon_round_numbers(&rf, &rp, t);
    size_t n_rc = (size_t)(rf + rp) * t, n_fr = n_rc + 2 * (size_t)t * t + rp + (size_t)rp * (2 * t - 1) + t;
    sp_poseidon *p = malloc(sizeof *p + n_fr * sizeof(sp_fr));
    if (!p)
        return NULL;
    sp_fr *f = (sp_fr *)(p + 1), *rc = f, *mds = rc + n_rc, *pre = mds + t * t, *pk = pre + t * t,
          *sparse = pk + rp, *mid_rc = sparse + (size_t)rp * (2 * t - 1);
    p->arity = arity, p->t = t, p->rf = rf, p->rp = rp, p->n_sbox = t * rf + rp;
    sp_fr_set_u64(&p->tag, (1ull << arity) - 1);
    grain_constants_(rc, n_rc, t, rf, rp);
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            sp_fr_set_u64(&mds[i * t + j], i + t + j);
            sp_fr_inv(&mds[i * t + j], &mds[i * t + j]);
        }
    p->rc = rc, p->mds = mds, p->pre = pre, p->pk = pk, p->sparse = sparse, p->mid_rc = mid_rc;
    fold_constants_(pk, mid_rc, p);
    if (!factor_matrices_(sparse, pre, p)) {
        free(p);
        return NULL;
    }
    return p;
}

static _Atomic(sp_poseidon *) cache_[SP_POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t cache_mu_ = PTHREAD_MUTEX_INITIALIZER;

const sp_poseidon *sp_poseidon_params(unsigned arity)
{
    if (arity < SP_POSEIDON_MIN_ARITY || arity > SP_POSEIDON_MAX_ARITY)
        return NULL;
    sp_poseidon *p = atomic_load_explicit(&cache_[arity], memory_order_acquire);
    if (p)
        return p;
    /* built once under the lock; kept for the life of the process */
    pthread_mutex_lock(&cache_mu_);
    p = atomic_load_explicit(&cache_[arity], memory_order_relaxed);
    if (!p) {
        p = build_(arity);
        if (p)
            atomic_store_explicit(&cache_[arity], p, memory_order_release);
    }
    pthread_mutex_unlock(&cache_mu_);
    return p;
}

/* ---- the permutation ---- */

static inline void sbox_(sp_fr *x)
{
    sp_fr y;
    sp_fr_sqr(&y, x);
    sp_fr_sqr(&y, &y);
    sp_fr_mul(x, x, &y);
}

static void mat_apply_(sp_fr *s, const sp_fr *m, unsigned t)
{
    sp_fr out[W_MAX], x;
    for (unsigned i = 0; i < t; i++) {
        sp_fr_mul(&out[i], &m[i * t], &s[0]);
        for (unsigned j = 1; j < t; j++) {
            sp_fr_mul(&x, &m[i * t + j], &s[j]);
            sp_fr_add(&out[i], &out[i], &x);
        }
    }
    memcpy(s, out, t * sizeof *s);
}

/* s = [[m00, v], [w, I]] * s, with sp = m00, v, w. */
static void sparse_apply_(sp_fr *s, const sp_fr *sp, unsigned t)
{
    sp_fr s0 = s[0], x;
    sp_fr_mul(&s[0], &sp[0], &s0);
    for (unsigned i = 1; i < t; i++) {
        sp_fr_mul(&x, &sp[i], &s[i]);
        sp_fr_add(&s[0], &s[0], &x);
        sp_fr_mul(&x, &sp[t + i - 1], &s0);
        sp_fr_add(&s[i], &s[i], &x);
    }
}

/* One full round: constants, S-boxes (inputs to *trace when given), matrix. */
static void full_round_(sp_fr *s, const sp_fr *rc, const sp_fr *m, unsigned t, sp_fr **trace)
{
    for (unsigned i = 0; i < t; i++) {
        sp_fr_add(&s[i], &s[i], &rc[i]);
        if (*trace)
            *(*trace)++ = s[i];
        sbox_(&s[i]);
    }
    mat_apply_(s, m, t);
}

static void permute_fast_(const sp_poseidon *p, sp_fr *s, sp_fr *trace)
{
    unsigned t = p->t, half = p->rf / 2;
    for (unsigned r = 0; r < half; r++)
        full_round_(s, p->rc + (size_t)r * t, r + 1 == half ? p->pre : p->mds, t, &trace);
    for (unsigned r = 0; r < p->rp; r++) {
        sp_fr_add(&s[0], &s[0], &p->pk[r]);
        if (trace)
            *trace++ = s[0];
        sbox_(&s[0]);
        sparse_apply_(s, p->sparse + (size_t)r * (2 * t - 1), t);
    }
    const sp_fr *rc = p->rc + (size_t)(half + p->rp) * t;
    for (unsigned r = 0; r < half; r++, rc += t)
        full_round_(s, r ? rc : p->mid_rc, p->mds, t, &trace);
}

void sp_poseidon_permute(const sp_poseidon *p, sp_fr *state) { permute_fast_(p, state, NULL); }

void sp_poseidon_permute_ref(const sp_poseidon *p, sp_fr *s)
{
    unsigned t = p->t, half = p->rf / 2;
    const sp_fr *rc = p->rc;
    for (unsigned r = 0; r < p->rf + p->rp; r++, rc += t) {
        int full = r < half || r >= half + p->rp;
        for (unsigned i = 0; i < t; i++)
            sp_fr_add(&s[i], &s[i], &rc[i]);
        for (unsigned i = 0; i < (full ? t : 1); i++)
            sbox_(&s[i]);
        mat_apply_(s, p->mds, t);
    }
}

static void load_(sp_fr *s, const sp_poseidon *p, const sp_fr *in)
{
    s[0] = p->tag;
    memcpy(s + 1, in, p->arity * sizeof *in);
}

void sp_poseidon_hash(sp_fr *out, const sp_poseidon *p, const sp_fr *in)
{
    sp_fr s[W_MAX];
    load_(s, p, in);
    permute_fast_(p, s, NULL);
    *out = s[1];
}

void sp_poseidon_hash_ref(sp_fr *out, const sp_poseidon *p, const sp_fr *in)
{
    sp_fr s[W_MAX];
    load_(s, p, in);
    sp_poseidon_permute_ref(p, s);
    *out = s[1];
}

void sp_poseidon_hash_trace(sp_fr *out, sp_fr *sbox_in, const sp_poseidon *p, const sp_fr *in)
{
    sp_fr s[W_MAX];
    load_(s, p, in);
    permute_fast_(p, s, sbox_in);
    *out = s[1];
}
