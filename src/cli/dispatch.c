/*
 * The one main of snarkpipe: picks the curve instance that runs the
 * command (ARCHITECTURE.md, "Curves").
 *
 * A build of the tree is for one curve. build/snarkpipe links two: the
 * BLS12-381 build's objects, and the BN254 build's, whose every global
 * symbol has a name of its own (sp_x -> sp_bn254_x: src/names_bn254.h,
 * which each BN254 compile force-includes), so its sp_cli_main is
 * sp_bn254_cli_main here. This file is compiled
 * once, with the BLS12-381 build (SP_WITH_BN254_INSTANCE=1 when the other
 * instance is linked), and calls only code that is the same for both
 * curves (the file sniffing below, util/curves.h, sp_cli_detect).
 *
 * The curve of a command:
 *   1. --curve NAME anywhere before a lone "--" (bls12-381, bn254, bn128,
 *      any spelling util/curves.h knows); taken out of argv, so the
 *      instance never sees it;
 *   2. else, for the commands that read files (prove, verify, setup,
 *      export-vkey, export-solidity, calldata, info, bench, fullprove,
 *      ptau-prepare, wtns check and wtns export), the first
 *      argument naming a regular file whose format says: the prime of a
 *      .zkey, .r1cs or .wtns, the
 *      "curve" of snarkjs JSON, BLS12-381 for bellperson .params/.vk/
 *      proofs and .sprec recordings; for `daemon`, "curve" in the
 *      [engine] section of its --config file; for `selftest VECTORS`, the
 *      curve its first line names ("# BN254 known answers ...");
 *   3. else BLS12-381 (when the binary has it); `selftest` alone checks
 *      every curve of the binary in turn.
 * Each instance checks every file it reads again and refuses one of the
 * other curve with a message naming both (util/curves.h), so a wrong
 * --curve or a mix of files is an error, never a wrong proof.
 *
 * The daemon is its own executable, snarkpipe-daemon (this main again, with
 * the daemon linked in): compiled with SP_DAEMON_EXEC=1 (snarkpipe, when the
 * daemon is built), this main hands `daemon` to it, found next to this
 * executable, with the arguments unchanged, so that the other commands never
 * load the daemon's libraries.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "util/curves.h"
#include "util/file.h"

#if SP_WITH_BN254_INSTANCE
/* The BN254 build's sp_cli_main, renamed (Makefile, "two curves in one binary"). */
int sp_bn254_cli_main(int argc, char **argv, const int *curves, int n_curves);
#endif

typedef int (*instance_main)(int argc, char **argv, const int *curves, int n_curves);

static const struct {
    sp_curve_id curve;
    instance_main run;
} instances_[] = {
    {SP_CURVE_ID_THIS, sp_cli_main},
#if SP_WITH_BN254_INSTANCE
    {SP_CURVE_ID_BN254, sp_bn254_cli_main},
#endif
};
#define N_INSTANCES (sizeof instances_ / sizeof instances_[0])

/* ---- what a file says about its curve ---- */

static sp_curve_id sniff_file(const char *path)
{
    char err[SP_ERR_LEN];
    int fd;
    uint64_t size;
    if (sp_file_open_regular(&fd, &size, path, "file", err) != SP_OK)
        return SP_CURVE_ID_NONE;
    sp_curve_id c = sp_curve_of_file(fd, size);
    close(fd);
    if (c != SP_CURVE_ID_NONE)
        return c;
    sp_cli_file_kind kind; /* bellperson's formats are BLS12-381's (their layout: cmds.h) */
    if (sp_cli_detect(&kind, NULL, path, err) == SP_OK &&
        (kind == SP_FILE_PARAMS || kind == SP_FILE_BP_VK || kind == SP_FILE_BP_PROOF))
        return SP_CURVE_ID_BLS12_381;
    return SP_CURVE_ID_NONE;
}

/* The daemon's configuration: "curve = NAME" in its [engine] section
 * (the daemon's own parser checks the whole file again). */
