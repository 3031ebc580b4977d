/*
 * The snarkpipe command-line tool: subcommands and exit codes.
 * Not part of the library; main.c dispatches to the functions below.
 */
#ifndef SP_CLI_CLI_H
#define SP_CLI_CLI_H

/* Exit codes of every subcommand (README.md, "Exit codes"). */
enum {
    SP_EXIT_OK = 0,      /* success */
    SP_EXIT_CHECK = 1,   /* a check failed: wrong known answer, proof does not verify */
    SP_EXIT_RUNTIME = 2, /* unreadable or malformed input, I/O, memory */
    SP_EXIT_USAGE = 64   /* unknown command or bad arguments (sysexits' EX_USAGE) */
};

/*
 * The tool of this build's curve (main.c): what main does in a one-curve
 * program. dispatch.c's main calls it, or the BN254 build's copy, renamed
 * sp_bn254_cli_main in the two-curve binary (ARCHITECTURE.md, "Curves").
 * On input: argc, argv as main gets them, --curve taken out; curves[0..n)
 *   the binary's curves (util/curves.h ids), for `version`, `help` and
 *   `info`.
 * Returns the exit code.
 */
int sp_cli_main(int argc, char **argv, const int *curves, int n_curves);

/* ---- the head of every command's argument loop (cmd_common.c) ---- */

/* What sp_cli_arg and sp_cli_files return besides an exit code. */
enum {
    SP_CLI_NEXT = -1, /* taken (a value too): go on with the next argument, or with the command */
    SP_CLI_OWN = -2   /* not a common option: the command's own option or argument */
};

/*
 * Looks at argv[*i] of a command (cmd names it in messages): a global
 * option (--threads N, --quiet, --json) is recorded, *i moving past its
 * value; --help / -h prints usage on stdout.
 * Returns SP_CLI_NEXT (a global option), SP_CLI_OWN (neither), or an exit
 * code to return at once: SP_EXIT_OK after --help, SP_EXIT_USAGE after a
 * bad global option value (message printed).
 */
int sp_cli_arg(const char *cmd, const char *usage, int argc, char **argv, int *i);

/*
 * The whole argument loop of a command that takes exactly n file
 * arguments and no options of its own: sp_cli_arg, then any other "-x" is
 * an unknown option, the rest go to pos[0..n).
 * Returns SP_CLI_NEXT when pos holds n arguments, else an exit code
 * (usage message printed unless --help).
 */
int sp_cli_files(const char *cmd, const char *usage, int argc, char **argv, char **pos, int n);

/* Each takes the arguments after its own name (argv[0] is the subcommand
 * name) and returns an exit code. */

/* `selftest [VECTORS]`: checks the arithmetic against built-in known
 * answers and bilinearity on fresh random scalars, and, when VECTORS is
 * given, every line of that known-answer file (tests/vectors/noble_bls12381.txt). */
int sp_cli_selftest(int argc, char **argv);

/* `bench field [FILTER...]` (cmd_bench_field.c; bench/bench_field runs it
 * too): argv[1..] select rows by substring. Prints the table; returns 0. */
int sp_cli_bench_field(int argc, char **argv);

#endif
