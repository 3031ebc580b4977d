/*
 * Mixed load on the proving engine: window-post-like jobs at the highest
 * priority while porep-like jobs keep the pipeline full. One engine, both
 * circuits registered; first the post jobs alone (isolation), then the
 * same number under porep-like load. Prints side by side the post job's
 * latency (p50, max, ratio to isolation) and the porep-like throughput
 * (partitions a minute) over the whole load phase and while a post job
 * was in the engine. Under load each post job is submitted after a pause
 * drawn uniformly from [0, the mean device call), so it lands anywhere in
 * a porep-like partition's call. Times come from the engine's TIMELINE
 * (JOB_SUBMIT, JOB_DONE, FINISH_END), so the two circuits are measured on
 * one clock.
 *
 * Options:
 *   --porep-zkey FILE --post-zkey FILE  keys made for the shapes (else a
 *                       development setup in memory, which takes minutes)
 *   --porep-preset NAME   porep-like preset (default: 4 nodes, 2 layers,
 *                       1 challenge, 1 parent: about 2^18 constraints)
 *   --post-preset NAME    window-post-like preset (default: 2 sectors of 2
 *                       challenges over 64 nodes)
 *   -n N   post jobs in each phase (default 3)
 *   -p N   partitions of a porep-like job (default 4)
 *   -j N   porep-like jobs in flight (default 2)
 *   --synth N --gpu-workers N --backends LIST   engine options
 *   --timeline FILE   keep the TIMELINE there
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "circuit/porep.h"
#include "circuit/post.h"
#include "engine/engine.h"
#include "groth16/zkey.h"
#include "synth/native_setup.h"
#include "util/par.h"

typedef struct {
    const char *porep_zkey, *post_zkey, *porep_preset, *post_preset, *backends, *timeline;
    int n, p, j, synth, gpu_workers;
} args_;

static int usage(const char *why)
{
    fprintf(stderr, "bench_mixed: %s\nusage: bench_mixed [--porep-zkey F] [--post-zkey F] [--porep-preset NAME] "
                    "[--post-preset NAME] [-n N] [-p N] [-j N] [--synth N] [--gpu-workers N] [--backends L] "
                    "[--timeline FILE]\n", why);
    return 64;
}

static int parse(args_ *a, int argc, char **argv)
{
    *a = (args_){NULL, NULL, NULL, NULL, "cpu", NULL, 3, 4, 2, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **sv = !strcmp(o, "--porep-zkey") ? &a->porep_zkey : !strcmp(o, "--post-zkey") ? &a->post_zkey
                          : !strcmp(o, "--porep-preset") ? &a->porep_preset : !strcmp(o, "--post-preset") ? &a->post_preset
                          : !strcmp(o, "--backends") ? &a->backends : !strcmp(o, "--timeline") ? &a->timeline : NULL;
        int *iv = !strcmp(o, "-n") ? &a->n : !strcmp(o, "-p") ? &a->p : !strcmp(o, "-j") ? &a->j
                  : !strcmp(o, "--synth") ? &a->synth : !strcmp(o, "--gpu-workers") ? &a->gpu_workers : NULL;
        if ((!sv && !iv) || !v)
            return usage(!v && (sv || iv) ? "an option needs a value" : "unknown option");
        if (sv)
            *sv = v;
        else if ((*iv = atoi(v)) < 1 || *iv > 10000)
            return usage("a count must be 1 to 10000");
        i++;
    }
    return 0;
}

/* The key of nc: from file, or a development setup of its recording. */
static sp_status key_for(sp_g16_pk *pk, const sp_native_circuit *nc, const char *zkey, sp_cs_rec *rec,
                         char err[SP_ERR_LEN])
{
    sp_status st = zkey ? sp_zkey_read(pk, NULL, zkey, SP_G16_SKIP_SUBGROUP_CHECK, 2, err)
                        : sp_native_setup(pk, &rec, SP_G16_H_SNARKJS, NULL, 2, err);
    if (zkey)
        sp_cs_rec_free(rec);
    if (st == SP_OK && (pk->n_vars != nc->n_vars || pk->vk.n_public != nc->n_public)) {
        snprintf(err, SP_ERR_LEN, "%s: the key is not the circuit's", nc->name);
        st = SP_ERR_INVALID_ARG;
    }
    return st;
}

