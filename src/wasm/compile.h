/* Internal to src/wasm/: the code validator and translator (compile.c,
 * regify.c). */
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

/* The stack form validation writes: op; a (index, offset, target pc, or
 * for the folded AFF_ ops the instructions covered); b (constant, branch
 * destination height | arity << 32); h, the operand stack's height
 * (beyond the locals) after the instruction's operands were popped and
 * before its result is pushed; dead, 1 when validation found it
 * unreachable (after a branch, return or unreachable in its block). */
typedef struct {
    uint32_t op, a;
    uint64_t b;
    uint32_t h;
    uint32_t dead;
} w_sins;

/*
 * Translates f's validated stack code s[0..n) into the register form
 * (internal.h) in f->code, f->n_code, rewriting the br_table entries in
 * f->targets (pcs of s on input). target[i] is 1 where a branch lands.
 * f->n_locals and f->max_height frame the slots.
 * Returns 1, or 0 with the failure in r (out of memory, a slot outside
 * the frame).
 */
int sp_wasm_regify(sp_wasm_rd *r, const sp_wasm_module *m, w_func *f, const w_sins *s, uint32_t n,
                   const uint8_t *target);

#endif
