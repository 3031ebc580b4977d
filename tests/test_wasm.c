/*
 * The WebAssembly interpreter (wasm/wasm.h) and circom's witness protocol
 * (wasm/circom.h):
 *   - every integer operator against its C definition, on random and edge
 *     operands; loads and stores of every width, at the memory's edge;
 *     control flow (blocks, loops, br_table, calls, recursion,
 *     call_indirect); random runs of i32 address arithmetic, which the
 *     translation folds, against a C stack machine, across if/else joins;
 *   - traps (division by zero, overflow, out-of-bounds access, unreachable,
 *     a call_indirect of the wrong type or a null entry) and limits (time,
 *     call depth, memory growth) end the call with a message;
 *   - invalid modules are refused with a message (type errors, indices out
 *     of range, floats, bad magic), and every truncation and random byte
 *     flips of a valid module load or are refused without a crash;
 *   - on the committed circom modules (tests/vectors/<circuit>_<curve>):
 *     each native field operation against the module's own code on random
 *     operands below the prime, and the witness, natives on and off, equal
 *     to snarkjs' witness.wtns byte for byte.
 */
#include <string.h>
#include "test.h"
#include "wasm/circom.h"
#include "wasm/wasm.h"

/* ---- a small module assembler ---- */

typedef struct {
    uint8_t b[1 << 16];
    size_t n;
} buf;

