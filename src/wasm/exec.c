/*
 * The interpreter: instances, calls, and the dispatch loop over w_ins
 * (threaded through a table of label addresses, a GNU C extension that
 * gcc and clang both have).
 *
 * A frame's locals and its operand stack share one array of 64-bit slots:
 * a call's arguments, already on the caller's operand stack, become the
 * callee's first locals. Every function's deepest operand stack is known
 * from validation, so one check at entry covers the whole frame. Memory
 * accesses are checked against the memory's current length with 64-bit
 * arithmetic (address + offset + size cannot wrap). Nothing recurses in C
 * except a host function calling back into the module, which starts a new
 * run above the current frames.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "wasm/internal.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the interpreter reads linear memory in host byte order, which must be little-endian"
#endif

#define FUEL 65536 /* loop iterations and calls between two looks at the clock */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int sp_wasm_trap(sp_wasm_inst *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->trap, sizeof in->trap, fmt, ap);
    va_end(ap);
    return 1;
}

void sp_wasm_enable_natives(sp_wasm_inst *in, int on)
{
    in->natives_on = on;
}

uint8_t *sp_wasm_memory(sp_wasm_inst *in, size_t *len)
{
    *len = in->mem_len;
    return in->mem;
}

void sp_wasm_inst_free(sp_wasm_inst *in)
{
    if (!in)
        return;
    if (in->mem)
        munmap(in->mem, in->mem_reserved);
    free(in->globals);
    free(in->table);
    free(in->stack);
    free(in->frames);
    free(in);
}

static const char *func_name(const sp_wasm_module *m, uint32_t f, char buf[32])
{
    if (m->funcs[f].name)
        return m->funcs[f].name;
    snprintf(buf, 32, "function %u", f);
    return buf;
}

/* memory.grow: the old size in pages, or -1 when refused. The memory's
 * whole reservation is mapped at instantiation (pages untouched until
 * used, zero when first read), so growing moves nothing. */
static int64_t mem_grow(sp_wasm_inst *in, uint32_t pages)
{
    uint64_t old = in->mem_len / W_PAGE, want = old + pages;
    if (want > in->m->mem_max || want * W_PAGE > in->mem_reserved)
        return -1;
    in->mem_len = (size_t)(want * W_PAGE);
    return (int64_t)old;
}

static int over_time(sp_wasm_inst *in)
{
    return in->deadline > 0 && now_s() > in->deadline;
}

#define LOAD(T, conv)                                                   \
    do {                                                                \
        uint64_t ea_ = (uint64_t)(uint32_t)fp[ip->x] + ip->k;           \
        T v_;                                                           \
        if (ea_ + sizeof(T) > mem_len)                                  \
            goto oob;                                                   \
        memcpy(&v_, mem + ea_, sizeof(T));                              \
        fp[ip->d] = conv;                                               \
    } while (0)
#define STORE(T)                                                        \
    do {                                                                \
        uint64_t ea_ = (uint64_t)(uint32_t)fp[ip->x] + ip->k;           \
        T v_ = (T)fp[ip->y];                                            \
        if (ea_ + sizeof(T) > mem_len)                                  \
            goto oob;                                                   \
        memcpy(mem + ea_, &v_, sizeof(T));                              \
    } while (0)
/* Operands are read before the result is written: d may be x or y. */
#define BIN32(expr)                                                     \
    do {                                                                \
        uint32_t x = (uint32_t)fp[ip->x], y = (uint32_t)fp[ip->y];      \
        fp[ip->d] = (uint32_t)(expr);                                   \
    } while (0)
#define BIN32K(expr)                                                    \
    do {                                                                \
        uint32_t x = (uint32_t)fp[ip->x], y = (uint32_t)ip->k;          \
        fp[ip->d] = (uint32_t)(expr);                                   \
    } while (0)
#define BIN64(expr)                                                     \
    do {                                                                \
        uint64_t x = fp[ip->x], y = fp[ip->y];                          \
        fp[ip->d] = (uint64_t)(expr);                                   \
    } while (0)
