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
        uint64_t ea_ = (uint64_t)(uint32_t)sp[-1] + ip->a;              \
        T v_;                                                           \
        if (ea_ + sizeof(T) > mem_len)                                  \
            goto oob;                                                   \
        memcpy(&v_, mem + ea_, sizeof(T));                              \
        sp[-1] = conv;                                                  \
    } while (0)
#define STORE(T)                                                        \
    do {                                                                \
        uint64_t ea_ = (uint64_t)(uint32_t)sp[-2] + ip->a;              \
        T v_ = (T)sp[-1];                                               \
        if (ea_ + sizeof(T) > mem_len)                                  \
            goto oob;                                                   \
        memcpy(mem + ea_, &v_, sizeof(T));                              \
        sp -= 2;                                                        \
    } while (0)
#define BIN32(expr)                                                     \
    do {                                                                \
        uint32_t x = (uint32_t)sp[-2], y = (uint32_t)sp[-1];            \
        sp[-2] = (uint32_t)(expr);                                      \
        sp--;                                                           \
    } while (0)
#define BIN64(expr)                                                     \
    do {                                                                \
        uint64_t x = sp[-2], y = sp[-1];                                \
        sp[-2] = (uint64_t)(expr);                                      \
        sp--;                                                           \
    } while (0)
#define NEXT goto *labels[(++ip)->op]

/* Branch to the pc in a with the height and arity in b. */
#define BRANCH_TO(pc, h, arity)                                         \
    do {                                                                \
        uint64_t *nsp_ = fp + (h);                                      \
        if (arity)                                                      \
            *nsp_++ = sp[-1];                                           \
        sp = nsp_;                                                      \
        ip = code + (pc);                                               \
        goto *labels[ip->op];                                           \
    } while (0)

static uint32_t rotl32(uint32_t x, uint32_t k) { k &= 31; return k ? (x << k) | (x >> (32 - k)) : x; }
static uint32_t rotr32(uint32_t x, uint32_t k) { k &= 31; return k ? (x >> k) | (x << (32 - k)) : x; }
static uint64_t rotl64(uint64_t x, uint64_t k) { k &= 63; return k ? (x << k) | (x >> (64 - k)) : x; }
static uint64_t rotr64(uint64_t x, uint64_t k) { k &= 63; return k ? (x >> k) | (x << (64 - k)) : x; }

int sp_wasm_exec(sp_wasm_inst *in, uint32_t fidx, uint64_t *fp)
{
    static const void *const labels[W_N_OPS] = {
#define W_LABEL(n) &&L_##n,
        W_OPS(W_LABEL)
#undef W_LABEL
    };
    const sp_wasm_module *m = in->m;
    const uint32_t base_depth = in->depth;
    const w_func *f = NULL;
    const w_ins *ip = NULL, *code = NULL;
    uint64_t *sp = NULL;
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
            sp = fp + t->n_results;
            w_frame *fr = &in->frames[in->depth - 1];
            fp = fr->fp;
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
        sp = fp + g->n_locals;
        goto *labels[ip->op];
    }

L_UNREACHABLE:
    sp_wasm_trap(in, "unreachable executed in %s", func_name(m, (uint32_t)(f - m->funcs), nb));
    goto fail;
L_NOP:
    NEXT;
L_LOOP:
    if (--fuel == 0) {
        fuel = FUEL;
        if (over_time(in))
            goto timeout;
    }
    NEXT;
L_BR:
    BRANCH_TO(ip->a, (uint32_t)ip->b, ip->b >> 32);
L_BR_IF:
    if ((uint32_t)*--sp)
        BRANCH_TO(ip->a, (uint32_t)ip->b, ip->b >> 32);
    NEXT;
L_BR_UNLESS:
    if (!(uint32_t)*--sp) {
        ip = code + ip->a;
        goto *labels[ip->op];
    }
    NEXT;
L_JMP:
    ip = code + ip->a;
    goto *labels[ip->op];
L_BR_TABLE: {
    uint32_t k = (uint32_t)*--sp, n = (uint32_t)ip->b;
    const uint32_t *t = f->targets + ip->a + 3 * (k < n ? k : n);
    BRANCH_TO(t[0], t[1], t[2]);
}
L_RETURN: {
    const w_type *t = &m->types[f->type];
    w_frame fr = in->frames[--in->depth];
    if (t->n_results)
        fp[0] = sp[-1];
    sp = fp + t->n_results;
    if (in->depth == base_depth)
        return 0;
    ip = fr.ret_ip;
    fp = in->frames[in->depth - 1].fp;
    f = &m->funcs[in->frames[in->depth - 1].func];
    code = f->code;
    goto *labels[ip->op];
}
/* A call of native k (b: its index, parameters, results); when it
 * declines, or the natives are off, the module's own function runs. */
