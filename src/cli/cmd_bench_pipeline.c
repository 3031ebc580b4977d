/*
 * `snarkpipe bench pipeline`: the in-process engine under a controlled
 * load. c jobs of p partitions are submitted, at most j in flight (a new
 * one as each finishes); every run starts a fresh engine and proves one
 * untimed warm-up job first. A "proof" below is one job (as a PoRep proof
 * is ten partitions), so s/proof = wall time / c.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmd_engine.h"
#include "cli/cmd_porep.h"
#include "cli/cmds.h"
#include "groth16/backend.h"

static const char USAGE[] =
    "usage: snarkpipe bench pipeline [options]\n"
    "Runs the proving engine in-process on a built-in or given circuit; prints s/proof, proofs/min,\n"
    "p50/p95 latency, GPU efficiency (device lock held / wall) and peak RSS, for isolation (one job\n"
    "at a time) and load side by side. A proof = one job of -p partitions.\n"
    "  -c N                jobs submitted in the load run (default 8)\n"
    "  -j N                jobs in flight (default 4)\n"
    "  -p N                partitions per job (default 4)\n"
    "  --constraints N     size of the built-in circuit (default 2^12; 2^k accepted)\n"
    "  --zkey FILE --wtns FILE [--r1cs FILE]   prove this circuit instead (.params needs --r1cs)\n"
    "  --circuit porep-like|window-post-like [options] [--zkey FILE]   a native circuit: each job is\n"
    "                      one sector (its own seed), each partition's witness and a, b, c made by\n"
    "                      the engine's synthesis; the key from FILE, or a development setup made\n"
    "                      in memory (on the engine's first backend when it can: a GPU)\n"
    "  --skip-subgroup-check  trusted key file: check its points on the curve only\n"
    "  --set KEY=VALUE     engine option, repeatable (--set help lists the keys)\n"
    "  --timeline FILE     write the load run's TIMELINE (read it with snarkpipe waterfall)\n"
    "  --sweep             also run a grid: j = 1, 2, 4, ... and each memory switch and worker\n"
    "                      setting changed alone (G2 MSM on or off the device included)\n"
    "  --sweep-j N[,N...]  the sweep's j values instead of the doubling (implies --sweep)\n"
    "  --no-isolation      skip the isolation run\n"
    "  --release-host-key  give the host pages of every key array resident on every device back\n"
    "                      to the system (G2 MSM on the device; arrays streamed from host memory\n"
    "                      stay): a key larger than half the host memory then leaves room for\n"
    "                      partitions. Isolation and load share one engine (no sweep).\n"
    "  --threads N, --quiet, --json (one JSON object per run)\n"
    "Native circuits' options:\n" SP_CLI_POREP_USAGE;

typedef struct {
    int c, j, p, sweep, isolation;
    unsigned key_flags; /* sp_zkey_read flags for --zkey */
    int sweep_j[8], n_sweep_j; /* --sweep-j; none: 1, 2, 4, ... up to c */
    uint64_t constraints;
    const char *zkey, *r1cs, *wtns, *timeline;
    int native; /* 1 porep-like, 2 window-post-like */
    int release_host_key; /* one engine for isolation and load; host copy of the key dropped */
    sp_cli_porep_opts po;
    sp_engine_config cfg;
} bench_args;

typedef struct {
    char label[64];
    int c, j, failed;
    double wall_s, s_per_proof, per_min, p50_s, p95_s, gpu_eff;
    size_t peak_rss;
    double first_s;          /* the warm-up job's latency: the first proof after start */
    int dev_known;           /* device memory of the first backend, after the run */
    size_t dev_resident, dev_free;
} bench_row;

/* ---- option parsing ---- */

static int parse_count(int *out, const char *s, int max);

/* "N[,N...]", at most 8 counts, each 1..100000. Returns 0 or -1. */
static int parse_count_list(int *out, int *n, const char *s)
{
    char buf[128];
    if (strlen(s) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", s);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*n == 8 || parse_count(&out[*n], t, 100000))
            return -1;
        ++*n;
    }
    return *n ? 0 : -1;
}

static int parse_count(int *out, const char *s, int max) { return sp_cli_int(out, s, 1, max); }