/* ---- the porep-like feeder ---- */

typedef struct {
    sp_engine *e;
    int p, j;
    atomic_int stop;
    int failed;
    char err[SP_ERR_LEN];
} feeder_;

static void *feed(void *arg)
{
    feeder_ *f = arg;
    sp_engine_job **fl = calloc((size_t)f->j, sizeof *fl);
    sp_porep_input *in = calloc((size_t)f->j * f->p, sizeof *in);
    const void **inp = calloc((size_t)f->j * f->p, sizeof *inp);
    uint64_t seed = 1000;
    for (int k = 0; fl && in && inp && !atomic_load(&f->stop); k = (k + 1) % f->j) {
        if (fl[k]) { /* the oldest in flight: wait for it, then replace it */
            sp_engine_result r;
            sp_engine_await(f->e, fl[k], -1, &r);
            if (r.status != SP_OK && !f->failed++)
                snprintf(f->err, SP_ERR_LEN, "porep-like job: %.200s", r.err);
            sp_engine_job_release(f->e, fl[k]);
            fl[k] = NULL;
        }
        for (int i = 0; i < f->p; i++)
            in[k * f->p + i] = (sp_porep_input){seed, (uint32_t)i}, inp[k * f->p + i] = &in[k * f->p + i];
        seed++;
        sp_engine_job_desc d = {.circuit_id = "porep", .n_partitions = (size_t)f->p, .inputs = inp + k * f->p};
        if (sp_engine_submit(f->e, &d, &fl[k], f->err) != SP_OK) {
            f->failed++;
            break;
        }
    }
    for (int k = 0; fl && k < f->j; k++)
        if (fl[k]) {
            sp_engine_await(f->e, fl[k], -1, NULL);
            sp_engine_job_release(f->e, fl[k]);
        }
    free(fl), free(in), free(inp);
    return NULL;
}

/* One post job at priority 100; returns its job number (0 on failure). */
static uint64_t post_job(sp_engine *e, uint32_t partition, char err[SP_ERR_LEN])
{
    sp_porep_input in = {77, partition};
    const void *inp = &in;
    sp_engine_job *job = NULL;
    sp_engine_job_desc d = {.circuit_id = "post", .n_partitions = 1, .priority = 100, .inputs = &inp};
    if (sp_engine_submit(e, &d, &job, err) != SP_OK)
        return 0;
    sp_engine_result r;
    sp_engine_await(e, job, -1, &r);
    uint64_t seq = r.status == SP_OK && r.verified ? r.job_seq : 0;
    if (!seq)
        snprintf(err, SP_ERR_LEN, "post job: %.200s", r.err);
    sp_engine_job_release(e, job);
    return seq;
}

/* ---- the timeline ---- */

typedef struct {
    double ms;
    char ev[16];
    uint64_t job;
} ev_;

static size_t read_tl(ev_ **out, const char *path)
{
    FILE *f = fopen(path, "r");
    size_t n = 0, cap = 1024;
    ev_ *v = malloc(cap * sizeof *v);
    char line[1024];
    while (f && v && fgets(line, sizeof line, f)) {
        ev_ x = {0};
        char job[24] = "";
        if (sscanf(line, "TIMELINE,%lf,%15[^,],%23[^,]", &x.ms, x.ev, job) != 3)
            continue;
        x.job = job[0] == 'j' ? strtoull(job + 1, NULL, 10) : 0;
        if (n == cap && !(v = realloc(v, (cap *= 2) * sizeof *v)))
            break;
        v[n++] = x;
    }
    if (f)
        fclose(f);
    *out = v;
    return v ? n : 0;
}

static double event_ms(const ev_ *v, size_t n, const char *ev, uint64_t job)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].job == job && !strcmp(v[i].ev, ev))
            return v[i].ms;
    return -1;
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

typedef struct {
    double p50, max, porep_per_min, porep_per_min_post;
} phase_;

