/*
 * A WebAssembly interpreter for the modules circom compiles its witness
 * generators to (docs/wasm.md). The module is untrusted: it is validated
 * in full when loaded (types, indices, bounds, the operand stack of every
 * instruction), and when run it reaches nothing but its own linear memory,
 * its table, its globals and the host functions the embedder gives for its
 * imports. Every failure (a malformed module, a trap, a limit) comes back
 * as a status and a message; nothing in a module can crash the process.
 *
 * The subset: WebAssembly 1.0 with i32 and i64 values (no floats, which
 * circom never emits), sign-extension operators, one memory, one funcref
 * table. A module using anything else is refused at load, naming it.
 *
 * Values cross the API as uint64_t: an i32 in the low 32 bits.
 */
#ifndef SP_WASM_WASM_H
#define SP_WASM_WASM_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"

typedef struct sp_wasm_module sp_wasm_module;
typedef struct sp_wasm_inst sp_wasm_inst;

/* Limits for loading and running; sp_wasm_limits_default() fills them. */
typedef struct {
    uint32_t max_pages;     /* linear memory, 64 KiB pages (at most 65536) */
    uint32_t max_functions; /* defined functions */
    uint32_t max_locals;    /* per function, parameters included */
    uint32_t max_call_depth;
    uint64_t max_stack;     /* value-stack slots across all frames */
    double max_seconds;     /* wall clock per call into the module; 0 = none */
} sp_wasm_limits;

sp_wasm_limits sp_wasm_limits_default(void);

/* A host function for an import: args[0..n_params), the result (if any) in
 * *ret. Returns 0, or nonzero to trap (the message then set with
 * sp_wasm_trap). */
typedef int (*sp_wasm_host_fn)(sp_wasm_inst *in, void *ctx, const uint64_t *args, uint64_t *ret);

/* Native replacements of module functions found by name (the name
 * section), with their expected signature; see sp_wasm_module_load. A
 * native may return SP_WASM_DECLINE instead, for cases it leaves to the
 * module: the module's own function then runs. */
#define SP_WASM_DECLINE 2
typedef struct {
    const char *name;
    const char *sig;     /* "iii:" = (i32,i32,i32)->(); "ii:i"; 'l' for i64 */
    sp_wasm_host_fn fn;
} sp_wasm_native;

/*
 * Parses and validates a module.
 * On input: bytes[0..len); natives[0..n_natives) (may be empty): a
 *   defined function whose name in the custom "name" section is one of
 *   them and whose type is its sig is run by the native function instead
 *   whenever the instance's natives are enabled (sp_wasm_enable_natives);
 *   the embedder guarantees that the native does what the module's
 *   function does. lim may be NULL for the defaults.
 * On output: *m is a new module (sp_wasm_module_free) on success, NULL
 *   otherwise, with err saying what is wrong and at which byte.
 * Returns SP_OK, SP_ERR_FORMAT (malformed or invalid), SP_ERR_UNSUPPORTED
 *   (valid WebAssembly outside the subset), SP_ERR_NOMEM.
 */
sp_status sp_wasm_module_load(sp_wasm_module **m, const uint8_t *bytes, size_t len, const sp_wasm_native *natives,
                              size_t n_natives, const sp_wasm_limits *lim, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_wasm_module_free(sp_wasm_module *m);

/* The module's imports, in order: module and field names of import i
 * (functions only: the subset imports nothing else). */
size_t sp_wasm_import_count(const sp_wasm_module *m);
void sp_wasm_import_name(const sp_wasm_module *m, size_t i, const char **module, const char **field);
/* The signature of import i in sp_wasm_native's notation, into sig[16]. */
void sp_wasm_import_sig(const sp_wasm_module *m, size_t i, char sig[16]);

/*
 * Instantiates m: memory, globals, table, data, the start function.
 * On input: hosts[i] serves import i (every import needs one), ctx is
 *   passed to them and to the natives.
 * Returns SP_OK (*in set; sp_wasm_inst_free), SP_ERR_FORMAT (a segment out
 *   of bounds, a trap in the start function), SP_ERR_NOMEM.
 */
sp_status sp_wasm_instantiate(sp_wasm_inst **in, const sp_wasm_module *m, const sp_wasm_host_fn *hosts, void *ctx,
                              char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_wasm_inst_free(sp_wasm_inst *in);

/* Turns the module's natives on or off for this instance (off at first). */
void sp_wasm_enable_natives(sp_wasm_inst *in, int on);

/* Index of the exported function `name` with signature sig, or -1
 * (absent, or of another type). */
int sp_wasm_export_func(const sp_wasm_module *m, const char *name, const char *sig);

/* Index of the function named `name` in the module's name section, or -1. */
int sp_wasm_func_by_name(const sp_wasm_module *m, const char *name);

/*
 * Calls function fidx (from sp_wasm_export_func) with args; its result, if
 * any, in *ret.
 * Returns SP_OK, or SP_ERR_FORMAT after a trap or a limit, with err saying
 *   which (a host function's own message when it trapped).
 */
sp_status sp_wasm_call(sp_wasm_inst *in, int fidx, const uint64_t *args, uint64_t *ret,
                       char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The instance's linear memory now (moves when the module grows it). */
uint8_t *sp_wasm_memory(sp_wasm_inst *in, size_t *len);

/* For host functions: sets the trap message (printf format). Returns 1. */
int sp_wasm_trap(sp_wasm_inst *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