static int parse_constraints(uint64_t *out, const char *s)
{
    char *end;
    errno = 0;
    if (s[0] == '2' && s[1] == '^') {
        unsigned long k = strtoul(s + 2, &end, 10);
        if (errno || !s[2] || *end || k < 1 || k > 28)
            return -1;
        *out = (uint64_t)1 << k;
        return 0;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || !*s || *end || v < 1 || v > ((uint64_t)1 << 28))
        return -1;
    *out = v;
    return 0;
}

static int bad_value(const char *opt, const char *v)
{
    fprintf(stderr, "snarkpipe bench pipeline: bad value for %s: '%s'\n", opt, v);
    return -1;
}

/* One option at argv[*i]: 1 taken, 0 not one of ours, 2 answered (exit
 * 0), -1 usage error (reported). */
static int parse_opt(bench_args *a, int argc, char **argv, int *i)
{
    int missing = 0;
    const char *v, *opt = argv[*i];
    char err[SP_ERR_LEN];
    if ((v = sp_cli_opt(argc, argv, i, "-c", &missing)))
        return parse_count(&a->c, v, 1000000) ? bad_value(opt, v) : 1;
    if ((v = sp_cli_opt(argc, argv, i, "-j", &missing)))
        return parse_count(&a->j, v, 100000) ? bad_value(opt, v) : 1;
    if ((v = sp_cli_opt(argc, argv, i, "-p", &missing)))
        return parse_count(&a->p, v, 100000) ? bad_value(opt, v) : 1;
    if ((v = sp_cli_opt(argc, argv, i, "--constraints", &missing)))
        return parse_constraints(&a->constraints, v) ? bad_value(opt, v) : 1;
    if ((v = sp_cli_opt(argc, argv, i, "--zkey", &missing)) || (v = sp_cli_opt(argc, argv, i, "--key", &missing)))
        return a->zkey = v, 1;
    int rc = 0, h = sp_cli_porep_opt(&a->po, argc, argv, i, "bench pipeline", USAGE, &rc);
    if (h)
        return h;
    if ((v = sp_cli_opt(argc, argv, i, "--circuit", &missing))) {
        if (strcmp(v, "porep-like") && strcmp(v, "window-post-like"))
            return bad_value(opt, v);
        return a->native = strcmp(v, "porep-like") ? 2 : 1, 1;
    }
    if ((v = sp_cli_opt(argc, argv, i, "--r1cs", &missing)))
        return a->r1cs = v, 1;
    if ((v = sp_cli_opt(argc, argv, i, "--wtns", &missing)))
        return a->wtns = v, 1;
    if ((v = sp_cli_opt(argc, argv, i, "--sweep-j", &missing)))
        return parse_count_list(a->sweep_j, &a->n_sweep_j, v) ? bad_value(opt, v) : (a->sweep = 1, 1);
    if ((v = sp_cli_opt(argc, argv, i, "--timeline", &missing)))
        return a->timeline = v, 1;
    if ((v = sp_cli_opt(argc, argv, i, "--set", &missing))) {
        if (!strcmp(v, "help")) {
            sp_cli_engine_keys_help(stdout);
            return 2;
        }
        if (sp_cli_engine_set(&a->cfg, v, err, sizeof err) == 0)
            return 1;
        fprintf(stderr, "snarkpipe bench pipeline: %s\n", err);
        return -1;
    }
    if (missing) {
        fprintf(stderr, "snarkpipe bench pipeline: %s needs a value\n", opt);
        return -1;
    }
    if (!strcmp(opt, "--sweep"))
        return a->sweep = 1, 1;
    if (!strcmp(opt, "--release-host-key"))
        return a->release_host_key = 1, 1;
    if (!strcmp(opt, "--no-isolation"))
        return a->isolation = 0, 1;
    if (!strcmp(opt, "--skip-subgroup-check"))
        return a->key_flags = SP_G16_SKIP_SUBGROUP_CHECK, 1;
    return 0;
}

