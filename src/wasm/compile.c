/*
 * Validation of a function body (the specification's algorithm: a stack of
 * operand types and a stack of control frames, with the stack-polymorphic
 * state after an unconditional branch) and, in the same pass, its
 * translation into w_ins: branches carry their target pc, the operand
 * height to cut back to and the number of values they carry; forward
 * targets are patched when their frame ends.
 */
#include <stdlib.h>
#include <string.h>
#include "util/hugemem.h"
#include "wasm/compile.h"

enum { K_FUNC, K_BLOCK, K_LOOP, K_IF, K_ELSE };

typedef struct {
    uint8_t kind, arity, rtype, unreachable;
    uint32_t height, start_pc, if_pc;
} frame;

typedef struct {
    uint32_t depth, where;
    int in_table;
} fixup;

typedef struct {
    sp_wasm_rd *r;
    sp_wasm_module *m;
    w_func *f;
    uint8_t *locals; /* types */
    uint8_t *vals;
    uint32_t n_vals, cap_vals, max_height;
    frame *ctrl;
    uint32_t n_ctrl, cap_ctrl;
    w_ins *code;
    uint32_t n_code, cap_code;
    fixup *fix;
    uint32_t n_fix, cap_fix;
    uint32_t *targets;
    uint32_t n_targets, cap_targets;
} cstate;

/* Grows *p (elements of size sz) to hold one more; 1 or 0 (failed r). */
static int grow(cstate *c, void **p, uint32_t *cap, uint32_t n, size_t sz)
{
    if (n < *cap)
        return 1;
    uint32_t nc = *cap ? *cap * 2 : 64;
    if (nc < *cap || nc > (1u << 28))
        return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "function too large");
    void *q = realloc(*p, (size_t)nc * sz);
    if (!q)
        return sp_wasm_rd_fail(c->r, SP_ERR_NOMEM, "out of memory");
    *p = q;
    *cap = nc;
    return 1;
}

static int push(cstate *c, uint8_t t)
{
    if (!grow(c, (void **)&c->vals, &c->cap_vals, c->n_vals, 1))
        return 0;
    c->vals[c->n_vals++] = t;
    if (c->n_vals > c->max_height)
        c->max_height = c->n_vals;
    return 1;
}

/* Pops an operand of type want (0: any); *got its type (0 when unknown). */
static int pop(cstate *c, uint8_t want, uint8_t *got)
{
    frame *fr = &c->ctrl[c->n_ctrl - 1];
    uint8_t t = 0;
    if (c->n_vals == fr->height) {
        if (!fr->unreachable)
            return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "function %u: operand stack underflow",
                                   (unsigned)(c->f - c->m->funcs));
    } else {
        t = c->vals[--c->n_vals];
    }
    if (want && t && t != want)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "function %u: type mismatch (%s where %s is expected)",
                               (unsigned)(c->f - c->m->funcs), t == W_I32 ? "i32" : "i64",
                               want == W_I32 ? "i32" : "i64");
    if (got)
        *got = t;
    return 1;
}

static int emit(cstate *c, uint32_t op, uint32_t a, uint64_t b)
{
    if (!grow(c, (void **)&c->code, &c->cap_code, c->n_code, sizeof *c->code))
        return 0;
    c->code[c->n_code++] = (w_ins){op, a, b};
    return 1;
}

static int add_fixup(cstate *c, uint32_t depth, uint32_t where, int in_table)
{
    if (!grow(c, (void **)&c->fix, &c->cap_fix, c->n_fix, sizeof *c->fix))
        return 0;
    c->fix[c->n_fix++] = (fixup){depth, where, in_table};
    return 1;
}

static int block_type(cstate *c, uint8_t *arity, uint8_t *rtype)
{
    int64_t bt;
    if (!sp_wasm_rd_s33(c->r, &bt))
        return 0;
    *arity = 0;
    *rtype = 0;
    if (bt == -64) /* 0x40: empty */
        return 1;
    if (bt == -1 || bt == -2) { /* 0x7f i32, 0x7e i64 */
        *arity = 1;
        *rtype = bt == -1 ? W_I32 : W_I64;
        return 1;
    }
    if (bt < 0)
        return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "block type %lld", (long long)bt);
    if ((uint64_t)bt >= c->m->n_types)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "block type index %lld of %u", (long long)bt, c->m->n_types);
    const w_type *t = &c->m->types[bt];
    if (t->n_params)
        return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "block with parameters (multi-value)");
    *arity = t->n_results;
    *rtype = t->result;
    return 1;
}

