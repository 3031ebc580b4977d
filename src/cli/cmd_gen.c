/*
 * `snarkpipe gen-circuit`: benchmark circuits (synth/gen.h, --kind chain)
 * and the native circuits (circuit/porep.h, circuit/post.h) written in the
 * circom formats, their recorded matrices (.sprec), or only their sizes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/porep.h"
#include "circuit/post.h"
#include "circuit/rec.h"
#include "cli/cli.h"
#include "cli/cmd_porep.h"
#include "cli/cmds.h"
#include "synth/gen.h"

static const char USAGE[] =
    "usage: snarkpipe gen-circuit [--kind chain] --constraints N [--public K] [--bool-fraction F]\n"
    "                             [--seed S] <out.r1cs> <out.wtns>\n"
    "       snarkpipe gen-circuit --kind porep-like|window-post-like [options] [--check]\n"
    "                             [--record FILE.sprec] [--dry-run] [<out.r1cs> <out.wtns>]\n"
    "chain: a satisfiable circuit with N constraints (N may be written 2^k), K public inputs\n"
    "(default 1) and a share F of 0/1 witness values (default 0.5), with its witness. The same\n"
    "seed (default 1) gives the same files.\n"
    "porep-like: a circuit shaped like Filecoin's StackedDRG PoRep partition (SHA-256 labels,\n"
    "tree_d, Poseidon columns, tree_c and tree_r_last paths) and the witness of one partition.\n"
    "window-post-like: shaped like Filecoin's WindowPoSt partition (per sector comm_r's Poseidon\n"
    "and each challenged leaf's Poseidon path in tree_r_last) and the witness of one partition.\n"
    "--dry-run prints the sizes and writes nothing; --record writes the recorded matrices (.sprec);\n"
    "--check checks every constraint and names the first failing one. Global: --threads N, --quiet,\n"
    "--json (with --dry-run). Native circuits' options:\n" SP_CLI_POREP_USAGE;

enum { KIND_CHAIN, KIND_POREP, KIND_POST };

typedef struct {
    int kind;
    sp_gen_params chain;
    uint64_t n, pub, seed; /* chain's --constraints, --public, --seed; UINT64_MAX: not given */
    sp_cli_porep_opts po;
    sp_porep_params p;
    sp_post_params pp;
    int dry_run, check;
    const char *record;
    const char *paths[2];
    int npaths;
} gen_args;

/* One option with a number value; returns 1 when argv[*i] was it, -1 on
 * a bad value (usage printed through *rc). */
static int num_opt(uint64_t *dst, int argc, char **argv, int *i, const char *name, int *rc)
{
    int missing = 0;
    const char *v = sp_cli_opt(argc, argv, i, name, &missing);
    if (!v && !missing)
        return 0;
    if (!v || sp_cli_u64(dst, v)) {
        *rc = sp_cli_usage("gen-circuit", USAGE, "bad %s value '%s'", name, v ? v : "");
        return -1;
    }
    return 1;
}