/* Latencies of the post jobs seq[0..k); porep-like partitions finished in
 * [from, to] and, of those, while a post job was in the engine. */
static phase_ summarize(const ev_ *v, size_t n, const uint64_t *seq, int k, double from, double to)
{
    phase_ ph = {0};
    double lat[64], in_post = 0;
    size_t done = 0, done_post = 0;
    for (int i = 0; i < k; i++) {
        double s = event_ms(v, n, "JOB_SUBMIT", seq[i]), d = event_ms(v, n, "JOB_DONE", seq[i]);
        lat[i] = (d - s) / 1e3;
        in_post += d - s;
    }
    for (size_t i = 0; from < to && i < n; i++) {
        int post = 0, post_running = 0;
        if (strcmp(v[i].ev, "FINISH_END") || v[i].ms < from || v[i].ms > to)
            continue;
        for (int q = 0; q < k; q++) {
            post |= v[i].job == seq[q];
            post_running |= v[i].ms >= event_ms(v, n, "JOB_SUBMIT", seq[q]) &&
                            v[i].ms <= event_ms(v, n, "JOB_DONE", seq[q]);
        }
        done += !post;
        done_post += !post && post_running;
    }
    qsort(lat, (size_t)k, sizeof *lat, cmp_d);
    ph.p50 = lat[k / 2], ph.max = lat[k - 1];
    ph.porep_per_min = from < to ? done * 60e3 / (to - from) : 0;
    ph.porep_per_min_post = in_post > 0 ? done_post * 60e3 / in_post : 0;
    return ph;
}

/* ---- main ---- */