static void put(buf *o, const void *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void u8(buf *o, uint8_t v) { o->b[o->n++] = v; }
static void uleb(buf *o, uint64_t v)
{
    do {
        uint8_t x = v & 0x7f;
        v >>= 7;
        u8(o, (uint8_t)(x | (v ? 0x80 : 0)));
    } while (v);
}
static void section(buf *o, uint8_t id, const buf *s)
{
    u8(o, id);
    uleb(o, s->n);
    put(o, s->b, s->n);
}

/* A module of n functions: sigs[i] in sp_wasm_native's notation, bodies[i]
 * the body bytes after the locals declaration (locals[i] i64 locals),
 * each exported as "f<i>"; one memory page (max 2); a table holding
 * functions table[0..n_table) when n_table > 0. */
static size_t build(uint8_t *out, int n, const char *const *sigs, const buf *bodies, const int *locals,
                    const int *table, int n_table)
{
    static buf o, s, t;
    o.n = 0;
    put(&o, "\0asm\1\0\0\0", 8);
    s.n = 0;
    uleb(&s, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        const char *p = sigs[i], *colon = strchr(p, ':');
        u8(&s, 0x60);
        uleb(&s, (uint64_t)(colon - p));
        for (; p < colon; p++)
            u8(&s, *p == 'i' ? 0x7f : 0x7e);
        uleb(&s, colon[1] ? 1 : 0);
        if (colon[1])
            u8(&s, colon[1] == 'i' ? 0x7f : 0x7e);
    }
    section(&o, 1, &s);
    s.n = 0;
    uleb(&s, (uint64_t)n);
    for (int i = 0; i < n; i++)
        uleb(&s, (uint64_t)i);
    section(&o, 3, &s);
    if (n_table) {
        s.n = 0;
        put(&s, "\1\x70\0", 3);
        uleb(&s, (uint64_t)n_table + 1);
        section(&o, 4, &s);
    }
    s.n = 0;
    put(&s, "\1\1\1\2", 4);
    section(&o, 5, &s);
    s.n = 0;
    uleb(&s, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        char nm[8];
        int k = snprintf(nm, sizeof nm, "f%d", i);
        uleb(&s, (uint64_t)k);
        put(&s, nm, (size_t)k);
        u8(&s, 0);
        uleb(&s, (uint64_t)i);
    }
    section(&o, 7, &s);
    if (n_table) {
        s.n = 0;
        put(&s, "\1\0\x41\0\x0b", 5);
        uleb(&s, (uint64_t)n_table);
        for (int i = 0; i < n_table; i++)
            uleb(&s, (uint64_t)table[i]);
        section(&o, 9, &s);
    }
    s.n = 0;
    uleb(&s, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        t.n = 0;
        if (locals && locals[i]) {
            put(&t, "\1", 1);
            uleb(&t, (uint64_t)locals[i]);
            u8(&t, 0x7e);
        } else {
            u8(&t, 0);
        }
        put(&t, bodies[i].b, bodies[i].n);
        uleb(&s, t.n);
        put(&s, t.b, t.n);
    }
    section(&o, 10, &s);
    memcpy(out, o.b, o.n);
    return o.n;
}

static uint8_t mod_bytes[1 << 16];

/* Loads and instantiates a one-function module; NULL on failure (checked). */
static sp_wasm_inst *one(sp_wasm_module **m, const char *sig, const buf *body, const sp_wasm_limits *lim)
{
    char err[SP_ERR_LEN];
    sp_wasm_inst *in = NULL;
    size_t n = build(mod_bytes, 1, &sig, body, NULL, NULL, 0);
    sp_status st = sp_wasm_module_load(m, mod_bytes, n, NULL, 0, lim, err);
    CHECKF(st == SP_OK, "%s", err);
    if (st == SP_OK) {
        st = sp_wasm_instantiate(&in, *m, NULL, NULL, err);
        CHECKF(st == SP_OK, "%s", err);
    }
    return in;
}

/* ---- operators against C ---- */

static uint64_t edge_or_random(sp_rng *rng)
{
    static const uint64_t edges[] = {0, 1, 2, 31, 32, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff,
                                     0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, ~1ull};
    uint64_t r = sp_rng_u64(rng);
    return r % 3 == 0 ? edges[(r >> 8) % (sizeof edges / sizeof edges[0])] : sp_rng_u64(rng) >> (r % 64);
}

/* The C definition of binary operator opc on x, y; 0 = traps. */
static int ref_binary(uint64_t *r, uint8_t opc, uint64_t x, uint64_t y)
{
    uint32_t a = (uint32_t)x, b = (uint32_t)y;
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    int64_t sx = (int64_t)x, sy = (int64_t)y;
    switch (opc) {
    case 0x46: *r = a == b; return 1;
    case 0x47: *r = a != b; return 1;
    case 0x48: *r = sa < sb; return 1;
    case 0x49: *r = a < b; return 1;
    case 0x4a: *r = sa > sb; return 1;
    case 0x4b: *r = a > b; return 1;
    case 0x4c: *r = sa <= sb; return 1;
    case 0x4d: *r = a <= b; return 1;
    case 0x4e: *r = sa >= sb; return 1;
    case 0x4f: *r = a >= b; return 1;
    case 0x51: *r = x == y; return 1;
    case 0x52: *r = x != y; return 1;
    case 0x53: *r = sx < sy; return 1;
    case 0x54: *r = x < y; return 1;
    case 0x55: *r = sx > sy; return 1;
    case 0x56: *r = x > y; return 1;
    case 0x57: *r = sx <= sy; return 1;
    case 0x58: *r = x <= y; return 1;
    case 0x59: *r = sx >= sy; return 1;
    case 0x5a: *r = x >= y; return 1;
    case 0x6a: *r = (uint32_t)(a + b); return 1;
    case 0x6b: *r = (uint32_t)(a - b); return 1;
    case 0x6c: *r = (uint32_t)(a * b); return 1;
    case 0x6d: if (!b || (sa == INT32_MIN && sb == -1)) return 0; *r = (uint32_t)(sa / sb); return 1;
    case 0x6e: if (!b) return 0; *r = a / b; return 1;
    case 0x6f: if (!b) return 0; *r = sb == -1 ? 0 : (uint32_t)(sa % sb); return 1;
    case 0x70: if (!b) return 0; *r = a % b; return 1;
    case 0x71: *r = a & b; return 1;
    case 0x72: *r = a | b; return 1;
    case 0x73: *r = a ^ b; return 1;
    case 0x74: *r = (uint32_t)(a << (b % 32)); return 1;
    case 0x75: *r = (uint32_t)(sa >> (b % 32)); return 1;
    case 0x76: *r = a >> (b % 32); return 1;
    case 0x77: *r = (uint32_t)((a << (b % 32)) | (b % 32 ? a >> (32 - b % 32) : 0)); return 1;
    case 0x78: *r = (uint32_t)((a >> (b % 32)) | (b % 32 ? a << (32 - b % 32) : 0)); return 1;
    case 0x7c: *r = x + y; return 1;
    case 0x7d: *r = x - y; return 1;
    case 0x7e: *r = x * y; return 1;
    case 0x7f: if (!y || (sx == INT64_MIN && sy == -1)) return 0; *r = (uint64_t)(sx / sy); return 1;
    case 0x80: if (!y) return 0; *r = x / y; return 1;
    case 0x81: if (!y) return 0; *r = sy == -1 ? 0 : (uint64_t)(sx % sy); return 1;
    case 0x82: if (!y) return 0; *r = x % y; return 1;
    case 0x83: *r = x & y; return 1;
    case 0x84: *r = x | y; return 1;
    case 0x85: *r = x ^ y; return 1;
    case 0x86: *r = x << (y % 64); return 1;
    case 0x87: *r = (uint64_t)(sx >> (y % 64)); return 1;
    case 0x88: *r = x >> (y % 64); return 1;
    case 0x89: *r = (x << (y % 64)) | (y % 64 ? x >> (64 - y % 64) : 0); return 1;
    case 0x8a: *r = (x >> (y % 64)) | (y % 64 ? x << (64 - y % 64) : 0); return 1;
    }
    return -1;
}

static uint64_t ref_unary(uint8_t opc, uint64_t x)
{
    uint32_t a = (uint32_t)x;
    unsigned k;
    switch (opc) {
    case 0x45: return a == 0;
    case 0x50: return x == 0;
    case 0x67: for (k = 0; k < 32 && !(a & (0x80000000u >> k)); k++) {} return k;
    case 0x68: for (k = 0; k < 32 && !(a & (1u << k)); k++) {} return k;
    case 0x69: for (k = 0; a; a &= a - 1) k++; return k;
    case 0x79: for (k = 0; k < 64 && !(x & (1ull << 63 >> k)); k++) {} return k;
    case 0x7a: for (k = 0; k < 64 && !(x & (1ull << k)); k++) {} return k;
    case 0x7b: for (k = 0; x; x &= x - 1) k++; return k;
    case 0xa7: return a;
    case 0xac: return (uint64_t)(int64_t)(int32_t)a;
    case 0xad: return a;
    case 0xc0: return (uint32_t)(int32_t)(int8_t)(uint8_t)a;
    case 0xc1: return (uint32_t)(int32_t)(int16_t)(uint16_t)a;
    case 0xc2: return (uint64_t)(int64_t)(int8_t)(uint8_t)x;
    case 0xc3: return (uint64_t)(int64_t)(int16_t)(uint16_t)x;
    case 0xc4: return (uint64_t)(int64_t)(int32_t)(uint32_t)x;
    }
    return 0;
}

static void test_binary(sp_rng *rng)
{
    for (int opc = 0x46; opc <= 0x8a; opc++) {
        uint64_t r = 0;
        if (opc == 0x50 || (opc > 0x5a && opc < 0x6a) || (opc >= 0x79 && opc <= 0x7b))
            continue;
        int is64 = (opc >= 0x51 && opc <= 0x5a) || opc >= 0x7c;
        int cmp = opc <= 0x5a;
        const char *sig = is64 ? (cmp ? "ll:i" : "ll:l") : "ii:i";
        buf body = {{0}, 0};
        put(&body, "\x20\0\x20\1", 4);
        u8(&body, (uint8_t)opc);
        u8(&body, 0x0b);
        sp_wasm_module *m = NULL;
        sp_wasm_inst *in = one(&m, sig, &body, NULL);
        int f = m ? sp_wasm_export_func(m, "f0", sig) : -1;
        CHECK(f == 0);
        for (int it = 0; in && it < sp_test_iters(300); it++) {
            uint64_t args[2] = {edge_or_random(rng), edge_or_random(rng)}, got = 0;
            char err[SP_ERR_LEN];
            if (!is64)
                args[0] = (uint32_t)args[0], args[1] = (uint32_t)args[1];
            int ok = ref_binary(&r, (uint8_t)opc, args[0], args[1]);
            sp_status st = sp_wasm_call(in, f, args, &got, err);
            CHECKF(ok ? st == SP_OK && got == r : st != SP_OK && strstr(err, "integer"),
                   "opcode 0x%02x (%llx, %llx): %llx, expected %llx (%s)", opc, (unsigned long long)args[0],
                   (unsigned long long)args[1], (unsigned long long)got, (unsigned long long)r, ok ? "" : err);
        }
        sp_wasm_inst_free(in);
        sp_wasm_module_free(m);
    }
}

static void test_unary(sp_rng *rng)
{
    static const struct {
        uint8_t opc;
        const char *sig;
    } ops[] = {{0x45, "i:i"}, {0x50, "l:i"}, {0x67, "i:i"}, {0x68, "i:i"}, {0x69, "i:i"}, {0x79, "l:l"},
               {0x7a, "l:l"}, {0x7b, "l:l"}, {0xa7, "l:i"}, {0xac, "i:l"}, {0xad, "i:l"}, {0xc0, "i:i"},
               {0xc1, "i:i"}, {0xc2, "l:l"}, {0xc3, "l:l"}, {0xc4, "l:l"}};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        buf body = {{0}, 0};
        put(&body, "\x20\0", 2);
        u8(&body, ops[k].opc);
        u8(&body, 0x0b);
        sp_wasm_module *m = NULL;
        sp_wasm_inst *in = one(&m, ops[k].sig, &body, NULL);
        for (int it = 0; in && it < sp_test_iters(300); it++) {
            uint64_t x = edge_or_random(rng), got = 0;
            char err[SP_ERR_LEN];
            if (ops[k].sig[0] == 'i')
                x = (uint32_t)x;
            CHECK(sp_wasm_call(in, 0, &x, &got, err) == SP_OK);
            CHECKF(got == ref_unary(ops[k].opc, x), "opcode 0x%02x (%llx)", ops[k].opc, (unsigned long long)x);
        }
        sp_wasm_inst_free(in);
        sp_wasm_module_free(m);
    }
}

