/*
 * Known-answer checks: reads a vector file in the line format written by
 * tools/noble/gen.mjs (tests/vectors/noble_bls12381.txt or, in a BN254
 * build, noble_bn254.txt: answers computed by @noble/curves) and recomputes
 * every line with snarkpipe's field, curve and pairing code, comparing byte
 * for byte.
 *
 * Used by `snarkpipe selftest` and by tests/test_noble.c. Every line must
 * be understood: an unknown kind, a wrong field count or a malformed value
 * counts as a bad line, never as a skip.
 */
#ifndef SP_CLI_KAT_H
#define SP_CLI_KAT_H

#include <stdio.h>

/* The checker's line buffer: a line of SP_KAT_LINE_MAX - 1 bytes or more,
 * newline included, is a bad line. */
#define SP_KAT_LINE_MAX 4096

/* One row per vector kind, in the order of the file format description. */
#define SP_KAT_KINDS 26

typedef struct {
    unsigned long checked[SP_KAT_KINDS]; /* vectors of each kind read */
    unsigned long failed[SP_KAT_KINDS];  /* of which gave a different answer */
    unsigned long lines;                 /* lines read, comments included */
    unsigned long bad_lines;             /* unknown kind, wrong arity, bad value, too long */
} sp_kat_report;

/* Returns the name of kind i < SP_KAT_KINDS ("fp_mul", "g1_mul", ...). */
const char *sp_kat_kind_name(int i);

/*
 * On input: f is open for reading; log receives one line per failure or
 * bad line ("<name>:<line>: ..."), or is NULL for silence; name labels
 * those messages.
 * On output: *rep counts the vectors of each kind and the failures.
 * Returns the number of failed vectors plus bad lines (0: all passed).
 */
unsigned long sp_kat_check_file(sp_kat_report *rep, FILE *f, const char *name, FILE *log);

#endif
