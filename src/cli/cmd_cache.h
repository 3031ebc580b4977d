/*
 * The CLI's side of the key cache (groth16/keycache.h): where the cache
 * lives, loading a key through it, and `snarkpipe cache`.
 *
 * The directory, first found wins: --key-cache-dir DIR (prove, cache),
 * $SNARKPIPE_CACHE_DIR, $XDG_CACHE_HOME/snarkpipe (an absolute
 * XDG_CACHE_HOME only, as the XDG base directory rules say),
 * $HOME/.cache/snarkpipe, the password database's home/.cache/snarkpipe.
 */
#ifndef SP_CLI_CMD_CACHE_H
#define SP_CLI_CMD_CACHE_H

#include <stddef.h>
#include "groth16/keycache.h"
#include "groth16/keys.h"

/* Prove's options that concern the cache, and its help lines. */
typedef struct {
    int off;           /* --no-key-cache */
    const char *dir;   /* --key-cache-dir DIR, or NULL */
} sp_cli_kc_opts;

#define SP_CLI_KC_USAGE                                                                         \
    "  --no-key-cache       read and check the key as if no cache existed (nothing read\n"      \
    "                       from or written to it)\n"                                           \
    "  --key-cache-dir DIR  the key cache's directory (default $SNARKPIPE_CACHE_DIR, else\n"    \
    "                       $XDG_CACHE_HOME/snarkpipe or ~/.cache/snarkpipe); a key checked\n"  \
    "                       once is kept there and its next load skips the checks\n"

/* Takes --no-key-cache / --key-cache-dir at argv[*i]: 1 (taken, *i moved
 * past a value), 0 (not ours), -1 (value missing; message printed). */
int sp_cli_kc_opt(sp_cli_kc_opts *o, const char *cmd, int argc, char **argv, int *i);

/* The cache directory (order above) into out; 0, or -1 when none can be
 * found (no HOME and no password entry). */
int sp_cli_kc_dir(char *out, size_t n, const char *opt_dir);

/*
 * Reads a proving key (a .zkey, or a .params with its densities) through
 * the cache unless o->off, printing the cache's warning, if any, as one
 * line on stderr ("snarkpipe CMD: key cache: ...").
 * On output: *pk as sp_zkey_read / sp_bp_params_read make it; *rep says
 *   what the cache did (outcome 0 when the cache was off or had no
 *   directory).
 * Returns the reader's status; err as the readers fill it.
 */
sp_status sp_cli_kc_read(sp_g16_pk *pk, sp_kc_report *rep, const sp_cli_kc_opts *o, const char *cmd,
                         sp_kc_kind kind, const char *path, const sp_g16_density *density, unsigned flags,
                         int threads, char err[SP_ERR_LEN]);

/* `cache list|clear|dir [--key-cache-dir DIR]`. */
int sp_cli_cache(int argc, char **argv);

#endif
