/* Internal to src/wasm/: the module after validation, the instruction
 * form the interpreter runs, and the instance. */
#ifndef SP_WASM_INTERNAL_H
#define SP_WASM_INTERNAL_H

#include <stdint.h>
#include "wasm/wasm.h"

#define W_I32 0x7f
#define W_I64 0x7e
#define W_MAX_PARAMS 64
#define W_PAGE 65536u

/* A call of native k < W_CALLN is CALLN_k, whose handler is a copy of
 * CALL_NATIVE's with k fixed: each native's call then has an indirect
 * call site of its own, which the processor predicts, where one shared
 * site changes target from call to call (natives past W_CALLN take
 * CALL_NATIVE). */
#define W_CALLN 24
#define W_CALLN_OPS(X) \
    X(CALLN_0) X(CALLN_1) X(CALLN_2) X(CALLN_3) X(CALLN_4) X(CALLN_5) X(CALLN_6) X(CALLN_7) \
    X(CALLN_8) X(CALLN_9) X(CALLN_10) X(CALLN_11) X(CALLN_12) X(CALLN_13) X(CALLN_14) X(CALLN_15) \
    X(CALLN_16) X(CALLN_17) X(CALLN_18) X(CALLN_19) X(CALLN_20) X(CALLN_21) X(CALLN_22) X(CALLN_23)

/* The operations of the internal form: one per WebAssembly operator of
 * the subset, plus the control forms with their targets resolved. */
#define W_OPS(X) \
    X(UNREACHABLE) X(NOP) X(LOOP) X(BR) X(BR_IF) X(BR_UNLESS) X(JMP) X(BR_TABLE) X(RETURN) \
    X(CALL) X(CALL_NATIVE) W_CALLN_OPS(X) X(CALL_INDIRECT) X(DROP) X(SELECT) \
    X(LOCAL_GET) X(LOCAL_SET) X(LOCAL_TEE) X(GLOBAL_GET) X(GLOBAL_SET) \
    X(I32_LOAD) X(I64_LOAD) X(I32_LOAD8_S) X(I32_LOAD8_U) X(I32_LOAD16_S) X(I32_LOAD16_U) \
    X(I64_LOAD8_S) X(I64_LOAD8_U) X(I64_LOAD16_S) X(I64_LOAD16_U) X(I64_LOAD32_S) X(I64_LOAD32_U) \
    X(I32_STORE) X(I64_STORE) X(I32_STORE8) X(I32_STORE16) X(I64_STORE8) X(I64_STORE16) X(I64_STORE32) \
    X(MEM_SIZE) X(MEM_GROW) X(CONST) \
    X(I32_EQZ) X(I32_EQ) X(I32_NE) X(I32_LT_S) X(I32_LT_U) X(I32_GT_S) X(I32_GT_U) X(I32_LE_S) X(I32_LE_U) \
    X(I32_GE_S) X(I32_GE_U) \
    X(I64_EQZ) X(I64_EQ) X(I64_NE) X(I64_LT_S) X(I64_LT_U) X(I64_GT_S) X(I64_GT_U) X(I64_LE_S) X(I64_LE_U) \
    X(I64_GE_S) X(I64_GE_U) \
    X(I32_CLZ) X(I32_CTZ) X(I32_POPCNT) X(I32_ADD) X(I32_SUB) X(I32_MUL) X(I32_DIV_S) X(I32_DIV_U) \
    X(I32_REM_S) X(I32_REM_U) X(I32_AND) X(I32_OR) X(I32_XOR) X(I32_SHL) X(I32_SHR_S) X(I32_SHR_U) \
    X(I32_ROTL) X(I32_ROTR) \
    X(I64_CLZ) X(I64_CTZ) X(I64_POPCNT) X(I64_ADD) X(I64_SUB) X(I64_MUL) X(I64_DIV_S) X(I64_DIV_U) \
    X(I64_REM_S) X(I64_REM_U) X(I64_AND) X(I64_OR) X(I64_XOR) X(I64_SHL) X(I64_SHR_S) X(I64_SHR_U) \
    X(I64_ROTL) X(I64_ROTR) \
    X(I32_WRAP_I64) X(I64_EXTEND_I32_S) X(I64_EXTEND_I32_U) \
    X(I32_EXTEND8_S) X(I32_EXTEND16_S) X(I64_EXTEND8_S) X(I64_EXTEND16_S) X(I64_EXTEND32_S) \
    X(LGET_CONST_ADD32) X(LGET_LGET) X(LGET_LOAD32) X(LGET_LOAD8U) \
    X(CONST_ADD32) X(CONST_MUL32) X(CONST_AND32) X(CONST_CONST) X(LGET_ADD32) \
    X(AFF_CONST) X(AFF_PUSHL) X(AFF_PUSHL2) X(AFF_TOP) X(AFF_TOPL)