/* Returns -1 to go on, else the exit code. */
static int parse_args(bench_args *a, int argc, char **argv)
{
    *a = (bench_args){.c = 8, .j = 4, .p = 4, .isolation = 1, .constraints = 1 << 12};
    a->cfg = sp_engine_config_default();
    sp_cli_porep_init(&a->po);
    for (int i = 1; i < argc; i++) {
        int h = sp_cli_arg("bench pipeline", USAGE, argc, argv, &i), r;
        if (h == SP_CLI_NEXT)
            continue;
        if (h != SP_CLI_OWN)
            return h;
        if ((r = parse_opt(a, argc, argv, &i)) == 2)
            return SP_EXIT_OK;
        if (r < 0)
            return SP_EXIT_USAGE;
        if (r == 0)
            return argv[i][0] == '-' ? sp_cli_unknown_opt("bench pipeline", USAGE, argv[i])
                                     : sp_cli_usage("bench pipeline", USAGE, "unknown argument %s", argv[i]);
    }
    if (a->native ? a->wtns || a->r1cs : !a->zkey != !a->wtns) {
        fprintf(stderr, "snarkpipe bench pipeline: --zkey and --wtns go together\n");
        return SP_EXIT_USAGE;
    }
    if (a->j > a->c)
        a->j = a->c;
    if (a->release_host_key && a->sweep) {
        fprintf(stderr, "snarkpipe bench pipeline: --release-host-key and --sweep do not go together\n");
        return SP_EXIT_USAGE;
    }
    return -1;
}

/* ---- one run ---- */

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
} flight;

