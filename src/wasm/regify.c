/*
 * The register form (internal.h) from validated stack code: every operand
 * a slot of the frame, fixed at load from the operand height validation
 * recorded. A value that local.get or a constant pushes is not copied
 * onto the stack but left pending, and the instruction that takes it
 * reads the local (or, for the W_KOPS operators, the constant) directly;
 * a result that local.set or local.tee takes is written straight into the
 * local. Pending values are written to their stack slots (materialized)
 * wherever the stack must be real: before a branch or a branch target
 * (so that every path into a pc agrees: nothing pending there), a call's
 * arguments, and every pending read of a local about to be set.
 * Unreachable code is dropped.
 */
#include <stdlib.h>
#include <string.h>
#include "wasm/compile.h"

enum { P_SLOT, P_LOCAL, P_CONST };

typedef struct {
    uint32_t kind, l; /* l: the local of P_LOCAL */
    uint64_t v;       /* the value of P_CONST */
} pend;

typedef struct {
    sp_wasm_rd *r;
    const w_sins *s;
    uint32_t n;
    const uint8_t *target;
    uint32_t nl, npos; /* locals; operand positions (slots nl + q) */
    pend *p;           /* [npos] */
    uint32_t n_pend;   /* entries of p not P_SLOT */
    w_ins *out;
    uint32_t n_out, cap_out;
    int ok;
} rstate;

static void out(rstate *rs, uint32_t op, uint32_t d, uint32_t x, uint32_t y, uint64_t k)
{
    if (!rs->ok)
        return;
    if (rs->n_out == rs->cap_out) {
        uint32_t nc = rs->cap_out ? rs->cap_out * 2 : 64;
        w_ins *q = nc > (1u << 28) ? NULL : realloc(rs->out, (size_t)nc * sizeof *q);
        if (!q) {
            rs->ok = sp_wasm_rd_fail(rs->r, SP_ERR_NOMEM, "out of memory");
            return;
        }
        rs->out = q;
        rs->cap_out = nc;
    }
    rs->out[rs->n_out++] = (w_ins){op, d, x, y, k};
}

/* 1 when position q is in the frame; else the translation fails (never
 * for validated reachable code: a guard for the interpreter's bounds). */
static int in_frame(rstate *rs, uint32_t q)
{
    if (q < rs->npos)
        return 1;
    if (rs->ok)
        rs->ok = sp_wasm_rd_fail(rs->r, SP_ERR_FORMAT, "operand position %u outside the frame", q);
    return 0;
}

static void set_pend(rstate *rs, uint32_t q, uint32_t kind, uint32_t l, uint64_t v)
{
    if (!in_frame(rs, q))
        return;
    rs->n_pend += (kind != P_SLOT) - (rs->p[q].kind != P_SLOT);
    rs->p[q] = (pend){kind, l, v};
}

/* Writes the pending value at q into its slot (with the next, when both
 * are 32-bit constants, in one instruction). */
static void materialize(rstate *rs, uint32_t q)
{
    pend e = rs->p[q];
    if (e.kind == P_LOCAL) {
        out(rs, W_OP_MOV, rs->nl + q, e.l, 0, 0);
    } else if (e.kind == P_CONST) {
        const pend *f = q + 1 < rs->npos ? &rs->p[q + 1] : NULL;
        if (f && f->kind == P_CONST && e.v <= UINT32_MAX && f->v <= UINT32_MAX) {
            out(rs, W_OP_CONST2, rs->nl + q, 0, 0, e.v | f->v << 32);
            set_pend(rs, q + 1, P_SLOT, 0, 0);
        } else {
            out(rs, W_OP_CONST, rs->nl + q, 0, 0, e.v);
        }
    }
    set_pend(rs, q, P_SLOT, 0, 0);
}

static void flush_range(rstate *rs, uint32_t from, uint32_t to)
{
    for (uint32_t q = from; rs->n_pend && q < to && q < rs->npos; q++)
        if (rs->p[q].kind != P_SLOT)
            materialize(rs, q);
}

static void flush_all(rstate *rs)
{
    flush_range(rs, 0, rs->npos);
}

static void flush_local(rstate *rs, uint32_t l)
{
    for (uint32_t q = 0; rs->n_pend && q < rs->npos; q++)
        if (rs->p[q].kind == P_LOCAL && rs->p[q].l == l)
            materialize(rs, q);
}

