/*
 * Native circuits in the daemon: what names one (a kind and its
 * parameters) and what a job of one carries (one input per partition),
 * in each form they arrive or are kept in:
 *
 *   [circuit.ID] native = porep-like, preset = 2KiB, nodes = 4, ...
 *   multipart upload fields      native, preset, nodes, ...   (text)
 *   POST /v1/circuits JSON       "native": "porep-like",
 *                                "native_params": {"preset": "2KiB", "nodes": 4, ...}
 *   state_dir/circuits/<id>.json the same two members, as given
 *   POST /v1/jobs JSON           "inputs": [{"seed": S, "partition": P}, ...]
 *   state_dir/jobs/<id>.job      the same member in the header line
 *
 * The kinds (porep-like, window-post-like) are described once, in a table
 * in native.c: each kind's name and the parameters it takes. What the
 * circuit layer does with them (its one parser, sp_porep_params_from or
 * sp_post_params_from, and how the circuit opens and describes itself)
 * is the curve's: one sp_dmn_native_ops per kind, in the curve's table
 * (daemon/ops.h), given to sp_dmn_native_check and sp_dmn_native_open.
 * The parameters are kept as
 * given (a preset and the values that override it), so a configuration,
 * a request and a state file mean exactly what `snarkpipe prove --circuit
 * KIND` means with the same options. (JSON's "params" already names a
 * bellperson key file, hence "native_params".) Every kind's input is a
 * seed and a partition number (sp_dmn_native_input).
 *
 * Libc and util/json only: curve-neutral.
 */
#ifndef SP_DAEMON_NATIVE_H
#define SP_DAEMON_NATIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "snarkpipe.h"
#include "synth/ops.h"
#include "util/json.h"

#define SP_DMN_NATIVE_KINDS "porep-like, window-post-like"
/* Every parameter name of any kind (each kind takes some of them). */
#define SP_DMN_NATIVE_KEYS "preset, challenges, layers, nodes, drg_parents, exp_parents, label_parents, sectors"
#define SP_DMN_NATIVE_N_PARAMS 7 /* SP_DMN_NATIVE_KEYS after preset */
/* The parameters' indices in sp_dmn_native.v, in SP_DMN_NATIVE_KEYS' order. */
enum { SP_DMN_P_CHALLENGES, SP_DMN_P_LAYERS, SP_DMN_P_NODES, SP_DMN_P_DRG, SP_DMN_P_EXP, SP_DMN_P_LABEL,
       SP_DMN_P_SECTORS };
/* The kinds' indices, in SP_DMN_NATIVE_KINDS' order. */
enum { SP_DMN_NATIVE_POREP, SP_DMN_NATIVE_POST, SP_DMN_NATIVE_N_KINDS };
#define SP_DMN_NATIVE_UNSET UINT64_MAX /* a parameter not given (the circuit layer's SP_POREP_UNSET) */

typedef struct {
    char kind[24];   /* "" = a circuit of files (its jobs carry witnesses); else one of SP_DMN_NATIVE_KINDS */
    char preset[16]; /* "" = not given (the kind's default, 2KiB) */
    uint64_t v[SP_DMN_NATIVE_N_PARAMS]; /* in SP_DMN_NATIVE_KEYS' order; SP_DMN_NATIVE_UNSET when not given */
} sp_dmn_native;

/* One partition's input, whatever the kind (the circuit layer's sp_dmn_native_input). */
typedef struct {
    uint64_t seed;
    uint32_t partition;
} sp_dmn_native_input;

/* An open circuit's sizes. */
typedef struct {
    uint64_t n_vars, n_public, n_rows;
} sp_dmn_native_shape;

/* What a curve's circuit layer does for one kind (daemon/ops.h). */
typedef struct {
    /* n's parameters resolved by the kind's parser (its kind and the
     * parameters it takes already checked). */
    sp_status (*check)(const sp_dmn_native *n, char err[SP_ERR_LEN]);
    /* The same, then its circuit opened (nothing generated yet). */
    sp_status (*open)(void **circ, const sp_native_circuit **nc, sp_dmn_native_shape *shape, const sp_dmn_native *n,
                      char err[SP_ERR_LEN]);
    void (*close)(void *circ);
    /* the resolved values of the parameters it takes (v by SP_DMN_P_...); returns the preset */
    const char *(*values)(const void *circ, uint64_t v[SP_DMN_NATIVE_N_PARAMS]);
    void (*ident)(char *out, size_t len, const void *circ);
} sp_dmn_native_ops;

/* On output: *n names no native circuit and no parameter. */
void sp_dmn_native_init(sp_dmn_native *n);

/* 1 when n names a native kind. */
int sp_dmn_native_on(const sp_dmn_native *n);