static void on_done(void *ctx, sp_engine_job *job)
{
    flight *f = ctx;
    pthread_mutex_lock(&f->mu);
    f->done++;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

static double lock_ms(sp_engine *e, size_t *n_dev)
{
    sp_engine_status st;
    double ms = 0;
    *n_dev = 1;
    if (sp_engine_status_get(e, &st) != SP_OK)
        return 0;
    for (size_t i = 0; i < st.n_devices; i++)
        ms += st.devices[i].lock_held_ms;
    *n_dev = st.n_devices ? st.n_devices : 1;
    sp_engine_status_free(&st);
    return ms;
}

/* Submits c jobs, j in flight; fills lat (seconds) and counts failures. */
static int load(sp_engine *e, sp_fr **w, size_t w_len, int p, int c, int j, double *lat, char err[SP_ERR_LEN])
{
    static atomic_ulong sector; /* native jobs: each job proves a sector of its own */
    sp_porep_input *in = w ? NULL : calloc((size_t)p, sizeof *in);
    const void **inp = w ? NULL : calloc((size_t)p, sizeof *inp);
    if (!w && (!in || !inp)) {
        free(in), free(inp);
        return c;
    }
    flight f = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    sp_engine_job **jobs = calloc((size_t)c, sizeof *jobs);
    int failed = 0, submitted = 0;
    if (!jobs)
        return c;
    sp_engine_job_desc d = {"bench", (size_t)p, w, w_len, 0, 0, NULL, on_done, &f, (const void *const *)inp};
    for (; submitted < c; submitted++) {
        pthread_mutex_lock(&f.mu);
        while (submitted - f.done >= j)
            pthread_cond_wait(&f.cv, &f.mu);
        pthread_mutex_unlock(&f.mu);
        unsigned long s = atomic_fetch_add(&sector, 1) + 1;
        for (int k = 0; in && k < p; k++) {
            in[k] = (sp_porep_input){s, (uint32_t)k};
            inp[k] = &in[k];
        }
        if (sp_engine_submit(e, &d, &jobs[submitted], err) != SP_OK)
            break;
    }
    for (int i = 0; i < submitted; i++) {
        sp_engine_result r;
        sp_engine_await(e, jobs[i], -1, &r);
        lat[i] = (r.done_ms - r.submit_ms) / 1e3;
        if (r.status != SP_OK) {
            if (!failed)
                snprintf(err, SP_ERR_LEN, "job %d: %s: %.200s", i, sp_status_str(r.status), r.err);
            failed++;
        }
        sp_engine_job_release(e, jobs[i]);
    }
    pthread_mutex_lock(&f.mu); /* every callback has run before f goes away */
    while (f.done < submitted)
        pthread_cond_wait(&f.cv, &f.mu);
    pthread_mutex_unlock(&f.mu);
    free(jobs);
    free(in), free(inp);
    return failed + (c - submitted);
}

/* The host pages of one of pk's point arrays go back to the system
 * (page-aligned interior: the allocation's bookkeeping stays), leaving the
 * address range in place: the backend recognises resident arrays by
 * address, and nothing reads a resident array's host copy while every MSM
 * runs on the device. */
static void drop_pages(const void *p, size_t bytes)
{
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo = ((uintptr_t)p + pg - 1) & ~(pg - 1),
              hi = ((uintptr_t)p + bytes) & ~(pg - 1);
    if (p && hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* Drops the host copy of every key array that every device holds
 * resident (all five on a device with room for the key; the ones streamed
 * from host memory stay). Returns 0 when at least one was dropped, -1
 * (err) when the engine cannot do without any. */
static int release_host_key(sp_engine *e, const sp_engine_config *cfg, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    if (!cfg->g2_on_device) {
        snprintf(err, SP_ERR_LEN, "--release-host-key needs the G2 MSM on the device (--set g2_on_device=1)");
        return -1;
    }
    sp_g16_pk_array arr[SP_G16_PK_ARRAYS];
    sp_g16_pk_arrays(pk, arr);
    char names[32] = "";
    double mib = 0;
    for (int i = 0; i < SP_G16_PK_ARRAYS; i++)
        if (sp_engine_key_release_host(e, arr[i].p)) {
            drop_pages(arr[i].p, arr[i].bytes);
            mib += arr[i].bytes / 1048576.0;
            size_t l = strlen(names);
            snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "", arr[i].name);
        }
    if (!names[0]) {
        snprintf(err, SP_ERR_LEN, "--release-host-key: no key array is resident on every device");
        return -1;
    }
    fprintf(stderr, "snarkpipe bench pipeline: host copy of the key dropped: %s (%.1f MiB)\n", names, mib);
    return 0;
}

/* A new engine with the circuit registered (and, with release, the host
 * copy of its key dropped). Returns NULL with err on failure. */
static sp_engine *open_engine(const sp_cli_circuit *circ, const sp_engine_config *cfg, const char *tl, int release,
                              char err[SP_ERR_LEN])
{
    sp_engine_config k = *cfg;
    k.timeline_path = tl;
    if (release) /* the pool is made once the key's host copy is gone, not next to it */
        k.pool_prefill = 0;
    sp_engine *e;
    if (sp_engine_create(&e, &sp_synth_curve_ops, &k, err) != SP_OK)
        return NULL;
    sp_status st = circ->nat ? sp_engine_register_native(e, "bench", &circ->pk, circ->nat, err)
                               : sp_engine_register(e, "bench", &circ->pk, circ->have_cs ? &circ->cs : NULL, err);
    if (st != SP_OK || (release && release_host_key(e, cfg, &circ->pk, err) != 0)) {
        sp_engine_destroy(e);
        return NULL;
    }
    if (release && cfg->pool_prefill)
        sp_engine_warm(e, "bench", cfg->pool_prefill);
    return e;
}

/* c jobs of p partitions, j in flight, on e (after an untimed one-job
 * warm-up when warm: its latency is the first proof after start). */
static int measure(sp_engine *e, const sp_cli_circuit *circ, int p, int c, int j, int warm, bench_row *row,
                   char err[SP_ERR_LEN])
{
    sp_fr **w = calloc((size_t)p, sizeof *w);
    double *lat = calloc((size_t)c + 1, sizeof *lat);
    int rc = w && lat ? 0 : -1;
    for (int i = 0; w && i < p; i++)
        w[i] = circ->w; /* every partition proves the same witness */
    sp_fr **wl = circ->nat ? NULL : w;
    if (rc == 0 && warm) {
        if (load(e, wl, circ->w_len, p, 1, 1, lat, err))
            rc = -1;
        row->first_s = lat[0];
    }
    if (rc == 0) {
        size_t nd;
        double l0 = lock_ms(e, &nd);
        sp_cli_peak_rss(1);
        double t0 = sp_cli_now();
        row->failed = load(e, wl, circ->w_len, p, c, j, lat, err);
        double wall = (sp_cli_now() - t0) * 1e3, held = lock_ms(e, &nd) - l0;
        row->peak_rss = sp_cli_peak_rss(0);
        qsort(lat, (size_t)c, sizeof *lat, sp_cli_cmp_double);
        row->c = c;
        row->j = j;
        row->wall_s = wall / 1e3;
        row->s_per_proof = row->wall_s / c;
        row->per_min = 60.0 * c / row->wall_s;
        row->p50_s = lat[(c + 1) / 2 - 1];
        row->p95_s = lat[(19 * c + 19) / 20 - 1];
        row->gpu_eff = held / (wall * (double)nd);
        sp_engine_status st;
        if (sp_engine_status_get(e, &st) == SP_OK) {
            if (st.n_devices && st.devices[0].memory_known) {
                row->dev_known = 1;
                row->dev_resident = st.devices[0].resident_bytes;
                row->dev_free = st.devices[0].free_bytes;
            }
            sp_engine_status_free(&st);
        }
    }
    free(w);
    free(lat);
    return rc;
}

static int run_one(const sp_cli_circuit *circ, const sp_engine_config *cfg, int p, int c, int j, const char *tl,
                   bench_row *row, char err[SP_ERR_LEN])
{
    sp_engine *e = open_engine(circ, cfg, tl, 0, err);
    if (!e)
        return -1;
    int rc = measure(e, circ, p, c, j, 1, row, err);
    sp_engine_destroy(e);
    return rc;
}

/* ---- report ---- */

static void print_header(void)
{
    if (sp_cli_g.json)
        return;
    printf("%-28s %5s %4s %8s %9s %10s %8s %8s %8s %10s\n", "run", "c", "j", "wall s", "s/proof", "proofs/min",
           "p50 s", "p95 s", "gpu eff", "peak RSS");
}

static void print_row(const bench_row *r)
{
    if (sp_cli_g.json) {
        printf("{\"run\":");
        sp_cli_json_str(stdout, r->label);
        printf(",\"c\":%d,\"j\":%d,\"wall_s\":%.4f,\"s_per_proof\":%.5f,\"proofs_per_min\":%.3f,\"p50_s\":%.4f,"
               "\"p95_s\":%.4f,\"gpu_efficiency\":%.4f,\"peak_rss\":%zu,\"first_s\":%.4f,\"failed\":%d",
               r->c, r->j, r->wall_s, r->s_per_proof, r->per_min, r->p50_s, r->p95_s, r->gpu_eff, r->peak_rss,
               r->first_s, r->failed);
        if (r->dev_known)
            printf(",\"device_resident\":%zu,\"device_free\":%zu", r->dev_resident, r->dev_free);
        printf("}\n");
    } else {
        printf("%-28s %5d %4d %8.2f %9.4f %10.2f %8.3f %8.3f %7.1f%% %7.1f MiB%s\n", r->label, r->c, r->j, r->wall_s,
               r->s_per_proof, r->per_min, r->p50_s, r->p95_s, 100 * r->gpu_eff, r->peak_rss / 1048576.0,
               r->failed ? "  FAILED" : "");
        printf("%-28s first proof after start (untimed warm-up): %.3f s", "", r->first_s);
        if (r->dev_known)
            printf("; device: key resident %.2f GiB, free %.2f GiB", r->dev_resident / 1073741824.0,
                   r->dev_free / 1073741824.0);
        printf("\n");
    }
    fflush(stdout);
}

/* The first proof after an engine's start (its untimed warm-up job) against
 * the isolation median: the warm-up at registration should make it cost
 * what later proofs do. */
static void print_first(const bench_row *iso, const bench_row *ld)
{
    if (ld->first_s > 0) /* a second engine for the load run, with its own first proof */
        printf("first proof after start: %.3f s (isolation engine), %.3f s (load engine) = %.0f%% and %.0f%% of "
               "the isolation median %.3f s (target within 20%%)\n", iso->first_s, ld->first_s,
               100 * iso->first_s / iso->p50_s, 100 * ld->first_s / iso->p50_s, iso->p50_s);
    else
        printf("first proof after start: %.3f s = %.0f%% of the isolation median %.3f s (target within 20%%)\n",
               iso->first_s, 100 * iso->first_s / iso->p50_s, iso->p50_s);
}

/* Runs one row; returns 0, or 1 when jobs failed, or -1 (engine error). */
static int row_run(const sp_cli_circuit *circ, const sp_engine_config *cfg, const bench_args *a, const char *label,
                   int c, int j, const char *tl, bench_row *row)
{
    char err[SP_ERR_LEN] = "";
    memset(row, 0, sizeof *row);
    snprintf(row->label, sizeof row->label, "%s", label);
    if (run_one(circ, cfg, a->p, c, j, tl, row, err) != 0) {
        fprintf(stderr, "snarkpipe bench pipeline: %s: %s\n", label, err);
        return -1;
    }
    print_row(row);
    if (row->failed)
        fprintf(stderr, "snarkpipe bench pipeline: %s: %d job(s) failed: %s\n", label, row->failed, err);
    return row->failed ? 1 : 0;
}

/* The sweep: j doubling, then each switch or worker setting changed alone. */
static int sweep(const sp_cli_circuit *circ, const bench_args *a)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* finish_threads = every core against the default min(32, cores); on 32
     * cores or fewer the two are equal, so half the cores instead */
    char all_cores[48];
    snprintf(all_cores, sizeof all_cores, "finish_threads=%ld", cores > 32 ? cores : cores > 1 ? cores / 2 : 1);
    const char *const changes[] = {"serialized_free=0", "pinned_pool=0", "bw_throttle=0", "two_step_release=0",
                                   "gpu_workers=1", "gpu_workers=2", all_cores, "g2_on_device=0",
                                   "g2_on_device=1"};
    int worst = 0;
    bench_row row;
    char label[64], err[SP_ERR_LEN];
    int grid[8], n_grid = 0;
    for (int j = 1; j <= a->c && n_grid < 8; j *= 2)
        grid[n_grid++] = j;
    if (a->n_sweep_j)
        memcpy(grid, a->sweep_j, sizeof grid), n_grid = a->n_sweep_j;
    for (int g = 0; g < n_grid; g++) {
        int j = grid[g];
        snprintf(label, sizeof label, "sweep j=%d", j);
        int r = row_run(circ, &a->cfg, a, label, a->c, j, NULL, &row);
        worst = r < 0 || r > worst ? r : worst;
    }
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
        sp_engine_config cfg = a->cfg;
        if (sp_cli_engine_set(&cfg, changes[i], err, sizeof err))
            return -1;
        if (!memcmp(&cfg, &a->cfg, sizeof cfg))
            continue; /* no change from the base configuration (finish_threads: 32 or fewer cores) */
        snprintf(label, sizeof label, "sweep %s", changes[i]);
        int r = row_run(circ, &cfg, a, label, a->c, a->j, NULL, &row);
        worst = r < 0 || r > worst ? r : worst;
    }
    return worst;
}

