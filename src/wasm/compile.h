/* Internal to src/wasm/: the byte reader shared by the loader and the code
 * validator, and the validator itself (compile.c). */
#ifndef SP_WASM_COMPILE_H
#define SP_WASM_COMPILE_H

#include <stdint.h>
#include "wasm/internal.h"

/* A bounded reader: fails (status and message, naming the byte offset
 * from base) instead of reading past end. */
typedef struct {
    const uint8_t *base, *p, *end;
    sp_status st;
    char *err; /* SP_ERR_LEN bytes */
} sp_wasm_rd;

/* Each returns 1, or 0 after recording the failure in r. */
int sp_wasm_rd_fail(sp_wasm_rd *r, sp_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int sp_wasm_rd_u8(sp_wasm_rd *r, uint8_t *v);
int sp_wasm_rd_u32(sp_wasm_rd *r, uint32_t *v);
int sp_wasm_rd_s32(sp_wasm_rd *r, int32_t *v);
int sp_wasm_rd_s33(sp_wasm_rd *r, int64_t *v);
int sp_wasm_rd_s64(sp_wasm_rd *r, int64_t *v);

/*
 * Validates the body of function fidx (r spans exactly its bytes) and
 * translates it into m->funcs[fidx].code: every operand typed, every
 * index in range, branch targets and stack heights resolved.
 * Returns 1, or 0 with the failure in r.
 */
int sp_wasm_compile(sp_wasm_rd *r, sp_wasm_module *m, uint32_t fidx);

#endif