/* store(addr, v) with width w then load back with every load of that
 * width; the edge of memory traps. */
static void test_memory(sp_rng *rng)
{
    static const struct {
        uint8_t store, load_u, load_s, bytes;
    } w[] = {{0x3a, 0x2d, 0x2c, 1}, {0x3b, 0x2f, 0x2e, 2}, {0x36, 0x28, 0x28, 4}, {0x37, 0x29, 0x29, 8}};
    for (size_t k = 0; k < 4; k++) {
        const char *sigs[3] = {k == 3 ? "il:" : "ii:", k == 3 ? "i:l" : "i:i", k == 3 ? "i:l" : "i:i"};
        buf b[3] = {{{0}, 0}, {{0}, 0}, {{0}, 0}};
        put(&b[0], "\x20\0\x20\1", 4);
        u8(&b[0], w[k].store);
        put(&b[0], "\0\3\x0b", 3); /* align 0, offset 3 */
        put(&b[1], "\x20\0", 2);
        u8(&b[1], w[k].load_u);
        put(&b[1], "\0\3\x0b", 3);
        put(&b[2], "\x20\0", 2);
        u8(&b[2], w[k].load_s);
        put(&b[2], "\0\3\x0b", 3);
        size_t n = build(mod_bytes, 3, sigs, b, NULL, NULL, 0);
        sp_wasm_module *m;
        sp_wasm_inst *in;
        char err[SP_ERR_LEN];
        CHECK(sp_wasm_module_load(&m, mod_bytes, n, NULL, 0, NULL, err) == SP_OK);
        CHECK(sp_wasm_instantiate(&in, m, NULL, NULL, err) == SP_OK);
        for (int it = 0; it < sp_test_iters(200); it++) {
            uint64_t addr = sp_rng_u64(rng) % (65536 - 3 - w[k].bytes + 1), v = sp_rng_u64(rng), got;
            uint64_t mask = w[k].bytes == 8 ? ~0ull : (1ull << (8 * w[k].bytes)) - 1;
            uint64_t args[2] = {addr, k == 3 ? v : (uint32_t)v};
            CHECK(sp_wasm_call(in, 0, args, NULL, err) == SP_OK);
            CHECK(sp_wasm_call(in, 1, &addr, &got, err) == SP_OK && got == (v & mask & (k == 3 ? ~0ull : 0xffffffffu)));
            uint64_t sx = w[k].bytes >= 4 ? (v & mask) : (uint64_t)(uint32_t)(int32_t)(
                              w[k].bytes == 1 ? (int8_t)(uint8_t)v : (int16_t)(uint16_t)v);
            CHECK(sp_wasm_call(in, 2, &addr, &got, err) == SP_OK && got == (k == 3 ? v : (uint32_t)sx));
        }
        uint64_t edge[3] = {65536 - 3 - w[k].bytes + 1, 0xffffffffu, 65536};
        for (int e = 0; e < 3; e++) {
            uint64_t args[2] = {edge[e], 1}, got;
            CHECKF(sp_wasm_call(in, 1, &edge[e], &got, err) != SP_OK && strstr(err, "out of bounds"),
                   "load at %llu", (unsigned long long)edge[e]);
            CHECK(sp_wasm_call(in, 0, args, NULL, err) != SP_OK && strstr(err, "out of bounds"));
        }
        sp_wasm_inst_free(in);
        sp_wasm_module_free(m);
    }
}

/* sum(n) = n + (n-1) + ... with block/loop/br_if; fact(n) recursive;
 * dispatch(k) through br_table; call_indirect checks. */