/* Isolation then load on one engine whose key's host copy is dropped. */
static int bench_shared(const sp_cli_circuit *circ, const bench_args *a)
{
    char err[SP_ERR_LEN] = "";
    double t0 = sp_cli_now();
    sp_engine *e = open_engine(circ, &a->cfg, a->timeline, 1, err);
    if (!e) {
        fprintf(stderr, "snarkpipe bench pipeline: %s\n", err);
        return SP_EXIT_RUNTIME;
    }
    if (!sp_cli_g.quiet && !sp_cli_g.json)
        printf("%-28s key attached and its host copy dropped in %.2f s\n", "", sp_cli_now() - t0);
    bench_row iso = {0}, ld = {0};
    snprintf(iso.label, sizeof iso.label, "isolation (c=1, j=1)");
    snprintf(ld.label, sizeof ld.label, "load (c=%d, j=%d)", a->c, a->j);
    int r1 = a->isolation ? measure(e, circ, a->p, 1, 1, 1, &iso, err) : 0;
    if (r1 == 0 && a->isolation)
        print_row(&iso);
    int r2 = r1 == 0 ? measure(e, circ, a->p, a->c, a->j, !a->isolation, &ld, err) : -1;
    if (r2 == 0)
        print_row(&ld);
    sp_engine_destroy(e);
    if (r1 || r2) {
        fprintf(stderr, "snarkpipe bench pipeline: %s\n", err);
        return SP_EXIT_RUNTIME;
    }
    if (a->isolation && !sp_cli_g.json) {
        printf("\nload throughput = %.1f%% of isolation (target >= 97%%)\n", 100 * iso.s_per_proof / ld.s_per_proof);
        print_first(&iso, &ld);
    }
    return iso.failed || ld.failed ? SP_EXIT_CHECK : SP_EXIT_OK;
}

