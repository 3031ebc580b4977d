/*
 * The Groth16 commands of the snarkpipe tool (prove, verify, setup,
 * export-vkey, export-solidity, calldata, info, bench msm/ntt/prove) and the helpers they share:
 * global options, usage and error reporting, progress, file detection.
 * Not part of the library; main.c dispatches to the sp_cli_* commands.
 *
 * Exit codes (cli.h): 0 success, 1 the proof does not verify (verify
 * only), 2 error (bad input, I/O, memory), 64 usage error.
 */
#ifndef SP_CLI_CMDS_H
#define SP_CLI_CMDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "snarkpipe.h"
#include "groth16/keys.h"

/* ---- commands: argv[0] is the command name; each returns an exit code ---- */

/* prove [options] <circuit.zkey> <witness.wtns> <proof.json> <public.json> */
int sp_cli_prove(int argc, char **argv);
/* fullprove [options] <input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json>
 * (prove, its witness from circom's .wasm: cmd_wtns.h) */
int sp_cli_fullprove(int argc, char **argv);
/* verify <verification_key.json|key.vk> <public.json> <proof.json|proof.bin> */
int sp_cli_verify(int argc, char **argv);
/* setup [--bellperson] <circuit.r1cs> <out.zkey|out.params> */
int sp_cli_setup(int argc, char **argv);
/* `snarkpipe ptau-prepare`: snarkjs' powersoftau prepare phase2 (cmd_setup.c). */
int sp_cli_ptau_prepare(int argc, char **argv);
/* export-vkey <key.zkey|key.params|key.vk> <vkey.json|out.vk> */
int sp_cli_export_vkey(int argc, char **argv);
/* export-solidity <verification_key.json|key.zkey> <Verifier.sol> (BN254 only) */
int sp_cli_export_solidity(int argc, char **argv);
/* calldata <public.json> <proof.json>: verifyProof's arguments (BN254 only) */
int sp_cli_calldata(int argc, char **argv);
/* info [--json] <file> */
int sp_cli_info(int argc, char **argv);
/* gen-circuit [--kind chain|porep-like] ... <out.r1cs> <out.wtns>: benchmark circuits
 * (synth/gen.h) and native ones (circuit/porep.h); prints its options alone. */
int sp_cmd_gen_circuit(int argc, char **argv);
/* bench witness [porep-like options]: native synthesis timings; argv[0] is "witness". */
int sp_cli_bench_witness(int argc, char **argv);
/* bench msm|ntt|prove ...; argv[0] is "msm", "ntt" or "prove". */
int sp_cli_bench_groth16(int argc, char **argv);

/* ---- global options: --threads N, --quiet, --json ---- */

typedef struct {
    int threads; /* 0 = every online core */
    int quiet;   /* no summaries, no progress */
    int json;    /* machine-readable output on stdout */
    const int *curves; /* the binary's curves (sp_curve_id), set by sp_cli_main */
    int n_curves;
} sp_cli_globals;

extern sp_cli_globals sp_cli_g;

/*
 * Consumes the global options that come before the command name:
 * on input argv[0] is the program, on output argv[0] is still the program
 * and the options are gone from *argc / *argv.
 * Returns 0, or SP_EXIT_USAGE after printing why (bad --threads value).
 */
int sp_cli_parse_globals(int *argc, char ***argv);

/*
 * If argv[*i] is a global option, records it (advancing *i past its value)
 * and returns 1; returns 0 when it is not one, -1 (message printed, `cmd`
 * names the command) when its value is bad.
 */
int sp_cli_global_opt(const char *cmd, int argc, char **argv, int *i);

/* "--name value" or "--name=value" at argv[*i]: returns the value and
 * advances *i, or NULL when argv[*i] is not that option. *missing is set
 * to 1 when the option is there but its value is not. */
const char *sp_cli_opt(int argc, char **argv, int *i, const char *name, int *missing);

/* A whole decimal number in [min, max] (nothing else in s): *out and 0,
 * or -1 (*out untouched). */
int sp_cli_int(int *out, const char *s, int min, int max);

/* A whole decimal number, or 2^k (k <= 63): *out and 0, or -1. */
int sp_cli_u64(uint64_t *out, const char *s);

/* Thread count to pass to the library (resolves 0 to the core count). */
int sp_cli_threads(void);

/* ---- reporting ---- */

/* Prints "snarkpipe CMD: <message>" on stderr, then the usage text's first
 * form (its first line and that line's indented continuations) and where
 * the rest is (CMD --help), so that the message stays in sight; returns
 * SP_EXIT_USAGE. */
