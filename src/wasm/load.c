/*
 * Loading a module: the binary format's sections, read with every length,
 * count and index checked against what is left and what exists; the code
 * of each function validated (the operand-stack typing of the
 * specification) and translated into the interpreter's form as it is
 * read (compile.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/hugemem.h"
#include "wasm/compile.h"
#include "wasm/internal.h"
#include "wasm/reader.h"

sp_wasm_limits sp_wasm_limits_default(void)
{
    sp_wasm_limits l;
    l.max_pages = 65536;
    l.max_functions = 1u << 20;
    l.max_locals = 50000;
    l.max_call_depth = 65536;
    l.max_stack = 1u << 24;
    l.max_seconds = 0;
    return l;
}

static int count(sp_wasm_rd *r, uint32_t *n, size_t min_item, uint32_t cap, const char *what)
{
    if (!sp_wasm_rd_u32(r, n))
        return 0;
    if ((uint64_t)*n * min_item > (uint64_t)(r->end - r->p))
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "%u %s do not fit in what is left", *n, what);
    if (*n > cap)
        return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "%u %s, more than the limit %u", *n, what, cap);
    return 1;
}

/* A name: length-prefixed UTF-8 (checked only for NULs; it is compared
 * byte for byte). Returns a new string or NULL after failing r. */
static char *name(sp_wasm_rd *r)
{
    uint32_t n;
    if (!count(r, &n, 1, 1u << 20, "name bytes"))
        return NULL;
    if (memchr(r->p, 0, n)) {
        sp_wasm_rd_fail(r, SP_ERR_FORMAT, "a name holds a NUL byte");
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(s, r->p, n);
    s[n] = 0;
    r->p += n;
    return s;
}

static int valtype(sp_wasm_rd *r, uint8_t *t)
{
    if (!sp_wasm_rd_u8(r, t))
        return 0;
    if (*t == W_I32 || *t == W_I64)
        return 1;
    if (*t == 0x7d || *t == 0x7c || *t == 0x7b || *t == 0x70 || *t == 0x6f)
        return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "value type 0x%02x (circom modules use i32 and i64 only)", *t);
    return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "bad value type 0x%02x", *t);
}

static int limits(sp_wasm_rd *r, uint32_t *min, uint32_t *max, int *has_max, uint32_t cap)
{
    uint8_t flag;
    if (!sp_wasm_rd_u8(r, &flag) || !sp_wasm_rd_u32(r, min))
        return 0;
    if (flag > 1)
        return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "limits flag 0x%02x (shared memory or 64-bit)", flag);
    *has_max = flag;
    *max = cap;
    if (flag && !sp_wasm_rd_u32(r, max))
        return 0;
    if (*min > *max)
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "limits: minimum %u above maximum %u", *min, *max);
    return 1;
}

static int sec_types(sp_wasm_rd *r, sp_wasm_module *m)
{
    if (!count(r, &m->n_types, 3, 1u << 20, "types"))
        return 0;
    if (!(m->types = calloc(m->n_types ? m->n_types : 1, sizeof *m->types)))
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < m->n_types; i++) {
        w_type *t = &m->types[i];
        uint8_t form;
        uint32_t np, nr;
        if (!sp_wasm_rd_u8(r, &form))
            return 0;
        if (form != 0x60)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "type %u: form 0x%02x, expected 0x60", i, form);
        if (!count(r, &np, 1, W_MAX_PARAMS, "parameters"))
            return 0;
        t->n_params = (uint8_t)np;
        for (uint32_t k = 0; k < np; k++)
            if (!valtype(r, &t->params[k]))
                return 0;
        if (!count(r, &nr, 1, 1, "results (multi-value)"))
            return 0;
        t->n_results = (uint8_t)nr;
        if (nr && !valtype(r, &t->result))
            return 0;
        t->canon = i;
        for (uint32_t k = 0; k < i; k++)
            if (m->types[k].n_params == np && m->types[k].n_results == nr &&
                (!nr || m->types[k].result == t->result) && !memcmp(m->types[k].params, t->params, np)) {
                t->canon = k;
                break;
            }
    }
    return 1;
}