static int parse_args(gen_args *g, int argc, char **argv)
{
    static const char *const NUMS[] = {"--constraints", "--public"};
    uint64_t *dst[] = {&g->n, &g->pub};
    for (int i = 1; i < argc; i++) {
        int r = sp_cli_arg("gen-circuit", USAGE, argc, argv, &i), rc = 0, missing = 0;
        if (r == SP_CLI_NEXT)
            continue;
        if (r != SP_CLI_OWN)
            return r;
        const char *v;
        int hit = sp_cli_porep_opt(&g->po, argc, argv, &i, "gen-circuit", USAGE, &rc);
        for (size_t k = 0; k < sizeof NUMS / sizeof NUMS[0] && !hit; k++)
            hit = num_opt(dst[k], argc, argv, &i, NUMS[k], &rc);
        if (hit < 0)
            return rc;
        if (hit)
            continue;
        if ((v = sp_cli_opt(argc, argv, &i, "--kind", &missing))) {
            if (strcmp(v, "porep-like") && strcmp(v, "window-post-like") && strcmp(v, "chain"))
                return sp_cli_usage("gen-circuit", USAGE,
                                    "--kind is chain, porep-like or window-post-like, not '%s'", v);
            g->kind = !strcmp(v, "porep-like") ? KIND_POREP : !strcmp(v, "window-post-like") ? KIND_POST : KIND_CHAIN;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--record", &missing))) {
            g->record = v;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--bool-fraction", &missing))) {
            char *end;
            g->chain.bool_fraction = strtod(v, &end);
            if (!*v || *end || !(g->chain.bool_fraction >= 0.0 && g->chain.bool_fraction <= 1.0))
                return sp_cli_usage("gen-circuit", USAGE, "--bool-fraction needs a number in [0, 1], got '%s'", v);
        } else if (missing) {
            return sp_cli_usage("gen-circuit", USAGE, "%s needs a value", argv[i]);
        } else if (!strcmp(argv[i], "--dry-run")) {
            g->dry_run = 1;
        } else if (!strcmp(argv[i], "--check")) {
            g->check = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return sp_cli_unknown_opt("gen-circuit", USAGE, argv[i]);
        } else if (g->npaths < 2) {
            g->paths[g->npaths++] = argv[i];
        } else {
            return sp_cli_usage("gen-circuit", USAGE, "too many arguments ('%s')", argv[i]);
        }
    }
    return SP_CLI_NEXT;
}

/* ---- chain ---- */

static int gen_chain(gen_args *g)
{
    if (g->n == UINT64_MAX || g->n == 0)
        return sp_cli_usage("gen-circuit", USAGE, "--constraints N (N >= 1) is required");
    if (g->npaths != 2)
        return sp_cli_usage("gen-circuit", USAGE, "expected <out.r1cs> <out.wtns>");
    if (g->pub != UINT64_MAX && g->pub > UINT32_MAX)
        return sp_cli_usage("gen-circuit", USAGE, "bad --public value");
    g->chain.n_constraints = g->n;
    if (g->pub != UINT64_MAX)
        g->chain.n_public = (uint32_t)g->pub;
    if (g->po.seed != UINT64_MAX)
        g->chain.seed = g->po.seed;
    char err[SP_ERR_LEN] = "";
    sp_gen_stats st;
    sp_status s = sp_gen_circuit(g->paths[0], g->paths[1], &g->chain, &st, err);
    if (s != SP_OK)
        return sp_cli_fail("gen-circuit", s, err);
    if (!sp_cli_g.quiet)
        printf("gen-circuit: %" PRIu64 " constraints, %" PRIu64 " wires (%.1f%% of witness values are 0/1), "
               "%" PRIu64 " + %" PRIu64 " + %" PRIu64 " entries in A, B, C -> %s, %s\n",
               g->chain.n_constraints, st.n_wires, 100.0 * (double)st.n_bool_values / (double)st.n_wires,
               st.nnz[0], st.nnz[1], st.nnz[2], g->paths[0], g->paths[1]);
    return SP_EXIT_OK;
}

/* ---- porep-like ---- */

static void print_shape(const sp_porep *c)
{
    const sp_porep_shape *s = sp_porep_shape_of(c);
    const sp_porep_params *p = sp_porep_params_of(c);
    if (sp_cli_g.json) {
        printf("{\"kind\":\"porep-like\",\"preset\":\"%s\",\"nodes\":%" PRIu64 ",\"layers\":%u,\"challenges\":%u,"
               "\"constraints\":%" PRIu64 ",\"wires\":%" PRIu64 ",\"public_inputs\":%" PRIu64
               ",\"bool_values\":%" PRIu64 ",\"challenge_constraints\":%" PRIu64 ",\"label_constraints\":%" PRIu64
               "}\n",
               p->preset, p->nodes, p->layers, p->challenges, s->n_rows, s->n_vars, s->n_public, s->n_bool,
               s->challenge_rows, s->label_rows);
        return;
    }
    printf("porep-like %s: %" PRIu64 " nodes, %u layers, %u challenges\n", p->preset, p->nodes, p->layers,
           p->challenges);
    printf("  constraints    %" PRIu64 "  (%" PRIu64 " per challenge, %" PRIu64 " per label)\n", s->n_rows,
           s->challenge_rows, s->label_rows);
    printf("  wires          %" PRIu64 "  (public inputs %" PRIu64 ", %" PRIu64 " with ONE)\n", s->n_vars,
           s->n_public, s->n_public + 1);
    printf("  0/1 values     %.2f%% of the witness\n", 100.0 * (double)s->n_bool / (double)s->n_vars);
}

