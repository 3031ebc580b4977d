/*
 * `snarkpipe bench msm | ntt | prove` (cmds.h). Each measurement is the
 * median wall-clock time of its repetitions; inputs (points, scalars,
 * vectors, keys, witnesses) are made or read before the timed region.
 * With --json every measurement is one JSON object on its own line with
 * op, log_size, threads, seconds (the median), min_seconds, reps.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "curve/curve.h"
#include "groth16/backend.h"
#include "groth16/params.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "synth/prover.h"

static const char USAGE[] =
    "usage: snarkpipe bench msm --group g1|g2 --log-size K[,K...] [--threads T[,T...]] [--reps R]\n"
    "                           [--bool-fraction F] [--split] [--json]\n"
    "       snarkpipe bench ntt --log-size K[,K...] [--threads T[,T...]] [--reps R] [--json]\n"
    "       snarkpipe bench prove <circuit.zkey> <witness.wtns> [--r1cs FILE] [--threads T[,T...]]\n"
    "                             [--reps R] [--no-split] [--backend NAME] [--skip-subgroup-check] [--stages]\n"
    "                             [--json]\n"
    "Times multi-scalar multiplications (random bases; scalars uniform, or a share F of them\n"
    "0 or 1; --split uses the split MSM; where the CPU has AVX-512 IFMA, on its lanes and one\n"
    "addition at a time, side by side, the results compared), forward NTTs and the evaluations-to-coset step of the\n"
    "prover, or whole proofs. Prints the median of R repetitions (default 3) per row.\n"
    "bench prove: the key is read once and made resident on the backend (--backend cpu, cuda,\n"
    "cuda:N, auto; default cpu); one untimed warm-up proof on a GPU; the last proof is verified.\n"
    "--stages also prints the median of each stage the backend reports over the timed proofs,\n"
    "and what the proofs spent outside those stages (buffers, the finish; the synthesis when it\n"
    "is not beside the device work).\n";

#define MAX_LIST 16

typedef struct {
    const char *what;
    int group;
    int logs[MAX_LIST], n_logs;
    int threads[MAX_LIST], n_threads;
    int reps, split, no_split, stages;
    double bool_fraction;
    const char *zkey, *wtns, *r1cs, *backend;
    unsigned key_flags; /* bench prove: SP_G16_SKIP_SUBGROUP_CHECK */
} bench_args;

/* "a,b,c" of ints in [lo, hi]; returns the count or -1. */
static int parse_list(int *out, const char *s, int lo, int hi)
{
    int n = 0;
    while (*s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < lo || v > hi || n == MAX_LIST || (*end && *end != ','))
            return -1;
        out[n++] = (int)v;
        s = *end ? end + 1 : end;
    }
    return n ? n : -1;
}