static sp_curve_id sniff_config(const char *path)
{
    char err[SP_ERR_LEN], line[512], section[64] = "";
    FILE *f = sp_file_fopen_regular(path, "r", "config", err);
    sp_curve_id c = SP_CURVE_ID_NONE;
    while (f && c == SP_CURVE_ID_NONE && fgets(line, sizeof line, f)) {
        char *s = line + strspn(line, " \t");
        s[strcspn(s, ";#\r\n")] = 0;
        if (*s == '[') {
            snprintf(section, sizeof section, "%.*s", (int)strcspn(s + 1, "]"), s + 1);
            continue;
        }
        size_t k = strcspn(s, " \t=");
        if (strcmp(section, "engine") || k != 5 || strncmp(s, "curve", 5))
            continue;
        s += k + strspn(s + k, " \t");
        if (*s++ != '=')
            continue;
        s += strspn(s, " \t");
        c = sp_curve_from_name(s, strcspn(s, " \t"));
    }
    if (f)
        fclose(f);
    return c;
}

/* A known-answer file (tools/noble/gen.mjs): "# <CURVE> known answers ...". */
static sp_curve_id sniff_vectors(const char *path)
{
    char err[SP_ERR_LEN], line[128] = "";
    int fd;
    uint64_t size;
    if (sp_file_open_regular(&fd, &size, path, "vectors", err) != SP_OK)
        return SP_CURVE_ID_NONE;
    ssize_t n = pread(fd, line, sizeof line - 1, 0);
    close(fd);
    if (n < 2 || line[0] != '#')
        return SP_CURVE_ID_NONE;
    const char *w = line + 1 + strspn(line + 1, " ");
    return sp_curve_from_name(w, strcspn(w, " \n"));
}

/* ---- argv ---- */

/* Takes --curve NAME / --curve=NAME out of argv (before a lone "--").
 * Returns 0 (*named set, or left NONE when absent), or -1 after a
 * message. */
static int take_curve_opt(sp_curve_id *named, int *argc, char **argv)
{
    *named = SP_CURVE_ID_NONE;
    for (int i = 1; i < *argc && strcmp(argv[i], "--"); i++) {
        const char *v = NULL;
        int used = 0;
        if (!strcmp(argv[i], "--curve")) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "snarkpipe: --curve needs a name: bls12-381 or bn254 (bn128)\n");
                return -1;
            }
            v = argv[i + 1];
            used = 2;
        } else if (!strncmp(argv[i], "--curve=", 8)) {
            v = argv[i] + 8;
            used = 1;
        } else {
            continue;
        }
        sp_curve_id c = sp_curve_from_name(v, strlen(v));
        if (c == SP_CURVE_ID_NONE) {
            fprintf(stderr, "snarkpipe: unknown curve '%s' (bls12-381, or bn254 = bn128)\n", v);
            return -1;
        }
        if (*named != SP_CURVE_ID_NONE && *named != c) {
            fprintf(stderr, "snarkpipe: --curve given twice, for %s and %s\n", sp_curve_name(*named),
                    sp_curve_name(c));
            return -1;
        }
        *named = c;
        memmove(&argv[i], &argv[i + used], (size_t)(*argc - i - used + 1) * sizeof *argv);
        *argc -= used;
        i--;
    }
    return 0;
}

/* The curve the command's files say, or NONE. argv[first] is the command. */
static sp_curve_id sniff_args(int argc, char **argv, int first)
{
    static const char *const readers[] = {"prove", "verify", "setup", "export-vkey", "export-solidity",
                                          "calldata", "info", "bench", "fullprove", "ptau-prepare"};
    const char *cmd = argv[first];
    if (!strcmp(cmd, "daemon")) {
        for (int i = first + 1; i < argc && strcmp(argv[i], "--"); i++) {
            if (!strcmp(argv[i], "--config") && i + 1 < argc)
                return sniff_config(argv[i + 1]);
            if (!strncmp(argv[i], "--config=", 9))
                return sniff_config(argv[i] + 9);
        }
        return SP_CURVE_ID_NONE;
    }
    if (!strcmp(cmd, "selftest"))
        return first + 1 < argc ? sniff_vectors(argv[first + 1]) : SP_CURVE_ID_NONE;
    int reads = 0;
    for (size_t k = 0; k < sizeof readers / sizeof readers[0]; k++)
        reads |= !strcmp(cmd, readers[k]);
    /* wtns check and export read a .r1cs and a .wtns (calculate's .wasm runs on either curve's build) */
    reads |= !strcmp(cmd, "wtns") && first + 1 < argc && (!strcmp(argv[first + 1], "check") ||
                                                          !strcmp(argv[first + 1], "export"));
    for (int i = first + 1; reads && i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] == '-' && strchr(a, '='))
            a = strchr(a, '=') + 1; /* --r1cs=FILE */
        else if (a[0] == '-' && a[1])
            continue;
        sp_curve_id c = sniff_file(a);
        if (c != SP_CURVE_ID_NONE)
            return c;
    }
    return SP_CURVE_ID_NONE;
}

