/* `snarkpipe gen-circuit`: argument parsing around sp_gen_circuit (gen.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "synth/gen.h"

static const char USAGE[] =
    "usage: snarkpipe gen-circuit --constraints N [--public K] [--bool-fraction F] [--seed S] [--quiet]\n"
    "                             <out.r1cs> <out.wtns>\n"
    "Writes a satisfiable BLS12-381 circuit with N constraints (N may be written 2^k), K public\n"
    "inputs (default 1) and a share F of 0/1 witness values (default 0.5), with its witness,\n"
    "in the circom formats. The same seed (default 1) gives the same files.\n";

/* Decimal, or 2^k. Returns 0 on success. */
static int parse_u64(uint64_t *out, const char *s)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    errno = 0;
    if (s[0] == '2' && s[1] == '^') {
        unsigned long k = strtoul(s + 2, &end, 10);
        if (errno || *end || end == s + 2 || k > 63)
            return -1;
        *out = (uint64_t)1 << k;
        return 0;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* "--name value" or "--name=value": returns the value and advances *i, or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0' || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "snarkpipe gen-circuit: %s%s%s\n%s", msg, arg ? " " : "", arg ? arg : "", USAGE);
    return 64; /* EX_USAGE, as every other snarkpipe command */
}

static int parse_args(sp_gen_params *p, const char **paths, int *quiet, int argc, char **argv)
{
    int have_n = 0, npaths = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        uint64_t u;
        char *end;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            return 1;
        } else if (!strcmp(argv[i], "--quiet")) {
            *quiet = 1;
        } else if ((v = opt_value(argc, argv, &i, "--constraints"))) {
            if (parse_u64(&p->n_constraints, v) || p->n_constraints == 0)
                return usage_error("bad --constraints value", v);
            have_n = 1;
        } else if ((v = opt_value(argc, argv, &i, "--public"))) {
            if (parse_u64(&u, v) || u > UINT32_MAX)
                return usage_error("bad --public value", v);
            p->n_public = (uint32_t)u;
        } else if ((v = opt_value(argc, argv, &i, "--bool-fraction"))) {
            p->bool_fraction = strtod(v, &end);
            if (!*v || *end || !(p->bool_fraction >= 0.0 && p->bool_fraction <= 1.0))
                return usage_error("--bool-fraction needs a number in [0, 1], got", v);
        } else if ((v = opt_value(argc, argv, &i, "--seed"))) {
            if (parse_u64(&p->seed, v))
                return usage_error("bad --seed value", v);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("unknown or incomplete option", argv[i]);
        } else if (npaths < 2) {
            paths[npaths++] = argv[i];
        } else {
            return usage_error("too many arguments:", argv[i]);
        }
    }
    if (!have_n)
        return usage_error("--constraints is required", NULL);
    if (npaths != 2)
        return usage_error("expected <out.r1cs> <out.wtns>", NULL);
    return 0;
}

int sp_cmd_gen_circuit(int argc, char **argv)
{
    sp_gen_params p = {.n_public = 1, .bool_fraction = 0.5, .seed = 1};
    const char *paths[2] = {NULL, NULL};
    int quiet = 0;
    int r = parse_args(&p, paths, &quiet, argc, argv);
    if (r)
        return r == 1 ? 0 : r;
    char err[SP_ERR_LEN] = "";
    sp_gen_stats st;
    if (sp_gen_circuit(paths[0], paths[1], &p, &st, err) != SP_OK) {
        fprintf(stderr, "snarkpipe gen-circuit: %s\n", err);
        return 2;
    }
    if (!quiet)
        printf("gen-circuit: %" PRIu64 " constraints, %" PRIu64 " wires (%.1f%% of witness values are 0/1), "
               "%" PRIu64 " + %" PRIu64 " + %" PRIu64 " entries in A, B, C -> %s, %s\n",
               p.n_constraints, st.n_wires, 100.0 * (double)st.n_bool_values / (double)st.n_wires, st.nnz[0],
               st.nnz[1], st.nnz[2], paths[0], paths[1]);
    return 0;
}
