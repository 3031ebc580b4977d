/*
 * The engine's commands of the snarkpipe tool (waterfall, bench pipeline)
 * and what they share: engine options from a table, and the circuit a run
 * proves (a built-in generated one with a development setup, or files).
 * Not part of the library.
 */
#ifndef SP_CLI_CMD_ENGINE_H
#define SP_CLI_CMD_ENGINE_H

#include <stdint.h>
#include <stdio.h>
#include "circuit/porep.h"
#include "circuit/post.h"
#include "engine/engine.h"
#include "groth16/backend.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"

/* waterfall <timeline-file|-> [--svg out.svg] */
int sp_cli_waterfall(int argc, char **argv);
/* bench pipeline [options]; argv[0] is "pipeline" */
int sp_cli_bench_pipeline(int argc, char **argv);

/*
 * Applies "key=value" to cfg (keys: sp_cli_engine_keys_help). String
 * values (backends) point into kv, which must outlive cfg's use.
 * Returns 0, or -1 with a message in err.
 */
int sp_cli_engine_set(sp_engine_config *cfg, const char *kv, char *err, size_t err_len);

/* Prints the keys sp_cli_engine_set accepts, one per line with its meaning. */
void sp_cli_engine_keys_help(FILE *f);

/* Writes cfg as "key=value" pairs, space-separated (for the bench's log). */
void sp_cli_engine_describe(FILE *f, const sp_engine_config *cfg);

/* The circuit and one witness that a run proves, or a native circuit
 * (nat set, porep or post its owner: jobs carry an sp_porep_input, no
 * witness). */
typedef struct {
    sp_g16_pk pk;
    sp_r1cs cs;
    int have_cs;
    sp_fr *w;
    size_t w_len;
    sp_porep *porep;
    sp_post *post;
    const sp_native_circuit *nat;
    char what[128]; /* for the report: "built-in 2^12 constraints", file names */
} sp_cli_circuit;

/*
 * Built-in: a generated circuit of n constraints (sp_gen_circuit, half of
 * the witness values 0 or 1, seed 1) and its development setup (snarkjs
 * convention). Files: zkey (or a bellperson .params, which needs r1cs),
 * optional r1cs, wtns; flags as for sp_zkey_read (SP_G16_SKIP_SUBGROUP_CHECK
 * for a trusted key). Returns SP_OK or a status with err.
 */
sp_status sp_cli_circuit_builtin(sp_cli_circuit *c, uint64_t n, int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_cli_circuit_files(sp_cli_circuit *c, const char *key, const char *r1cs, const char *wtns, unsigned flags,
                               int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/*
 * Native: the porep-like circuit of p, with the key read from `key` (a
 * .zkey made for it, e.g. by setup on gen-circuit's .r1cs) or, when key is
 * NULL, a development setup made here (the matrices recorded, the key's
 * points on `be` when not NULL: a GPU) and kept in memory only.
 */
sp_status sp_cli_circuit_porep(sp_cli_circuit *c, const sp_porep_params *p, const char *key, unsigned flags,
                               sp_backend *be, int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* The same for the window-post-like circuit of p. */
sp_status sp_cli_circuit_post(sp_cli_circuit *c, const sp_post_params *p, const char *key, unsigned flags,
                              sp_backend *be, int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_cli_circuit_free(sp_cli_circuit *c);

#endif