static int push_frame(cstate *c, uint8_t kind, uint8_t arity, uint8_t rtype)
{
    if (!grow(c, (void **)&c->ctrl, &c->cap_ctrl, c->n_ctrl, sizeof *c->ctrl))
        return 0;
    c->ctrl[c->n_ctrl++] = (frame){kind, arity, rtype, 0, c->n_vals, c->n_code, 0};
    return 1;
}

static void set_unreachable(cstate *c)
{
    frame *fr = &c->ctrl[c->n_ctrl - 1];
    c->n_vals = fr->height;
    fr->unreachable = 1;
}

/* The values a branch to label l carries, checked on the stack (and left
 * there when keep). *target the frame. */
static int label_check(cstate *c, uint32_t l, int keep, frame **target)
{
    if (l >= c->n_ctrl)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "branch depth %u of %u", l, c->n_ctrl);
    frame *t = &c->ctrl[c->n_ctrl - 1 - l];
    *target = t;
    if (t->kind == K_LOOP || !t->arity)
        return 1;
    uint8_t got;
    if (!pop(c, t->rtype, &got))
        return 0;
    return keep ? push(c, got ? got : t->rtype) : 1;
}

/* Emits a branch op to frame t (depth l): pc now or on its end. */
static int emit_branch(cstate *c, uint32_t op, uint32_t l, const frame *t)
{
    uint32_t arity = t->kind == K_LOOP ? 0 : t->arity;
    uint64_t hb = (uint64_t)(t->height + c->f->n_locals) | (uint64_t)arity << 32;
    if (t->kind == K_LOOP)
        return emit(c, op, t->start_pc, hb);
    return add_fixup(c, c->n_ctrl - 1 - l, c->n_code, 0) && emit(c, op, 0, hb);
}

static int op_br_table(cstate *c)
{
    uint32_t n, l;
    uint8_t cond;
    if (!sp_wasm_rd_u32(c->r, &n))
        return 0;
    if ((uint64_t)n > (uint64_t)(c->r->end - c->r->p))
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "br_table of %u entries does not fit", n);
    if (!pop(c, W_I32, &cond))
        return 0;
    uint32_t first = c->n_targets;
    int arity = -1;
    for (uint32_t i = 0; i <= n; i++) {
        frame *t;
        if (!sp_wasm_rd_u32(c->r, &l))
            return 0;
        if (l >= c->n_ctrl)
            return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "br_table depth %u of %u", l, c->n_ctrl);
        t = &c->ctrl[c->n_ctrl - 1 - l];
        int a = t->kind == K_LOOP ? 0 : t->arity;
        if (arity >= 0 && a != arity)
            return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "br_table targets of different arities");
        arity = a;
        for (int k = 0; k < 3; k++)
            if (!grow(c, (void **)&c->targets, &c->cap_targets, c->n_targets, sizeof *c->targets))
                return 0;
        uint32_t at = c->n_targets;
        c->targets[at] = t->kind == K_LOOP ? t->start_pc : 0;
        c->targets[at + 1] = t->height + c->f->n_locals;
        c->targets[at + 2] = (uint32_t)a;
        c->n_targets += 3;
        if (t->kind != K_LOOP && !add_fixup(c, c->n_ctrl - 1 - l, at, 1))
            return 0;
        if (i == n && !label_check(c, l, 0, &t))
            return 0;
    }
    if (!emit(c, W_OP_BR_TABLE, first, n))
        return 0;
    set_unreachable(c);
    return 1;
}

/* Patches every branch to the frame at depth d to go to pc. */
static void patch(cstate *c, uint32_t d, uint32_t pc)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->n_fix; i++) {
        fixup x = c->fix[i];
        if (x.depth != d) {
            c->fix[k++] = x;
            continue;
        }
        if (x.in_table)
            c->targets[x.where] = pc;
        else
            c->code[x.where].a = pc;
    }
    c->n_fix = k;
}