static int parse_opt(bench_args *a, int argc, char **argv, int *i)
{
    int missing = 0;
    const char *v;
    char *end;
    if ((v = sp_cli_opt(argc, argv, i, "--threads", &missing))) {
        if ((a->n_threads = parse_list(a->threads, v, 1, 4096)) < 0)
            return sp_cli_usage("bench", USAGE, "--threads needs numbers >= 1, got %s", v);
    } else if ((v = sp_cli_opt(argc, argv, i, "--log-size", &missing))) {
        if ((a->n_logs = parse_list(a->logs, v, 1, SP_NTT_MAX_LOG)) < 0)
            return sp_cli_usage("bench", USAGE, "--log-size needs numbers from 1 to %d, got %s", SP_NTT_MAX_LOG, v);
    } else if ((v = sp_cli_opt(argc, argv, i, "--group", &missing))) {
        if (strcmp(v, "g1") && strcmp(v, "g2"))
            return sp_cli_usage("bench", USAGE, "--group is g1 or g2, got %s", v);
        a->group = v[1] - '0';
    } else if ((v = sp_cli_opt(argc, argv, i, "--reps", &missing))) {
        int r[MAX_LIST];
        if (parse_list(r, v, 1, 1000) != 1)
            return sp_cli_usage("bench", USAGE, "--reps needs a number from 1 to 1000, got %s", v);
        a->reps = r[0];
    } else if ((v = sp_cli_opt(argc, argv, i, "--bool-fraction", &missing))) {
        a->bool_fraction = strtod(v, &end);
        if (!*v || *end || !(a->bool_fraction >= 0.0 && a->bool_fraction <= 1.0))
            return sp_cli_usage("bench", USAGE, "--bool-fraction needs a number in [0, 1], got %s", v);
    } else if ((v = sp_cli_opt(argc, argv, i, "--r1cs", &missing))) {
        a->r1cs = v;
    } else if ((v = sp_cli_opt(argc, argv, i, "--backend", &missing))) {
        a->backend = v;
    } else if (missing) {
        return sp_cli_usage("bench", USAGE, "%s needs a value", argv[*i]);
    } else if (!strcmp(argv[*i], "--split")) {
        a->split = 1;
    } else if (!strcmp(argv[*i], "--no-split")) {
        a->no_split = 1;
    } else if (!strcmp(argv[*i], "--stages")) {
        a->stages = 1;
    } else if (!strcmp(argv[*i], "--skip-subgroup-check")) {
        a->key_flags = SP_G16_SKIP_SUBGROUP_CHECK;
    } else {
        /* After ours: --threads here is a list. (--help was answered before.) */
        int h = sp_cli_arg("bench", USAGE, argc, argv, i);
        if (h == SP_CLI_OWN)
            return sp_cli_unknown_opt("bench", USAGE, argv[*i]);
        if (h != SP_CLI_NEXT)
            return h;
    }
    return 0;
}

static int parse_args(bench_args *a, int argc, char **argv)
{
    a->what = argv[0];
    a->reps = 3;
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            int rc = parse_opt(a, argc, argv, &i);
            if (rc)
                return rc;
        } else if (npos < 2) {
            *(npos++ ? &a->wtns : &a->zkey) = argv[i];
        } else {
            return sp_cli_usage("bench", USAGE, "too many arguments");
        }
    }
    if (!a->n_threads) {
        a->threads[0] = sp_cli_threads();
        a->n_threads = 1;
    }
    int is_prove = !strcmp(a->what, "prove");
    if (is_prove ? npos != 2 : npos != 0)
        return sp_cli_usage("bench", USAGE, is_prove ? "bench prove needs <zkey> <wtns>" : "unexpected argument");
    if (!is_prove && !a->n_logs)
        return sp_cli_usage("bench", USAGE, "--log-size is required");
    if (!strcmp(a->what, "msm") && !a->group)
        return sp_cli_usage("bench", USAGE, "--group g1|g2 is required");
    return 0;
}

static void row(const char *op, const char *extra_json, const char *extra_text, int log_size, int threads, double *t,
                int reps)
{
    double med = sp_cli_median(t, reps);
    if (sp_cli_g.json) {
        printf("{\"op\":\"%s\",%s\"log_size\":%d,\"threads\":%d,\"reps\":%d,\"seconds\":%.6f,\"min_seconds\":%.6f}\n",
               op, extra_json, log_size, threads, reps, med, t[0]);
    } else {
        printf("%-10s %-25s %8d %7d %4d %12.4f %12.4f\n", op, extra_text, log_size, threads, reps, med, t[0]);
    }
    fflush(stdout);
}

static void header(void)
{
    if (!sp_cli_g.json)
        printf("%-10s %-25s %8s %7s %4s %12s %12s\n", "op", "inputs", "log_size", "threads", "reps", "median_s",
               "min_s");
}


