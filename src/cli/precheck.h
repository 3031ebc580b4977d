/*
 * Checks of a command's arguments that cost milliseconds, made before any
 * key is loaded or proof computed, so that a mistake is reported at once
 * and names its likely cause: a file of the wrong kind (arguments swapped,
 * a JSON input where a witness belongs), the other curve's witness, a
 * witness of another size than the key's, an output that cannot be
 * written. Each reads headers only (a few KiB of any file, however large).
 * Every function prints its message on stderr ("snarkpipe CMD: ...") and
 * returns an exit code (SP_EXIT_OK when the check passed).
 */
#ifndef SP_CLI_PRECHECK_H
#define SP_CLI_PRECHECK_H

#include <stdint.h>
#include "cli/cmds.h"

/* One file argument of a command: where it is and what it must be. */
typedef struct {
    const char *path;
    sp_cli_file_kind want;
    const char *role; /* as the usage names it: "<circuit.zkey>" */
} sp_cli_arg_file;

/*
 * Checks that each f[k].path is a file of kind f[k].want (from its first
 * bytes, sp_cli_detect).
 * On input: order is the command's form ("prove <circuit.zkey>
 *   <witness.wtns> <proof.json> <public.json>"), quoted when two
 *   arguments look swapped or one is in another's place.
 * Returns SP_EXIT_OK, or SP_EXIT_RUNTIME after a message naming the file,
 *   what it is, what belongs there and, where one is likely, the cause
 *   (arguments swapped; circuit inputs where a witness belongs: how to
 *   make the witness; a circuit where a key belongs: how to make the key).
 */
int sp_cli_check_files(const char *cmd, const char *order, const sp_cli_arg_file *f, int n);

/* What a .zkey's header says. */
typedef struct {
    uint32_t n_vars, n_public, domain_size;
} sp_cli_key_head;

/*
 * Reads a .zkey's header and verifying-key sections only (its curve, the
 * section table against the file's size, the counts), with flags as
 * sp_zkey_read_vk takes them.
 * Returns SP_EXIT_OK (*h filled) or SP_EXIT_RUNTIME after the reader's message.
 */
int sp_cli_key_header(sp_cli_key_head *h, const char *cmd, const char *path, unsigned flags);

/*
 * Checks a .wtns's header against the key it is proved with: its curve
 * (the prime) is this build's and its value count is the key's n_vars;
 * its values section holds exactly that many values.
 * Returns SP_EXIT_OK or SP_EXIT_RUNTIME after a message naming both files.
 */
int sp_cli_check_witness(const char *cmd, const char *path, const char *key_path, uint32_t n_vars);

/*
 * Checks that path can be written as an output: its directory exists and
 * may be written, the path is not a directory, an existing file there may
 * be written, and it is none of the inputs[0..n) (NULL entries skipped).
 * Returns SP_EXIT_OK or SP_EXIT_RUNTIME after a message saying which.
 */
int sp_cli_check_output(const char *cmd, const char *path, const char *const *inputs, int n);

/*
 * Checks that public.json and proof.json are not given the other way
 * round (public signals are a JSON array, a snarkjs proof an object), from
 * their first bytes. A file that is neither is left to its reader.
 * Returns SP_EXIT_OK or SP_EXIT_RUNTIME after a message quoting order.
 */
int sp_cli_check_json_order(const char *cmd, const char *order, const char *public_path, const char *proof_path);

#endif