static void print_post_shape(const sp_post *c)
{
    const sp_post_shape *s = sp_post_shape_of(c);
    const sp_post_params *p = sp_post_params_of(c);
    if (sp_cli_g.json) {
        printf("{\"kind\":\"window-post-like\",\"preset\":\"%s\",\"nodes\":%" PRIu64 ",\"sectors\":%u,"
               "\"challenges\":%u,\"constraints\":%" PRIu64 ",\"wires\":%" PRIu64 ",\"public_inputs\":%" PRIu64
               ",\"bool_values\":%" PRIu64 ",\"sector_constraints\":%" PRIu64 "}\n",
               p->preset, p->nodes, p->sectors, p->challenges, s->n_rows, s->n_vars, s->n_public, s->n_bool,
               s->sector_rows);
        return;
    }
    printf("window-post-like %s: %" PRIu64 " nodes, %u sectors of %u challenges\n", p->preset, p->nodes, p->sectors,
           p->challenges);
    printf("  constraints    %" PRIu64 "  (%" PRIu64 " per sector)\n", s->n_rows, s->sector_rows);
    printf("  wires          %" PRIu64 "  (public inputs %" PRIu64 ", %" PRIu64 " with ONE)\n", s->n_vars,
           s->n_public, s->n_public + 1);
    printf("  0/1 values     %.2f%% of the witness\n", 100.0 * (double)s->n_bool / (double)s->n_vars);
}

/* The output arguments a native kind takes. Returns SP_CLI_NEXT or an exit code. */
static int native_args(const gen_args *g)
{
    if (!g->dry_run && g->npaths != 2 && !g->record)
        return sp_cli_usage("gen-circuit", USAGE, "expected <out.r1cs> <out.wtns>, --record or --dry-run");
    if (g->npaths == 1)
        return sp_cli_usage("gen-circuit", USAGE, "expected both <out.r1cs> and <out.wtns>");
    if (g->check && g->npaths != 2)
        return sp_cli_usage("gen-circuit", USAGE, "--check makes the witness: give <out.r1cs> <out.wtns>");
    return SP_CLI_NEXT;
}

typedef sp_status (*record_fn)(sp_cs_rec **rec, const void *c, const sp_porep_input *in, int threads,
                               char err[SP_ERR_LEN]);

static sp_status record_porep(sp_cs_rec **rec, const void *c, const sp_porep_input *in, int threads,
                              char err[SP_ERR_LEN])
{
    return sp_porep_record(rec, c, in, threads, err);
}

static sp_status record_post(sp_cs_rec **rec, const void *c, const sp_porep_input *in, int threads,
                             char err[SP_ERR_LEN])
{
    return sp_post_record(rec, c, in, threads, err);
}

