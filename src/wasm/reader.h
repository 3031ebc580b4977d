/* Internal to src/wasm/: the bounded byte reader of the binary format,
 * shared by the loader (load.c) and the code validator (compile.c), below
 * both (reader.c). */
#ifndef SP_WASM_READER_H
#define SP_WASM_READER_H

#include <stdint.h>
#include "snarkpipe.h"

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

#endif