/* Takes the operand at position q: the slot to read it from. */
static uint32_t operand(rstate *rs, uint32_t q)
{
    if (!in_frame(rs, q))
        return 0;
    if (rs->p[q].kind == P_CONST)
        materialize(rs, q);
    uint32_t slot = rs->p[q].kind == P_LOCAL ? rs->p[q].l : rs->nl + q;
    set_pend(rs, q, P_SLOT, 0, 0);
    return slot;
}

/* The slot for a result at position q, the instruction after it at
 * s[next]: that local.set's or local.tee's local when there is one to
 * take it (*next moved past it), else the position's own slot. */
static uint32_t result(rstate *rs, uint32_t q, uint32_t *next)
{
    if (!in_frame(rs, q))
        return 0;
    const w_sins *nx = *next < rs->n ? &rs->s[*next] : NULL;
    if (nx && !rs->target[*next] && !nx->dead && (nx->op == W_OP_LOCAL_SET || nx->op == W_OP_LOCAL_TEE)) {
        flush_local(rs, nx->a);
        (*next)++;
        if (nx->op == W_OP_LOCAL_TEE)
            set_pend(rs, q, P_LOCAL, nx->a, 0);
        return nx->a;
    }
    set_pend(rs, q, P_SLOT, 0, 0);
    return rs->nl + q;
}

static int is_unary(uint32_t op)
{
    return op == W_OP_I32_EQZ || op == W_OP_I64_EQZ || (op >= W_OP_I32_CLZ && op <= W_OP_I32_POPCNT) ||
           (op >= W_OP_I64_CLZ && op <= W_OP_I64_POPCNT) || op >= W_OP_I32_WRAP_I64;
}

static int commutes(uint32_t op)
{
    return op == W_OP_I32_EQ || op == W_OP_I32_NE || op == W_OP_I32_ADD || op == W_OP_I32_MUL ||
           op == W_OP_I32_AND || op == W_OP_I32_OR || op == W_OP_I32_XOR || op == W_OP_I64_EQ ||
           op == W_OP_I64_NE || op == W_OP_I64_ADD || op == W_OP_I64_MUL || op == W_OP_I64_AND ||
           op == W_OP_I64_OR || op == W_OP_I64_XOR;
}

static const uint16_t kform[W_N_OPS] = {
#define W_KFORM(n) [W_OP_##n] = W_OP_##n##_K,
    W_KOPS(W_KFORM)
#undef W_KFORM
};

static void numeric(rstate *rs, const w_sins *in, uint32_t *next)
{
    uint32_t h = in->h, op = in->op;
    if (is_unary(op)) {
        uint32_t x = operand(rs, h);
        out(rs, op, result(rs, h, next), x, 0, 0);
        return;
    }
    if (!in_frame(rs, h + 1))
        return;
    const pend *a = &rs->p[h], *b = &rs->p[h + 1];
    if (kform[op] && (b->kind == P_CONST || (a->kind == P_CONST && commutes(op)))) {
        uint32_t kq = b->kind == P_CONST ? h + 1 : h;
        uint64_t k = rs->p[kq].v;
        set_pend(rs, kq, P_SLOT, 0, 0);
        uint32_t x = operand(rs, kq == h ? h + 1 : h);
        out(rs, kform[op], result(rs, h, next), x, 0, k);
        return;
    }
    uint32_t y = operand(rs, h + 1), x = operand(rs, h);
    out(rs, op, result(rs, h, next), x, y, 0);
}

static void call(rstate *rs, const w_sins *in, const sp_wasm_module *m)
{
    uint32_t h = in->h;
    if (in->op == W_OP_CALL) {
        flush_range(rs, h, h + m->types[m->funcs[in->a].type].n_params);
        out(rs, W_OP_CALL, in->a, rs->nl + h, 0, 0);
    } else {
        uint32_t np = m->types[in->a].n_params, idx = operand(rs, h + np);
        flush_range(rs, h, h + np);
        out(rs, W_OP_CALL_INDIRECT, in->a, rs->nl + h, idx, 0);
    }
    /* the result (or nothing) is at h; every position above is dead */
    set_pend(rs, h, P_SLOT, 0, 0);
}

static void reset(rstate *rs)
{
    memset(rs->p, 0, rs->npos * sizeof *rs->p);
    rs->n_pend = 0;
}