static void test_control(sp_rng *rng)
{
    const char *sigs[5] = {"i:i", "l:l", "i:i", "i:i", "ii:i"};
    buf b[5] = {{{0}, 0}, {{0}, 0}, {{0}, 0}, {{0}, 0}, {{0}, 0}};
    /* f0: local i64 acc; block loop (n == 0 -> br 1) acc += n; n -= 1; br 0 end end; acc wrapped */
    put(&b[0], "\x02\x40\x03\x40\x20\0\x45\x0d\1\x20\1\x20\0\xad\x7c\x21\1\x20\0\x41\1\x6b\x21\0\x0c\0\x0b\x0b"
               "\x20\1\xa7\x0b", 32);
    /* f1: fact(n) = n == 0 ? 1 : n * fact(n - 1) */
    put(&b[1], "\x20\0\x50\x04\x7e\x42\1\x05\x20\0\x20\0\x42\1\x7d\x10\1\x7e\x0b\x0b", 20);
    /* f2: br_table over k: 0 -> 10, 1 -> 20, else -> 30 */
    put(&b[2], "\x02\x40\x02\x40\x02\x40\x20\0\x0e\2\0\1\2\x0b\x41\x0a\x0f\x0b\x41\x14\x0f\x0b\x41\x1e\x0b", 25);
    /* f3: unbounded recursion */
    put(&b[3], "\x20\0\x10\3\x0b", 5);
    /* f4: call_indirect (type of f0, "i:i") of table entry k with argument x */
    put(&b[4], "\x20\1\x20\0\x11\0\0\x0b", 8);
    int locals[5] = {1, 0, 0, 0, 0}, table[3] = {0, 1, 2};
    size_t n = build(mod_bytes, 5, sigs, b, locals, table, 3);
    sp_wasm_module *m;
    sp_wasm_inst *in;
    char err[SP_ERR_LEN];
    sp_wasm_limits lim = sp_wasm_limits_default();
    lim.max_call_depth = 1000;
    sp_status st = sp_wasm_module_load(&m, mod_bytes, n, NULL, 0, &lim, err);
    CHECKF(st == SP_OK, "%s", err);
    if (st != SP_OK)
        return;
    CHECK(sp_wasm_instantiate(&in, m, NULL, NULL, err) == SP_OK);
    for (int it = 0; it < 20; it++) {
        uint64_t k = sp_rng_u64(rng) % 5000, got, fact = 1;
        CHECK(sp_wasm_call(in, 0, &k, &got, err) == SP_OK && got == (uint32_t)(k * (k + 1) / 2));
        k %= 30;
        for (uint64_t j = 2; j <= k; j++)
            fact *= j;
        CHECK(sp_wasm_call(in, 1, &k, &got, err) == SP_OK && got == fact);
        k = sp_rng_u64(rng) % 6;
        CHECK(sp_wasm_call(in, 2, &k, &got, err) == SP_OK && got == (k == 0 ? 10u : k == 1 ? 20u : 30u));
    }
    uint64_t a[2] = {0, 100}, got;
    CHECK(sp_wasm_call(in, 4, a, &got, err) == SP_OK && got == 5050);
    a[0] = 1; /* f1 is l:l */
    CHECK(sp_wasm_call(in, 4, a, &got, err) != SP_OK && strstr(err, "wrong type"));
    a[0] = 3; /* the table's last slot is null */
    CHECK(sp_wasm_call(in, 4, a, &got, err) != SP_OK && strstr(err, "null"));
    a[0] = 9;
    CHECK(sp_wasm_call(in, 4, a, &got, err) != SP_OK && strstr(err, "out of bounds"));
    CHECK(sp_wasm_call(in, 3, a, &got, err) != SP_OK && strstr(err, "call stack exhausted"));
    a[0] = 2; /* the instance still works after a trap */
    CHECK(sp_wasm_call(in, 4, a, &got, err) == SP_OK && got == 30);
    sp_wasm_inst_free(in);
    sp_wasm_module_free(m);
}

static void test_limits(void)
{
    sp_wasm_module *m = NULL;
    char err[SP_ERR_LEN];
    sp_wasm_limits lim = sp_wasm_limits_default();
    lim.max_seconds = 0.2;
    lim.max_pages = 2;
    buf body = {{0}, 0};
    put(&body, "\x03\x40\x0c\0\x0b\x0b", 6); /* loop br 0 end */
    sp_wasm_inst *in = one(&m, ":", &body, &lim);
    CHECK(in && sp_wasm_call(in, 0, NULL, NULL, err) != SP_OK && strstr(err, "time limit"));
    sp_wasm_inst_free(in);
    sp_wasm_module_free(m);
    body.n = 0;
    put(&body, "\x20\0\x40\0\x0b", 5); /* memory.grow(n) */
    in = one(&m, "i:i", &body, &lim);
    uint64_t pages = 2, got;
    CHECK(in && sp_wasm_call(in, 0, &pages, &got, err) == SP_OK && got == 0xffffffffu); /* 1 + 2 > 2 pages */
    pages = 1;
    CHECK(in && sp_wasm_call(in, 0, &pages, &got, err) == SP_OK && got == 1);
    sp_wasm_inst_free(in);
    sp_wasm_module_free(m);
}

/* Modules that must be refused, each with the words its message holds. */
static void test_invalid(sp_rng *rng)
{
    static const struct {
        const char *sig, *body, *why;
        size_t len;
        sp_status st;
    } bad[] = {
        {"l:i", "\x20\0\x20\0\x6a\x0b", "type mismatch", 6, SP_ERR_FORMAT},      /* i32.add of i64 */
        {"i:i", "\x20\5\x0b", "local 5", 3, SP_ERR_FORMAT},
        {"i:i", "\x20\0\x10\x09\x0b", "call of function 9", 5, SP_ERR_FORMAT},
        {"i:i", "\x6a\x0b", "underflow", 2, SP_ERR_FORMAT},
        {"i:i", "\x20\0\x20\0\x0b", "left at the end", 5, SP_ERR_FORMAT},
        {"i:i", "\x20\0\x0c\x05\x0b", "branch depth", 5, SP_ERR_FORMAT},
        {"i:i", "\x43\0\0\0\0\x0b", "float", 6, SP_ERR_UNSUPPORTED},
        {"i:i", "\x20\0\x0b\x0b", "after the final end", 4, SP_ERR_FORMAT},
        {"i:i", "\x20\0", "ends inside", 2, SP_ERR_FORMAT},
        {"i:i", "\x20\0\xff\x0b", "opcode 0xff", 4, SP_ERR_UNSUPPORTED},
    };
    char err[SP_ERR_LEN];
    sp_wasm_module *m;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        buf body = {{0}, 0};
        put(&body, bad[k].body, bad[k].len);
        size_t n = build(mod_bytes, 1, &bad[k].sig, &body, NULL, NULL, 0);
        sp_status st = sp_wasm_module_load(&m, mod_bytes, n, NULL, 0, NULL, err);
        CHECKF(st == bad[k].st && m == NULL && strstr(err, bad[k].why), "case %zu: %s", k, err);
    }
    CHECK(sp_wasm_module_load(&m, (const uint8_t *)"\0asm\2\0\0\0", 8, NULL, 0, NULL, err) == SP_ERR_FORMAT &&
          strstr(err, "not a WebAssembly"));
    /* every prefix and random flips of a valid module: loaded or refused, never a crash */
    size_t len;
    uint8_t *good = sp_test_slurp("tests/vectors/multiplier_bn128/circuit.wasm", &len);
    CHECK(good != NULL);
    for (size_t cut = 0; good && cut < len; cut += 1 + cut / 64) {
        if (sp_wasm_module_load(&m, good, cut, NULL, 0, NULL, err) == SP_OK)
            sp_wasm_module_free(m);
        else
            CHECKF(strncmp(err, "wasm: ", 6) == 0, "prefix %zu: %s", cut, err);
    }
    /* a module that says its elements have more words than its prime
     * fills (every "i32.const 8; end" made 10 in turn: one is
     * getFieldNumLen32's): the same witness or a clear error */
    for (size_t at = 0; good && at + 3 <= len; at++) {
        if (memcmp(good + at, "\x41\x08\x0b", 3) != 0)
            continue;
        uint8_t *copy = malloc(len);
        memcpy(copy, good, len);
        copy[at + 1] = 10;
        for (int natives = 0; natives < 2; natives++) {
            sp_circom *c;
            sp_circom_opts o = sp_circom_opts_default();
            o.natives = natives;
            o.log_to_stderr = 0;
            if (sp_circom_open(&c, copy, len, &o, err) == SP_OK) {
                uint8_t *w;
                size_t wl;
                sp_status st = sp_circom_witness(c, "{\"a\":\"3\",\"b\":\"11\"}", 19, &w, &wl, err);
                CHECKF(st == SP_OK || err[0], "n32 patched at %zu, natives %d: an error without a reason", at,
                       natives);
                CHECKF(!sp_circom_natives_on(c), "n32 patched at %zu: the natives on with a zero top word", at);
                if (st == SP_OK)
                    sp_huge_free(w);
                sp_circom_close(c);
            } else {
                CHECKF(strncmp(err, "circom: ", 8) == 0 || strncmp(err, "wasm: ", 6) == 0,
                       "n32 patched at %zu: %s", at, err);
            }
        }
        free(copy);
    }
    for (int it = 0; good && it < sp_test_iters(200); it++) {
        uint8_t *copy = malloc(len);
        memcpy(copy, good, len);
        for (int f = 0; f < 1 + (int)(sp_rng_u64(rng) % 4); f++)
            copy[sp_rng_u64(rng) % len] ^= (uint8_t)(1u << (sp_rng_u64(rng) % 8));
        sp_circom *c;
        sp_circom_opts o = sp_circom_opts_default();
        o.lim.max_seconds = 0.2;
        o.log_to_stderr = 0;
        if (sp_circom_open(&c, copy, len, &o, err) == SP_OK) {
            uint8_t *w;
            size_t wl;
            if (sp_circom_witness(c, "{\"a\":\"3\",\"b\":\"11\"}", 19, &w, &wl, err) == SP_OK)
                sp_huge_free(w);
            sp_circom_close(c);
        }
        free(copy);
    }
    free(good);
}