/* 1 when n names a kind or gives any parameter. */
int sp_dmn_native_given(const sp_dmn_native *n);

/* 1 when a and b name the same circuit as given (SIGHUP compares sections). */
int sp_dmn_native_equal(const sp_dmn_native *a, const sp_dmn_native *b);

/*
 * One setting from text (a configuration line, a multipart field): key
 * "native" (the kind) or one of SP_DMN_NATIVE_KEYS (a preset name, or a
 * decimal integer). Whether the kind takes the parameter is checked when
 * the whole is resolved (sp_dmn_native_check), so the order of lines does
 * not matter.
 * Returns 1 when set, 0 when key is none of these (nothing changed), -1
 * when the value is bad (err says which).
 */
int sp_dmn_native_set(sp_dmn_native *n, const char *key, const char *value, char err[SP_ERR_LEN]);

/*
 * From JSON (a request, a state file): kind the "native" member and params
 * the "native_params" member, each NULL when absent. Returns 0, or -1
 * with err when one is of the wrong type, a parameter is unknown or not
 * a non-negative integer (the preset: a string).
 */
int sp_dmn_native_from_json(sp_dmn_native *n, const sp_json_val *kind, const sp_json_val *params, char err[SP_ERR_LEN]);

/*
 * Checks that n resolves: a known kind, only parameters that kind takes,
 * then the preset and its overrides as the circuit layer checks them.
 * Returns SP_OK or SP_ERR_INVALID_ARG (an unknown kind, parameters without
 * a kind or of another kind, parameters the circuit refuses), err saying
 * which.
 */
sp_status sp_dmn_native_check(const sp_dmn_native *n, const sp_dmn_native_ops *kinds,
                              char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Writes n as configuration lines (native = ..., preset = ..., ...);
 * nothing when n names no kind. */
void sp_dmn_native_print(FILE *f, const sp_dmn_native *n);

/* Writes the members "native" and "native_params" (only what was given),
 * the form sp_dmn_native_from_json reads back. */
void sp_dmn_native_json(sp_json_writer *w, const sp_dmn_native *n);

/* ---- an open native circuit, of any kind ---- */

typedef struct sp_dmn_native_circ sp_dmn_native_circ;

/*
 * Resolves n (as sp_dmn_native_check) and opens its circuit (its sizes
 * counted; nothing generated yet), with kinds, the curve's entries
 * (sp_dmn_ops.native).
 * On output: *out (sp_dmn_native_close) on success, NULL otherwise.
 * Returns SP_OK, SP_ERR_INVALID_ARG (as sp_dmn_native_check), or the
 *   circuit's own failure (SP_ERR_UNSUPPORTED outside a BLS12-381 build,
 *   SP_ERR_NOMEM), err saying which.
 */
sp_status sp_dmn_native_open(sp_dmn_native_circ **out, const sp_dmn_native *n, const sp_dmn_native_ops *kinds,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_dmn_native_close(sp_dmn_native_circ *c);

/* What the engine runs (sp_engine_register_native); its inputs are
 * sp_dmn_native_input, whatever the kind. */
const sp_native_circuit *sp_dmn_native_nc(const sp_dmn_native_circ *c);
sp_dmn_native_shape sp_dmn_native_shape_of(const sp_dmn_native_circ *c);

/* The kind's name ("porep-like") and the resolved preset ("2KiB", "2KiB*"). */
const char *sp_dmn_native_kind(const sp_dmn_native_circ *c);
const char *sp_dmn_native_preset(const sp_dmn_native_circ *c);

/* Writes the members describing c: "kind", "native_params" (every
 * resolved value the kind takes, and the preset) and "constraints". */
void sp_dmn_native_describe(sp_json_writer *w, const sp_dmn_native_circ *c);

/* The kind and its resolved shape as one line of text, into out[len]:
 * what names the circuit's shape across hosts (the farm digests it). */
void sp_dmn_native_ident(char *out, size_t len, const sp_dmn_native_circ *c);

/* ---- job inputs ---- */

/*
 * A job's inputs: arr the "inputs" member, an array of 1 or more objects
 * {"seed": S, "partition": P}: S a JSON integer from 0 to 2^64-1 or a
 * string of its decimal digits (for clients whose numbers are doubles), P
 * an integer from 0 to 2^32-1; no other member.
 * On output: *out n inputs (free() them) on success.
 * Returns 0, -1 with err naming the first bad item, -2 out of memory.
 */
int sp_dmn_native_inputs(sp_dmn_native_input **out, size_t *n, const sp_json_val *arr, char err[SP_ERR_LEN]);

/* Writes inputs as the value of an "inputs" member (seeds as integers). */
void sp_dmn_native_inputs_json(sp_json_writer *w, const sp_dmn_native_input *in, size_t n);

#endif
