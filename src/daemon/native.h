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
 * The parameters are kept as given (a preset and the values that override
 * it) and resolved by the circuit layer's one parser
 * (sp_porep_params_from), so a configuration, a request and a state file
 * mean exactly what `snarkpipe prove --circuit porep-like` means with the
 * same options. (JSON's "params" already names a bellperson key file,
 * hence "native_params".)
 *
 * Libc, the circuit layer and util/json only.
 */
#ifndef SP_DAEMON_NATIVE_H
#define SP_DAEMON_NATIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "snarkpipe.h"
#include "circuit/porep.h"
#include "util/json.h"

#define SP_DMN_NATIVE_KINDS "porep-like"
#define SP_DMN_NATIVE_KEYS "preset, challenges, layers, nodes, drg_parents, exp_parents, label_parents"

typedef struct {
    char kind[16];          /* "" = a circuit of files (its jobs carry witnesses); "porep-like" */
    char preset[16];        /* "" = not given (porep-like's default, 2KiB) */
    sp_porep_overrides ov;  /* as given; SP_POREP_UNSET when not */
} sp_dmn_native;

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
 * decimal integer).
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
 * The circuit's parameters, resolved: a known kind, then the preset and
 * its overrides, checked (circuit/porep.h).
 * Returns SP_OK or SP_ERR_INVALID_ARG (an unknown kind, parameters without
 * a kind, parameters the circuit refuses), err saying which.
 */
sp_status sp_dmn_native_params(const sp_dmn_native *n, sp_porep_params *p, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Writes n as configuration lines (native = ..., preset = ..., ...);
 * nothing when n names no kind. */
void sp_dmn_native_print(FILE *f, const sp_dmn_native *n);

/* Writes the members "native" and "native_params" (only what was given),
 * the form sp_dmn_native_from_json reads back. */
void sp_dmn_native_json(sp_json_writer *w, const sp_dmn_native *n);

/* Writes the members describing an open circuit: "kind", "native_params"
 * (every resolved value) and "constraints". */
void sp_dmn_native_describe(sp_json_writer *w, const sp_porep *c);

/*
 * A job's inputs: arr the "inputs" member, an array of 1 or more objects
 * {"seed": S, "partition": P}: S a JSON integer from 0 to 2^64-1 or a
 * string of its decimal digits (for clients whose numbers are doubles), P
 * an integer from 0 to 2^32-1; no other member.
 * On output: *out n inputs (free() them) on success.
 * Returns 0, -1 with err naming the first bad item, -2 out of memory.
 */
int sp_dmn_native_inputs(sp_porep_input **out, size_t *n, const sp_json_val *arr, char err[SP_ERR_LEN]);

/* Writes inputs as the value of an "inputs" member (seeds as integers). */
void sp_dmn_native_inputs_json(sp_json_writer *w, const sp_porep_input *in, size_t n);

#endif