#define BIN64K(expr)                                                    \
    do {                                                                \
        uint64_t x = fp[ip->x], y = ip->k;                              \
        fp[ip->d] = (uint64_t)(expr);                                   \
    } while (0)
#define UN(T, expr)                                                     \
    do {                                                                \
        T x = (T)fp[ip->x];                                             \
        fp[ip->d] = (expr);                                             \
    } while (0)
#define NEXT goto *labels[(++ip)->op]
#define JUMP(pc)                                                        \
    do {                                                                \
        ip = code + (pc);                                               \
        goto *labels[ip->op];                                           \
    } while (0)

static uint32_t rotl32(uint32_t x, uint32_t k) { k &= 31; return k ? (x << k) | (x >> (32 - k)) : x; }
static uint32_t rotr32(uint32_t x, uint32_t k) { k &= 31; return k ? (x >> k) | (x << (32 - k)) : x; }
static uint64_t rotl64(uint64_t x, uint64_t k) { k &= 63; return k ? (x << k) | (x >> (64 - k)) : x; }
static uint64_t rotr64(uint64_t x, uint64_t k) { k &= 63; return k ? (x >> k) | (x << (64 - k)) : x; }

/* The binary operators with a constant form (internal.h's W_KOPS): name,
 * width, value. Both forms are made from this one list. */
#define KOPS(X)                                                         \
    X(I32_EQ, 32, x == y) X(I32_NE, 32, x != y) X(I32_LT_S, 32, (int32_t)x < (int32_t)y) X(I32_LT_U, 32, x < y) \
    X(I32_GT_S, 32, (int32_t)x > (int32_t)y) X(I32_GT_U, 32, x > y) X(I32_LE_S, 32, (int32_t)x <= (int32_t)y)  \
    X(I32_LE_U, 32, x <= y) X(I32_GE_S, 32, (int32_t)x >= (int32_t)y) X(I32_GE_U, 32, x >= y)                   \
    X(I32_ADD, 32, x + y) X(I32_SUB, 32, x - y) X(I32_MUL, 32, x * y) X(I32_AND, 32, x & y)                    \
    X(I32_OR, 32, x | y) X(I32_XOR, 32, x ^ y) X(I32_SHL, 32, x << (y & 31))                                   \
    X(I32_SHR_S, 32, (uint32_t)((int32_t)x >> (y & 31))) X(I32_SHR_U, 32, x >> (y & 31))                      \
    X(I64_EQ, 64, x == y) X(I64_NE, 64, x != y) X(I64_LT_U, 64, x < y) X(I64_GT_U, 64, x > y)                 \
    X(I64_ADD, 64, x + y) X(I64_SUB, 64, x - y) X(I64_MUL, 64, x * y) X(I64_AND, 64, x & y)                   \
    X(I64_OR, 64, x | y) X(I64_XOR, 64, x ^ y) X(I64_SHL, 64, x << (y & 63)) X(I64_SHR_U, 64, x >> (y & 63))