static int bench(const sp_cli_circuit *circ, const bench_args *a)
{
    size_t abc = 3 * sizeof(sp_fr) * circ->pk.domain_size;
    if (!sp_cli_g.quiet && !sp_cli_g.json) {
        printf("circuit: %s; domain 2^%u, %u wires; a, b, c %.1f MiB per partition\nengine: ", circ->what,
               circ->pk.log2_domain, circ->pk.n_vars, abc / 1048576.0);
        sp_cli_engine_describe(stdout, &a->cfg);
        printf("\n%d jobs x %d partitions, %d in flight\n\n", a->c, a->p, a->j);
    }
    print_header();
    bench_row iso = {0}, ld = {0};
    if (a->release_host_key)
        return bench_shared(circ, a);
    int r1 = a->isolation ? row_run(circ, &a->cfg, a, "isolation (c=1, j=1)", 1, 1, NULL, &iso) : 0;
    if (r1 < 0)
        return SP_EXIT_RUNTIME; /* the engine could not run: the other rows would fail the same way */
    char label[64];
    snprintf(label, sizeof label, "load (c=%d, j=%d)", a->c, a->j);
    int r2 = row_run(circ, &a->cfg, a, label, a->c, a->j, a->timeline, &ld);
    if (r1 == 0 && r2 == 0 && a->isolation && !sp_cli_g.json) {
        printf("\nload throughput = %.1f%% of isolation (target >= 97%%)\n", 100 * iso.s_per_proof / ld.s_per_proof);
        print_first(&iso, &ld);
    }
    int r3 = a->sweep ? sweep(circ, a) : 0;
    int worst = r1 < 0 || r2 < 0 || r3 < 0 ? -1 : (r1 | r2 | r3);
    return worst < 0 ? SP_EXIT_RUNTIME : worst ? SP_EXIT_CHECK : SP_EXIT_OK;
}