static int sec_imports(sp_wasm_rd *r, sp_wasm_module *m)
{
    uint32_t n;
    if (!count(r, &n, 4, 10000, "imports"))
        return 0;
    free(m->funcs);
    if (!(m->funcs = calloc(n ? n : 1, sizeof *m->funcs)) || !(m->imp_module = calloc(n ? n : 1, sizeof(char *))) ||
        !(m->imp_field = calloc(n ? n : 1, sizeof(char *))))
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        uint8_t kind;
        uint32_t ti;
        m->n_imports = i + 1; /* first: the names are freed with the module even when one fails */
        if (!(m->imp_module[i] = name(r)) || !(m->imp_field[i] = name(r)) || !sp_wasm_rd_u8(r, &kind))
            return 0;
        if (kind != 0)
            return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "import %s.%s is not a function (kind %u)",
                                   m->imp_module[i], m->imp_field[i], kind);
        if (!sp_wasm_rd_u32(r, &ti))
            return 0;
        if (ti >= m->n_types)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "import %u: type %u of %u", i, ti, m->n_types);
        m->funcs[i].type = ti;
        m->funcs[i].native = -1;
    }
    m->n_funcs = m->n_imports;
    return 1;
}

static int sec_functions(sp_wasm_rd *r, sp_wasm_module *m)
{
    uint32_t n;
    if (!count(r, &n, 1, m->lim.max_functions, "functions"))
        return 0;
    w_func *f = realloc(m->funcs, ((size_t)m->n_imports + n + 1) * sizeof *f);
    if (!f)
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    m->funcs = f;
    memset(f + m->n_imports, 0, ((size_t)n + 1) * sizeof *f);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ti;
        if (!sp_wasm_rd_u32(r, &ti))
            return 0;
        if (ti >= m->n_types)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "function %u: type %u of %u", i, ti, m->n_types);
        f[m->n_imports + i].type = ti;
        f[m->n_imports + i].native = -1;
    }
    m->n_funcs = m->n_imports + n;
    return 1;
}

static int sec_table(sp_wasm_rd *r, sp_wasm_module *m)
{
    uint32_t n, min, max;
    uint8_t et;
    int has_max;
    if (!count(r, &n, 3, 1, "tables"))
        return 0;
    if (!n)
        return 1;
    if (!sp_wasm_rd_u8(r, &et))
        return 0;
    if (et != 0x70)
        return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "table of element type 0x%02x", et);
    if (!limits(r, &min, &max, &has_max, 1u << 24))
        return 0;
    if (min > (1u << 24))
        return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "table of %u entries", min);
    m->has_table = 1;
    m->table_size = min;
    if (!(m->table_init = calloc(min ? min : 1, sizeof *m->table_init)))
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    return 1;
}

static int sec_memory(sp_wasm_rd *r, sp_wasm_module *m)
{
    uint32_t n, min, max;
    int has_max;
    if (!count(r, &n, 2, 1, "memories"))
        return 0;
    if (!n)
        return 1;
    if (!limits(r, &min, &max, &has_max, 65536))
        return 0;
    if (max > 65536)
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "memory maximum %u pages, above 65536", max);
    if (min > m->lim.max_pages)
        return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "memory of %u pages, above the limit of %u", min,
                               m->lim.max_pages);
    m->has_memory = 1;
    m->mem_min = min;
    m->mem_max = max < m->lim.max_pages ? max : m->lim.max_pages;
    return 1;
}

/* A constant expression: t.const value end (globals, offsets). */
static int const_expr(sp_wasm_rd *r, uint8_t want, uint64_t *v)
{
    uint8_t op, end;
    if (!sp_wasm_rd_u8(r, &op))
        return 0;
    if (op == 0x41 && want == W_I32) {
        int32_t x;
        if (!sp_wasm_rd_s32(r, &x))
            return 0;
        *v = (uint32_t)x;
    } else if (op == 0x42 && want == W_I64) {
        int64_t x;
        if (!sp_wasm_rd_s64(r, &x))
            return 0;
        *v = (uint64_t)x;
    } else {
        return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "constant expression opcode 0x%02x for %s", op,
                               want == W_I32 ? "i32" : "i64");
    }
    if (!sp_wasm_rd_u8(r, &end))
        return 0;
    return end == 0x0b ? 1 : sp_wasm_rd_fail(r, SP_ERR_FORMAT, "constant expression not ended");
}