/* ---- circom modules ---- */

#define EDGE_KINDS 9 /* random_element's kinds below this are edge limbs */

/* The limbs of R mod p, R = 2^(32 n32): the Montgomery form of 1 (R - p,
 * less p while not below it: R / p is small, p's top word being set). */
static void mont_one(uint32_t *w, const uint32_t *p, unsigned n32)
{
    uint64_t bw = 0;
    for (unsigned j = 0; j < n32; j++) { /* 0 - p */
        uint64_t d = (uint64_t)0 - p[j] - bw;
        w[j] = (uint32_t)d;
        bw = (d >> 32) & 1;
    }
    for (;;) {
        unsigned j = n32;
        while (j-- > 0 && w[j] == p[j])
            ;
        if (j < n32 && w[j] < p[j])
            return;
        bw = 0;
        for (j = 0; j < n32; j++) {
            uint64_t d = (uint64_t)w[j] - p[j] - bw;
            w[j] = (uint32_t)d;
            bw = (d >> 32) & 1;
        }
    }
}

/* w = w + x mod p on n32 words (w, x < p). */
static void add_mod_words(uint32_t *w, const uint32_t *x, const uint32_t *p, unsigned n32)
{
    uint32_t d[SP_CIRCOM_MAX_N32];
    uint64_t c = 0, bw = 0;
    for (unsigned j = 0; j < n32; j++) {
        c += (uint64_t)w[j] + x[j];
        w[j] = (uint32_t)c;
        c >>= 32;
    }
    for (unsigned j = 0; j < n32; j++) {
        uint64_t t = (uint64_t)w[j] - p[j] - bw;
        d[j] = (uint32_t)t;
        bw = (t >> 32) & 1;
    }
    if (c || !bw)
        memcpy(w, d, 4 * n32);
}

/* A random element: short (a random i32), long normal or long
 * Montgomery, its limbs below p (the top word below p's). Kinds 1 to
 * EDGE_KINDS - 1 give edge limbs: p - 1, 0, words 1 and 2 zero (the
 * division's short path), one 64-bit limb (the Montgomery product's one
 * row), 1, R mod p (the Montgomery form of 1), an integer below 256 and
 * the Montgomery form of one (the natives' table of them); the others are
 * random. */
static void random_element(uint8_t *e, sp_rng *rng, const uint32_t *p, unsigned n32, int kind)
{
    static const uint32_t types[4] = {0, 0x80000000u, 0xc0000000u, 0x40000000u};
    uint32_t w[SP_CIRCOM_MAX_N32], head[2];
    for (unsigned j = 0; j < n32; j++)
        w[j] = kind == 1 ? p[j] - (j == 0) : kind == 2 ? 0 : (uint32_t)sp_rng_u64(rng);
    if (kind == 3)
        w[1] = w[2] = 0;
    for (unsigned j = 2; j < n32 && (kind == 4 || kind == 5); j++)
        w[j] = 0;
    if (kind == 5)
        w[0] = 1, w[1] = 0;
    if (kind == 7 || kind == 8) {
        memset(w, 0, 4 * n32);
        w[0] = (uint32_t)(sp_rng_u64(rng) % 256);
    }
    if (kind == 8) { /* v R = R + ... + R mod p */
        uint32_t one[SP_CIRCOM_MAX_N32];
        unsigned v = w[0];
        mont_one(one, p, n32);
        memset(w, 0, 4 * n32);
        for (unsigned k = 0; k < v; k++)
            add_mod_words(w, one, p, n32);
    }
    if (kind == 6)
        mont_one(w, p, n32);
    else if (kind != 1 && kind != 8)
        w[n32 - 1] %= p[n32 - 1];
    head[0] = (uint32_t)sp_rng_u64(rng);
    head[1] = types[sp_rng_u64(rng) % 4];
    memcpy(e, head, 8);
    memcpy(e + 8, w, 4 * n32);
}

/* The kind of element iteration it's operand takes: every pair of edge
 * kinds first, then random elements, an edge one in three. */
static int element_kind(sp_rng *rng, int it, int operand)
{
    if (it < EDGE_KINDS * EDGE_KINDS)
        return operand ? it / EDGE_KINDS : it % EDGE_KINDS;
    return sp_rng_u64(rng) % 3 ? EDGE_KINDS : (int)(sp_rng_u64(rng) % EDGE_KINDS);
}