static int op_end(cstate *c, int *done)
{
    frame fr = c->ctrl[c->n_ctrl - 1];
    uint8_t got = 0;
    if (fr.arity && !pop(c, fr.rtype, &got))
        return 0;
    if (c->n_vals != fr.height)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "function %u: %u values left at the end of a block",
                               (unsigned)(c->f - c->m->funcs), c->n_vals - fr.height);
    if (fr.kind == K_IF && fr.arity)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "if with a result but no else");
    if (fr.kind == K_IF)
        c->code[fr.if_pc].a = c->n_code;
    patch(c, c->n_ctrl - 1, c->n_code);
    c->n_ctrl--;
    if (fr.kind == K_FUNC) {
        *done = 1;
        return emit(c, W_OP_RETURN, 0, 0);
    }
    return fr.arity ? push(c, fr.rtype) : 1;
}

static int op_else(cstate *c)
{
    frame *fr = &c->ctrl[c->n_ctrl - 1];
    if (fr->kind != K_IF)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "else without if");
    if (fr->arity && !pop(c, fr->rtype, NULL))
        return 0;
    if (c->n_vals != fr->height)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "values left at else");
    if (!add_fixup(c, c->n_ctrl - 1, c->n_code, 0) || !emit(c, W_OP_JMP, 0, 0))
        return 0;
    c->code[fr->if_pc].a = c->n_code;
    fr->kind = K_ELSE;
    fr->unreachable = 0;
    return 1;
}

static int op_call(cstate *c, uint32_t fi, const w_type *t, uint32_t op, uint32_t a)
{
    (void)fi;
    for (int i = t->n_params - 1; i >= 0; i--)
        if (!pop(c, t->params[i], NULL))
            return 0;
    if (!emit(c, op, a, 0))
        return 0;
    return t->n_results ? push(c, t->result) : 1;
}

static int op_memory(cstate *c, uint8_t opc)
{
    static const struct {
        uint8_t op, store, type, align;
    } mem[] = {
        [0x28 - 0x28] = {W_OP_I32_LOAD, 0, W_I32, 2},     [0x29 - 0x28] = {W_OP_I64_LOAD, 0, W_I64, 3},
        [0x2c - 0x28] = {W_OP_I32_LOAD8_S, 0, W_I32, 0},  [0x2d - 0x28] = {W_OP_I32_LOAD8_U, 0, W_I32, 0},
        [0x2e - 0x28] = {W_OP_I32_LOAD16_S, 0, W_I32, 1}, [0x2f - 0x28] = {W_OP_I32_LOAD16_U, 0, W_I32, 1},
        [0x30 - 0x28] = {W_OP_I64_LOAD8_S, 0, W_I64, 0},  [0x31 - 0x28] = {W_OP_I64_LOAD8_U, 0, W_I64, 0},
        [0x32 - 0x28] = {W_OP_I64_LOAD16_S, 0, W_I64, 1}, [0x33 - 0x28] = {W_OP_I64_LOAD16_U, 0, W_I64, 1},
        [0x34 - 0x28] = {W_OP_I64_LOAD32_S, 0, W_I64, 2}, [0x35 - 0x28] = {W_OP_I64_LOAD32_U, 0, W_I64, 2},
        [0x36 - 0x28] = {W_OP_I32_STORE, 1, W_I32, 2},    [0x37 - 0x28] = {W_OP_I64_STORE, 1, W_I64, 3},
        [0x3a - 0x28] = {W_OP_I32_STORE8, 1, W_I32, 0},   [0x3b - 0x28] = {W_OP_I32_STORE16, 1, W_I32, 1},
        [0x3c - 0x28] = {W_OP_I64_STORE8, 1, W_I64, 0},   [0x3d - 0x28] = {W_OP_I64_STORE16, 1, W_I64, 1},
        [0x3e - 0x28] = {W_OP_I64_STORE32, 1, W_I64, 2},
    };
    uint32_t align, offset;
    if (opc == 0x2a || opc == 0x2b || opc == 0x38 || opc == 0x39)
        return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "float load or store (opcode 0x%02x)", opc);
    if (!c->m->has_memory)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "memory access without a memory");
    if (!sp_wasm_rd_u32(c->r, &align) || !sp_wasm_rd_u32(c->r, &offset))
        return 0;
    const __typeof__(mem[0]) *d = &mem[opc - 0x28];
    if (align > d->align)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "alignment 2^%u above the natural 2^%u", align, d->align);
    if (d->store)
        return pop(c, d->type, NULL) && pop(c, W_I32, NULL) && emit(c, d->op, offset, 0);
    return pop(c, W_I32, NULL) && emit(c, d->op, offset, 0) && push(c, d->type);
}