static int sec_globals(sp_wasm_rd *r, sp_wasm_module *m)
{
    if (!count(r, &m->n_globals, 4, 100000, "globals"))
        return 0;
    if (!(m->globals = calloc(m->n_globals ? m->n_globals : 1, sizeof *m->globals)))
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < m->n_globals; i++) {
        w_global *g = &m->globals[i];
        if (!valtype(r, &g->type) || !sp_wasm_rd_u8(r, &g->mut))
            return 0;
        if (g->mut > 1)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "global %u: mutability %u", i, g->mut);
        if (!const_expr(r, g->type, &g->init))
            return 0;
    }
    return 1;
}

static int sec_exports(sp_wasm_rd *r, sp_wasm_module *m)
{
    if (!count(r, &m->n_exports, 3, 100000, "exports"))
        return 0;
    if (!(m->exports = calloc(m->n_exports ? m->n_exports : 1, sizeof *m->exports)))
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < m->n_exports; i++) {
        w_export *e = &m->exports[i];
        uint8_t kind;
        if (!(e->name = name(r)) || !sp_wasm_rd_u8(r, &kind) || !sp_wasm_rd_u32(r, &e->index))
            return 0;
        e->kind = kind;
        uint32_t lim = kind == 0 ? m->n_funcs : kind == 1 ? (uint32_t)m->has_table
                     : kind == 2 ? (uint32_t)m->has_memory : kind == 3 ? m->n_globals : 0;
        if (kind > 3)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "export %s: kind %u", e->name, kind);
        if (e->index >= lim)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "export %s: index %u of %u", e->name, e->index, lim);
        for (uint32_t k = 0; k < i; k++)
            if (!strcmp(m->exports[k].name, e->name))
                return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "export %s twice", e->name);
    }
    return 1;
}

static int sec_elements(sp_wasm_rd *r, sp_wasm_module *m)
{
    uint32_t n;
    if (!count(r, &n, 5, 100000, "element segments"))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t flags, len;
        uint64_t off;
        if (!sp_wasm_rd_u32(r, &flags))
            return 0;
        if (flags != 0)
            return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "element segment %u: form %u (only active, table 0)", i,
                                   flags);
        if (!m->has_table)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "element segment %u without a table", i);
        if (!const_expr(r, W_I32, &off) || !count(r, &len, 1, 1u << 24, "elements"))
            return 0;
        if (off + len > m->table_size)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "element segment %u: entries %llu..%llu of a table of %u", i,
                                   (unsigned long long)off, (unsigned long long)(off + len), m->table_size);
        for (uint32_t k = 0; k < len; k++) {
            uint32_t fi;
            if (!sp_wasm_rd_u32(r, &fi))
                return 0;
            if (fi >= m->n_funcs)
                return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "element segment %u: function %u of %u", i, fi,
                                       m->n_funcs);
            m->table_init[off + k] = fi + 1;
        }
    }
    return 1;
}

static int sec_data(sp_wasm_rd *r, sp_wasm_module *m)
{
    if (!count(r, &m->n_data, 4, 1u << 20, "data segments"))
        return 0;
    if (!(m->data = calloc(m->n_data ? m->n_data : 1, sizeof *m->data)))
        return sp_wasm_rd_fail(r, SP_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < m->n_data; i++) {
        uint32_t flags;
        uint64_t off;
        if (!sp_wasm_rd_u32(r, &flags))
            return 0;
        if (flags != 0)
            return sp_wasm_rd_fail(r, SP_ERR_UNSUPPORTED, "data segment %u: form %u (only active, memory 0)", i,
                                   flags);
        if (!m->has_memory)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "data segment %u without a memory", i);
        if (!const_expr(r, W_I32, &off) || !count(r, &m->data[i].len, 1, UINT32_MAX, "data bytes"))
            return 0;
        m->data[i].offset = (uint32_t)off;
        m->data[i].bytes = r->p;
        r->p += m->data[i].len;
    }
    return 1;
}