/* One native against the module's own code on elements a and b. */
static void check_op(sp_circom *c, const char *name, const uint8_t *a, const uint8_t *b, const char *dir, int it)
{
    size_t out_len = (8 + 8 * sp_circom_n32(c)) + 2 * (8 + 4 * sp_circom_n32(c));
    uint8_t r0[24 + 16 * SP_CIRCOM_MAX_N32], r1[24 + 16 * SP_CIRCOM_MAX_N32];
    uint64_t ret0 = 0, ret1 = 0;
    char err0[SP_ERR_LEN] = "", err[SP_ERR_LEN] = "";
    sp_status s0 = sp_circom_test_op(c, name, 0, a, b, r0, &ret0, err0);
    sp_status s1 = sp_circom_test_op(c, name, 1, a, b, r1, &ret1, err);
    /* a division by zero traps both ways (the native leaves it to the module) */
    int same = s0 == SP_OK ? s1 == SP_OK && ret0 == ret1 && !memcmp(r0, r1, out_len)
                           : s1 == s0 && !strcmp(err, err0) && strstr(name, "div");
    CHECKF(same, "%s: native %s differs from the module's (iteration %d: %s / %s)", dir, name, it,
           s0 == SP_OK ? "ok" : err0, s1 == SP_OK ? "ok" : err);
}

/* The short, long normal and long Montgomery forms of v < 256 (vr its
 * Montgomery form's limbs) into el[0..2]. */
static void small_forms(uint8_t el[3][8 + 4 * SP_CIRCOM_MAX_N32], uint32_t v, const uint32_t *vr, unsigned n32)
{
    static const uint32_t types[3] = {0, 0x80000000u, 0xc0000000u};
    for (int k = 0; k < 3; k++) {
        memset(el[k], 0, 8 + 4 * SP_CIRCOM_MAX_N32);
        memcpy(el[k], &v, 4);
        memcpy(el[k] + 4, &types[k], 4);
        if (k == 2)
            memcpy(el[k] + 8, vr, 4 * n32);
        else
            memcpy(el[k] + 8, &v, 4);
    }
}

/* Every integer v below 256 short, long normal and long Montgomery (the
 * natives convert those by table, and compare long normal ones directly)
 * through the conversions and comparisons, beside v itself (even v) or
 * 255 - v (odd v) in each form. */
static void check_small(sp_circom *c, const char *dir)
{
    static const char *const names[] = {"Fr_toMontgomery", "Fr_toNormal", "Fr_toInt", "Fr_add",
                                        "Fr_mul",          "Fr_eq",       "Fr_lt",    "Fr_geq"};
    unsigned n32 = sp_circom_n32(c);
    const uint32_t *p = sp_circom_prime(c);
    uint32_t one[SP_CIRCOM_MAX_N32], vr[256][SP_CIRCOM_MAX_N32] = {{0}};
    mont_one(one, p, n32);
    for (unsigned v = 1; v < 256; v++) {
        memcpy(vr[v], vr[v - 1], sizeof vr[v]);
        add_mod_words(vr[v], one, p, n32);
    }
    for (uint32_t v = 0; v < 256; v++) {
        uint32_t w = v % 2 ? 255 - v : v;
        uint8_t ev[3][8 + 4 * SP_CIRCOM_MAX_N32], ew[3][8 + 4 * SP_CIRCOM_MAX_N32];
        small_forms(ev, v, vr[v], n32);
        small_forms(ew, w, vr[w], n32);
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            for (int k = 0; k < 9; k++)
                check_op(c, names[i], ev[k / 3], ew[k % 3], dir, (int)v);
    }
}

/* Each native against the module's own code, on random elements. */
static void check_natives(sp_rng *rng, sp_circom *c, const char *dir)
{
    unsigned n32 = sp_circom_n32(c);
    const uint32_t *p = sp_circom_prime(c);
    for (const char *const *name = sp_circom_native_names; *name; name++)
        for (int it = 0; it < EDGE_KINDS * EDGE_KINDS + sp_test_iters(100); it++) {
            uint8_t a[8 + 4 * SP_CIRCOM_MAX_N32], b[8 + 4 * SP_CIRCOM_MAX_N32];
            random_element(a, rng, p, n32, element_kind(rng, it, 0));
            random_element(b, rng, p, n32, element_kind(rng, it, 1));
            check_op(c, *name, a, b, dir, it);
        }
    check_small(c, dir);
}

static void test_circom(sp_rng *rng, const char *dir)
{
    char path[256], err[SP_ERR_LEN];
    size_t wl, il, sl;
    snprintf(path, sizeof path, "tests/vectors/%s/circuit.wasm", dir);
    uint8_t *wasm = sp_test_load(path, &wl);
    snprintf(path, sizeof path, "tests/vectors/%s/input.json", dir);
    uint8_t *input = sp_test_load(path, &il);
    snprintf(path, sizeof path, "tests/vectors/%s/witness.wtns", dir);
    uint8_t *sj = sp_test_load(path, &sl);
    for (int natives = 0; natives < 2; natives++) {
        sp_circom *c;
        sp_circom_opts o = sp_circom_opts_default();
        o.natives = natives;
        sp_status st = sp_circom_open(&c, wasm, wl, &o, err);
        CHECKF(st == SP_OK, "%s: %s", dir, err);
        if (st != SP_OK)
            continue;
        uint8_t *w;
        size_t n;
        st = sp_circom_witness(c, (const char *)input, il, &w, &n, err);
        CHECKF(st == SP_OK && n == sl && !memcmp(w, sj, n), "%s, natives %d: the witness is not snarkjs' (%s)", dir,
               natives, st == SP_OK ? "differs" : err);
        if (st == SP_OK)
            sp_huge_free(w);
        CHECKF(sp_circom_natives_on(c) == natives, "%s: natives %d asked, %d on", dir, natives,
               sp_circom_natives_on(c));
        if (natives)
            check_natives(rng, c, dir);
        sp_circom_close(c);
    }
    free(wasm);
    free(input);
    free(sj);
}

/* ---- folded i32 arithmetic (compile.c) against a C stack machine ---- */

static void sleb(buf *o, int64_t v)
{
    for (;;) {
        uint8_t x = v & 0x7f;
        v >>= 7;
        if ((v == 0 && !(x & 0x40)) || (v == -1 && (x & 0x40))) {
            u8(o, x);
            return;
        }
        u8(o, (uint8_t)(x | 0x80));
    }
}

/* Appends a random straight run of i32.const, local.get (of p[0], p[1])
 * and arithmetic, the folded operators and others, to o and the same on
 * the C stack st (*d values, the first `floor` of which it may not pop);
 * sometimes an if/else whose arms push one value each, their join a
 * branch target the folding must not cross. */