static int open_circuits(sp_porep **pr, sp_post **po, const args_ *a, char err[SP_ERR_LEN])
{
    sp_porep_params pp;
    sp_porep_overrides o;
    sp_post_params qp;
    sp_porep_overrides_init(&o);
    if (!a->porep_preset)
        o.nodes = 4, o.layers = 2, o.challenges = 1, o.drg_parents = 1, o.exp_parents = 0, o.label_parents = 1;
    uint64_t U = SP_POREP_UNSET, small = a->post_preset ? U : 0;
    if (sp_porep_params_from(&pp, a->porep_preset, &o, err) != SP_OK || sp_porep_open(pr, &pp, err) != SP_OK)
        return -1;
    if (sp_post_params_from(&qp, a->post_preset, small ? U : 2, small ? U : 2, small ? U : 64, err) != SP_OK ||
        sp_post_open(po, &qp, err) != SP_OK)
        return -1;
    return 0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The mean device call so far (the lock held per call, every device). */
static double mean_call_ms(sp_engine *e)
{
    sp_engine_status st;
    double ms = 0, calls = 0;
    if (sp_engine_status_get(e, &st) != SP_OK)
        return 0;
    for (size_t i = 0; i < st.n_devices; i++)
        ms += st.devices[i].lock_held_ms, calls += (double)st.devices[i].partitions;
    sp_engine_status_free(&st);
    return calls ? ms / calls : 0;
}

static int run(const args_ *a, sp_engine *e, const char *tl, const sp_native_circuit *rn,
               const sp_native_circuit *qn)
{
    char err[SP_ERR_LEN] = "";
    uint64_t iso[64], load[64];
    int n = a->n > 64 ? 64 : a->n;
    for (int i = 0; i < n; i++)
        if (!(iso[i] = post_job(e, (uint32_t)i, err)))
            return fprintf(stderr, "bench_mixed: %s\n", err), 2;
    feeder_ f = {e, a->p, a->j, 0, 0, ""};
    pthread_t th;
    if (pthread_create(&th, NULL, feed, &f) != 0)
        return fprintf(stderr, "bench_mixed: no thread\n"), 2;
    sp_engine_status st;
    do { /* warm: the first porep-like partition proved */
        sleep_ms(100);
        if (sp_engine_status_get(e, &st) != SP_OK)
            break;
        uint64_t proved = st.partitions_proved;
        sp_engine_status_free(&st);
        if (proved > (uint64_t)n)
            break;
    } while (!f.failed);
    int ok = !f.failed;
    unsigned rs = 12345;
    for (int i = 0; ok && i < n; i++) {
        sleep_ms((long)(rand_r(&rs) % 1000 * mean_call_ms(e) / 1000)); /* anywhere in a device call */
        ok = (load[i] = post_job(e, (uint32_t)(n + i), err)) != 0;
    }
    atomic_store(&f.stop, 1);
    pthread_join(th, NULL);
    if (!ok || f.failed)
        return fprintf(stderr, "bench_mixed: %s\n", ok ? f.err : err), 2;
    ev_ *v = NULL;
    size_t m = read_tl(&v, tl);
    double from = event_ms(v, m, "JOB_DONE", iso[n - 1]), to = event_ms(v, m, "JOB_DONE", load[n - 1]);
    phase_ pi = summarize(v, m, iso, n, 0, 0), pl = summarize(v, m, load, n, from, to);
    free(v);
    printf("window-post-like %s: %llu constraints; porep-like %s: %llu constraints, %d partitions a job, %d in "
           "flight; %d post jobs a phase\n",
           qn->name, (unsigned long long)qn->n_rows, rn->name, (unsigned long long)rn->n_rows, a->p, a->j, n);
    printf("%-12s %12s %12s %8s %18s %22s\n", "phase", "post p50 s", "post max s", "ratio", "porep parts/min",
           "porep parts/min (post)");
    printf("%-12s %12.3f %12.3f %8.2f %18s %22s\n", "isolation", pi.p50, pi.max, 1.0, "-", "-");
    printf("%-12s %12.3f %12.3f %8.2f %18.1f %22.1f\n", "under load", pl.p50, pl.max, pl.p50 / pi.p50,
           pl.porep_per_min, pl.porep_per_min_post);
    return 0;
}

int main(int argc, char **argv)
{
    args_ a;
    int rc = parse(&a, argc, argv);
    if (rc)
        return rc;
    char err[SP_ERR_LEN] = "", tl[64] = "/tmp/sp_bench_mixed_XXXXXX";
    sp_porep *pr = NULL;
    sp_post *po = NULL;
    sp_g16_pk kr, kq;
    memset(&kr, 0, sizeof kr), memset(&kq, 0, sizeof kq);
    sp_cs_rec *rr = NULL, *rq = NULL;
    sp_porep_input in0 = {1, 0};
    if (open_circuits(&pr, &po, &a, err) || (!a.porep_zkey && sp_porep_record(&rr, pr, &in0, 2, err) != SP_OK) ||
        (!a.post_zkey && sp_post_record(&rq, po, &in0, 2, err) != SP_OK) ||
        key_for(&kr, sp_porep_native(pr), a.porep_zkey, rr, err) != SP_OK ||
        key_for(&kq, sp_post_native(po), a.post_zkey, rq, err) != SP_OK) {
        fprintf(stderr, "bench_mixed: %s\n", err);
        return 2;
    }
    int fd = a.timeline ? -1 : mkstemp(tl);
    if (fd >= 0)
        close(fd);
    sp_engine_config cfg = sp_engine_config_default();
    cfg.timeline_path = a.timeline ? a.timeline : tl;
    cfg.backends = a.backends;
    if (a.synth)
        cfg.max_parallel_synthesis = a.synth;
    if (a.gpu_workers)
        cfg.gpu_workers_per_device = a.gpu_workers;
    sp_engine *e = NULL;
    if (sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) != SP_OK ||
        sp_engine_register_native(e, "porep", &kr, sp_porep_native(pr), err) != SP_OK ||
        sp_engine_register_native(e, "post", &kq, sp_post_native(po), err) != SP_OK) {
        fprintf(stderr, "bench_mixed: %s\n", err);
        rc = 2;
    } else {
        rc = run(&a, e, cfg.timeline_path, sp_porep_native(pr), sp_post_native(po));
    }
    sp_engine_destroy(e);
    if (!a.timeline)
        unlink(tl);
    sp_g16_pk_free(&kr), sp_g16_pk_free(&kq);
    sp_porep_close(pr), sp_post_close(po);
    return rc;
}