/* The "name" section's function names; anything malformed there is
 * ignored (a custom section never makes a module invalid). */
static void sec_names(sp_wasm_rd *outer, sp_wasm_module *m)
{
    char scratch[SP_ERR_LEN];
    sp_wasm_rd r = {outer->base, outer->p, outer->end, SP_OK, scratch};
    while (r.p < r.end && r.st == SP_OK) {
        uint8_t id;
        uint32_t size, n;
        if (!sp_wasm_rd_u8(&r, &id) || !sp_wasm_rd_u32(&r, &size) || size > (size_t)(r.end - r.p))
            return;
        const uint8_t *next = r.p + size;
        if (id == 1 && count(&r, &n, 2, 1u << 24, "names")) {
            for (uint32_t i = 0; i < n && r.st == SP_OK; i++) {
                uint32_t fi;
                char *s;
                if (!sp_wasm_rd_u32(&r, &fi) || !(s = name(&r)))
                    return;
                if (fi < m->n_funcs && !m->funcs[fi].name)
                    m->funcs[fi].name = s;
                else
                    free(s);
            }
        }
        r.p = next;
    }
}

/* Marks the defined functions that a native replaces. */
static void bind_natives(sp_wasm_module *m)
{
    for (uint32_t f = m->n_imports; f < m->n_funcs; f++) {
        if (!m->funcs[f].name)
            continue;
        for (size_t k = 0; k < m->n_natives; k++) {
            w_type t;
            const w_type *ft = &m->types[m->funcs[f].type];
            if (strcmp(m->natives[k].name, m->funcs[f].name) || sp_wasm_sig_parse(&t, m->natives[k].sig))
                continue;
            if (t.n_params == ft->n_params && t.n_results == ft->n_results && (!t.n_results || t.result == ft->result) &&
                !memcmp(t.params, ft->params, t.n_params))
                m->funcs[f].native = (int)k;
        }
    }
}

static int sec_start(sp_wasm_rd *r, sp_wasm_module *m)
{
    uint32_t fi;
    if (!sp_wasm_rd_u32(r, &fi))
        return 0;
    if (fi >= m->n_funcs)
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "start function %u of %u", fi, m->n_funcs);
    const w_type *t = &m->types[m->funcs[fi].type];
    if (t->n_params || t->n_results)
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "start function %u takes or returns values", fi);
    m->start = fi;
    return 1;
}

static int sec_code(sp_wasm_rd *r, sp_wasm_module *m)
{
    uint32_t n;
    if (!count(r, &n, 2, m->lim.max_functions, "function bodies"))
        return 0;
    if (n != m->n_funcs - m->n_imports)
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "%u function bodies for %u functions", n, m->n_funcs - m->n_imports);
    /* about one instruction per byte of code, at most 64 MiB of it at first */
    size_t bytes = (size_t)(r->end - r->p);
    m->code_hint = bytes < ((size_t)1 << 22) ? (uint32_t)bytes : (uint32_t)1 << 22;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t size;
        if (!count(r, &size, 1, UINT32_MAX, "body bytes"))
            return 0;
        sp_wasm_rd body = {r->base, r->p, r->p + size, SP_OK, r->err};
        if (!sp_wasm_compile(&body, m, m->n_imports + i)) {
            r->st = body.st;
            return 0;
        }
        r->p += size;
    }
    free(m->scratch); /* the translation's buffer, no longer needed */
    m->scratch = NULL;
    m->cap_scratch = 0;
    return 1;
}

typedef int (*section_fn)(sp_wasm_rd *r, sp_wasm_module *m);