/* snarkjs' spellings of the commands that take its argument orders: its
 * words (`groth16 prove`, `zkey export verificationkey`, `wtns check`) and
 * its short forms (`g16p`, `zkev`, `wchk`), each to snarkpipe's words. */
static const struct {
    const char *from[3], *to[3];
} snarkjs_forms_[] = {
    {{"groth16", "prove"}, {"prove"}},
    {{"groth16", "verify"}, {"verify"}},
    {{"groth16", "fullprove"}, {"fullprove"}},
    {{"groth16", "setup"}, {"setup"}},
    {{"g16p"}, {"prove"}},
    {{"g16v"}, {"verify"}},
    {{"g16f"}, {"fullprove"}},
    {{"g16s"}, {"setup"}},
    {{"zkey", "export", "verificationkey"}, {"export-vkey"}},
    {{"zkey", "export", "solidityverifier"}, {"export-solidity"}},
    {{"zkey", "export", "soliditycalldata"}, {"calldata"}},
    {{"zkev"}, {"export-vkey"}},
    {{"zkesv"}, {"export-solidity"}},
    {{"zkesc"}, {"calldata"}},
    {{"generatecall"}, {"calldata"}},
    {{"r1cs", "info"}, {"info"}},
    {{"ri"}, {"info"}},
    {{"wc"}, {"wtns", "calculate"}},
    {{"wchk"}, {"wtns", "check"}},
    {{"wej"}, {"wtns", "export", "json"}},
};

/* The argv a snarkjs form was rewritten into: freed at exit, so that leak
 * checkers see nothing held. */
static char **alias_argv_;

static void free_alias_argv(void) { free(alias_argv_); }

static int words(const char *const w[3])
{
    int n = 0;
    while (n < 3 && w[n])
        n++;
    return n;
}

/* Rewrites argv[first..] from a snarkjs form to snarkpipe's words when it
 * is one: *argv then becomes a new array, which the command keeps to the
 * end (freed at exit). Returns 0, or -1 after a message for a `groth16`,
 * `zkey` or `r1cs` form snarkpipe has not. */
static int snarkjs_alias(int *argc, char ***argv, int first)
{
    char **a = *argv;
    for (size_t k = 0; k < sizeof snarkjs_forms_ / sizeof snarkjs_forms_[0]; k++) {
        int nf = words(snarkjs_forms_[k].from), nt = words(snarkjs_forms_[k].to), j = 0;
        while (j < nf && first + j < *argc && !strcmp(a[first + j], snarkjs_forms_[k].from[j]))
            j++;
        if (j < nf)
            continue;
        char **b = malloc(((size_t)*argc - (size_t)nf + (size_t)nt + 1) * sizeof *b);
        if (!b || atexit(free_alias_argv)) {
            free(b);
            fprintf(stderr, "snarkpipe: out of memory\n");
            return -1;
        }
        alias_argv_ = b;
        memcpy(b, a, (size_t)first * sizeof *b);
        for (int t = 0; t < nt; t++)
            b[first + t] = (char *)snarkjs_forms_[k].to[t];
        memcpy(b + first + nt, a + first + nf, ((size_t)(*argc - first - nf) + 1) * sizeof *b);
        *argc += nt - nf;
        *argv = b;
        return 0;
    }
    if (!strcmp(a[first], "groth16") || !strcmp(a[first], "zkey") || !strcmp(a[first], "r1cs")) {
        fprintf(stderr, "snarkpipe: %s %s: snarkpipe takes snarkjs' groth16 prove, verify, fullprove and setup, "
                        "zkey export verificationkey, solidityverifier and soliditycalldata, and r1cs info "
                        "(snarkpipe help: the commands)\n",
                a[first], first + 1 < *argc ? a[first + 1] : "needs a command:");
        return -1;
    }
    return 0;
}

