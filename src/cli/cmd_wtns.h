/*
 * `snarkpipe wtns calculate` and `snarkpipe fullprove`: witnesses from a
 * circom circuit's .wasm and an input.json (wasm/circom.h), with snarkjs'
 * argument orders; `wtns check` and `wtns export json`. Not part of the
 * library.
 */
#ifndef SP_CLI_CMD_WTNS_H
#define SP_CLI_CMD_WTNS_H

#include <stddef.h>
#include "field/field.h"

/* wtns calculate [options] <circuit.wasm> <input.json> <witness.wtns>, wtns check and wtns
 * export json (below); argv[0] is "wtns". */
int sp_cli_wtns(int argc, char **argv);

/* wtns check <circuit.r1cs> <witness.wtns> (argv[0] "check"): exit 0 when every constraint
 * holds, 1 when one does not or the lengths differ, 2 for unreadable files (cmd_wtns_tools.c). */
int sp_cli_wtns_check(int argc, char **argv);

/* wtns export json <witness.wtns> <witness.json> (argv[0] "export"): the values as
 * snarkjs writes them (cmd_wtns_tools.c). */
int sp_cli_wtns_export(int argc, char **argv);

/* fullprove (cmd_prove.c) takes these options and makes its witness with
 * sp_cli_wasm_witness. */
/* The witness limits and switches that prove takes for --wasm (fullprove). */
typedef struct {
    double max_seconds; /* 0 = none */
    unsigned max_mib;   /* linear memory; 0 = the default (4 GiB, all wasm32 can address) */
    int no_native;      /* run the module's own field code too */
} sp_cli_wasm_opts;

/* Takes argv[*i] when it is one of the options above (advancing *i past
 * its value): 1 taken, 0 not one, -1 a bad value (message printed, cmd
 * named). */
int sp_cli_wasm_opt(sp_cli_wasm_opts *o, const char *cmd, int argc, char **argv, int *i);

/* The usage lines of those options. */
#define SP_CLI_WASM_USAGE                                                                          \
    "  --max-seconds S      stop the witness generator after S seconds (default: no limit)\n"      \
    "  --max-memory MIB     the witness generator's memory limit in MiB (default 4096)\n"          \
    "  --no-native-field    run the circuit's own field arithmetic code instead of the native\n"   \
    "                       one (slower; for comparisons)\n"

/*
 * The witness of input (input.json) for the circuit wasm (circom's .wasm),
 * as this build's field elements: the .wtns bytes snarkjs would write,
 * read back with the prime checked against this build's.
 * On output: *w (free()) and *n on success.
 * Returns SP_EXIT_OK, or an exit code after the error was reported naming
 *   cmd and the file or signal.
 */
int sp_cli_wasm_witness(sp_fr **w, size_t *n, const char *cmd, const char *wasm, const char *input,
                        const sp_cli_wasm_opts *o);

#endif