static int sections(sp_wasm_rd *r, sp_wasm_module *m)
{
    static const section_fn fns[] = {NULL,        sec_types,  sec_imports, sec_functions, sec_table,
                                     sec_memory,  sec_globals, sec_exports, sec_start,     sec_elements,
                                     sec_code,    sec_data};
    static const uint8_t pos[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 10}; /* 12 (data count) sits before code */
    unsigned last = 0;
    int have_code = 0;
    while (r->p < r->end) {
        uint8_t id;
        uint32_t size;
        if (!sp_wasm_rd_u8(r, &id) || !count(r, &size, 1, UINT32_MAX, "section bytes"))
            return 0;
        sp_wasm_rd s = {r->base, r->p, r->p + size, SP_OK, r->err};
        if (id == 0) {
            char *nm = name(&s);
            if (!nm) {
                r->st = s.st;
                return 0;
            }
            if (!strcmp(nm, "name"))
                sec_names(&s, m);
            free(nm);
        } else if (id > 12) {
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "unknown section %u", id);
        } else {
            if (pos[id] <= last)
                return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "section %u out of order or repeated", id);
            last = pos[id];
            if (id == 12) {
                uint32_t dc;
                if (!sp_wasm_rd_u32(&s, &dc)) {
                    r->st = s.st;
                    return 0;
                }
            } else if (!fns[id](&s, m)) {
                r->st = s.st;
                return 0;
            }
            if (s.p != s.end)
                return sp_wasm_rd_fail(&s, SP_ERR_FORMAT, "section %u: %zu bytes left over", id,
                                       (size_t)(s.end - s.p));
            have_code |= id == 10;
        }
        r->p += size;
    }
    if (m->n_funcs > m->n_imports && !have_code)
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "functions declared but no code section");
    return 1;
}

static void free_funcs(sp_wasm_module *m)
{
    sp_wasm_code_free(m); /* every function's code */
    for (uint32_t i = 0; m->funcs && i < m->n_funcs; i++) {
        free(m->funcs[i].targets);
        free(m->funcs[i].name);
    }
    free(m->funcs);
}

void sp_wasm_module_free(sp_wasm_module *m)
{
    if (!m)
        return;
    free_funcs(m);
    for (uint32_t i = 0; i < m->n_imports; i++) {
        free(m->imp_module[i]);
        free(m->imp_field[i]);
    }
    free(m->imp_module);
    free(m->imp_field);
    for (uint32_t i = 0; m->exports && i < m->n_exports; i++)
        free(m->exports[i].name);
    free(m->exports);
    free(m->types);
    free(m->globals);
    free(m->table_init);
    free(m->data);
    free(m->natives);
    sp_huge_free(m->bytes);
    free(m);
}

/* The code section is compiled before the custom name section is read
 * (it comes last), so natives are bound in a second pass over the call
 * instructions once the names are known. */
static void rebind_calls(sp_wasm_module *m)
{
    bind_natives(m);
    for (uint32_t f = m->n_imports; f < m->n_funcs; f++)
        for (uint32_t i = 0; i < m->funcs[f].n_code; i++) {
            w_ins *in = &m->funcs[f].code[i];
            if (in->op == W_OP_CALL && in->a >= m->n_imports && m->funcs[in->a].native >= 0) {
                const w_type *t = &m->types[m->funcs[in->a].type];
                int k = m->funcs[in->a].native;
                in->op = k < W_CALLN ? W_OP_CALLN_0 + (uint32_t)k : W_OP_CALL_NATIVE;
                in->b = (uint64_t)m->funcs[in->a].native | (uint64_t)t->n_params << 8 | (uint64_t)t->n_results << 16;
            }
        }
}

