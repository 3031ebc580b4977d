/* `snarkpipe wtns calculate` and `snarkpipe fullprove` (cmd_wtns.h); wtns check and export in
 * cmd_wtns_tools.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmd_wtns.h"
#include "cli/cmds.h"
#include "r1cs/r1cs.h"
#include "util/file.h"
#include "wasm/circom.h"

static const char WTNS_USAGE[] =
    "usage: snarkpipe wtns calculate [options] <circuit.wasm> <input.json> <witness.wtns>\n"
    "  The witness of input.json for a circom 2 circuit, from the .wasm circom wrote (--wasm),\n"
    "  run natively; the .wtns is the one snarkjs wtns calculate writes, byte for byte.\n"
    "options:\n" SP_CLI_WASM_USAGE
    "  --json               timings on stdout; --quiet\n";

#define MAX_INPUT_BYTES ((uint64_t)1 << 30)

int sp_cli_wasm_opt(sp_cli_wasm_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int missing = 0, v;
    const char *s;
    if (!strcmp(argv[*i], "--no-native-field")) {
        o->no_native = 1;
        return 1;
    }
    if ((s = sp_cli_opt(argc, argv, i, "--max-seconds", &missing))) {
        char *end;
        o->max_seconds = strtod(s, &end);
        if (*end || !(o->max_seconds > 0) || o->max_seconds > 1e9) {
            fprintf(stderr, "snarkpipe %s: --max-seconds takes a number of seconds above 0, got %s\n", cmd, s);
            return -1;
        }
        return 1;
    }
    if ((s = sp_cli_opt(argc, argv, i, "--max-memory", &missing))) {
        if (sp_cli_int(&v, s, 1, 4096)) {
            fprintf(stderr, "snarkpipe %s: --max-memory takes MiB from 1 to 4096, got %s\n", cmd, s);
            return -1;
        }
        o->max_mib = (unsigned)v;
        return 1;
    }
    if (missing) {
        fprintf(stderr, "snarkpipe %s: %s needs a value\n", cmd, argv[*i]);
        return -1;
    }
    return 0;
}

/* Reads a whole regular file (at most max bytes) into a new buffer (sp_huge_free). */
static sp_status slurp(uint8_t **out, size_t *len, const char *path, const char *what, uint64_t max,
                       char err[SP_ERR_LEN])
{
    int fd;
    uint64_t size;
    *out = NULL;
    sp_status st = sp_file_open_regular(&fd, &size, path, what, err);
    if (st != SP_OK)
        return st;
    if (size > max) {
        close(fd);
        snprintf(err, SP_ERR_LEN, "%s: %s: %llu bytes, more than the %llu this reads", what, path,
                 (unsigned long long)size, (unsigned long long)max);
        return SP_ERR_INVALID_ARG;
    }
    uint8_t *b = sp_huge_alloc((size_t)size); /* a module of megabytes: few faults on huge pages */
    size_t got = 0;
    while (b && got < size) {
        ssize_t n = read(fd, b + got, (size_t)size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!b || got != size) {
        sp_huge_free(b);
        snprintf(err, SP_ERR_LEN, "%s: %s: %s", what, path, b ? "read failed or the file shrank" : "out of memory");
        return b ? SP_ERR_IO : SP_ERR_NOMEM;
    }
    *out = b;
    *len = (size_t)size;
    return SP_OK;
}

/* circom --sym writes <name>.sym beside the folder <name>_js/ of the
 * .wasm (or the user keeps it beside the .wasm): when there, missing
 * inputs are named (sp_circom_set_sym_path; read only then). */
static void attach_sym(sp_circom *c, const char *wasm)
{
    size_t n = strlen(wasm);
    if (n < 5 || strcmp(wasm + n - 5, ".wasm") || n > 4000)
        return;
    char path[4200];
    const char *slash = strrchr(wasm, '/'), *base = slash ? slash + 1 : wasm;
    int dir_len = (int)(base - wasm);
    for (int k = 0; k < 2; k++) {
        if (k == 0)
            snprintf(path, sizeof path, "%.*s.sym", (int)(n - 5), wasm);
        else
            snprintf(path, sizeof path, "%.*s../%.*s.sym", dir_len, wasm, (int)(n - 5 - (size_t)dir_len), base);
        if (access(path, R_OK) == 0) {
            if (sp_circom_set_sym_path(c, path) != SP_OK)
                fprintf(stderr, "snarkpipe: out of memory (missing inputs will not be named)\n");
            return;
        }
    }
}

typedef struct {
    double t_load, t_witness;
    uint32_t witness_size;
} wtns_times;

/* The .wtns bytes of input for wasm; exit code (error reported). */
static int compute(uint8_t **wtns, size_t *wtns_len, wtns_times *t, const char *cmd, const char *wasm,
                   const char *input, const sp_cli_wasm_opts *o)
{
    char err[SP_ERR_LEN];
    uint8_t *code = NULL, *in = NULL;
    size_t code_len, in_len;
    sp_circom *c = NULL;
    double t0 = sp_cli_now();
    sp_status st = slurp(&code, &code_len, wasm, "wasm", MAX_INPUT_BYTES, err);
    if (st != SP_OK)
        return sp_cli_fail(cmd, st, err);
    if ((st = slurp(&in, &in_len, input, "input", MAX_INPUT_BYTES, err)) != SP_OK) {
        sp_huge_free(code);
        return sp_cli_fail(cmd, st, err);
    }
    sp_circom_opts co = sp_circom_opts_default();
    co.natives = !o->no_native;
    co.lim.max_seconds = o->max_seconds;
    if (o->max_mib)
        co.lim.max_pages = o->max_mib * 16u;
    st = sp_circom_open(&c, code, code_len, &co, err);
    sp_huge_free(code);
    if (st != SP_OK) {
        sp_huge_free(in);
        return sp_cli_fail_file(cmd, wasm, st, err);
    }
    attach_sym(c, wasm);
    t->t_load = sp_cli_now() - t0;
    t->witness_size = sp_circom_witness_size(c);
    t0 = sp_cli_now();
    st = sp_circom_witness(c, (const char *)in, in_len, wtns, wtns_len, err);
    t->t_witness = sp_cli_now() - t0;
    sp_circom_close(c);
    sp_huge_free(in);
    if (st != SP_OK)
        return sp_cli_fail_file(cmd, st == SP_ERR_FORMAT ? wasm : input, st, err);
    sp_cli_progress("witness", t0);
    return SP_EXIT_OK;
}

int sp_cli_wasm_witness(sp_fr **w, size_t *n, const char *cmd, const char *wasm, const char *input,
                        const sp_cli_wasm_opts *o)
{
    uint8_t *bytes;
    size_t len;
    wtns_times t;
    char err[SP_ERR_LEN];
    int rc = compute(&bytes, &len, &t, cmd, wasm, input, o);
    if (rc != SP_EXIT_OK)
        return rc;
    sp_status st = sp_wtns_parse(w, n, bytes, len, err);
    sp_huge_free(bytes);
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail_file(cmd, wasm, st, err);
}

int sp_cli_wtns(int argc, char **argv)
{
    sp_cli_wasm_opts o = {0};
    char *pos[3];
    int npos = 0;
    if (argc >= 2 && !strcmp(argv[1], "check"))
        return sp_cli_wtns_check(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "export"))
        return sp_cli_wtns_export(argc - 1, argv + 1);
    if (argc < 2 || strcmp(argv[1], "calculate"))
        return sp_cli_usage("wtns", WTNS_USAGE, "wtns takes calculate, check or export json (snarkjs' wtns "
                                                "commands)");
    for (int i = 2; i < argc; i++) {
        int h = sp_cli_arg("wtns", WTNS_USAGE, argc, argv, &i);
        if (h != SP_CLI_OWN) {
            if (h != SP_CLI_NEXT)
                return h;
        } else if ((h = sp_cli_wasm_opt(&o, "wtns", argc, argv, &i)) != 0) {
            if (h < 0)
                return SP_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return sp_cli_usage("wtns", WTNS_USAGE, "unknown option %s", argv[i]);
        } else if (npos == 3) {
            return sp_cli_usage("wtns", WTNS_USAGE, "too many arguments");
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos != 3)
        return sp_cli_usage("wtns", WTNS_USAGE, "expected <circuit.wasm> <input.json> <witness.wtns>, got %d "
                                                "argument(s)", npos);
    uint8_t *wtns;
    size_t len;
    wtns_times t;
    char err[SP_ERR_LEN];
    double t0 = sp_cli_now();
    int rc = compute(&wtns, &len, &t, "wtns", pos[0], pos[1], &o);
    if (rc != SP_EXIT_OK)
        return rc;
    double t1 = sp_cli_now();
    sp_status st = sp_file_replace(pos[2], wtns, len, "wtns", err);
    sp_huge_free(wtns);
    if (st != SP_OK)
        return sp_cli_fail("wtns", st, err);
    if (sp_cli_g.json)
        printf("{\"op\":\"wtns calculate\",\"witness_size\":%u,\"seconds\":{\"load\":%.6f,\"witness\":%.6f,"
               "\"write\":%.6f,\"total\":%.6f}}\n", t.witness_size, t.t_load, t.t_witness, sp_cli_now() - t1,
               sp_cli_now() - t0);
    return SP_EXIT_OK;
}
