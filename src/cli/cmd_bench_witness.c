/*
 * `snarkpipe bench witness`: the native porep-like circuit's synthesis as
 * the engine runs it (instance data, then the witness and a, b, c in one
 * pass) for several thread counts, first run (cold) and the median of the
 * rest (warm) side by side; optionally the record-once path (record, save
 * the .sprec file, load it back) timed too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "circuit/porep.h"
#include "circuit/rec.h"
#include "cli/cli.h"
#include "cli/cmd_porep.h"
#include "cli/cmds.h"

static const char USAGE[] =
    "usage: snarkpipe bench witness [porep-like options] [--threads-list N[,N...]] [--reps R]\n"
    "                               [--record FILE.sprec] [--json]\n"
    "Times the porep-like circuit's synthesis for one partition: its instance data and the witness\n"
    "with a, b, c (every value written to memory, as for the prover). Per thread count: the first\n"
    "run (cold) and the median of the other R - 1 (warm, default R = 3), constraints per second and\n"
    "peak RSS. --record also times recording the matrices, writing FILE and reading it back.\n"
    "porep-like options:\n" SP_CLI_POREP_USAGE;

/* One timed synthesis; returns seconds, or < 0 on failure (reported). */
static double one_run(const sp_native_circuit *nc, const sp_porep_input *in, sp_fr *w, sp_fr *abc, size_t n,
                      int threads)
{
    char err[SP_ERR_LEN] = "";
    double t0 = sp_cli_now();
    sp_status st = sp_porep_witness(nc, in, w, abc, abc + n, abc + 2 * n, n, threads, 0, NULL, err);
    double t = sp_cli_now() - t0;
    if (st != SP_OK) {
        sp_cli_fail("bench witness", st, err);
        return -1;
    }
    return t;
}

static int record_path(const sp_porep *c, const char *path, int threads)
{
    char err[SP_ERR_LEN] = "";
    sp_cs_rec *r = NULL, *back = NULL;
    sp_porep_input in = {1, 0};
    double t0 = sp_cli_now();
    sp_status st = sp_porep_record(&r, c, &in, threads, err);
    double t_rec = sp_cli_now() - t0, t_save = 0, t_load = 0;
    if (st == SP_OK) {
        t0 = sp_cli_now();
        st = sp_cs_rec_save(r, path, err);
        t_save = sp_cli_now() - t0;
    }
    if (st == SP_OK) {
        t0 = sp_cli_now();
        st = sp_cs_rec_load(&back, path, err);
        t_load = sp_cli_now() - t0;
    }
    if (st != SP_OK) {
        sp_cs_rec_free(r);
        return sp_cli_fail("bench witness", st, err);
    }
    uint64_t bytes = sp_cs_rec_bytes(r);
    if (sp_cli_g.json)
        printf("{\"op\":\"record\",\"constraints\":%" PRIu64 ",\"nnz\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64
               "],\"bytes\":%" PRIu64 ",\"record_s\":%.3f,\"save_s\":%.3f,\"load_s\":%.3f}\n",
               r->n_rows, r->m[0].nnz, r->m[1].nnz, r->m[2].nnz, bytes, t_rec, t_save, t_load);
    else
        printf("record once: %" PRIu64 " constraints, %" PRIu64 " + %" PRIu64 " + %" PRIu64
               " entries, %.2f GiB: record %.2f s, write %.2f s, read back %.2f s (%s)\n",
               r->n_rows, r->m[0].nnz, r->m[1].nnz, r->m[2].nnz, (double)bytes / (1u << 30), t_rec, t_save, t_load,
               path);
    sp_cs_rec_free(r);
    sp_cs_rec_free(back);
    return SP_EXIT_OK;
}

