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

/* Each takes the arguments after its own name (argv[0] is the subcommand
 * name) and returns an exit code. */

/* `selftest [VECTORS]`: checks the arithmetic against built-in known
 * answers and bilinearity on fresh random scalars, and, when VECTORS is
 * given, every line of that known-answer file (tests/vectors/noble_bls12381.txt). */
int sp_cli_selftest(int argc, char **argv);

/* `bench field [FILTER...]`: defined in bench/field.c (linked into the CLI);
 * argv[1..] select rows by substring. */
int sp_bench_field(int argc, char **argv);

#endif