/* Branches, returns and traps; 1 when the instruction was one. */
static int control(rstate *rs, const w_sins *in, const sp_wasm_module *m, const w_func *f)
{
    uint32_t h = in->h, src, cond, dst = (uint32_t)in->b, arity = (uint32_t)(in->b >> 32);
    switch (in->op) {
    case W_OP_UNREACHABLE:
        out(rs, W_OP_UNREACHABLE, 0, 0, 0, 0);
        break;
    case W_OP_BR:
        src = arity ? operand(rs, h) : 0;
        flush_all(rs);
        if (arity && src != dst)
            out(rs, W_OP_BR_MOV, in->a, src, dst, 0);
        else
            out(rs, W_OP_JMP, in->a, 0, 0, 0);
        break;
    case W_OP_BR_IF:
        cond = operand(rs, h);
        flush_all(rs);
        if (arity && rs->nl + h - 1 != dst)
            out(rs, W_OP_BR_IF_MOV, in->a, cond, dst, rs->nl + h - 1);
        else
            out(rs, W_OP_BR_IF, in->a, cond, 0, 0);
        return 1;
    case W_OP_BR_UNLESS:
        cond = operand(rs, h);
        flush_all(rs);
        out(rs, W_OP_BR_UNLESS, in->a, cond, 0, 0);
        return 1;
    case W_OP_JMP:
        flush_all(rs);
        out(rs, W_OP_JMP, in->a, 0, 0, 0);
        break;
    case W_OP_BR_TABLE:
        arity = f->targets[in->a + 2];
        cond = operand(rs, h + arity);
        flush_all(rs);
        out(rs, W_OP_BR_TABLE, in->a, cond, rs->nl + h, in->b);
        break;
    case W_OP_RETURN: /* the frame ends: nothing else need be written */
        src = m->types[f->type].n_results ? operand(rs, h) : 0;
        out(rs, W_OP_RETURN, 0, src, 0, 0);
        break;
    default:
        return 0;
    }
    reset(rs); /* what follows is reached only by a branch: nothing pending */
    return 1;
}

static void local_set(rstate *rs, const w_sins *in)
{
    uint32_t h = in->h, l = in->a;
    if (!in_frame(rs, h))
        return;
    if (rs->p[h].kind == P_CONST) {
        uint64_t v = rs->p[h].v;
        set_pend(rs, h, P_SLOT, 0, 0);
        flush_local(rs, l);
        out(rs, W_OP_CONST, l, 0, 0, v);
    } else {
        uint32_t src = operand(rs, h);
        flush_local(rs, l);
        if (src != l)
            out(rs, W_OP_MOV, l, src, 0, 0);
    }
    if (in->op == W_OP_LOCAL_TEE)
        set_pend(rs, h, P_LOCAL, l, 0);
}

/* The folded runs (compile.c): m x + c + k L, with L and k in s[i + 1]. */
static void affine(rstate *rs, const w_sins *s, uint32_t i, uint32_t *next)
{
    const w_sins *in = &s[i];
    uint32_t h = in->h, mk = (uint32_t)in->b, c = (uint32_t)(in->b >> 32), x;
    if (in->op == W_OP_AFF_CONST) {
        set_pend(rs, h, P_CONST, 0, (uint32_t)in->b);
        return;
    }
    if (in->op == W_OP_AFF_PUSHL) {
        out(rs, W_OP_AFF_PUSHL, result(rs, h, next), 0, s[i + 1].a, in->b);
        return;
    }
    if (!in_frame(rs, h - 1))
        return;
    if (in->op == W_OP_AFF_TOP && rs->p[h - 1].kind == P_CONST) {
        set_pend(rs, h - 1, P_CONST, 0, (uint32_t)((uint32_t)rs->p[h - 1].v * mk + c));
        return;
    }
    x = operand(rs, h - 1);
    if (in->op == W_OP_AFF_TOP) {
        out(rs, W_OP_AFF_TOP, result(rs, h - 1, next), x, 0, in->b);
        return;
    }
    uint64_t kl = (uint32_t)s[i + 1].b;
    if (mk != 1) { /* m x + c first, into x's own slot */
        out(rs, W_OP_AFF_TOP, rs->nl + h - 1, x, 0, in->b);
        x = rs->nl + h - 1;
    } else {
        kl |= (uint64_t)c << 32;
    }
    out(rs, W_OP_AFF_TOPL1, result(rs, h - 1, next), x, s[i + 1].a, kl);
}