int sp_cli_usage(const char *cmd, const char *usage, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The candidate closest to word by edit distance (adjacent transpositions
 * counting one), within 1 for words under 4 bytes, 2 under 9, 3 above, or
 * one that word begins (3 bytes at least); NULL when none is. */
const char *sp_cli_suggest(const char *word, const char *const *cands, int n);

/* "unknown option OPT" as sp_cli_usage prints it, with "did you mean
 * --X?" when an option that the usage text names (any "--x" token in it)
 * is close to OPT's name (before any '='). Returns SP_EXIT_USAGE. */
int sp_cli_unknown_opt(const char *cmd, const char *usage, const char *opt);

/* Prints "snarkpipe CMD: <msg> (<status>)" on stderr; returns SP_EXIT_RUNTIME. */
int sp_cli_fail(const char *cmd, sp_status st, const char *msg);

/* As sp_cli_fail, the message prefixed with "path: " unless it already
 * names path. */
int sp_cli_fail_file(const char *cmd, const char *path, sp_status st, const char *msg);

/* Peak resident memory of this process (VmHWM), bytes; 0 when unknown.
 * reset != 0 instead starts a new peak from now (returns 0): the heap is
 * trimmed and VmHWM reset (Linux >= 4.0), so the next reading covers what
 * follows. */
size_t sp_cli_peak_rss(int reset);

/* qsort comparison of doubles, ascending. */
int sp_cli_cmp_double(const void *x, const void *y);

/* Sorts t[0..n) (n >= 1) and returns the median (the mean of the middle
 * two when n is even). */
double sp_cli_median(double *t, int n);

/* Monotonic seconds. */
double sp_cli_now(void);

/* A finished step's line: when progress is on (sp_cli_progress_setup) and
 * the step that started at t0 took over a second, "  <name>  1.23 s" on
 * stderr (util/progress.h, sp_progress_note). */
void sp_cli_progress(const char *name, double t0);

/* Turns the progress lines (util/progress.h) on for command cmd when
 * stderr is a terminal and --quiet was not given before the command (the
 * command's own --quiet turns them off again); never for the commands
 * that run many jobs at once or time things (daemon, client, bench).
 * $SP_TEST_PROGRESS_NOW=1, for tests only, draws at every update instead
 * of after half a second and then ten times a second. */
void sp_cli_progress_setup(const char *cmd);

/* Writes s as a JSON string literal (quotes and escapes) on f. */
void sp_cli_json_str(FILE *f, const char *s);

/* A check's answer: OK or INVALID on stdout (nothing with --quiet), or
 * with --json {"valid":..., json_extra (members, may be NULL), "reason":
 * why}; why (may be NULL) also on stderr as "snarkpipe CMD: why".
 * Returns SP_EXIT_OK when valid, else SP_EXIT_CHECK. */
int sp_cli_verdict(const char *cmd, int valid, const char *json_extra, const char *why);

/* ---- files ---- */

typedef enum {
    SP_FILE_UNKNOWN = 0,
    SP_FILE_R1CS,     /* circom .r1cs */
    SP_FILE_WTNS,     /* circom .wtns */
    SP_FILE_ZKEY,     /* snarkjs .zkey */
    SP_FILE_PARAMS,   /* bellperson .params */
    SP_FILE_BP_VK,    /* bellperson .vk */
    SP_FILE_BP_PROOF, /* bellperson 192-byte proof */
    SP_FILE_JSON,     /* some JSON text (proof, public signals, verifying key) */
    SP_FILE_PTAU      /* snarkjs powers of tau */
} sp_cli_file_kind;

/* Element counts of a bellperson .params or .vk file (every point
 * uncompressed: 96 bytes in G1, 192 in G2). */
typedef struct {
    int is_vk_only;                        /* a .vk: no vectors after IC */
    uint32_t ic, h, l, a, b_g1, b_g2;      /* counts */
    uint64_t vk_bytes;                     /* length of the .vk prefix */
} sp_cli_bp_layout;

/*
 * Decides what the file at path is from its first bytes and its size:
 * a binfile magic ("r1cs", "wtns", "zkey"), JSON (first non-blank byte
 * '{' or '['), 192 bytes (bellperson proof), or a bellperson .vk / .params
 * whose counts add up to the file size exactly (then *bp, when not NULL,
 * is filled).
 * Returns SP_OK; SP_ERR_IO (cannot open or read); SP_ERR_FORMAT when it is
 *   none of these (err says what the first bytes look like, naming other
 *   binfile magics such as "ptau").
 */
sp_status sp_cli_detect(sp_cli_file_kind *kind, sp_cli_bp_layout *bp, const char *path,
                        char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Reads exactly len bytes from the start of path into a new buffer
 * (*out, free()). SP_OK, SP_ERR_IO, SP_ERR_TRUNCATED, SP_ERR_NOMEM. */
sp_status sp_cli_read_prefix(uint8_t **out, const char *path, size_t len, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Reads a verifying key for command cmd (verify, export-vkey,
 * export-solidity) from any file that holds one: snarkjs
 * verification_key.json, a .zkey (its header and IC sections only), a
 * bellperson .params (its leading .vk part only) or .vk. Every form gets
 * its reader's full checks (points on the curve and in the subgroup,
 * coordinates canonical, the file's curve the build's).
 * A snarkjs verifying key has no beta1 and delta1 (they are left at
 * infinity), which a bellperson .vk holds: *from says which form it was.
 * On output: *vk allocated (sp_g16_vk_free) on success; zeroed otherwise;
 *   *from (when not NULL) the file's kind.
 * Returns SP_EXIT_OK, or the exit code after the error was reported
 *   naming cmd and path.
 */
int sp_cli_read_vk(sp_g16_vk *vk, sp_cli_file_kind *from, const char *cmd, const char *path);

#endif