/* Numeric operators: 0x45..0x5a tests and comparisons, 0x67..0x8a
 * arithmetic, conversions and sign extensions. */
static int op_numeric(cstate *c, uint8_t opc)
{
    uint32_t op;
    uint8_t in, out, binary;
    if (opc >= 0x45 && opc <= 0x5a) {
        op = W_OP_I32_EQZ + (opc - 0x45u);
        in = opc < 0x50 ? W_I32 : W_I64;
        out = W_I32;
        binary = opc != 0x45 && opc != 0x50;
    } else if (opc >= 0x67 && opc <= 0x8a) {
        op = W_OP_I32_CLZ + (opc - 0x67u);
        in = out = opc < 0x79 ? W_I32 : W_I64;
        binary = !(opc <= 0x69 || (opc >= 0x79 && opc <= 0x7b));
    } else if (opc == 0xa7) {
        op = W_OP_I32_WRAP_I64, in = W_I64, out = W_I32, binary = 0;
    } else if (opc == 0xac || opc == 0xad) {
        op = opc == 0xac ? W_OP_I64_EXTEND_I32_S : W_OP_I64_EXTEND_I32_U, in = W_I32, out = W_I64, binary = 0;
    } else if (opc >= 0xc0 && opc <= 0xc4) {
        op = W_OP_I32_EXTEND8_S + (opc - 0xc0u);
        in = out = opc <= 0xc1 ? W_I32 : W_I64;
        binary = 0;
    } else if ((opc >= 0x5b && opc <= 0x66) || (opc >= 0x8b && opc <= 0xbf)) {
        return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "float operator 0x%02x (circom modules use none)", opc);
    } else {
        return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "opcode 0x%02x", opc);
    }
    if (binary && !pop(c, in, NULL))
        return 0;
    return pop(c, in, NULL) && emit(c, op, 0, 0) && push(c, out);
}

static int op_variable(cstate *c, uint8_t opc)
{
    uint32_t i;
    uint8_t t;
    if (!sp_wasm_rd_u32(c->r, &i))
        return 0;
    if (opc <= 0x22) {
        if (i >= c->f->n_locals)
            return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "local %u of %u", i, c->f->n_locals);
        t = c->locals[i];
        if (opc == 0x20)
            return emit(c, W_OP_LOCAL_GET, i, 0) && push(c, t);
        if (opc == 0x21)
            return pop(c, t, NULL) && emit(c, W_OP_LOCAL_SET, i, 0);
        return pop(c, t, NULL) && emit(c, W_OP_LOCAL_TEE, i, 0) && push(c, t);
    }
    if (i >= c->m->n_globals)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "global %u of %u", i, c->m->n_globals);
    t = c->m->globals[i].type;
    if (opc == 0x23)
        return emit(c, W_OP_GLOBAL_GET, i, 0) && push(c, t);
    if (!c->m->globals[i].mut)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "global.set of immutable global %u", i);
    return pop(c, t, NULL) && emit(c, W_OP_GLOBAL_SET, i, 0);
}