sp_status sp_wasm_module_load(sp_wasm_module **out, const uint8_t *bytes, size_t len, const sp_wasm_native *natives,
                              size_t n_natives, const sp_wasm_limits *lim, char err[SP_ERR_LEN])
{
    static const uint8_t magic[8] = {0, 'a', 's', 'm', 1, 0, 0, 0};
    *out = NULL;
    err[0] = 0;
    sp_wasm_module *m = calloc(1, sizeof *m);
    if (!m || !(m->bytes = sp_huge_alloc(len))) {
        free(m);
        snprintf(err, SP_ERR_LEN, "wasm: out of memory");
        return SP_ERR_NOMEM;
    }
    memcpy(m->bytes, bytes, len);
    m->lim = lim ? *lim : sp_wasm_limits_default();
    if (m->lim.max_pages > 65536)
        m->lim.max_pages = 65536;
    m->start = -1;
    if (n_natives > 256)
        n_natives = 256; /* the index travels in 8 bits (rebind_calls) */
    if (n_natives && (m->natives = malloc(n_natives * sizeof *natives))) {
        memcpy(m->natives, natives, n_natives * sizeof *natives);
        m->n_natives = n_natives;
    }
    sp_wasm_rd r = {m->bytes, m->bytes, m->bytes + len, SP_OK, err};
    if (len < 8 || memcmp(bytes, magic, 8)) {
        snprintf(err, SP_ERR_LEN, "wasm: not a WebAssembly 1.0 module (the first 8 bytes are not \\0asm 1 0 0 0)");
        sp_wasm_module_free(m);
        return SP_ERR_FORMAT;
    }
    r.p += 8;
    if (!m->funcs && !(m->funcs = calloc(1, sizeof *m->funcs)))
        sp_wasm_rd_fail(&r, SP_ERR_NOMEM, "out of memory");
    if (r.st == SP_OK && !sections(&r, m) && r.st == SP_OK)
        sp_wasm_rd_fail(&r, SP_ERR_FORMAT, "functions declared without their section");
    if (r.st != SP_OK) {
        sp_wasm_module_free(m);
        return r.st;
    }
    rebind_calls(m);
    *out = m;
    return SP_OK;
}

size_t sp_wasm_import_count(const sp_wasm_module *m)
{
    return m->n_imports;
}

void sp_wasm_import_name(const sp_wasm_module *m, size_t i, const char **module, const char **field)
{
    *module = m->imp_module[i];
    *field = m->imp_field[i];
}

void sp_wasm_import_sig(const sp_wasm_module *m, size_t i, char sig[16])
{
    sp_wasm_sig_write(sig, &m->types[m->funcs[i].type]);
}

int sp_wasm_sig_parse(w_type *t, const char *sig)
{
    memset(t, 0, sizeof *t);
    const char *p = sig;
    for (; *p && *p != ':'; p++) {
        if (t->n_params == W_MAX_PARAMS || (*p != 'i' && *p != 'l'))
            return -1;
        t->params[t->n_params++] = *p == 'i' ? W_I32 : W_I64;
    }
    if (*p++ != ':')
        return -1;
    if (*p) {
        if ((*p != 'i' && *p != 'l') || p[1])
            return -1;
        t->n_results = 1;
        t->result = *p == 'i' ? W_I32 : W_I64;
    }
    return 0;
}

void sp_wasm_sig_write(char out[16], const w_type *t)
{
    size_t k = 0;
    for (unsigned i = 0; i < t->n_params && k < 11; i++)
        out[k++] = t->params[i] == W_I32 ? 'i' : 'l';
    if (k < t->n_params)
        out[k++] = '.', out[k++] = '.', out[k++] = '.';
    out[k++] = ':';
    if (t->n_results)
        out[k++] = t->result == W_I32 ? 'i' : 'l';
    out[k] = 0;
}

int sp_wasm_export_func(const sp_wasm_module *m, const char *nm, const char *sig)
{
    w_type t;
    if (sp_wasm_sig_parse(&t, sig))
        return -1;
    for (uint32_t i = 0; i < m->n_exports; i++) {
        const w_export *e = &m->exports[i];
        if (e->kind != 0 || strcmp(e->name, nm))
            continue;
        const w_type *ft = &m->types[m->funcs[e->index].type];
        if (ft->n_params != t.n_params || ft->n_results != t.n_results || (t.n_results && ft->result != t.result) ||
            memcmp(ft->params, t.params, t.n_params))
            return -1;
        return (int)e->index;
    }
    return -1;
}

int sp_wasm_func_by_name(const sp_wasm_module *m, const char *nm)
{
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (m->funcs[i].name && !strcmp(m->funcs[i].name, nm))
            return (int)i;
    return -1;
}