static void random_run(buf *o, uint32_t *st, int *d, int floor, const uint32_t *p, sp_rng *rng, int nest)
{
    static const uint8_t ops[] = {0x6a, 0x6b, 0x6c, 0x74, 0x6a, 0x6c, 0x73, 0x71};
    int len = 1 + (int)(sp_rng_u64(rng) % 12);
    for (int i = 0; i < len && *d < 16; i++) {
        uint64_t r = sp_rng_u64(rng);
        if (*d - floor >= 2 && r % 5 < 2) {
            uint8_t op = ops[(r >> 8) % sizeof ops];
            uint32_t b = st[--*d], a = st[*d - 1];
            st[*d - 1] = op == 0x6a ? a + b : op == 0x6b ? a - b : op == 0x6c ? a * b : op == 0x74 ? a << (b & 31)
                       : op == 0x73 ? a ^ b : a & b;
            u8(o, op);
        } else if (r % 5 == 2 && nest < 2) {
            u8(o, 0x20), u8(o, 0), u8(o, 0x41), u8(o, 1), u8(o, 0x71), u8(o, 0x04), u8(o, 0x7f); /* if (p0 & 1) */
            int d0 = *d, take = p[0] & 1;
            uint32_t keep = 0;
            random_run(o, st, d, d0, p, rng, nest + 1); /* then-arm: fold to one value */
            while (*d > d0 + 1)
                st[*d - 2] += st[*d - 1], --*d, u8(o, 0x6a);
            if (*d == d0)
                st[(*d)++] = 7, u8(o, 0x41), u8(o, 7);
            keep = st[--*d];
            u8(o, 0x05);
            random_run(o, st, d, d0, p, rng, nest + 1);
            while (*d > d0 + 1)
                st[*d - 2] += st[*d - 1], --*d, u8(o, 0x6a);
            if (*d == d0)
                st[(*d)++] = 9, u8(o, 0x41), u8(o, 9);
            if (take)
                st[*d - 1] = keep;
            u8(o, 0x0b);
        } else if (r % 2) {
            uint32_t v = (uint32_t)edge_or_random(rng);
            st[(*d)++] = v;
            u8(o, 0x41);
            sleb(o, (int32_t)v);
        } else {
            st[(*d)++] = p[(r >> 9) & 1];
            u8(o, 0x20), u8(o, (uint8_t)((r >> 9) & 1));
        }
    }
}

static void test_folding(sp_rng *rng)
{
    sp_wasm_limits lim = sp_wasm_limits_default();
    lim.max_stack = 1024; /* a small instance each time */
    lim.max_call_depth = 16;
    for (int it = 0; it < sp_test_iters(600); it++) {
        uint32_t p[2] = {(uint32_t)edge_or_random(rng), (uint32_t)edge_or_random(rng)}, st[24];
        int d = 1;
        buf body = {{0}, 0};
        put(&body, "\x20\0\x20\1\x73", 5); /* x = p0 ^ p1: a value no run folds in */
        st[0] = p[0] ^ p[1];
        random_run(&body, st, &d, 0, p, rng, 0);
        while (d > 1)
            st[d - 2] -= st[d - 1], d--, u8(&body, 0x6b);
        u8(&body, 0x0b);
        sp_wasm_module *m = NULL;
        sp_wasm_inst *in = one(&m, "ii:i", &body, &lim);
        uint64_t args[2] = {p[0], p[1]}, got = 0;
        char err[SP_ERR_LEN];
        CHECKF(in && sp_wasm_call(in, 0, args, &got, err) == SP_OK && got == st[0],
               "folded run %d: %#llx, expected %#x", it, (unsigned long long)got, st[0]);
        sp_wasm_inst_free(in);
        sp_wasm_module_free(m);
    }
    /* runs that push a value of a local each, back to back (fused into
     * one dispatch), then combined by operators that do not fold:
     * (p0 * 3) ^ ((p1 + 5) & (p0 << 7)) and (p1 - 9) ^ (p0 * k) */
    for (int it = 0; it < sp_test_iters(100); it++) {
        uint32_t p[2] = {(uint32_t)edge_or_random(rng), (uint32_t)edge_or_random(rng)};
        uint32_t k = (uint32_t)edge_or_random(rng);
        for (int shape = 0; shape < 2; shape++) {
            buf body = {{0}, 0};
            uint32_t want;
            if (shape == 0) {
                put(&body, "\x20\0\x41\x03\x6c\x20\1\x41\x05\x6a\x20\0\x41\x07\x74\x71\x73", 17);
                want = (p[0] * 3) ^ ((p[1] + 5) & (p[0] << 7));
            } else {
                put(&body, "\x20\1\x41\x09\x6b\x20\0\x41", 8);
                sleb(&body, (int32_t)k);
                put(&body, "\x6c\x73", 2);
                want = (p[1] - 9) ^ (p[0] * k);
            }
            u8(&body, 0x0b);
            sp_wasm_module *m = NULL;
            sp_wasm_inst *in = one(&m, "ii:i", &body, &lim);
            uint64_t args[2] = {p[0], p[1]}, got = 0;
            char err[SP_ERR_LEN];
            CHECKF(in && sp_wasm_call(in, 0, args, &got, err) == SP_OK && got == want,
                   "pushes back to back, shape %d: %#llx, expected %#x", shape, (unsigned long long)got, want);
            sp_wasm_inst_free(in);
            sp_wasm_module_free(m);
        }
    }
}

/* ---- random programs against a C stack machine ---- */

/* The state a random program has at generation time: its four i32
 * locals and its operand stack. */
typedef struct {
    uint32_t l[4], st[32];
    int d;
} rstate;

static uint32_t ref_op(uint8_t op, uint32_t a, uint32_t b)
{
    switch (op) {
    case 0x6a: return a + b;
    case 0x6b: return a - b;
    case 0x6c: return a * b;
    case 0x71: return a & b;
    case 0x72: return a | b;
    case 0x73: return a ^ b;
    case 0x74: return a << (b & 31);
    case 0x76: return a >> (b & 31);
    case 0x46: return a == b;
    case 0x47: return a != b;
    case 0x49: return a < b;
    default: return (int32_t)a >= (int32_t)b; /* 0x4e */
    }
}

/* Appends random code to o, running it on *s as it goes: constants,
 * local.get/set/tee of values still pending on the stack, operators with
 * a constant on either side, drop, select, and blocks whose values stay
 * below them: if/else with a result, br_if out of a block with and
 * without a value (the code after a taken one generated on a copy). */