static int op_control(cstate *c, uint8_t opc, int *done)
{
    uint8_t arity, rtype, cond;
    uint32_t l;
    frame *t;
    switch (opc) {
    case 0x00:
        if (!emit(c, W_OP_UNREACHABLE, 0, 0))
            return 0;
        set_unreachable(c);
        return 1;
    case 0x01:
        return 1;
    case 0x02:
        return block_type(c, &arity, &rtype) && push_frame(c, K_BLOCK, arity, rtype);
    case 0x03:
        return block_type(c, &arity, &rtype) && push_frame(c, K_LOOP, arity, rtype) && emit(c, W_OP_LOOP, 0, 0);
    case 0x04:
        if (!block_type(c, &arity, &rtype) || !pop(c, W_I32, &cond) || !push_frame(c, K_IF, arity, rtype))
            return 0;
        c->ctrl[c->n_ctrl - 1].if_pc = c->n_code;
        return emit(c, W_OP_BR_UNLESS, 0, 0);
    case 0x05:
        return op_else(c);
    case 0x0b:
        return op_end(c, done);
    case 0x0c:
        if (!sp_wasm_rd_u32(c->r, &l) || !label_check(c, l, 0, &t) || !emit_branch(c, W_OP_BR, l, t))
            return 0;
        set_unreachable(c);
        return 1;
    case 0x0d:
        return sp_wasm_rd_u32(c->r, &l) && pop(c, W_I32, &cond) && label_check(c, l, 1, &t) &&
               emit_branch(c, W_OP_BR_IF, l, t);
    case 0x0e:
        return op_br_table(c);
    case 0x0f:
        if (!label_check(c, c->n_ctrl - 1, 0, &t) || !emit(c, W_OP_RETURN, 0, 0))
            return 0;
        set_unreachable(c);
        return 1;
    }
    return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "opcode 0x%02x", opc);
}

static int op_calls(cstate *c, uint8_t opc)
{
    uint32_t i, tab;
    if (!sp_wasm_rd_u32(c->r, &i))
        return 0;
    if (opc == 0x10) {
        if (i >= c->m->n_funcs)
            return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "call of function %u of %u", i, c->m->n_funcs);
        return op_call(c, i, &c->m->types[c->m->funcs[i].type], W_OP_CALL, i);
    }
    if (i >= c->m->n_types)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "call_indirect of type %u of %u", i, c->m->n_types);
    if (!sp_wasm_rd_u32(c->r, &tab))
        return 0;
    if (tab != 0 || !c->m->has_table)
        return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "call_indirect through table %u, which does not exist", tab);
    if (!pop(c, W_I32, NULL))
        return 0;
    return op_call(c, 0, &c->m->types[i], W_OP_CALL_INDIRECT, c->m->types[i].canon);
}

static int one_op(cstate *c, int *done)
{
    uint8_t opc, t1, t2, cond, zero;
    if (!sp_wasm_rd_u8(c->r, &opc))
        return 0;
    if (opc <= 0x0f)
        return op_control(c, opc, done);
    if (opc == 0x10 || opc == 0x11)
        return op_calls(c, opc);
    if (opc == 0x1a)
        return pop(c, 0, NULL) && emit(c, W_OP_DROP, 0, 0);
    if (opc == 0x1b) {
        if (!pop(c, W_I32, &cond) || !pop(c, 0, &t1) || !pop(c, 0, &t2))
            return 0;
        if (t1 && t2 && t1 != t2)
            return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "select of two types");
        return emit(c, W_OP_SELECT, 0, 0) && push(c, t1 ? t1 : t2);
    }
    if (opc >= 0x20 && opc <= 0x24)
        return op_variable(c, opc);
    if (opc >= 0x28 && opc <= 0x3e)
        return op_memory(c, opc);
    if (opc == 0x3f || opc == 0x40) {
        if (!sp_wasm_rd_u8(c->r, &zero))
            return 0;
        if (zero || !c->m->has_memory)
            return sp_wasm_rd_fail(c->r, SP_ERR_FORMAT, "memory.size/grow without memory 0");
        if (opc == 0x3f)
            return emit(c, W_OP_MEM_SIZE, 0, 0) && push(c, W_I32);
        return pop(c, W_I32, NULL) && emit(c, W_OP_MEM_GROW, 0, 0) && push(c, W_I32);
    }
    if (opc == 0x41) {
        int32_t v;
        return sp_wasm_rd_s32(c->r, &v) && emit(c, W_OP_CONST, 0, (uint32_t)v) && push(c, W_I32);
    }
    if (opc == 0x42) {
        int64_t v;
        return sp_wasm_rd_s64(c->r, &v) && emit(c, W_OP_CONST, 0, (uint64_t)v) && push(c, W_I64);
    }
    if (opc == 0x43 || opc == 0x44)
        return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "float constant (circom modules use none)");
    return op_numeric(c, opc);
}