#define CALL_NATIVE_AT(k)                                                      \
    do {                                                                       \
        if (!in->natives_on)                                                   \
            goto L_CALL;                                                       \
        uint32_t np = (uint32_t)(ip->b >> 8) & 0xff, nr = (uint32_t)(ip->b >> 16) & 0xff; \
        uint64_t ret = 0, *args = sp - np;                                     \
        in->sp_top = sp;                                                       \
        in->trap[0] = 0;                                                       \
        int rc = m->natives[k].fn(in, in->ctx, args, &ret);                    \
        if (rc == 0) {                                                         \
            if (nr)                                                            \
                args[0] = ret;                                                 \
            sp = args + nr;                                                    \
            NEXT;                                                              \
        }                                                                      \
        if (rc != SP_WASM_DECLINE) {                                           \
            if (!in->trap[0])                                                  \
                sp_wasm_trap(in, "%s trapped", func_name(m, ip->a, nb));       \
            goto fail;                                                         \
        }                                                                      \
        goto L_CALL;                                                           \
    } while (0)
#define W_CALLN_HANDLER(n) L_##n: CALL_NATIVE_AT(W_OP_##n - W_OP_CALLN_0);
    W_CALLN_OPS(W_CALLN_HANDLER)
#undef W_CALLN_HANDLER
L_CALL_NATIVE:
    CALL_NATIVE_AT(ip->b & 0xff);
L_CALL:
    fidx = ip->a;
    fp = sp - m->types[m->funcs[fidx].type].n_params;
    ret_ip = ip + 1;
    goto enter;
L_CALL_INDIRECT: {
    uint32_t k = (uint32_t)*--sp;
    if (k >= m->table_size || !in->table[k]) {
        sp_wasm_trap(in, "call_indirect: table entry %u %s", k, k >= m->table_size ? "out of bounds" : "is null");
        goto fail;
    }
    fidx = in->table[k] - 1;
    if (m->types[m->funcs[fidx].type].canon != ip->a) {
        sp_wasm_trap(in, "call_indirect: %s has the wrong type", func_name(m, fidx, nb));
        goto fail;
    }
    fp = sp - m->types[ip->a].n_params;
    ret_ip = ip + 1;
    goto enter;
}
L_DROP:
    sp--;
    NEXT;
L_SELECT:
    sp -= 2;
    if (!(uint32_t)sp[1])
        sp[-1] = sp[0];
    NEXT;
L_LOCAL_GET:
    *sp++ = fp[ip->a];
    NEXT;
L_LOCAL_SET:
    fp[ip->a] = *--sp;
    NEXT;
L_LOCAL_TEE:
    fp[ip->a] = sp[-1];
    NEXT;
L_GLOBAL_GET:
    *sp++ = in->globals[ip->a];
    NEXT;
L_GLOBAL_SET:
    in->globals[ip->a] = *--sp;
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
    *sp++ = (uint32_t)(mem_len / W_PAGE);
    NEXT;
L_MEM_GROW: {
    int64_t old = mem_grow(in, (uint32_t)sp[-1]);
    sp[-1] = (uint32_t)(int32_t)old;
    mem = in->mem;
    mem_len = in->mem_len;
    NEXT;
}
L_CONST:
    *sp++ = ip->b;
    NEXT;