int sp_wasm_exec(sp_wasm_inst *in, uint32_t fidx, uint64_t *fp)
{
    static const void *const labels[W_N_OPS] = {
#define W_LABEL(n) &&L_##n,
#define W_LABEL_K(n) &&L_##n##_K,
        W_OPS(W_LABEL)
        W_KOPS(W_LABEL_K)
#undef W_LABEL_K
#undef W_LABEL
    };
    const sp_wasm_module *m = in->m;
    const uint32_t base_depth = in->depth;
    const w_func *f = NULL;
    const w_ins *ip = NULL, *code = NULL;
    uint8_t *mem = in->mem;
    uint64_t mem_len = in->mem_len;
    uint32_t fuel = FUEL;
    char nb[32];
    const w_ins *ret_ip = NULL; /* where the callee returns to (NULL: out of exec) */

enter: /* fidx, fp (arguments in place), ret_ip */
    {
        const w_func *g = &m->funcs[fidx];
        const w_type *t = &m->types[g->type];
        if (!g->code || (g->native >= 0 && in->natives_on)) {
            uint64_t ret = 0;
            in->sp_top = fp + t->n_params;
            sp_wasm_host_fn fn = g->code ? m->natives[g->native].fn : in->hosts[fidx];
            in->trap[0] = 0;
            int rc = fn(in, in->ctx, fp, &ret);
            if (rc == SP_WASM_DECLINE && g->code)
                goto run_code;
            if (rc) {
                if (!in->trap[0])
                    sp_wasm_trap(in, "%s trapped", func_name(m, fidx, nb));
                goto fail;
            }
            mem = in->mem;
            mem_len = in->mem_len;
            if (t->n_results)
                fp[0] = ret;
            if (!ret_ip)
                return 0;
            fp = in->frames[in->depth - 1].fp;
            ip = ret_ip;
            goto *labels[ip->op];
        }
    run_code:
        if (in->depth >= m->lim.max_call_depth || in->depth >= in->n_frames) {
            sp_wasm_trap(in, "call stack exhausted (more than %u nested calls)", in->depth);
            goto fail;
        }
        if ((uint64_t)(in->stack_end - fp) < (uint64_t)g->n_locals + g->max_height) {
            sp_wasm_trap(in, "value stack exhausted");
            goto fail;
        }
        if (--fuel == 0) {
            fuel = FUEL;
            if (over_time(in))
                goto timeout;
        }
        memset(fp + t->n_params, 0, (g->n_locals - t->n_params) * sizeof *fp);
        in->frames[in->depth++] = (w_frame){ret_ip, fp, fidx};
        f = g;
        code = g->code;
        ip = code;
        goto *labels[ip->op];
    }

L_UNREACHABLE:
    sp_wasm_trap(in, "unreachable executed in %s", func_name(m, (uint32_t)(f - m->funcs), nb));
    goto fail;
L_LOOP:
    if (--fuel == 0) {
        fuel = FUEL;
        if (over_time(in))
            goto timeout;
    }
    NEXT;
L_JMP:
    JUMP(ip->d);
L_BR_MOV:
    fp[ip->y] = fp[ip->x];
    JUMP(ip->d);
L_BR_IF:
    if ((uint32_t)fp[ip->x])
        JUMP(ip->d);
    NEXT;
L_BR_IF_MOV:
    if ((uint32_t)fp[ip->x]) {
        fp[ip->y] = fp[ip->k];
        JUMP(ip->d);
    }
    NEXT;
L_BR_UNLESS:
    if (!(uint32_t)fp[ip->x])
        JUMP(ip->d);
    NEXT;
L_BR_TABLE: { /* d: the first entry (pc, destination slot, arity); k: entries - 1; y: the value */
    uint32_t k = (uint32_t)fp[ip->x], n = (uint32_t)ip->k;
    const uint32_t *t = f->targets + ip->d + 3 * (k < n ? k : n);
    if (t[2])
        fp[t[1]] = fp[ip->y];
    JUMP(t[0]);
}
L_RETURN: {
    const w_type *t = &m->types[f->type];
    w_frame fr = in->frames[--in->depth];
    if (t->n_results)
        fp[0] = fp[ip->x];
    if (in->depth == base_depth)
        return 0;
    ip = fr.ret_ip;
    fp = in->frames[in->depth - 1].fp;
    f = &m->funcs[in->frames[in->depth - 1].func];
    code = f->code;
    goto *labels[ip->op];
}
L_CALL_NATIVE:
    if (in->natives_on) { /* k: the native's index, parameters, results */
        uint32_t np = (uint32_t)(ip->k >> 8) & 0xff, nr = (uint32_t)(ip->k >> 16) & 0xff;
        uint64_t ret = 0, *args = fp + ip->x;
        in->sp_top = args + np;
        in->trap[0] = 0;
        int rc = m->natives[ip->k & 0xff].fn(in, in->ctx, args, &ret);
        if (rc == 0) {
            if (nr)
                args[0] = ret;
            NEXT;
        }
        if (rc != SP_WASM_DECLINE) {
            if (!in->trap[0])
                sp_wasm_trap(in, "%s trapped", func_name(m, ip->d, nb));
            goto fail;
        }
    }
    /* fall through: the module's own function */
L_CALL: /* d: the function; x: the slot of its first argument, its frame's start */
    fidx = ip->d;
    fp += ip->x;
    ret_ip = ip + 1;
    goto enter;
L_CALL_INDIRECT: { /* d: the type; x as for call; y: the table index */
    uint32_t k = (uint32_t)fp[ip->y];
    if (k >= m->table_size || !in->table[k]) {
        sp_wasm_trap(in, "call_indirect: table entry %u %s", k, k >= m->table_size ? "out of bounds" : "is null");
        goto fail;
    }
    fidx = in->table[k] - 1;
    if (m->types[m->funcs[fidx].type].canon != ip->d) {
        sp_wasm_trap(in, "call_indirect: %s has the wrong type", func_name(m, fidx, nb));
        goto fail;
    }
    fp += ip->x;
    ret_ip = ip + 1;
    goto enter;
}
L_SELECT: { /* k: the condition's slot */
    uint64_t a = fp[ip->x], b = fp[ip->y];
    fp[ip->d] = (uint32_t)fp[ip->k] ? a : b;
    NEXT;
}
L_MOV:
    fp[ip->d] = fp[ip->x];
    NEXT;
L_CONST:
    fp[ip->d] = ip->k;
    NEXT;
L_CONST2:
    fp[ip->d] = (uint32_t)ip->k;
    fp[ip->d + 1] = ip->k >> 32;
    NEXT;
L_GLOBAL_GET:
    fp[ip->d] = in->globals[ip->x];
    NEXT;
L_GLOBAL_SET:
    in->globals[ip->d] = fp[ip->x];
    NEXT;
L_I32_LOAD: LOAD(uint32_t, v_); NEXT;
L_I64_LOAD: LOAD(uint64_t, v_); NEXT;
L_I32_LOAD8_S: LOAD(int8_t, (uint32_t)(int32_t)v_); NEXT;
L_I32_LOAD8_U: LOAD(uint8_t, v_); NEXT;
L_I32_LOAD16_S: LOAD(int16_t, (uint32_t)(int32_t)v_); NEXT;
L_I32_LOAD16_U: LOAD(uint16_t, v_); NEXT;
L_I64_LOAD8_S: LOAD(int8_t, (uint64_t)(int64_t)v_); NEXT;
L_I64_LOAD8_U: LOAD(uint8_t, v_); NEXT;
L_I64_LOAD16_S: LOAD(int16_t, (uint64_t)(int64_t)v_); NEXT;
L_I64_LOAD16_U: LOAD(uint16_t, v_); NEXT;
L_I64_LOAD32_S: LOAD(int32_t, (uint64_t)(int64_t)v_); NEXT;
L_I64_LOAD32_U: LOAD(uint32_t, v_); NEXT;
L_I32_STORE: STORE(uint32_t); NEXT;
L_I64_STORE: STORE(uint64_t); NEXT;
L_I32_STORE8: STORE(uint8_t); NEXT;
L_I32_STORE16: STORE(uint16_t); NEXT;
L_I64_STORE8: STORE(uint8_t); NEXT;
L_I64_STORE16: STORE(uint16_t); NEXT;
L_I64_STORE32: STORE(uint32_t); NEXT;
L_MEM_SIZE:
    fp[ip->d] = (uint32_t)(mem_len / W_PAGE);
    NEXT;
L_MEM_GROW: {
    int64_t old = mem_grow(in, (uint32_t)fp[ip->x]);
    fp[ip->d] = (uint32_t)(int32_t)old;
    mem = in->mem;
    mem_len = in->mem_len;
    NEXT;
}
#define W_RR(n, w, e) L_##n: BIN##w(e); NEXT;
#define W_RK(n, w, e) L_##n##_K: BIN##w##K(e); NEXT;
    KOPS(W_RR)
    KOPS(W_RK)
#undef W_RK
#undef W_RR
L_I32_EQZ: UN(uint32_t, (uint64_t)!x); NEXT;
L_I64_EQZ: UN(uint64_t, (uint64_t)!x); NEXT;
L_I64_LT_S: BIN64((int64_t)x < (int64_t)y); NEXT;
L_I64_GT_S: BIN64((int64_t)x > (int64_t)y); NEXT;
L_I64_LE_S: BIN64((int64_t)x <= (int64_t)y); NEXT;
L_I64_LE_U: BIN64(x <= y); NEXT;
L_I64_GE_S: BIN64((int64_t)x >= (int64_t)y); NEXT;
L_I64_GE_U: BIN64(x >= y); NEXT;
L_I32_CLZ: UN(uint32_t, x ? (uint32_t)__builtin_clz(x) : 32u); NEXT;
L_I32_CTZ: UN(uint32_t, x ? (uint32_t)__builtin_ctz(x) : 32u); NEXT;
L_I32_POPCNT: UN(uint32_t, (uint32_t)__builtin_popcount(x)); NEXT;
L_I32_DIV_S: {
    int32_t x = (int32_t)fp[ip->x], y = (int32_t)fp[ip->y];
    if (!y)
        goto divzero;
    if (x == INT32_MIN && y == -1)
        goto overflow;
    fp[ip->d] = (uint32_t)(x / y);
    NEXT;
}
L_I32_DIV_U: if (!(uint32_t)fp[ip->y]) goto divzero; BIN32(x / y); NEXT;
L_I32_REM_S: {
    int32_t x = (int32_t)fp[ip->x], y = (int32_t)fp[ip->y];
    if (!y)
        goto divzero;
    fp[ip->d] = y == -1 ? 0 : (uint32_t)(x % y);
    NEXT;
}
L_I32_REM_U: if (!(uint32_t)fp[ip->y]) goto divzero; BIN32(x % y); NEXT;
L_I32_ROTL: BIN32(rotl32(x, y)); NEXT;
L_I32_ROTR: BIN32(rotr32(x, y)); NEXT;
L_I64_CLZ: UN(uint64_t, x ? (uint64_t)__builtin_clzll(x) : 64u); NEXT;
L_I64_CTZ: UN(uint64_t, x ? (uint64_t)__builtin_ctzll(x) : 64u); NEXT;
L_I64_POPCNT: UN(uint64_t, (uint64_t)__builtin_popcountll(x)); NEXT;
L_I64_DIV_S: {
    int64_t x = (int64_t)fp[ip->x], y = (int64_t)fp[ip->y];
    if (!y)
        goto divzero;
    if (x == INT64_MIN && y == -1)
        goto overflow;
    fp[ip->d] = (uint64_t)(x / y);
    NEXT;
}
L_I64_DIV_U: if (!fp[ip->y]) goto divzero; BIN64(x / y); NEXT;
L_I64_REM_S: {
    int64_t x = (int64_t)fp[ip->x], y = (int64_t)fp[ip->y];
    if (!y)
        goto divzero;
    fp[ip->d] = y == -1 ? 0 : (uint64_t)(x % y);
    NEXT;
}
L_I64_REM_U: if (!fp[ip->y]) goto divzero; BIN64(x % y); NEXT;
L_I64_SHR_S: BIN64((uint64_t)((int64_t)x >> (y & 63))); NEXT;
L_I64_ROTL: BIN64(rotl64(x, y)); NEXT;
L_I64_ROTR: BIN64(rotr64(x, y)); NEXT;
L_I32_WRAP_I64: UN(uint64_t, (uint32_t)x); NEXT;
L_I64_EXTEND_I32_S: UN(uint32_t, (uint64_t)(int64_t)(int32_t)x); NEXT;
L_I64_EXTEND_I32_U: UN(uint32_t, (uint64_t)x); NEXT;
L_I32_EXTEND8_S: UN(uint64_t, (uint32_t)(int32_t)(int8_t)x); NEXT;
L_I32_EXTEND16_S: UN(uint64_t, (uint32_t)(int32_t)(int16_t)x); NEXT;
L_I64_EXTEND8_S: UN(uint64_t, (uint64_t)(int64_t)(int8_t)x); NEXT;
L_I64_EXTEND16_S: UN(uint64_t, (uint64_t)(int64_t)(int16_t)x); NEXT;
L_I64_EXTEND32_S: UN(uint64_t, (uint64_t)(int64_t)(int32_t)x); NEXT;
/* folded i32 arithmetic (compile.c, regify.c): k = c << 32 | m (or k), y the local */
L_AFF_PUSHL:
    fp[ip->d] = (uint32_t)((uint32_t)(ip->k >> 32) + (uint32_t)ip->k * (uint32_t)fp[ip->y]);
    NEXT;
L_AFF_TOP:
    fp[ip->d] = (uint32_t)((uint32_t)fp[ip->x] * (uint32_t)ip->k + (uint32_t)(ip->k >> 32));
    NEXT;
L_AFF_TOPL1:
    fp[ip->d] = (uint32_t)((uint32_t)fp[ip->x] + (uint32_t)(ip->k >> 32) + (uint32_t)ip->k * (uint32_t)fp[ip->y]);
    NEXT;

oob:
    sp_wasm_trap(in, "out of bounds memory access in %s", func_name(m, (uint32_t)(f - m->funcs), nb));
    goto fail;
divzero:
    sp_wasm_trap(in, "integer divide by zero in %s", func_name(m, (uint32_t)(f - m->funcs), nb));
    goto fail;
overflow:
    sp_wasm_trap(in, "integer overflow in %s", func_name(m, (uint32_t)(f - m->funcs), nb));
    goto fail;
timeout:
    sp_wasm_trap(in, "time limit of %g s reached", m->lim.max_seconds);
fail:
    in->depth = base_depth;
    return -1;
}

