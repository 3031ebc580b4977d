/*
 * The CLI's side of the key cache (groth16/keycache.h): where the cache
 * lives, loading a key through it, and `snarkpipe cache`.
 *
 * The directory, first found wins: --key-cache-dir DIR (prove, cache),
 * $SNARKPIPE_CACHE_DIR, $XDG_CACHE_HOME/snarkpipe (an absolute
 * XDG_CACHE_HOME only, as the XDG base directory rules say),
 * $HOME/.cache/snarkpipe, the password database's home/.cache/snarkpipe.
 * Its cap on the entries' bytes, first found wins: --key-cache-max SIZE,
 * $SNARKPIPE_CACHE_MAX, SP_KC_DEFAULT_MAX (util/bytes.h sizes: 4G, 512M);
 * 0 turns the cache off.
 */
#ifndef SP_CLI_CMD_CACHE_H
#define SP_CLI_CMD_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "groth16/keycache.h"
#include "groth16/keys.h"

/* Prove's options that concern the cache, and its help lines. */
typedef struct {
    int off;           /* --no-key-cache */
    const char *dir;   /* --key-cache-dir DIR, or NULL */
    const char *max;   /* --key-cache-max SIZE, or NULL */
} sp_cli_kc_opts;

#define SP_CLI_KC_USAGE                                                                         \
    "  --no-key-cache       read and check the key as if no cache existed (nothing read\n"      \
    "                       from or written to it)\n"                                           \
    "  --key-cache-dir DIR  the key cache's directory (default $SNARKPIPE_CACHE_DIR, else\n"    \
    "                       $XDG_CACHE_HOME/snarkpipe or ~/.cache/snarkpipe); a key checked\n"  \
    "                       once is kept there and its next load skips the checks\n"      \
    "  --key-cache-max SIZE the cache's cap (default $SNARKPIPE_CACHE_MAX, else 4G): the\n"    \
    "                       least recently used entries make room for a new one; 0: off\n"

/* Takes --no-key-cache / --key-cache-dir / --key-cache-max at argv[*i]: 1
 * (taken, *i moved past a value), 0 (not ours), -1 (value missing or not
 * a size; message printed). */
int sp_cli_kc_opt(sp_cli_kc_opts *o, const char *cmd, int argc, char **argv, int *i);

/* The cache directory (order above) into out; 0, or -1 when none can be
 * found (no HOME and no password entry). */
int sp_cli_kc_dir(char *out, size_t n, const char *opt_dir);

/* The cache's cap (order above) into *out (0: off); 0, or -1 after a
 * message naming cmd when the value is not a size. */
int sp_cli_kc_max(uint64_t *out, const char *cmd, const sp_cli_kc_opts *o);

/*
 * Reads a proving key (a .zkey, or a .params with its densities) through
 * the cache unless it is off, printing the cache's warning, if any, as one
 * line on stderr ("snarkpipe CMD: key cache: ..."), and, unless --quiet,
 * one line when an entry was written (its size, where, how to turn the
 * cache off).
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