static void one(rstate *rs, const sp_wasm_module *m, const w_func *f, uint32_t i, uint32_t *next)
{
    const w_sins *in = &rs->s[i];
    uint32_t h = in->h, op = in->op, x, y;
    if (control(rs, in, m, f))
        return;
    switch (op) {
    case W_OP_NOP:
        return;
    case W_OP_LOOP:
        out(rs, W_OP_LOOP, 0, 0, 0, 0);
        return;
    case W_OP_CALL:
    case W_OP_CALL_INDIRECT:
        call(rs, in, m);
        return;
    case W_OP_DROP:
        if (in_frame(rs, h))
            set_pend(rs, h, P_SLOT, 0, 0);
        return;
    case W_OP_SELECT: {
        uint32_t c = operand(rs, h + 2);
        y = operand(rs, h + 1);
        x = operand(rs, h);
        out(rs, W_OP_SELECT, result(rs, h, next), x, y, c);
        return;
    }
    case W_OP_LOCAL_GET:
        set_pend(rs, h, P_LOCAL, in->a, 0);
        return;
    case W_OP_CONST:
        set_pend(rs, h, P_CONST, 0, in->b);
        return;
    case W_OP_LOCAL_SET:
    case W_OP_LOCAL_TEE:
        local_set(rs, in);
        return;
    case W_OP_GLOBAL_GET:
        out(rs, op, result(rs, h, next), in->a, 0, 0);
        return;
    case W_OP_GLOBAL_SET:
        x = operand(rs, h);
        out(rs, op, in->a, x, 0, 0);
        return;
    case W_OP_MEM_SIZE:
        out(rs, op, result(rs, h, next), 0, 0, 0);
        return;
    case W_OP_MEM_GROW:
        x = operand(rs, h);
        out(rs, op, result(rs, h, next), x, 0, 0);
        return;
    case W_OP_AFF_CONST:
    case W_OP_AFF_PUSHL:
    case W_OP_AFF_TOP:
    case W_OP_AFF_TOPL:
        affine(rs, rs->s, i, next);
        return;
    }
    if (op >= W_OP_I32_LOAD && op <= W_OP_I64_LOAD32_U) {
        x = operand(rs, h);
        out(rs, op, result(rs, h, next), x, 0, in->a);
    } else if (op >= W_OP_I32_STORE && op <= W_OP_I64_STORE32) {
        y = operand(rs, h + 1);
        x = operand(rs, h);
        out(rs, op, 0, x, y, in->a);
    } else if (op >= W_OP_I32_EQZ && op <= W_OP_I64_EXTEND32_S) {
        numeric(rs, in, next);
    } else if (rs->ok) {
        rs->ok = sp_wasm_rd_fail(rs->r, SP_ERR_FORMAT, "internal: stack operation %u", op);
    }
}

static int is_affine(uint32_t op)
{
    return op == W_OP_AFF_CONST || op == W_OP_AFF_PUSHL || op == W_OP_AFF_TOP || op == W_OP_AFF_TOPL;
}

static int is_branch(uint32_t op)
{
    return op == W_OP_JMP || op == W_OP_BR_MOV || op == W_OP_BR_IF || op == W_OP_BR_IF_MOV || op == W_OP_BR_UNLESS;
}

int sp_wasm_regify(sp_wasm_rd *r, const sp_wasm_module *m, w_func *f, const w_sins *s, uint32_t n,
                   const uint8_t *target)
{
    rstate rs = {r, s, n, target, f->n_locals, f->max_height, NULL, 0, NULL, 0, 0, 1};
    uint32_t *pc = malloc(((size_t)n + 1) * sizeof *pc);
    rs.p = calloc(rs.npos ? rs.npos : 1, sizeof *rs.p);
    if (!pc || !rs.p) {
        free(pc);
        free(rs.p);
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < n && rs.ok;) {
        if (target[i])
            flush_all(&rs);
        pc[i] = rs.n_out;
        uint32_t next = i + 1;
        if (is_affine(s[i].op))
            next = i + s[i].a;
        if (s[i].dead)
            reset(&rs);
        else
            one(&rs, m, f, i, &next);
        for (uint32_t j = i + 1; j < next && j < n; j++)
            pc[j] = pc[i]; /* inside a folded run or a taken local.set: no branch lands there */
        i = next;
    }
    pc[n] = rs.n_out;
    /* targets, in stack-form pcs (all < n: the final return is never dead) */
    for (uint32_t i = 0; rs.ok && i < rs.n_out; i++)
        if (is_branch(rs.out[i].op))
            rs.out[i].d = pc[rs.out[i].d];
    for (uint32_t i = 0; rs.ok && i < n; i++)
        if (s[i].op == W_OP_BR_TABLE)
            for (uint64_t k = 0; k <= (uint32_t)s[i].b; k++)
                f->targets[s[i].a + 3 * k] = pc[f->targets[s[i].a + 3 * k]];
    free(pc);
    free(rs.p);
    if (!rs.ok) {
        free(rs.out);
        return 0;
    }
    f->code = rs.out;
    f->n_code = rs.n_out;
    return 1;
}