static int read_locals(cstate *c, const w_type *t)
{
    uint32_t groups;
    uint64_t total = t->n_params;
    const uint8_t *save = c->r->p;
    if (!sp_wasm_rd_u32(c->r, &groups))
        return 0;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t k = t->n_params;
        if (pass) {
            if (!(c->locals = malloc(total ? total : 1)))
                return sp_wasm_rd_fail(c->r, SP_ERR_NOMEM, "out of memory");
            memcpy(c->locals, t->params, t->n_params);
            c->r->p = save;
            if (!sp_wasm_rd_u32(c->r, &groups))
                return 0;
        }
        for (uint32_t g = 0; g < groups; g++) {
            uint32_t n;
            uint8_t vt;
            if (!sp_wasm_rd_u32(c->r, &n) || !sp_wasm_rd_u8(c->r, &vt))
                return 0;
            if (vt != W_I32 && vt != W_I64)
                return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "local of type 0x%02x", vt);
            if (!pass) {
                total += n;
                if (total > c->m->lim.max_locals)
                    return sp_wasm_rd_fail(c->r, SP_ERR_UNSUPPORTED, "more than %u locals", c->m->lim.max_locals);
            } else {
                memset(c->locals + k, vt, n);
                k += n;
            }
        }
    }
    c->f->n_locals = (uint32_t)total;
    return 1;
}

/* Fuses frequent pairs and triples into one dispatch. The instructions
 * after the first stay as they were, so a branch into the middle of a
 * fused group still runs the plain sequence from there. */
static void fuse(w_ins *code, uint32_t n)
{
    for (uint32_t i = 0; i + 1 < n; i++) {
        w_ins *a = &code[i], *b = &code[i + 1];
        if (a->op == W_OP_CONST) {
            uint32_t op = b->op == W_OP_I32_ADD ? W_OP_CONST_ADD32 : b->op == W_OP_I32_MUL ? W_OP_CONST_MUL32
                        : b->op == W_OP_I32_AND ? W_OP_CONST_AND32 : b->op == W_OP_CONST ? W_OP_CONST_CONST : 0;
            if (op)
                a->op = op; /* the constant stays in b; CONST_CONST reads the second from the next slot */
            continue;
        }
        if (a->op != W_OP_LOCAL_GET)
            continue;
        if (b->op == W_OP_I32_ADD) {
            a->op = W_OP_LGET_ADD32;
            continue;
        }
        if (i + 2 < n && b->op == W_OP_CONST && code[i + 2].op == W_OP_I32_ADD)
            *a = (w_ins){W_OP_LGET_CONST_ADD32, a->a, (uint32_t)b->b};
        else if (b->op == W_OP_LOCAL_GET)
            *a = (w_ins){W_OP_LGET_LGET, a->a, b->a};
        else if (b->op == W_OP_I32_LOAD)
            *a = (w_ins){W_OP_LGET_LOAD32, a->a, b->a};
        else if (b->op == W_OP_I32_LOAD8_U)
            *a = (w_ins){W_OP_LGET_LOAD8U, a->a, b->a};
    }
}

/*
 * Folding of i32 address arithmetic. circom's code computes most addresses
 * with runs of i32.const, local.get, i32.add, i32.sub, i32.mul and i32.shl
 * by a constant: each run, with no branch target inside it, leaves either
 * one new value c + k L (L a local) or replaces the value under it, x, by
 * m x + c + k L, all modulo 2^32. Such a run becomes one instruction (the
 * AFF_ operations; the local and k, when there are any, in the slot after
 * it) that skips the rest of the run. AFF_PUSHL2 is an AFF_PUSHL whose
 * run is followed by another AFF_PUSHL's, not a branch target: both
 * values pushed, both runs skipped.
 */
typedef struct {
    uint8_t has_x, typed; /* depends on x; the result of an i32 operator */
    uint32_t m, c, k, l;  /* m x + c + k fp[l] */
} aff;