int sp_cli_bench_pipeline(int argc, char **argv)
{
    bench_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc >= 0)
        return rc;
    char err[SP_ERR_LEN] = "";
    sp_cli_circuit circ;
    double t0 = sp_cli_now();
    int nt = sp_cli_threads();
    sp_status st;
    if (a.native) {
        sp_porep_params pp;
        sp_post_params qp;
        rc = a.native == 1 ? sp_cli_porep_params(&pp, &a.po, "bench pipeline", USAGE)
                           : sp_cli_post_params(&qp, &a.po, "bench pipeline", USAGE);
        if (rc != SP_CLI_NEXT)
            return rc;
        sp_backend *be = NULL; /* the setup's points on the first backend when it has fixed-base multiplication */
        char first[64];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(a.cfg.backends ? a.cfg.backends : "cpu", ","),
                 a.cfg.backends ? a.cfg.backends : "cpu");
        if (strcmp(first, "cpu") && sp_backend_open(&be, first, nt, err) != SP_OK)
            be = NULL;
        st = a.native == 1 ? sp_cli_circuit_porep(&circ, &pp, a.zkey, a.key_flags, be, nt, err)
                           : sp_cli_circuit_post(&circ, &qp, a.zkey, a.key_flags, be, nt, err);
        sp_backend_close(be);
    } else {
        st = a.zkey ? sp_cli_circuit_files(&circ, a.zkey, a.r1cs, a.wtns, a.key_flags, nt, err)
                    : sp_cli_circuit_builtin(&circ, a.constraints, nt, err);
    }
    if (st != SP_OK)
        return sp_cli_fail("bench pipeline", st, err);
    sp_cli_progress("circuit and key", t0);
    if (!sp_cli_g.quiet && !sp_cli_g.json)
        printf("circuit and key ready in %.1f s, peak RSS so far %.2f GiB\n", sp_cli_now() - t0,
               sp_cli_peak_rss(0) / 1073741824.0);
    rc = bench(&circ, &a);
    sp_cli_circuit_free(&circ);
    return rc;
}