static void random_prog(buf *o, rstate *s, int floor, sp_rng *rng, int nest)
{
    static const uint8_t ops[] = {0x6a, 0x6b, 0x6c, 0x71, 0x72, 0x73, 0x74, 0x76, 0x46, 0x47, 0x49, 0x4e};
    int len = 1 + (int)(sp_rng_u64(rng) % 14);
    for (int i = 0; i < len && o->n < sizeof o->b - 64; i++) {
        uint64_t r = sp_rng_u64(rng);
        uint32_t k = (uint32_t)(r >> 32) & 3;
        switch (r % 11) {
        case 0:
        case 1:
            if (s->d < 24) {
                uint32_t v = (r >> 8) & 1 ? (uint32_t)(r >> 12) % 40 : (uint32_t)edge_or_random(rng);
                s->st[s->d++] = v;
                u8(o, 0x41), sleb(o, (int32_t)v);
            }
            break;
        case 2:
        case 3:
            if (s->d < 24)
                s->st[s->d++] = s->l[k], u8(o, 0x20), u8(o, (uint8_t)k);
            break;
        case 4:
            if (s->d > floor)
                s->l[k] = s->st[--s->d], u8(o, 0x21), u8(o, (uint8_t)k);
            break;
        case 5:
            if (s->d > floor)
                s->l[k] = s->st[s->d - 1], u8(o, 0x22), u8(o, (uint8_t)k);
            break;
        case 6:
        case 7:
            if (s->d - floor >= 2) {
                uint8_t op = ops[(r >> 8) % sizeof ops];
                s->st[s->d - 2] = ref_op(op, s->st[s->d - 2], s->st[s->d - 1]);
                s->d--;
                u8(o, op);
            }
            break;
        case 8:
            if (s->d - floor >= 3) {
                uint32_t c = s->st[--s->d], b = s->st[--s->d];
                if (!c)
                    s->st[s->d - 1] = b;
                u8(o, 0x1b);
            } else if (s->d > floor) {
                s->d--, u8(o, 0x1a);
            }
            break;
        case 9:
            if (nest < 3 && s->d < 24) { /* if (l[k] & 1) (result i32) */
                rstate a = *s, b = *s;
                u8(o, 0x20), u8(o, (uint8_t)k), u8(o, 0x41), u8(o, 1), u8(o, 0x71), u8(o, 0x04), u8(o, 0x7f);
                int take = s->l[k] & 1;
                for (int arm = 0; arm < 2; arm++) {
                    rstate *x = arm ? &b : &a;
                    int d0 = x->d;
                    random_prog(o, x, d0, rng, nest + 1);
                    while (x->d > d0 + 1)
                        x->st[x->d - 2] ^= x->st[x->d - 1], x->d--, u8(o, 0x73);
                    if (x->d == d0)
                        x->st[x->d++] = x->l[arm], u8(o, 0x20), u8(o, (uint8_t)arm);
                    if (!arm)
                        u8(o, 0x05);
                }
                u8(o, 0x0b);
                *s = take ? a : b;
            }
            break;
        default:
            if (nest < 3 && s->d < 23) { /* block (result i32) v; br_if 0 (l[k] & 2); ...; end */
                int with = (r >> 8) & 1;
                u8(o, 0x02), u8(o, with ? 0x7f : 0x40);
                int d0 = s->d;
                random_prog(o, s, d0, rng, nest + 1);
                while (s->d > d0 + with) {
                    if (s->d - d0 >= 2)
                        s->st[s->d - 2] += s->st[s->d - 1], u8(o, 0x6a);
                    else
                        u8(o, 0x1a);
                    s->d--;
                }
                while (s->d < d0 + with)
                    s->st[s->d++] = 11, u8(o, 0x41), u8(o, 11);
                uint32_t v = with ? s->st[s->d - 1] : 0;
                int taken = (s->l[k] >> 1) & 1;
                u8(o, 0x20), u8(o, (uint8_t)k), u8(o, 0x41), u8(o, 2), u8(o, 0x71), u8(o, 0x0d), u8(o, 0);
                rstate rest = *s;
                rstate *x = taken ? &rest : s; /* after a taken branch: generated, not run */
                if (with)
                    x->d--, u8(o, 0x1a);
                random_prog(o, x, d0, rng, nest + 1);
                while (x->d > d0)
                    x->d--, u8(o, 0x1a);
                while (x->d < d0)
                    x->st[x->d++] = 3, u8(o, 0x41), u8(o, 3);
                if (with)
                    x->st[x->d++] = 13, u8(o, 0x41), u8(o, 13);
                u8(o, 0x0b);
                if (taken) {
                    s->d = d0;
                    if (with)
                        s->st[s->d++] = v;
                }
            }
        }
    }
}

static void test_random_programs(sp_rng *rng)
{
    sp_wasm_limits lim = sp_wasm_limits_default();
    lim.max_stack = 1024;
    lim.max_call_depth = 16;
    for (int it = 0; it < sp_test_iters(1500); it++) {
        rstate s = {{0}, {0}, 0};
        for (int k = 0; k < 4; k++)
            s.l[k] = (uint32_t)edge_or_random(rng);
        uint64_t args[4] = {s.l[0], s.l[1], s.l[2], s.l[3]}, got = 0;
        static buf body;
        body.n = 0;
        random_prog(&body, &s, 0, rng, 0);
        /* the result: the stack and the locals, each weighed by its place */
        u8(&body, 0x41), u8(&body, 0);
        uint32_t want = 0;
        for (int k = 0; k < 4; k++)
            u8(&body, 0x20), u8(&body, (uint8_t)k), u8(&body, 0x41), u8(&body, (uint8_t)(3 + 2 * k)), u8(&body, 0x6c),
                u8(&body, 0x73), want ^= s.l[k] * (uint32_t)(3 + 2 * k);
        for (int q = s.d - 1; q >= 0; q--)
            u8(&body, 0x41), u8(&body, 31), u8(&body, 0x74), u8(&body, 0x73), want = (want << 31) ^ s.st[q];
        u8(&body, 0x0b);
        sp_wasm_module *m = NULL;
        sp_wasm_inst *in = one(&m, "iiii:i", &body, &lim);
        char err[SP_ERR_LEN];
        CHECKF(in && sp_wasm_call(in, 0, args, &got, err) == SP_OK && got == want,
               "random program %d: %#llx, expected %#x", it, (unsigned long long)got, want);
        sp_wasm_inst_free(in);
        sp_wasm_module_free(m);
    }
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_wasm", &rng);
    test_binary(&rng);
    test_unary(&rng);
    test_memory(&rng);
    test_control(&rng);
    test_folding(&rng);
    test_random_programs(&rng);
    test_limits();
    test_invalid(&rng);
    test_circom(&rng, SP_TEST_VEC_DIR("multiplier"));
    test_circom(&rng, SP_TEST_VEC_DIR("chain1021"));
    test_circom(&rng, SP_TEST_VEC_OTHER("chain1021"));
    return sp_test_done();
}