static int bench(const sp_porep *c, const int *threads, int n_threads, int reps)
{
    const sp_native_circuit *nc = sp_porep_native(c);
    const sp_porep_shape *s = sp_porep_shape_of(c);
    size_t n = 1;
    while (n < s->n_rows + s->n_public + 1)
        n <<= 1;
    sp_fr *w = malloc(sizeof(sp_fr) * s->n_vars), *abc = malloc(sizeof(sp_fr) * 3 * n);
    double *t = malloc(sizeof(double) * (size_t)reps);
    if (!w || !abc || !t) {
        free(w), free(abc), free(t);
        return sp_cli_fail("bench witness", SP_ERR_NOMEM, "witness and a, b, c buffers");
    }
    if (!sp_cli_g.json)
        printf("%s: %" PRIu64 " constraints, %" PRIu64 " wires, domain 2^%d (w %.2f GiB, a, b, c %.2f GiB)\n"
               "threads   cold s   warm s   Mconstraints/s (warm)   peak RSS\n",
               nc->name, s->n_rows, s->n_vars, __builtin_ctzll(n), sizeof(sp_fr) * (double)s->n_vars / (1u << 30),
               3 * sizeof(sp_fr) * (double)n / (1u << 30));
    int rc = SP_EXIT_OK;
    for (int k = 0; k < n_threads && rc == SP_EXIT_OK; k++) {
        for (int r = 0; r < reps && rc == SP_EXIT_OK; r++) {
            sp_porep_input in = {1 + (uint64_t)r, (uint32_t)r};
            if ((t[r] = one_run(nc, &in, w, abc, n, threads[k])) < 0)
                rc = SP_EXIT_RUNTIME;
        }
        if (rc != SP_EXIT_OK)
            break;
        double cold = t[0], warm = reps > 1 ? sp_cli_median(t + 1, reps - 1) : cold;
        if (sp_cli_g.json)
            printf("{\"op\":\"witness\",\"circuit\":\"%s\",\"constraints\":%" PRIu64 ",\"threads\":%d,"
                   "\"cold_s\":%.4f,\"warm_s\":%.4f,\"peak_rss\":%zu}\n",
                   nc->name, s->n_rows, threads[k], cold, warm, sp_cli_peak_rss(0));
        else
            printf("%7d %8.3f %8.3f %23.1f %8.2f GiB\n", threads[k], cold, warm, (double)s->n_rows / warm / 1e6,
                   (double)sp_cli_peak_rss(0) / (1u << 30));
        fflush(stdout);
    }
    free(w), free(abc), free(t);
    return rc;
}

int sp_cli_bench_witness(int argc, char **argv)
{
    sp_cli_porep_opts po;
    sp_cli_porep_init(&po);
    int threads[16], n_threads = 0, reps = 3;
    const char *record = NULL;
    for (int i = 1; i < argc; i++) {
        int rc = 0, missing = 0, h = sp_cli_arg("bench witness", USAGE, argc, argv, &i);
        const char *v;
        if (h == SP_CLI_NEXT)
            continue;
        if (h != SP_CLI_OWN)
            return h;
        if ((h = sp_cli_porep_opt(&po, argc, argv, &i, "bench witness", USAGE, &rc)) != 0) {
            if (h < 0)
                return rc;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--threads-list", &missing))) {
            char buf[128], *save = NULL;
            snprintf(buf, sizeof buf, "%s", v);
            n_threads = 0;
            for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
                if (n_threads == 16 || sp_cli_int(&threads[n_threads++], tok, 1, 1024))
                    return sp_cli_usage("bench witness", USAGE, "bad --threads-list '%s'", v);
        } else if ((v = sp_cli_opt(argc, argv, &i, "--reps", &missing))) {
            if (sp_cli_int(&reps, v, 1, 1000))
                return sp_cli_usage("bench witness", USAGE, "bad --reps '%s'", v);
        } else if ((v = sp_cli_opt(argc, argv, &i, "--record", &missing))) {
            record = v;
        } else {
            return argv[i][0] == '-' ? sp_cli_unknown_opt("bench witness", USAGE, argv[i])
                                   : sp_cli_usage("bench witness", USAGE, "unknown argument '%s'", argv[i]);
        }
    }
    if (!n_threads)
        threads[n_threads++] = sp_cli_threads();
    sp_porep_params p;
    int rc = sp_cli_porep_params(&p, &po, "bench witness", USAGE);
    if (rc != SP_CLI_NEXT)
        return rc;
    char err[SP_ERR_LEN] = "";
    sp_porep *c = NULL;
    sp_status st = sp_porep_open(&c, &p, err);
    if (st != SP_OK)
        return sp_cli_fail("bench witness", st, err);
    rc = bench(c, threads, n_threads, reps);
    if (rc == SP_EXIT_OK && record)
        rc = record_path(c, record, sp_cli_threads());
    sp_porep_close(c);
    return rc;
}