#define AFF_MAX_RUN 24

/* One step of the run on the symbolic stack st[*n] (x, when not yet
 * taken, is under it). Returns 0 when the instruction cannot be folded. */
static int aff_step(aff *st, int *n, int *x_taken, const w_ins *ins)
{
    if (ins->op == W_OP_CONST || ins->op == W_OP_LOCAL_GET) {
        if (*n == 4)
            return 0;
        st[(*n)++] = ins->op == W_OP_CONST ? (aff){0, 0, 0, (uint32_t)ins->b, 0, 0} : (aff){0, 0, 0, 0, 1, ins->a};
        return 1;
    }
    if (ins->op != W_OP_I32_ADD && ins->op != W_OP_I32_SUB && ins->op != W_OP_I32_MUL && ins->op != W_OP_I32_SHL)
        return 0;
    if (*n == 0)
        return 0;
    if (*n == 1) { /* the left operand is x */
        if (*x_taken)
            return 0;
        *x_taken = 1;
        st[1] = st[0];
        st[0] = (aff){1, 0, 1, 0, 0, 0};
        *n = 2;
    }
    aff a = st[*n - 2], b = st[*n - 1], r;
    int b_const = !b.has_x && !b.k, a_const = !a.has_x && !a.k;
    if (ins->op == W_OP_I32_MUL || ins->op == W_OP_I32_SHL) {
        if (ins->op == W_OP_I32_SHL) {
            if (!b_const)
                return 0;
            b.c = 1u << (b.c & 31);
        }
        if (!b_const && !a_const)
            return 0;
        aff v = b_const ? a : b;
        uint32_t s = b_const ? b.c : a.c;
        r = (aff){v.has_x, 1, v.m * s, v.c * s, v.k * s, v.l};
    } else {
        uint32_t sg = ins->op == W_OP_I32_SUB ? 0xffffffffu : 1u; /* b's sign */
        if ((a.has_x && b.has_x) || (a.k && b.k && a.l != b.l))
            return 0;
        r = (aff){a.has_x | b.has_x, 1, a.m + sg * b.m, a.c + sg * b.c, a.k + sg * b.k, a.k ? a.l : b.l};
    }
    st[*n - 2] = r;
    (*n)--;
    return 1;
}

/* The longest run from code[i] that folds: its length (0: none) and its
 * value in *out, *x_taken whether it replaces the value under it. */
static uint32_t aff_run(const w_ins *code, uint32_t n, uint32_t i, const uint8_t *target, aff *out, int *out_x)
{
    aff st[4];
    int depth = 0, x_taken = 0;
    uint32_t best = 0;
    for (uint32_t j = i; j < n && j - i < AFF_MAX_RUN; j++) {
        if ((j > i && target[j]) || !aff_step(st, &depth, &x_taken, &code[j]))
            break;
        /* a value of an i32 operator alone on the stack: with x taken it
         * replaces x; else it is pushed over x */
        if (depth == 1 && st[0].typed && st[0].has_x == x_taken && j - i >= 1) {
            best = j - i + 1;
            *out = st[0];
            *out_x = x_taken;
        }
    }
    return best;
}

static void fold_affine(w_ins *code, uint32_t n, uint8_t *target)
{
    for (uint32_t i = 0; i < n; i++) {
        aff v = {0};
        int x = 0;
        uint32_t len = aff_run(code, n, i, target, &v, &x);
        if (!len)
            continue;
        uint64_t mc = (uint64_t)v.c << 32 | (x ? v.m : v.k);
        if (!x && !v.k) {
            code[i] = (w_ins){W_OP_AFF_CONST, len, v.c};
        } else if (!x) {
            code[i] = (w_ins){W_OP_AFF_PUSHL, len, mc};
            code[i + 1] = (w_ins){W_OP_NOP, v.l, 0};
        } else {
            code[i] = (w_ins){v.k ? W_OP_AFF_TOPL : W_OP_AFF_TOP, len, mc};
            if (v.k)
                code[i + 1] = (w_ins){W_OP_NOP, v.l, v.k};
        }
        i += len - 1;
    }
    /* two pushes in a row (a native call's addresses): one dispatch */
    for (uint32_t i = 0; i < n; i++)
        if (code[i].op == W_OP_AFF_PUSHL && i + code[i].a < n && code[i + code[i].a].op == W_OP_AFF_PUSHL &&
            !target[i + code[i].a])
            code[i].op = W_OP_AFF_PUSHL2;
}

