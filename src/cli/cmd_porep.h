/*
 * The options of the native circuits (porep-like, window-post-like) every
 * command that runs them takes (gen-circuit, prove, bench pipeline): one
 * parser, one meaning.
 *   --preset NAME  --challenges N  --layers L  --nodes N (2^k allowed)
 *   --drg-parents K  --exp-parents K  --label-parents K  --seed S  --partition P
 */
#ifndef SP_CLI_CMD_POREP_H
#define SP_CLI_CMD_POREP_H

#include <stdint.h>
#include "circuit/porep.h"
#include "circuit/post.h"

#define SP_CLI_POREP_USAGE                                                                              \
    "  --preset NAME        porep-like: tiny, 2KiB, 8MiB, 512MiB, 32GiB or 64GiB (default 2KiB); the\n" \
    "                       options below override it\n"                                              \
    "  --challenges N --layers L --nodes N --drg-parents K --exp-parents K --label-parents K\n"       \
    "                       the circuit's shape (--nodes: 32-byte nodes, a power of two; the\n"       \
    "                       trees follow: levels of arity 8, the last of 2 or 4 as needed)\n"         \
    "  --seed S --partition P  which instance (sector S, default 1; partition P, default 0)\n"       \
    "  window-post-like: --preset NAME (the same sizes), --sectors N --challenges N --nodes N\n"       \
    "                       its shape (sectors per partition, challenges per sector), --seed S\n"      \
    "                       --partition P which instance (partition P's sectors of seed S)\n"

typedef struct {
    const char *preset;
    /* UINT64_MAX: not given */
    uint64_t challenges, layers, nodes, drg, exp, label_parents, seed, partition, sectors;
} sp_cli_porep_opts;

void sp_cli_porep_init(sp_cli_porep_opts *o);

/*
 * If argv[*i] is one of the options above, records it (advancing *i past
 * its value) and returns 1; returns 0 when it is not one; -1 after a usage
 * message when its value is bad (*rc then holds the exit code).
 */
int sp_cli_porep_opt(sp_cli_porep_opts *o, int argc, char **argv, int *i, const char *cmd, const char *usage,
                     int *rc);

/* The preset, then the overrides, checked. Returns SP_CLI_NEXT, or an
 * exit code after a message. */
int sp_cli_porep_params(sp_porep_params *p, const sp_cli_porep_opts *o, const char *cmd, const char *usage);

/* The same for window-post-like (--sectors, --challenges, --nodes; the
 * porep-like shape options refused). */
int sp_cli_post_params(sp_post_params *p, const sp_cli_porep_opts *o, const char *cmd, const char *usage);

/* The input the options name (seed default 1, partition default 0). */
sp_porep_input sp_cli_porep_input(const sp_cli_porep_opts *o);

#endif