#if SP_DAEMON_EXEC
/* Runs snarkpipe-daemon from this executable's folder with argv (argv[0]
 * replaced). Returns only when it could not, after a message. */
static int run_daemon_exe(char **argv)
{
    char self[PATH_MAX], exe[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    char *slash = n > 0 ? memchr(self, '/', (size_t)n) : NULL;
    if (!slash) {
        fprintf(stderr, "snarkpipe daemon: cannot find this executable's folder (/proc/self/exe): %s\n",
                strerror(errno));
        return SP_EXIT_RUNTIME;
    }
    self[n] = 0;
    slash = strrchr(self, '/');
    snprintf(exe, sizeof exe, "%.*s/snarkpipe-daemon", (int)(slash - self), self);
    argv[0] = exe;
    execv(exe, argv);
    fprintf(stderr,
            "snarkpipe daemon: cannot run %s: %s (the daemon is its own executable, built and installed next to "
            "snarkpipe)\n",
            exe, strerror(errno));
    return SP_EXIT_RUNTIME;
}
#endif

int main(int argc, char **argv)
{
#if SP_DAEMON_EXEC
    static char **given; /* argv before --curve is taken out (static: kept to the end) */
    given = malloc(((size_t)argc + 1) * sizeof *argv);
    if (!given) {
        fprintf(stderr, "snarkpipe: out of memory\n");
        return SP_EXIT_RUNTIME;
    }
    memcpy(given, argv, ((size_t)argc + 1) * sizeof *argv);
#endif
    int curves[N_INSTANCES];
    for (size_t k = 0; k < N_INSTANCES; k++)
        curves[k] = instances_[k].curve;
    sp_curve_id named, c;
    if (take_curve_opt(&named, &argc, argv))
        return SP_EXIT_USAGE;
    /* The command: the first argument that is not a global option (--threads takes a value). */
    int first = 1;
    while (first < argc && argv[first][0] == '-' && strcmp(argv[first], "--help") && strcmp(argv[first], "-h") &&
           strcmp(argv[first], "--version"))
        first += !strcmp(argv[first], "--threads") ? 2 : 1;
    if (first < argc && !strcmp(argv[first], "--version"))
        argv[first] = "version";
    if (first < argc && snarkjs_alias(&argc, &argv, first))
        return SP_EXIT_USAGE;
#if SP_DAEMON_EXEC
    if (first < argc && !strcmp(argv[first], "daemon"))
        return run_daemon_exe(given);
#endif
    c = named;
    if (c == SP_CURVE_ID_NONE && first + 1 == argc && !strcmp(argv[first], "selftest")) {
        int worst = SP_EXIT_OK; /* every curve's arithmetic, in turn */
        char *copy[16];           /* each instance gets argv fresh (it takes its options out) */
        if (argc >= 16)
            return instances_[0].run(argc, argv, curves, (int)N_INSTANCES);
        for (size_t k = 0; k < N_INSTANCES; k++) {
            memcpy(copy, argv, (size_t)(argc + 1) * sizeof *argv);
            int rc = instances_[k].run(argc, copy, curves, (int)N_INSTANCES);
            worst = rc > worst ? rc : worst;
        }
        return worst;
    }
    if (c == SP_CURVE_ID_NONE && first < argc)
        c = sniff_args(argc, argv, first);
    if (c == SP_CURVE_ID_NONE)
        c = SP_CURVE_ID_BLS12_381;
    for (size_t k = 0; k < N_INSTANCES; k++)
        if (instances_[k].curve == c)
            return instances_[k].run(argc, argv, curves, (int)N_INSTANCES);
    if (named == SP_CURVE_ID_NONE) /* a one-curve build without BLS12-381: its instance says what is wrong */
        return instances_[0].run(argc, argv, curves, (int)N_INSTANCES);
    fprintf(stderr, "snarkpipe: this snarkpipe has no %s prover (it has %s only)\n", sp_curve_label(c),
            sp_curve_label(instances_[0].curve));
    return SP_EXIT_USAGE;
}