/* Marks in target[n] every pc a branch can reach. */
static void mark_targets(const w_ins *code, uint32_t n, const uint32_t *targets, uint8_t *target)
{
    memset(target, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = code[i].op;
        if (op == W_OP_BR || op == W_OP_BR_IF || op == W_OP_BR_UNLESS || op == W_OP_JMP) {
            if (code[i].a < n)
                target[code[i].a] = 1;
        } else if (op == W_OP_BR_TABLE) {
            for (uint64_t k = 0; k <= (uint32_t)code[i].b; k++)
                if (targets[code[i].a + 3 * k] < n)
                    target[targets[code[i].a + 3 * k]] = 1;
        }
    }
}

/* The translated code's home: blocks from sp_huge_alloc, the first sized
 * by m->code_hint, so a large module's code sits on a few huge pages
 * instead of one fresh small page per 4 KiB. Returns where code[0..n) was
 * copied, or NULL when out of memory. */
static w_ins *code_put(sp_wasm_module *m, const w_ins *code, uint32_t n)
{
    _Static_assert(sizeof(w_chunk) % sizeof(w_ins) == 0, "the code after a block's header stays aligned");
    w_chunk *k = m->code_mem;
    if (!k || k->cap - k->used < n) {
        uint32_t cap = k ? k->cap : m->code_hint;
        if (cap < n)
            cap = n;
        if (cap < 1024)
            cap = 1024;
        w_chunk *nk = sp_huge_alloc(sizeof *nk + (size_t)cap * sizeof(w_ins));
        if (!nk)
            return NULL;
        *nk = (w_chunk){k, 0, cap};
        m->code_mem = k = nk;
    }
    w_ins *dst = (w_ins *)(k + 1) + k->used;
    memcpy(dst, code, (size_t)n * sizeof *code);
    k->used += n;
    return dst;
}

void sp_wasm_code_free(sp_wasm_module *m)
{
    for (w_chunk *k = m->code_mem, *next; k; k = next) {
        next = k->next;
        sp_huge_free(k);
    }
    m->code_mem = NULL;
    free(m->scratch);
    m->scratch = NULL;
    m->cap_scratch = 0;
}

int sp_wasm_compile(sp_wasm_rd *r, sp_wasm_module *m, uint32_t fidx)
{
    cstate c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.m = m;
    c.f = &m->funcs[fidx];
    c.code = m->scratch; /* the previous function's buffer: its pages are already there */
    c.cap_code = m->cap_scratch;
    const w_type *t = &m->types[c.f->type];
    int done = 0, ok = read_locals(&c, t) && push_frame(&c, K_FUNC, t->n_results, t->result);
    while (ok && !done && r->p < r->end)
        ok = one_op(&c, &done);
    if (ok && !done)
        ok = sp_wasm_rd_fail(r, SP_ERR_FORMAT, "function %u: body ends inside a block", fidx);
    if (ok && r->p != r->end)
        ok = sp_wasm_rd_fail(r, SP_ERR_FORMAT, "function %u: bytes after the final end", fidx);
    free(c.locals);
    free(c.vals);
    free(c.ctrl);
    free(c.fix);
    m->scratch = c.code;
    m->cap_scratch = c.cap_code;
    uint8_t *target = ok ? malloc(c.n_code) : NULL;
    if (ok && !target)
        ok = sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    if (!ok) {
        free(c.targets);
        return 0;
    }
    mark_targets(c.code, c.n_code, c.targets, target);
    fold_affine(c.code, c.n_code, target);
    free(target);
    fuse(c.code, c.n_code);
    if (!(c.f->code = code_put(m, c.code, c.n_code))) {
        free(c.targets);
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    }
    c.f->n_code = c.n_code;
    c.f->targets = c.targets;
    c.f->max_height = c.max_height + 1;
    return 1;
}