enum {
#define W_ENUM(n) W_OP_##n,
    W_OPS(W_ENUM)
#undef W_ENUM
    W_N_OPS
};

/* One instruction: op, a (index, offset, target pc), b (constant,
 * branch height | arity << 32, second index). */
typedef struct {
    uint32_t op;
    uint32_t a;
    uint64_t b;
} w_ins;

typedef struct {
    uint8_t n_params, n_results;
    uint8_t params[W_MAX_PARAMS];
    uint8_t result;
    uint32_t canon; /* the first type index with the same signature */
} w_type;

typedef struct {
    uint32_t type;
    uint32_t n_locals;   /* parameters included */
    uint32_t max_height; /* operand stack, beyond the locals */
    w_ins *code;         /* NULL for an import */
    uint32_t n_code;
    uint32_t *targets;   /* br_table entries: pc, height, arity */
    int native;          /* index into the module's natives, or -1 */
    char *name;          /* from the name section, or NULL */
} w_func;

typedef struct {
    uint8_t type, mut;
    uint64_t init;
} w_global;

typedef struct {
    uint32_t offset;
    const uint8_t *bytes;
    uint32_t len;
} w_data;

typedef struct {
    char *name;
    uint32_t kind, index;
} w_export;

/* A block of translated code (compile.c): the functions' w_ins back to
 * back after this header. */
typedef struct w_chunk {
    struct w_chunk *next;
    uint32_t used, cap; /* instructions */
} w_chunk;

struct sp_wasm_module {
    sp_wasm_limits lim;
    uint8_t *bytes; /* a copy: data segments point into it */
    w_type *types;
    uint32_t n_types;
    w_func *funcs;
    uint32_t n_funcs, n_imports;
    char **imp_module, **imp_field;
    w_global *globals;
    uint32_t n_globals;
    int has_memory, has_table;
    uint32_t mem_min, mem_max; /* pages; mem_max already capped by the limits */
    uint32_t table_size;
    uint32_t *table_init;      /* function index + 1 per slot, 0 = null */
    w_data *data;
    uint32_t n_data;
    w_export *exports;
    uint32_t n_exports;
    int64_t start;             /* -1 = none */
    sp_wasm_native *natives;
    size_t n_natives;
    w_chunk *code_mem;         /* where every function's code lives (its funcs[].code points into it) */
    uint32_t code_hint;        /* instructions the first block is made for (the code section's bytes) */
    w_ins *scratch;            /* a function's code while it is translated, reused by the next */
    uint32_t cap_scratch;
};

typedef struct {
    const w_ins *ret_ip;
    uint64_t *fp;
    uint32_t func;
} w_frame;

struct sp_wasm_inst {
    const sp_wasm_module *m;
    const sp_wasm_host_fn *hosts;
    void *ctx;
    uint8_t *mem;
    size_t mem_len, mem_reserved; /* in use; mapped (the maximum) */
    uint64_t *globals;
    uint32_t *table;
    uint64_t *stack, *stack_end, *sp_top; /* sp_top: first free slot between calls */
    w_frame *frames;
    uint32_t n_frames, depth;
    int natives_on;
    double deadline;
    char trap[SP_ERR_LEN];
};

/* Decodes a signature written "iil:i" into a type; 0 or -1 when malformed. */
int sp_wasm_sig_parse(w_type *t, const char *sig);
/* Writes t in that notation into out[16] (long ones end in "..."). */
void sp_wasm_sig_write(char out[16], const w_type *t);

/* exec.c: runs fidx with the arguments already on the stack at fp. */
int sp_wasm_exec(sp_wasm_inst *in, uint32_t fidx, uint64_t *fp);

#endif