L_I32_EQZ: sp[-1] = !(uint32_t)sp[-1]; NEXT;
L_I32_EQ: BIN32(x == y); NEXT;
L_I32_NE: BIN32(x != y); NEXT;
L_I32_LT_S: BIN32((int32_t)x < (int32_t)y); NEXT;
L_I32_LT_U: BIN32(x < y); NEXT;
L_I32_GT_S: BIN32((int32_t)x > (int32_t)y); NEXT;
L_I32_GT_U: BIN32(x > y); NEXT;
L_I32_LE_S: BIN32((int32_t)x <= (int32_t)y); NEXT;
L_I32_LE_U: BIN32(x <= y); NEXT;
L_I32_GE_S: BIN32((int32_t)x >= (int32_t)y); NEXT;
L_I32_GE_U: BIN32(x >= y); NEXT;
L_I64_EQZ: sp[-1] = !sp[-1]; NEXT;
L_I64_EQ: BIN64(x == y); NEXT;
L_I64_NE: BIN64(x != y); NEXT;
L_I64_LT_S: BIN64((int64_t)x < (int64_t)y); NEXT;
L_I64_LT_U: BIN64(x < y); NEXT;
L_I64_GT_S: BIN64((int64_t)x > (int64_t)y); NEXT;
L_I64_GT_U: BIN64(x > y); NEXT;
L_I64_LE_S: BIN64((int64_t)x <= (int64_t)y); NEXT;
L_I64_LE_U: BIN64(x <= y); NEXT;
L_I64_GE_S: BIN64((int64_t)x >= (int64_t)y); NEXT;
L_I64_GE_U: BIN64(x >= y); NEXT;
L_I32_CLZ: { uint32_t x = (uint32_t)sp[-1]; sp[-1] = x ? (uint32_t)__builtin_clz(x) : 32; NEXT; }
L_I32_CTZ: { uint32_t x = (uint32_t)sp[-1]; sp[-1] = x ? (uint32_t)__builtin_ctz(x) : 32; NEXT; }
L_I32_POPCNT: sp[-1] = (uint32_t)__builtin_popcount((uint32_t)sp[-1]); NEXT;
L_I32_ADD: BIN32(x + y); NEXT;
L_I32_SUB: BIN32(x - y); NEXT;
L_I32_MUL: BIN32(x * y); NEXT;
L_I32_DIV_S: {
    int32_t x = (int32_t)sp[-2], y = (int32_t)sp[-1];
    if (!y)
        goto divzero;
    if (x == INT32_MIN && y == -1)
        goto overflow;
    sp[-2] = (uint32_t)(x / y);
    sp--;
    NEXT;
}
L_I32_DIV_U: if (!(uint32_t)sp[-1]) goto divzero; BIN32(x / y); NEXT;
L_I32_REM_S: {
    int32_t x = (int32_t)sp[-2], y = (int32_t)sp[-1];
    if (!y)
        goto divzero;
    sp[-2] = y == -1 ? 0 : (uint32_t)(x % y);
    sp--;
    NEXT;
}
L_I32_REM_U: if (!(uint32_t)sp[-1]) goto divzero; BIN32(x % y); NEXT;
L_I32_AND: BIN32(x & y); NEXT;
L_I32_OR: BIN32(x | y); NEXT;
L_I32_XOR: BIN32(x ^ y); NEXT;
L_I32_SHL: BIN32(x << (y & 31)); NEXT;
L_I32_SHR_S: BIN32((uint32_t)((int32_t)x >> (y & 31))); NEXT;
L_I32_SHR_U: BIN32(x >> (y & 31)); NEXT;
L_I32_ROTL: BIN32(rotl32(x, y)); NEXT;
L_I32_ROTR: BIN32(rotr32(x, y)); NEXT;
L_I64_CLZ: sp[-1] = sp[-1] ? (uint64_t)__builtin_clzll(sp[-1]) : 64; NEXT;
L_I64_CTZ: sp[-1] = sp[-1] ? (uint64_t)__builtin_ctzll(sp[-1]) : 64; NEXT;
L_I64_POPCNT: sp[-1] = (uint64_t)__builtin_popcountll(sp[-1]); NEXT;
L_I64_ADD: BIN64(x + y); NEXT;
L_I64_SUB: BIN64(x - y); NEXT;
L_I64_MUL: BIN64(x * y); NEXT;
L_I64_DIV_S: {
    int64_t x = (int64_t)sp[-2], y = (int64_t)sp[-1];
    if (!y)
        goto divzero;
    if (x == INT64_MIN && y == -1)
        goto overflow;
    sp[-2] = (uint64_t)(x / y);
    sp--;
    NEXT;
}
L_I64_DIV_U: if (!sp[-1]) goto divzero; BIN64(x / y); NEXT;
L_I64_REM_S: {
    int64_t x = (int64_t)sp[-2], y = (int64_t)sp[-1];
    if (!y)
        goto divzero;
    sp[-2] = y == -1 ? 0 : (uint64_t)(x % y);
    sp--;
    NEXT;
}
L_I64_REM_U: if (!sp[-1]) goto divzero; BIN64(x % y); NEXT;
L_I64_AND: BIN64(x & y); NEXT;
L_I64_OR: BIN64(x | y); NEXT;
L_I64_XOR: BIN64(x ^ y); NEXT;
L_I64_SHL: BIN64(x << (y & 63)); NEXT;
L_I64_SHR_S: BIN64((uint64_t)((int64_t)x >> (y & 63))); NEXT;
L_I64_SHR_U: BIN64(x >> (y & 63)); NEXT;
L_I64_ROTL: BIN64(rotl64(x, y)); NEXT;
L_I64_ROTR: BIN64(rotr64(x, y)); NEXT;
L_I32_WRAP_I64: sp[-1] = (uint32_t)sp[-1]; NEXT;
L_I64_EXTEND_I32_S: sp[-1] = (uint64_t)(int64_t)(int32_t)(uint32_t)sp[-1]; NEXT;
L_I64_EXTEND_I32_U: sp[-1] = (uint32_t)sp[-1]; NEXT;
L_I32_EXTEND8_S: sp[-1] = (uint32_t)(int32_t)(int8_t)sp[-1]; NEXT;
L_I32_EXTEND16_S: sp[-1] = (uint32_t)(int32_t)(int16_t)sp[-1]; NEXT;
L_I64_EXTEND8_S: sp[-1] = (uint64_t)(int64_t)(int8_t)sp[-1]; NEXT;
L_I64_EXTEND16_S: sp[-1] = (uint64_t)(int64_t)(int16_t)sp[-1]; NEXT;
L_I64_EXTEND32_S: sp[-1] = (uint64_t)(int64_t)(int32_t)sp[-1]; NEXT;
/* fused pairs (peephole in compile.c): a = local, b = the second operand */
L_LGET_CONST_ADD32:
    *sp++ = (uint32_t)((uint32_t)fp[ip->a] + (uint32_t)ip->b);
    ip += 2;
    NEXT;
