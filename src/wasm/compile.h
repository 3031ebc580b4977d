/* Internal to src/wasm/: the code validator and translator (compile.c). */
#ifndef SP_WASM_COMPILE_H
#define SP_WASM_COMPILE_H

#include <stdint.h>
#include "wasm/internal.h"
#include "wasm/reader.h"

/*
 * Validates the body of function fidx (r spans exactly its bytes) and
 * translates it into m->funcs[fidx].code: every operand typed, every
 * index in range, branch targets and stack heights resolved.
 * Returns 1, or 0 with the failure in r.
 */
int sp_wasm_compile(sp_wasm_rd *r, sp_wasm_module *m, uint32_t fidx);

/* Frees the code of every function compiled into m and m's scratch. */
void sp_wasm_code_free(sp_wasm_module *m);

#endif