/* The files of native circuit nc (c its own handle, record its recorder). */
static int gen_native(const gen_args *g, const sp_native_circuit *nc, record_fn record, const void *c)
{
    char err[SP_ERR_LEN] = "";
    sp_porep_input in = sp_cli_porep_input(&g->po);
    int threads = sp_cli_threads(), rc = SP_EXIT_OK;
    sp_cs_rec *rec = NULL;
    sp_fr *w = NULL;
    double t0 = sp_cli_now();
    sp_status s = record(&rec, c, &in, threads, err);
    if (s != SP_OK) {
        rc = sp_cli_fail("gen-circuit", s, err);
        goto out;
    }
    sp_cli_progress("record", t0);
    if (g->record && (s = sp_cs_rec_save(rec, g->record, err)) != SP_OK) {
        rc = sp_cli_fail_file("gen-circuit", g->record, s, err);
        goto out;
    }
    if (g->npaths == 2) {
        sp_r1cs cs;
        if ((s = sp_cs_rec_to_r1cs(&cs, rec, err)) == SP_OK) {
            s = sp_r1cs_write(g->paths[0], &cs, err);
            sp_r1cs_free(&cs);
        }
        if (s != SP_OK) {
            rc = sp_cli_fail_file("gen-circuit", g->paths[0], s, err);
            goto out;
        }
        t0 = sp_cli_now();
        if (!(w = malloc(sizeof(sp_fr) * nc->n_vars))) {
            rc = sp_cli_fail("gen-circuit", SP_ERR_NOMEM, "out of memory for the witness");
            goto out;
        }
        if ((s = nc->witness(nc, &in, w, NULL, NULL, NULL, 0, threads, g->check, NULL, err)) != SP_OK ||
            (s = sp_wtns_write(g->paths[1], w, nc->n_vars, err)) != SP_OK) {
            rc = sp_cli_fail("gen-circuit", s, err);
            goto out;
        }
        sp_cli_progress("witness", t0);
    }
    if (!sp_cli_g.quiet)
        printf("  recorded       %" PRIu64 " + %" PRIu64 " + %" PRIu64 " entries in A, B, C, %u coefficients, %.1f MiB%s%s\n",
               rec->m[0].nnz, rec->m[1].nnz, rec->m[2].nnz, rec->n_coef, (double)sp_cs_rec_bytes(rec) / (1 << 20),
               g->record ? " -> " : "", g->record ? g->record : "");
out:
    free(w);
    sp_cs_rec_free(rec);
    return rc;
}

static int gen_porep(gen_args *g)
{
    char err[SP_ERR_LEN] = "";
    int r = sp_cli_porep_params(&g->p, &g->po, "gen-circuit", USAGE);
    if (r != SP_CLI_NEXT || (r = native_args(g)) != SP_CLI_NEXT)
        return r;
    sp_porep *c = NULL;
    sp_status s = sp_porep_open(&c, &g->p, err);
    if (s != SP_OK)
        return sp_cli_fail("gen-circuit", s, err);
    if (g->dry_run || !sp_cli_g.quiet)
        print_shape(c);
    int rc = g->dry_run ? SP_EXIT_OK : gen_native(g, sp_porep_native(c), record_porep, c);
    sp_porep_close(c);
    return rc;
}

static int gen_post(gen_args *g)
{
    char err[SP_ERR_LEN] = "";
    int r = sp_cli_post_params(&g->pp, &g->po, "gen-circuit", USAGE);
    if (r != SP_CLI_NEXT || (r = native_args(g)) != SP_CLI_NEXT)
        return r;
    sp_post *c = NULL;
    sp_status s = sp_post_open(&c, &g->pp, err);
    if (s != SP_OK)
        return sp_cli_fail("gen-circuit", s, err);
    if (g->dry_run || !sp_cli_g.quiet)
        print_post_shape(c);
    int rc = g->dry_run ? SP_EXIT_OK : gen_native(g, sp_post_native(c), record_post, c);
    sp_post_close(c);
    return rc;
}

int sp_cmd_gen_circuit(int argc, char **argv)
{
    gen_args g;
    memset(&g, 0, sizeof g);
    g.chain = (sp_gen_params){.n_public = 1, .bool_fraction = 0.5, .seed = 1};
    g.n = g.pub = UINT64_MAX;
    sp_cli_porep_init(&g.po);
    if (argc <= 1) {
        fputs(USAGE, stdout);
        return SP_EXIT_OK;
    }
    int r = parse_args(&g, argc, argv);
    if (r != SP_CLI_NEXT)
        return r;
    return g.kind == KIND_POREP ? gen_porep(&g) : g.kind == KIND_POST ? gen_post(&g) : gen_chain(&g);
}
