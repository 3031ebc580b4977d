/*
 * A porep-like partition's synthesis in the engine against the same
 * synthesis called directly (as `snarkpipe bench witness` runs it), in
 * one process, interleaved round by round, so that a shared machine's
 * load weighs on every row alike. Each round, in an order that turns from
 * round to round: the direct synthesis into buffers kept between rounds
 * without and with the constraint check, and one engine job of one
 * partition (CPU backend, one synthesis worker, one device worker), whose
 * synthesis time the engine's status reports. The
 * engine's public signals are compared with the direct witness's, and
 * every proof is verified. Prints median, p95 and max of each row and its
 * ratio to the direct synthesis, the cores and the load average before
 * and after.
 *
 * Options:
 *   --zkey FILE    a key for the shape (else a development setup in memory)
 *   --preset NAME --nodes N --challenges N --layers N --drg-parents N
 *   --exp-parents N --label-parents N     the porep-like shape
 *   -n N           rounds (default 7); the first round of each row, cold,
 *                  is left out
 *   --threads N    threads of one synthesis, every row (default: every core,
 *                  the engine's default)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "circuit/porep.h"
#include "engine/engine.h"
#include "groth16/zkey.h"
#include "synth/native_setup.h"

#define ROWS 3
static const char *const row_name[ROWS] = {"direct (bench witness)", "direct, checked", "engine"};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The value at fraction q of the sorted v[0..n). */
static double quantile(const double *v, int n, double q)
{
    int i = (int)(q * (n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static int usage(const char *why)
{
    fprintf(stderr, "bench_engine_synth: %s\nusage: bench_engine_synth [--zkey FILE] [--preset NAME] [--nodes N] "
                    "[--challenges N] [--layers N] [--drg-parents N] [--exp-parents N] [--label-parents N] "
                    "[-n ROUNDS] [--threads N]\n", why);
    return 64;
}

typedef struct {
    const char *zkey, *preset;
    sp_porep_overrides ov;
    int rounds, threads;
} args_;

static int parse(args_ *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    sp_porep_overrides_init(&a->ov);
    a->rounds = 7;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t *ov = !strcmp(o, "--nodes") ? &a->ov.nodes : !strcmp(o, "--challenges") ? &a->ov.challenges
                       : !strcmp(o, "--layers") ? &a->ov.layers : !strcmp(o, "--drg-parents") ? &a->ov.drg_parents
                       : !strcmp(o, "--exp-parents") ? &a->ov.exp_parents
                       : !strcmp(o, "--label-parents") ? &a->ov.label_parents : NULL;
        int *iv = !strcmp(o, "-n") ? &a->rounds : !strcmp(o, "--threads") ? &a->threads : NULL;
        const char **sv = !strcmp(o, "--zkey") ? &a->zkey : !strcmp(o, "--preset") ? &a->preset : NULL;
        if ((!ov && !iv && !sv) || !v)
            return usage(!v && (ov || iv || sv) ? "an option needs a value" : "unknown option");
        char *end;
        unsigned long long x = strtoull(v, &end, 10);
        if (sv)
            *sv = v;
        else if (!*v || *end || (iv && (x < 1 || x > 10000)))
            return usage("a count must be a number (rounds and threads 1 to 10000)");
        else if (ov)
            *ov = x;
        else
            *iv = (int)x;
        i++;
    }
    if (a->rounds < 2)
        return usage("at least 2 rounds (the first is left out)");
    return 0;
}

/* The key: from file, or a development setup of the circuit's recording. */
static sp_status key_for(sp_g16_pk *pk, const sp_porep *c, const char *zkey, char err[SP_ERR_LEN])
{
    const sp_native_circuit *nc = sp_porep_native(c);
    sp_status st;
    if (zkey) {
        st = sp_zkey_read(pk, NULL, zkey, SP_G16_SKIP_SUBGROUP_CHECK, 2, err);
    } else {
        sp_cs_rec *rec = NULL;
        sp_porep_input in0 = {1, 0};
        st = sp_porep_record(&rec, c, &in0, 2, err);
        if (st == SP_OK)
            st = sp_native_setup(pk, &rec, SP_G16_H_SNARKJS, NULL, 2, err);
        sp_cs_rec_free(rec);
    }
    if (st == SP_OK && (pk->n_vars != nc->n_vars || pk->vk.n_public != nc->n_public)) {
        snprintf(err, SP_ERR_LEN, "%s: the key is not the circuit's", nc->name);
        st = SP_ERR_INVALID_ARG;
    }
    return st;
}

/* One engine job of one partition, verified; its synthesis time in *ms,
 * its public signals copied to pub. */
static sp_status engine_round(double *ms, sp_fr *pub, sp_engine *e, const sp_porep_input *in, char err[SP_ERR_LEN])
{
    const void *inp = in;
    sp_engine_job *job = NULL;
    sp_engine_job_desc d = {.circuit_id = "porep", .n_partitions = 1, .inputs = &inp};
    sp_status st = sp_engine_submit(e, &d, &job, err);
    if (st != SP_OK)
        return st;
    sp_engine_result r;
    sp_engine_await(e, job, -1, &r);
    st = r.status;
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "engine job: %.200s", r.err);
    else if (!r.verified)
        st = SP_ERR_UNSATISFIED, snprintf(err, SP_ERR_LEN, "engine job: not verified");
    else
        memcpy(pub, r.public_signals, sizeof(sp_fr) * r.n_public);
    sp_engine_status s;
    *ms = -1;
    if (st == SP_OK && sp_engine_status_get(e, &s) == SP_OK) {
        for (size_t i = 0; i < s.n_jobs; i++)
            if (s.jobs[i].seq == r.job_seq)
                *ms = s.jobs[i].parts[0].synth_ms;
        sp_engine_status_free(&s);
    }
    sp_engine_job_release(e, job);
    return st;
}

static int run(const args_ *a, sp_engine *e, const sp_porep *c, int threads)
{
    const sp_native_circuit *nc = sp_porep_native(c);
    size_t n = 1;
    while (n < nc->n_rows + nc->n_public + 1)
        n <<= 1;
    sp_fr *w = malloc(sizeof(sp_fr) * nc->n_vars), *abc = malloc(sizeof(sp_fr) * 3 * n);
    sp_fr *pub = malloc(sizeof(sp_fr) * (nc->n_public + 1));
    double *t = malloc(sizeof(double) * ROWS * (size_t)a->rounds);
    char err[SP_ERR_LEN] = "";
    if (!w || !abc || !pub || !t) {
        free(w), free(abc), free(pub), free(t);
        return fprintf(stderr, "bench_engine_synth: out of memory\n"), 2;
    }
    double load0[3] = {0}, load1[3] = {0};
    getloadavg(load0, 3);
    sp_status st = SP_OK;
    for (int r = 0; r < a->rounds && st == SP_OK; r++) {
        sp_porep_input in = {1000 + (uint64_t)r, 0};
        /* the rows' order turns every round: what follows the engine's job
         * (its buffers being freed) is not always the same row */
        for (int i = 0; i < ROWS && st == SP_OK; i++) {
            int k = (i + r) % ROWS;
            double *slot = &t[(size_t)k * a->rounds + r], t0 = now_ms();
            if (k < 2) {
                st = nc->witness(nc, &in, w, abc, abc + n, abc + 2 * n, n, threads, k, NULL, err);
                *slot = now_ms() - t0;
            } else {
                st = engine_round(slot, pub, e, &in, err);
            }
        }
        if (st == SP_OK && memcmp(pub, w + 1, sizeof(sp_fr) * nc->n_public) != 0)
            st = SP_ERR_UNSATISFIED, snprintf(err, SP_ERR_LEN, "the engine's public signals differ from the witness's");
    }
    getloadavg(load1, 3);
    int rc = 0;
    if (st != SP_OK) {
        fprintf(stderr, "bench_engine_synth: %s\n", err);
        rc = 2;
    } else {
        printf("%s: %llu constraints, domain 2^%d; %d threads a synthesis, %ld cores; %d rounds (first left out), "
               "interleaved; load average %.2f before, %.2f after\n",
               nc->name, (unsigned long long)nc->n_rows, __builtin_ctzll(n), threads, sysconf(_SC_NPROCESSORS_ONLN),
               a->rounds, load0[0], load1[0]);
        printf("%-24s %10s %10s %10s %14s\n", "row", "median ms", "p95 ms", "max ms", "median ratio");
        double base = 0;
        for (int k = 0; k < ROWS; k++) {
            double *v = t + (size_t)k * a->rounds + 1;
            int m = a->rounds - 1;
            qsort(v, (size_t)m, sizeof *v, cmp_d);
            double med = quantile(v, m, 0.5);
            if (k == 0)
                base = med;
            printf("%-24s %10.1f %10.1f %10.1f %14.2f\n", row_name[k], med, quantile(v, m, 0.95), v[m - 1],
                   base > 0 ? med / base : 0);
        }
    }
    free(w), free(abc), free(pub), free(t);
    return rc;
}

int main(int argc, char **argv)
{
    args_ a;
    int rc = parse(&a, argc, argv);
    if (rc)
        return rc;
    char err[SP_ERR_LEN] = "";
    sp_porep_params p;
    sp_porep *c = NULL;
    sp_g16_pk pk;
    memset(&pk, 0, sizeof pk);
    if (sp_porep_params_from(&p, a.preset, &a.ov, err) != SP_OK || sp_porep_open(&c, &p, err) != SP_OK ||
        key_for(&pk, c, a.zkey, err) != SP_OK) {
        fprintf(stderr, "bench_engine_synth: %s\n", err);
        sp_porep_close(c);
        return 2;
    }
    sp_engine_config cfg = sp_engine_config_default();
    cfg.max_parallel_synthesis = 1;
    cfg.gpu_workers_per_device = 1;
    cfg.synth_threads = a.threads;
    sp_engine *e = NULL;
    if (sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) != SP_OK ||
        sp_engine_register_native(e, "porep", &pk, sp_porep_native(c), err) != SP_OK) {
        fprintf(stderr, "bench_engine_synth: %s\n", err);
        rc = 2;
    } else {
        rc = run(&a, e, c, a.threads ? a.threads : (int)sysconf(_SC_NPROCESSORS_ONLN));
    }
    sp_engine_destroy(e);
    sp_g16_pk_free(&pk);
    sp_porep_close(c);
    return rc;
}