L_LGET_LGET:
    sp[0] = fp[ip->a];
    sp[1] = fp[(uint32_t)ip->b];
    sp += 2;
    ip++;
    NEXT;
L_LGET_LOAD32: {
    uint64_t ea = (uint64_t)(uint32_t)fp[ip->a] + (uint32_t)ip->b;
    uint32_t v;
    if (ea + 4 > mem_len)
        goto oob;
    memcpy(&v, mem + ea, 4);
    *sp++ = v;
    ip++;
    NEXT;
}
L_LGET_LOAD8U: {
    uint64_t ea = (uint64_t)(uint32_t)fp[ip->a] + (uint32_t)ip->b;
    if (ea + 1 > mem_len)
        goto oob;
    *sp++ = mem[ea];
    ip++;
    NEXT;
}
L_CONST_ADD32: /* an i32 operator with the constant before it; ip + 1 skipped */
    sp[-1] = (uint32_t)((uint32_t)sp[-1] + (uint32_t)ip->b);
    ip++;
    NEXT;
L_CONST_MUL32:
    sp[-1] = (uint32_t)((uint32_t)sp[-1] * (uint32_t)ip->b);
    ip++;
    NEXT;
L_CONST_AND32:
    sp[-1] = (uint32_t)sp[-1] & (uint32_t)ip->b;
    ip++;
    NEXT;
L_CONST_CONST:
    sp[0] = ip->b;
    sp[1] = ip[1].b;
    sp += 2;
    ip++;
    NEXT;
L_LGET_ADD32:
    sp[-1] = (uint32_t)((uint32_t)sp[-1] + (uint32_t)fp[ip->a]);
    ip++;
    NEXT;
/* folded i32 arithmetic (compile.c): a = instructions covered; b = c << 32
 * | m (or k); the local and k, where used, in the next slot */
L_AFF_CONST:
    *sp++ = ip->b;
    ip += ip->a;
    goto *labels[ip->op];
L_AFF_PUSHL:
    *sp++ = (uint32_t)((uint32_t)(ip->b >> 32) + (uint32_t)ip->b * (uint32_t)fp[ip[1].a]);
    ip += ip->a;
    goto *labels[ip->op];
L_AFF_PUSHL2: { /* this run's value, then the next run's (at ip + a) */
    const w_ins *j = ip + ip->a;
    sp[0] = (uint32_t)((uint32_t)(ip->b >> 32) + (uint32_t)ip->b * (uint32_t)fp[ip[1].a]);
    sp[1] = (uint32_t)((uint32_t)(j->b >> 32) + (uint32_t)j->b * (uint32_t)fp[j[1].a]);
    sp += 2;
    ip = j + j->a;
    goto *labels[ip->op];
}
L_AFF_TOP:
    sp[-1] = (uint32_t)((uint32_t)sp[-1] * (uint32_t)ip->b + (uint32_t)(ip->b >> 32));
    ip += ip->a;
    goto *labels[ip->op];
L_AFF_TOPL:
    sp[-1] = (uint32_t)((uint32_t)sp[-1] * (uint32_t)ip->b + (uint32_t)(ip->b >> 32) +
                        (uint32_t)ip[1].b * (uint32_t)fp[ip[1].a]);
    ip += ip->a;
    goto *labels[ip->op];

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