/* Maps in->mem_reserved bytes at a 2 MiB boundary, advised for huge
 * pages: a circom module fills its memory front to back, and with 4 KiB
 * pages each of those pages is a fault of its own (most of a witness's
 * system time). Returns 1, or 0 when the system lends no such mapping. */
static int mem_reserve(sp_wasm_inst *in)
{
    const size_t huge = (size_t)2 << 20;
    size_t len = in->mem_reserved + huge;
    uint8_t *raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED)
        return 0;
    uint8_t *d = (uint8_t *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
    if (d > raw)
        munmap(raw, (size_t)(d - raw));
    if (raw + len > d + in->mem_reserved)
        munmap(d + in->mem_reserved, (size_t)(raw + len - (d + in->mem_reserved)));
    madvise(d, in->mem_reserved, MADV_HUGEPAGE); /* advice only: without it, small pages */
    in->mem = d;
    return 1;
}

static sp_status inst_fail(sp_wasm_inst *in, char err[SP_ERR_LEN], sp_status st, const char *msg)
{
    snprintf(err, SP_ERR_LEN, "wasm: %s", msg);
    sp_wasm_inst_free(in);
    return st;
}

sp_status sp_wasm_instantiate(sp_wasm_inst **out, const sp_wasm_module *m, const sp_wasm_host_fn *hosts, void *ctx,
                              char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_wasm_inst *in = calloc(1, sizeof *in);
    if (!in)
        return inst_fail(in, err, SP_ERR_NOMEM, "out of memory");
    in->m = m;
    in->hosts = hosts;
    in->ctx = ctx;
    in->n_frames = m->lim.max_call_depth;
    in->mem_len = (size_t)m->mem_min * W_PAGE;
    /* the maximum, or as much of it as the system lends (strict overcommit) */
    for (uint64_t pages = m->mem_max > m->mem_min ? m->mem_max : (m->mem_min ? m->mem_min : 1);; pages /= 2) {
        if (pages < m->mem_min || pages == 0)
            return inst_fail(in, err, SP_ERR_NOMEM, "cannot reserve the module's memory");
        in->mem_reserved = (size_t)pages * W_PAGE;
        if (mem_reserve(in))
            break;
    }
    if (!m->has_memory)
        in->mem_len = 0;
    if (
        !(in->globals = calloc(m->n_globals + 1, sizeof *in->globals)) ||
        !(in->table = calloc(m->table_size + 1, sizeof *in->table)) ||
        !(in->stack = malloc((size_t)m->lim.max_stack * sizeof *in->stack)) ||
        !(in->frames = malloc((size_t)in->n_frames * sizeof *in->frames)))
        return inst_fail(in, err, SP_ERR_NOMEM, "out of memory for the instance");
    in->stack_end = in->stack + m->lim.max_stack;
    in->sp_top = in->stack;
    for (uint32_t i = 0; i < m->n_imports; i++)
        if (!hosts || !hosts[i])
            return inst_fail(in, err, SP_ERR_FORMAT, "an import has no host function");
    for (uint32_t i = 0; i < m->n_globals; i++)
        in->globals[i] = m->globals[i].init;
    if (m->table_size)
        memcpy(in->table, m->table_init, m->table_size * sizeof *in->table);
    for (uint32_t i = 0; i < m->n_data; i++) {
        const w_data *d = &m->data[i];
        if ((uint64_t)d->offset + d->len > in->mem_len) {
            char msg[128];
            snprintf(msg, sizeof msg, "data segment %u (bytes %u..%llu) outside the memory of %zu bytes", i, d->offset,
                     (unsigned long long)d->offset + d->len, in->mem_len);
            return inst_fail(in, err, SP_ERR_FORMAT, msg);
        }
        memcpy(in->mem + d->offset, d->bytes, d->len);
    }
    if (m->start >= 0 && sp_wasm_call(in, (int)m->start, NULL, NULL, err) != SP_OK) {
        sp_wasm_inst_free(in);
        return SP_ERR_FORMAT;
    }
    *out = in;
    return SP_OK;
}

