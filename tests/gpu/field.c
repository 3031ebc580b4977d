/* Field arithmetic: GPU results equal the CPU library's on random inputs
 * (edge values mixed in). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "field/fp2.h"
#include "gpu_check.h"
#include "util/par.h"

static const char *const op_name[17] = {"mul", "sqr", "add", "sub",
                                        "mul (64-bit)", "sqr (64-bit)", "add", "sub",
                                        "mul (even/odd)", "sqr (even/odd)", "add", "sub",
                                        "mul (NTT even/odd)", "mul (NTT even/odd, two at once)",
                                        "mul (even/odd, sums of products)",
                                        "inverse (binary Euclid, variable time)",
                                        "inverse (Fermat)"};

/* Fills a with random elements; the first entries are 0, 1, -1, 2. */
#define FILL_EDGE(F, a, n, rng)                                                       \
    do {                                                                              \
        for (size_t i_ = 0; i_ < (n); i_++)                                           \
            sp_##F##_random(&(a)[i_], (rng));                                         \
        if ((n) >= 4) {                                                               \
            sp_##F##_set_zero(&(a)[0]);                                               \
            sp_##F##_set_one(&(a)[1]);                                                \
            sp_##F##_neg(&(a)[2], &(a)[1]);                                           \
            sp_##F##_add(&(a)[3], &(a)[1], &(a)[1]);                                  \
        }                                                                             \
    } while (0)

/* The CPU reference for op on elements of field F. */
#define CPU_OP(F, op, r, x, y)                                                        \
    do {                                                                              \
        switch (op) {                                                                 \
        case 0: sp_##F##_mul((r), (x), (y)); break;                                  \
        case 1: sp_##F##_sqr((r), (x)); break;                                       \
        case 2: sp_##F##_add((r), (x), (y)); break;                                  \
        case 3: sp_##F##_sub((r), (x), (y)); break;                                  \
        default: sp_##F##_inv((r), (x)); break;                                      \
        }                                                                             \
    } while (0)

typedef struct {
    int op;
    const void *a, *b, *got;
    size_t n, bad;
    int field; /* 0 fp, 1 fr, 2 fp2 */
    pthread_mutex_t *lock;
} cmp_job;

static void cmp_part(sp_par *par, int tid, void *arg)
{
    cmp_job *j = arg;
    size_t bad = 0, lo, hi;
    sp_par_range(&lo, &hi, j->n, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++) {
        if (j->field == 0) {
            sp_fp r;
            CPU_OP(fp, j->op, &r, (const sp_fp *)j->a + i, (const sp_fp *)j->b + i);
            bad += !sp_fp_eq(&r, (const sp_fp *)j->got + i);
        } else if (j->field == 1) {
            sp_fr r;
            CPU_OP(fr, j->op, &r, (const sp_fr *)j->a + i, (const sp_fr *)j->b + i);
            bad += !sp_fr_eq(&r, (const sp_fr *)j->got + i);
        } else {
            sp_fp2 r;
            CPU_OP(fp2, j->op, &r, (const sp_fp2 *)j->a + i, (const sp_fp2 *)j->b + i);
            bad += !sp_fp2_eq(&r, (const sp_fp2 *)j->got + i);
        }
    }
    pthread_mutex_lock(j->lock);
    j->bad += bad;
    pthread_mutex_unlock(j->lock);
}

static size_t compare(chk_env *env, int field, int op, const void *a, const void *b,
                      const void *got, size_t n)
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    cmp_job j = {op, a, b, got, n, 0, field, &lock};
    sp_par_run(sp_par_threads_for(env->threads, n, 1), cmp_part, &j);
    return j.bad;
}

/* Random Fp2 elements; the first 25 (n >= 25) have their halves from 0,
 * 1, -1, 2 and -2, in the 25 combinations (swap: the halves exchanged,
 * so a_i b_i pairs different edges): the largest inputs meet the sums'
 * bound, the cancellations in c0 = a0 b0 - a1 b1 meet zero. */
static void fill_fp2(chk_env *env, sp_fp2 *a, size_t n, int swap)
{
    sp_fp e[5];
    sp_fp_set_zero(&e[0]);
    sp_fp_set_one(&e[1]);
    sp_fp_neg(&e[2], &e[1]);
    sp_fp_add(&e[3], &e[1], &e[1]);
    sp_fp_neg(&e[4], &e[3]);
    for (size_t i = 0; i < n; i++) {
        sp_fp2_random(&a[i], &env->rng);
        if (n >= 25 && i < 25)
            a[i].c0 = e[swap ? i % 5 : i / 5], a[i].c1 = e[swap ? i / 5 : i % 5];
    }
}

static void check_one_field(chk_env *env, int field, size_t n)
{
    static const char *const fname[3] = {"Fp", "Fr", "Fp2"};
    size_t es = field == 0 ? sizeof(sp_fp) : field == 1 ? sizeof(sp_fr) : sizeof(sp_fp2);
    void *a = malloc(n * es), *b = malloc(n * es), *got = malloc(n * es);
    if (!a || !b || !got) {
        CHECKF(0, "out of host memory for %zu elements", n);
        free(a), free(b), free(got);
        return;
    }
    if (field == 0) {
        FILL_EDGE(fp, (sp_fp *)a, n, &env->rng);
        FILL_EDGE(fp, (sp_fp *)b, n, &env->rng);
    } else if (field == 1) {
        FILL_EDGE(fr, (sp_fr *)a, n, &env->rng);
        FILL_EDGE(fr, (sp_fr *)b, n, &env->rng);
    } else {
        fill_fp2(env, (sp_fp2 *)a, n, 0);
        fill_fp2(env, (sp_fp2 *)b, n, 1);
    }
    /* 4, 5: the 64-bit multiplication; 8, 9: even/odd; Fr 12, 13: the
     * NTT's; Fp2 14: sums of products; Fp and Fp2 15, 16: the inverses */
    for (int op = 0; op < (field == 1 ? 14 : 17); op++) {
        if (op == 6 || op == 7 || op == 10 || op == 11)
            continue; /* add and sub are the same code for every multiplication */
        if ((field == 2 && (op == 12 || op == 13)) || (field == 0 && op >= 12 && op < 15))
            continue; /* the Fr products and the Fp2 sums */
        memset(got, 0xa5, n * es); /* poison: unwritten results show */
        sp_status st = field == 0   ? sp_cuda_fp_batch(env->cu, op, got, a, b, n)
                       : field == 1 ? sp_cuda_fr_batch(env->cu, op, got, a, b, n)
                                    : sp_cuda_fp2_batch(env->cu, op, got, a, b, n);
        char what[64];
        snprintf(what, sizeof what, "%s %s batch", fname[field], op_name[op]);
        if (!chk_ok(env, st, what))
            continue;
        size_t bad = compare(env, field, op >= 15 ? 4 : op >= 12 ? 0 : op & 3, a, b, got, n);
        CHECKF(bad == 0, "%s %s: %zu of %zu differ from the CPU", fname[field], op_name[op], bad,
               n);
        printf("  %-3s %s: %zu random inputs equal to the CPU: %s\n", fname[field], op_name[op], n,
               bad ? "NO" : "yes");
    }
    free(a), free(b), free(got);
}

void chk_field(chk_env *env)
{
    size_t n = env->quick ? (1u << 16) : (4u << 20);
    check_one_field(env, 0, n);
    check_one_field(env, 1, n);
    check_one_field(env, 2, n / 4);
    chk_tally();
}