static int max_of(const int *v, int n)
{
    int m = v[0];
    for (int i = 1; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

static int bench_msm(const bench_args *a)
{
    sp_rng rng;
    sp_rng_seed(&rng, 1);
    size_t nmax = (size_t)1 << max_of(a->logs, a->n_logs);
    void *bases = malloc(nmax * (a->group == 1 ? sizeof(sp_g1_affine) : sizeof(sp_g2_affine)));
    sp_scalar *s = malloc(nmax * sizeof *s);
    if (!bases || !s ||
        (a->group == 1 ? sp_g1_random_batch_var(bases, nmax, &rng) : sp_g2_random_batch_var(bases, nmax, &rng))) {
        free(bases), free(s);
        return sp_cli_fail("bench", SP_ERR_NOMEM, "MSM inputs");
    }
    /* Where the CPU has the IFMA lanes, each row is timed on them and on the
     * one-at-a-time flush too, repetitions alternating, results compared. */
    int ifma = sp_field_ifma_active(), paths = ifma ? 2 : 1, differ = 0;
    header();
    sp_status st = SP_OK;
    for (int li = 0; li < a->n_logs && st == SP_OK; li++) {
        size_t n = (size_t)1 << a->logs[li];
        sp_msm_random_scalars(s, n, a->bool_fraction, &rng);
        for (int ti = 0; ti < a->n_threads && st == SP_OK; ti++) {
            sp_msm_config cfg = sp_msm_config_default();
            cfg.threads = a->threads[ti];
            double tp[2][1000];
            for (int r = 0; r < a->reps && st == SP_OK; r++) {
                sp_g1_jac o1[2];
                sp_g2_jac o2[2];
                for (int p = 0; p < paths && st == SP_OK; p++) {
                    sp_field_use_ifma(ifma && p == 0);
                    double t0 = sp_cli_now();
                    if (a->group == 1)
                        st = a->split ? sp_msm_g1_split_var(&o1[p], bases, s, n, &cfg)
                                      : sp_msm_g1_var(&o1[p], bases, s, n, &cfg);
                    else
                        st = a->split ? sp_msm_g2_split_var(&o2[p], bases, s, n, &cfg)
                                      : sp_msm_g2_var(&o2[p], bases, s, n, &cfg);
                    tp[p][r] = sp_cli_now() - t0;
                }
                differ |= st == SP_OK && paths == 2 &&
                          !(a->group == 1 ? sp_g1_jac_eq(&o1[0], &o1[1]) : sp_g2_jac_eq(&o2[0], &o2[1]));
            }
            sp_field_use_ifma(ifma);
            for (int p = 0; p < paths && st == SP_OK; p++) {
                const char *path = p == 0 && ifma ? "ifma" : "scalar";
                char ej[160], et[64];
                snprintf(ej, sizeof ej, "\"group\":\"g%d\",\"bool_fraction\":%.3f,\"split\":%s,\"path\":\"%s\",",
                         a->group, a->bool_fraction, a->split ? "true" : "false", path);
                snprintf(et, sizeof et, "g%d %s bool=%.2f %s", a->group, a->split ? "split" : "plain",
                         a->bool_fraction, path);
                row("msm", ej, et, a->logs[li], a->threads[ti], tp[p], a->reps);
            }
        }
    }
    free(bases), free(s);
    if (differ) {
        fprintf(stderr, "snarkpipe bench: the MSM on the IFMA lanes and the one-at-a-time MSM differ\n");
        return SP_EXIT_CHECK;
    }
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail("bench", st, "MSM failed");
}

static int bench_ntt(const bench_args *a)
{
    sp_rng rng;
    sp_rng_seed(&rng, 2);
    size_t nmax = (size_t)1 << max_of(a->logs, a->n_logs);
    sp_fr *v = malloc(nmax * sizeof *v), shift;
    double t[1000];
    if (!v)
        return sp_cli_fail("bench", SP_ERR_NOMEM, "NTT inputs");
    header();
    for (int li = 0; li < a->n_logs; li++) {
        sp_ntt_domain *d;
        if (sp_ntt_domain_create(&d, (unsigned)a->logs[li], SP_NTT_ROOTS_SNARKJS, sp_cli_threads()) != SP_OK) {
            free(v);
            return sp_cli_fail("bench", SP_ERR_NOMEM, "NTT domain");
        }
        shift = d->omega_2n;
        for (size_t i = 0; i < d->n; i++)
            sp_fr_random(&v[i], &rng);
        for (int op = 0; op < 2; op++) {
            for (int ti = 0; ti < a->n_threads; ti++) {
                for (int r = 0; r < a->reps; r++) {
                    double t0 = sp_cli_now();
                    if (op == 0)
                        sp_ntt_forward(d, v, a->threads[ti]);
                    else
                        sp_ntt_evals_to_coset(d, v, &shift, a->threads[ti]);
                    t[r] = sp_cli_now() - t0;
                }
                row(op ? "ntt_coset" : "ntt", "", op ? "evals_to_coset" : "forward", a->logs[li], a->threads[ti], t,
                    a->reps);
            }
        }
        sp_ntt_domain_free(d);
    }
    free(v);
    return SP_EXIT_OK;
}

typedef struct {
    sp_g16_pk pk;
    sp_r1cs cs;
    int have_cs;
    sp_fr *w, *pub;
    size_t w_len;
} prove_inputs;

/* The stages a backend reported over the timed proofs (--stages). */
#define MAX_STAGES 24
typedef struct {
    char name[MAX_STAGES][24];
    double *ms[MAX_STAGES]; /* reps entries each */
    int n[MAX_STAGES], count, cap, overflow;
} stage_log;

static void stage_hook(void *ctx, const char *stage, double ms)
{
    stage_log *L = ctx;
    int k = 0;
    while (k < L->count && strcmp(L->name[k], stage))
        k++;
    if (k == L->count) {
        if (k == MAX_STAGES || !(L->ms[k] = malloc(sizeof(double) * (size_t)L->cap))) {
            L->overflow = 1;
            return;
        }
        snprintf(L->name[k], sizeof L->name[k], "%s", stage);
        L->count++;
    }
    if (L->n[k] < L->cap)
        L->ms[k][L->n[k]++] = ms;
}

/* One line per stage: its median over the proofs that reported it; then
 * the proofs' median less the stages that run one after the other (those
 * that run beside others, sp_backend_side_stage, are left out of the
 * sum). */
static void stage_rows(stage_log *L, double proof_median_s, int log_size, int threads)
{
    double sum = 0;
    for (int k = 0; k < L->count; k++) {
        double med = sp_cli_median(L->ms[k], L->n[k]);
        if (!sp_backend_side_stage(L->name[k]))
            sum += med;
        if (sp_cli_g.json)
            printf("{\"op\":\"prove_stage\",\"stage\":\"%s\",\"log_size\":%d,\"threads\":%d,\"reps\":%d,"
                   "\"seconds\":%.6f}\n",
                   L->name[k], log_size, threads, L->n[k], med * 1e-3);
        else
            printf("  stage %-22s %10.2f ms  (median of %d)\n", L->name[k], med, L->n[k]);
    }
    double rest = proof_median_s * 1e3 - sum;
    if (sp_cli_g.json)
        printf("{\"op\":\"prove_stage\",\"stage\":\"outside_stages\",\"log_size\":%d,\"threads\":%d,"
               "\"seconds\":%.6f}\n",
               log_size, threads, rest > 0 ? rest * 1e-3 : 0.0);
    else
        printf("  stage %-22s %10.2f ms  (the proof's median less the stages in sequence)\n",
               "outside the stages", rest);
    if (L->overflow)
        printf("  (more than %d stage names or out of memory: some stages not shown)\n", MAX_STAGES);
}

/* The timed proofs on an open backend with the key attached: per thread
 * count, one untimed warm-up on a GPU (domains, scratch), then a->reps
 * proofs; the last proof of each row is verified. */
static int prove_rows(const bench_args *a, prove_inputs *in, sp_backend *be)
{
    char err[SP_ERR_LEN] = "", what[64];
    double t[1000];
    sp_g16_pvk pvk;
    sp_status st = sp_g16_pvk_init(&pvk, &in->pk.vk, err);
    if (st != SP_OK)
        return sp_cli_fail("bench", st, err);
    snprintf(what, sizeof what, "%s %s", be->name, a->no_split ? "plain" : "split");
    header();
    int rc = SP_EXIT_OK;
    for (int ti = 0; ti < a->n_threads && rc == SP_EXIT_OK; ti++) {
        sp_g16_prove_opts o = sp_g16_prove_opts_default();
        o.threads = a->threads[ti];
        o.split_msm = !a->no_split;
        o.backend = be;
        sp_g16_proof proof;
        int valid = 0;
        sp_r1cs *cs = in->have_cs ? &in->cs : NULL;
        if (strcmp(be->name, "cpu"))
            st = sp_synth_prove(&proof, in->pub, &in->pk, cs, in->w, in->w_len, 0, &o, err);
        stage_log L = {.cap = a->reps};
        if (a->stages) {
            be->stage_hook = stage_hook;
            be->stage_ctx = &L;
        }
        for (int r = 0; r < a->reps && st == SP_OK; r++) {
            double t0 = sp_cli_now();
            st = sp_synth_prove(&proof, in->pub, &in->pk, cs, in->w, in->w_len, 0, &o, err);
            t[r] = sp_cli_now() - t0;
        }
        be->stage_hook = NULL;
        be->stage_ctx = NULL;
        if (st == SP_OK && (st = sp_g16_verify(&valid, &pvk, &proof, in->pub, in->pk.vk.n_public, err)) == SP_OK &&
            !valid) {
            snprintf(err, SP_ERR_LEN, "the proof made on %s does not verify", be->name);
            st = SP_ERR_GPU; /* a wrong proof from a backend: its arithmetic failed */
        }
        if (st != SP_OK)
            rc = sp_cli_fail("bench", st, err);
        else
            row("prove", a->no_split ? "\"split\":false," : "\"split\":true,", what, (int)in->pk.log2_domain,
                a->threads[ti], t, a->reps);
        if (st == SP_OK && a->stages)
            stage_rows(&L, sp_cli_median(t, a->reps), (int)in->pk.log2_domain, a->threads[ti]);
        for (int k = 0; k < L.count; k++)
            free(L.ms[k]);
    }
    sp_g16_pvk_free(&pvk);
    return rc;
}

/* Whole proofs: key, circuit and witness read once, then sp_synth_prove timed. */
static int bench_prove(const bench_args *a)
{
    char err[SP_ERR_LEN] = "";
    prove_inputs in = {0};
    int rc = SP_EXIT_OK;
    sp_status st = SP_OK;
    sp_backend *be = NULL;
    if (a->r1cs && (st = sp_r1cs_read(&in.cs, a->r1cs, err)) != SP_OK)
        return sp_cli_fail_file("bench", a->r1cs, st, err);
    in.have_cs = a->r1cs != NULL;
    if ((st = sp_zkey_read(&in.pk, NULL, a->zkey, a->key_flags, sp_cli_threads(), err)) != SP_OK) {
        rc = sp_cli_fail_file("bench", a->zkey, st, err);
        goto out_cs;
    }
    if ((st = sp_wtns_read(&in.w, &in.w_len, a->wtns, err)) != SP_OK) {
        rc = sp_cli_fail_file("bench", a->wtns, st, err);
        goto out;
    }
    if (!(in.pub = malloc(sizeof(sp_fr) * (in.pk.vk.n_public + 1u)))) {
        rc = sp_cli_fail("bench", SP_ERR_NOMEM, "public signals");
        goto out;
    }
    if ((st = sp_backend_open(&be, a->backend ? a->backend : "cpu", sp_cli_threads(), err)) != SP_OK) {
        rc = sp_cli_fail("bench", st, err);
        goto out;
    }
    if ((st = be->key_attach(be, &in.pk, err)) != SP_OK) {
        rc = sp_cli_fail("bench", st, err);
    } else {
        rc = prove_rows(a, &in, be);
        be->key_detach(be, &in.pk);
    }
    sp_backend_close(be);
out:
    free(in.w), free(in.pub);
    sp_g16_pk_free(&in.pk);
out_cs:
    if (in.have_cs)
        sp_r1cs_free(&in.cs);
    return rc;
}

int sp_cli_bench_groth16(int argc, char **argv)
{
    bench_args a;
    memset(&a, 0, sizeof a);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            return SP_EXIT_OK;
        }
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc;
    if (!strcmp(a.what, "msm"))
        return bench_msm(&a);
    if (!strcmp(a.what, "ntt"))
        return bench_ntt(&a);
    return bench_prove(&a);
}