sp_status sp_wasm_call(sp_wasm_inst *in, int fidx, const uint64_t *args, uint64_t *ret, char err[SP_ERR_LEN])
{
    const sp_wasm_module *m = in->m;
    if (fidx < 0 || (uint32_t)fidx >= m->n_funcs) {
        snprintf(err, SP_ERR_LEN, "wasm: no function %d", fidx);
        return SP_ERR_INVALID_ARG;
    }
    const w_type *t = &m->types[m->funcs[fidx].type];
    uint64_t *fp = in->sp_top;
    if ((uint64_t)(in->stack_end - fp) < (uint64_t)t->n_params + 1) {
        snprintf(err, SP_ERR_LEN, "wasm: value stack exhausted");
        return SP_ERR_FORMAT;
    }
    for (unsigned i = 0; i < t->n_params; i++)
        fp[i] = t->params[i] == W_I32 ? (uint32_t)args[i] : args[i];
    int outer = in->depth == 0;
    if (outer)
        in->deadline = m->lim.max_seconds > 0 ? now_s() + m->lim.max_seconds : 0;
    int rc = sp_wasm_exec(in, (uint32_t)fidx, fp);
    in->sp_top = fp;
    if (rc) {
        snprintf(err, SP_ERR_LEN, "wasm: %.240s", in->trap);
        return SP_ERR_FORMAT;
    }
    if (ret && t->n_results)
        *ret = fp[0];
    return SP_OK;
}
