/* Boolean, word and packing gadgets (circuit/bits.h, circuit/u32.h) against
 * native computation on random inputs; every circuit run in the three
 * modes (tests/test_gadget.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/bits.h"
#include "circuit/gadget.h"
#include "circuit/u32.h"
#include "test_gadget.h"

static void test_small_consts(void)
{
    for (int k = -2; k <= 2; k++) {
        sp_fr v;
        sp_fr_set_u64(&v, (uint64_t)(k < 0 ? -k : k));
        if (k < 0)
            sp_fr_neg(&v, &v);
        CHECKF(sp_fr_eq(&v, gl_k(k)), "small constant %d", k);
    }
}

/* A random bit: constant 0/1, a new variable, or the negation of one. */
static sp_bit rand_bit(sp_cs *cs, sp_rng *rng)
{
    uint64_t x = sp_rng_u64(rng);
    sp_bit b;
    if ((x & 3) < 2)
        return sp_bit_const((int)(x & 1));
    sp_bit_alloc(cs, &b, (int)(x >> 2) & 1);
    return (x & 3) == 3 ? sp_bit_not(b) : b;
}

#define N_BITOPS 3000

typedef struct {
    uint64_t seed;
    unsigned long wrong, overcost;
    sp_bit out[N_BITOPS];
} bitops_ctx;

static void bitops_circuit(sp_cs *cs, void *vctx)
{
    bitops_ctx *x = vctx;
    sp_rng rng;
    sp_rng_seed(&rng, x->seed);
    x->wrong = x->overcost = 0;
    for (int k = 0; k < N_BITOPS; k++) {
        sp_bit a = rand_bit(cs, &rng), b = rand_bit(cs, &rng), c = rand_bit(cs, &rng), r;
        int op = (int)(sp_rng_u64(&rng) % 11), want, cost = 1;
        int all_var = a.kind != SP_BIT_CONST && b.kind != SP_BIT_CONST;
        uint64_t rows = sp_cs_n_rows(cs);
        switch (op) {
        case 0: sp_bit_and(cs, &r, &a, &b), want = a.val & b.val; break;
        case 1: sp_bit_and_not(cs, &r, &a, &b), want = a.val & !b.val; break;
        case 2: sp_bit_nor(cs, &r, &a, &b), want = !a.val & !b.val; break;
        case 3: sp_bit_or(cs, &r, &a, &b), want = a.val | b.val; break;
        case 4: sp_bit_xor(cs, &r, &a, &b), want = a.val ^ b.val; break;
        case 5: sp_bit_xnor(cs, &r, &a, &b), want = !(a.val ^ b.val); break;
        case 6: r = sp_bit_not(a), want = !a.val, cost = 0; break;
        case 7: sp_bit_select(cs, &r, &c, &a, &b), want = c.val ? a.val : b.val; all_var &= c.kind != SP_BIT_CONST; break;
        case 8: sp_bit_ch(cs, &r, &a, &b, &c), want = (a.val & b.val) ^ ((!a.val) & c.val); all_var &= c.kind != SP_BIT_CONST; break;
        case 9:
            sp_bit_maj(cs, &r, &a, &b, &c), want = (a.val + b.val + c.val) >= 2, cost = 2;
            all_var &= c.kind != SP_BIT_CONST;
            break;
        default: /* a gadget on its own output: r aliases an input */
            r = a, sp_bit_xor(cs, &r, &r, &b), want = a.val ^ b.val;
            break;
        }
        uint64_t used = sp_cs_n_rows(cs) - rows;
        if (r.val != want)
            x->wrong++;
        /* constants never cost more; all variables cost exactly the price
         * (select of one variable with itself is free) */
        if (used > (uint64_t)cost || (all_var && op != 7 && used != (uint64_t)cost))
            x->overcost++;
        x->out[k] = r;
    }
}

static void test_bit_ops(sp_rng *rng)
{
    static bitops_ctx x;
    x.seed = sp_rng_u64(rng);
    uint64_t nv, nr;
    sp_fr *w = gadget_run3(bitops_circuit, &x, &nv, &nr);
    CHECKF(x.wrong == 0, "%lu wrong results", x.wrong);
    CHECKF(x.overcost == 0, "%lu gadgets over their constraint price", x.overcost);
    unsigned long off = 0;
    for (int k = 0; k < N_BITOPS; k++)
        off += !bit_in_w(&x.out[k], w);
    CHECKF(off == 0, "%lu results disagree with the witness", off);
    free(w);
    printf("bits: %d random gadgets, %llu constraints, %llu wires\n", N_BITOPS, (unsigned long long)nr,
           (unsigned long long)nv);
}

/* ---- words ---- */

/* A random word, each bit a constant, a variable or a negation; with
 * kind_mix 0, all variables. */
static void rand_word(sp_cs *cs, sp_u32 *w, sp_rng *rng, int kind_mix)
{
    uint32_t v = (uint32_t)sp_rng_u64(rng);
    if (!kind_mix) {
        sp_u32_alloc(cs, w, v);
        return;
    }
    for (unsigned i = 0; i < 32; i++) {
        sp_bit b = rand_bit(cs, rng);
        sp_u32_set_bit(w, i, &b);
    }
}

static uint32_t rotr(uint32_t x, unsigned n) { return n ? (x >> n) | (x << (32 - n)) : x; }

#define N_WORDOPS 300

typedef struct {
    uint64_t seed;
    unsigned long wrong, price;
    sp_u32 out[N_WORDOPS];
} words_ctx;

static void words_circuit(sp_cs *cs, void *vctx)
{
    words_ctx *x = vctx;
    sp_rng rng;
    sp_rng_seed(&rng, x->seed);
    x->wrong = x->price = 0;
    sp_multieq meq;
    sp_multieq_init(&meq);
    for (int k = 0; k < N_WORDOPS; k++) {
        int mix = (int)(sp_rng_u64(&rng) % 3) == 0, op = (int)(sp_rng_u64(&rng) % 7);
        sp_u32 in[8], r;
        int n = 1 + (int)(sp_rng_u64(&rng) % 8);
        for (int i = 0; i < 8; i++)
            rand_word(cs, &in[i], &rng, mix);
        unsigned s = (unsigned)(sp_rng_u64(&rng) % 32);
        uint32_t want = 0;
        uint64_t rows = sp_cs_n_rows(cs), cost = 0;
        int shared = 0;
        switch (op) {
        case 0: sp_u32_xor(cs, &r, &in[0], &in[1]), want = in[0].val ^ in[1].val, cost = 32; break;
        case 1:
            sp_u32_ch(cs, &r, &in[0], &in[1], &in[2]), cost = 32;
            want = (in[0].val & in[1].val) ^ (~in[0].val & in[2].val);
            break;
        case 2:
            sp_u32_maj(cs, &r, &in[0], &in[1], &in[2]), cost = 64;
            want = (in[0].val & in[1].val) ^ (in[0].val & in[2].val) ^ (in[1].val & in[2].val);
            break;
        case 3: sp_u32_rotr(&r, &in[0], s), want = rotr(in[0].val, s); break;
        case 4: sp_u32_shr(&r, &in[0], s), want = in[0].val >> s; break;
        case 5: { /* through bits and back, both orders */
            sp_bit bits[32];
            sp_u32 t;
            sp_u32_to_bits_be(bits, &in[0]);
            sp_u32_from_bits_be(&t, bits);
            sp_u32_to_bits_le(bits, &t);
            sp_u32_from_bits_le(&r, bits);
            want = in[0].val;
            x->wrong += bits[0].val != (in[0].val & 1) || memcmp(&r, &in[0], sizeof r) != 0;
            break;
        }
        default: {
            const sp_u32 *ops[8];
            uint64_t sum = 0;
            for (int i = 0; i < n; i++)
                ops[i] = &in[i], sum += in[i].val;
            shared = (int)(sp_rng_u64(&rng) & 1);
            sp_u32_add(cs, shared ? &meq : NULL, &r, ops, (size_t)n);
            want = (uint32_t)sum;
            /* result bits, plus its own packing constraint when not shared */
            cost = (uint64_t)(64 - __builtin_clzll((uint64_t)n * 0xffffffffu)) + !shared;
            break;
        }
        }
        if (r.val != want)
            x->wrong++;
        uint64_t used = sp_cs_n_rows(cs) - rows;
        if (shared && used == cost + 1) /* the flush of earlier equations */
            used--;
        if (!mix && used != cost)
            x->price++;
        x->out[k] = r;
    }
    sp_multieq_finish(cs, &meq);
}

static void test_words(sp_rng *rng)
{
    static words_ctx x;
    x.seed = sp_rng_u64(rng);
    uint64_t nv, nr;
    sp_fr *w = gadget_run3(words_circuit, &x, &nv, &nr);
    CHECKF(x.wrong == 0, "%lu wrong word results", x.wrong);
    CHECKF(x.price == 0, "%lu word gadgets off their constraint price", x.price);
    unsigned long off = 0;
    for (int k = 0; k < N_WORDOPS; k++)
        for (unsigned i = 0; i < 32; i++) {
            sp_bit b = sp_u32_bit(&x.out[k], i);
            off += !bit_in_w(&b, w);
        }
    CHECKF(off == 0, "%lu word bits disagree with the witness", off);
    free(w);
    printf("words: %d random gadgets, %llu constraints\n", N_WORDOPS, (unsigned long long)nr);
}

/* ---- packing, unpacking, equality ---- */

typedef struct {
    sp_fr xv;
    uint64_t strict_rows, swap_rows, eq_rows;
    int wrong;
} pack_ctx;

static void pack_circuit(sp_cs *cs, void *vctx)
{
    pack_ctx *x = vctx;
    x->wrong = 0;
    sp_num n, back, l, r;
    sp_num_alloc(cs, &n, &x->xv);
    sp_bit bits[255], sb[255];
    sp_num_to_bits_le(cs, bits, &n, 255);
    uint64_t c[4];
    sp_fr_to_canonical(c, &x->xv);
    for (int i = 0; i < 255; i++)
        x->wrong += bits[i].val != ((c[i / 64] >> (i % 64)) & 1);
    sp_bits_pack_le(cs, &back, bits, 255);
    x->wrong += !sp_fr_eq(&back.val, &x->xv);
    sp_num_enforce_eq(cs, &back, &n);
    uint64_t rows = sp_cs_n_rows(cs);
    sp_num_to_bits_le_strict(cs, sb, &n);
    x->strict_rows = sp_cs_n_rows(cs) - rows;
    rows = sp_cs_n_rows(cs);
    sp_bits_enforce_eq(cs, bits, sb, 255);
    x->eq_rows = sp_cs_n_rows(cs) - rows;
    /* a 64-bit piece: unpack range-checks, repack */
    sp_num lo;
    sp_fr lov;
    sp_fr_set_u64(&lov, c[0]);
    sp_num_alloc(cs, &lo, &lov);
    sp_bit lb[64];
    sp_num_to_bits_le(cs, lb, &lo, 64);
    sp_bits_enforce_eq(cs, lb, bits, 64);
    /* swap by a variable bit of x, both ways by a constant */
    rows = sp_cs_n_rows(cs);
    sp_num_cond_swap(cs, &l, &r, &bits[3], &n, &lo);
    x->swap_rows = sp_cs_n_rows(cs) - rows;
    const sp_num *want_l = bits[3].val ? &lo : &n;
    x->wrong += !sp_fr_eq(&l.val, &want_l->val) || !sp_fr_eq(&r.val, bits[3].val ? &n.val : &lo.val);
    sp_bit one = sp_bit_const(1);
    sp_num_cond_swap(cs, &l, &r, &one, &n, &lo);
    x->wrong += l.var != lo.var || r.var != n.var;
}

/* Runs f in WITNESS mode with check on and no outputs; returns the status
 * and the failing path. */
static sp_status check_run(gadget_fn f, void *ctx, char path[SP_CS_PATH_MAX], uint64_t *bad_row)
{
    sp_cs cs;
    if (sp_cs_open(&cs, SP_CS_WITNESS, 1) != SP_OK)
        return SP_ERR_NOMEM;
    f(&cs, ctx);
    sp_status st = sp_cs_status(&cs);
    if (path)
        snprintf(path, SP_CS_PATH_MAX, "%s", cs.bad_path);
    if (bad_row)
        *bad_row = cs.bad_row;
    sp_cs_close(&cs);
    return st;
}

typedef struct {
    uint64_t c[4]; /* the claimed decomposition */
    sp_fr xv;
    uint64_t rows;
} cheat_ctx;

static void strict_cheat_circuit(sp_cs *cs, void *vctx)
{
    cheat_ctx *x = vctx;
    sp_num n;
    sp_bit bits[255];
    sp_num_alloc(cs, &n, &x->xv);
    sp_cs_push(cs, "strict");
    sp_gl_num_to_bits_strict_from(cs, bits, &n, x->c);
    sp_cs_pop(cs);
    x->rows = sp_cs_n_rows(cs);
}

typedef struct {
    uint8_t v[300];
    int flip; /* the pair that differs, or -1 */
} eq_ctx;

/* 300 pairs: the same variable twice, two variables of one value, or two
 * equal constants (every 5th: free). */
static void eq_circuit(sp_cs *cs, void *vctx)
{
    eq_ctx *x = vctx;
    sp_bit a[300], b[300];
    for (int i = 0; i < 300; i++) {
        if (i % 5 == 0) {
            a[i] = b[i] = sp_bit_const(x->v[i]);
            continue;
        }
        sp_bit_alloc(cs, &a[i], x->v[i]);
        if (i % 5 == 1)
            b[i] = a[i];
        else
            sp_bit_alloc(cs, &b[i], x->v[i] ^ (i == x->flip));
    }
    sp_cs_push(cs, "eq");
    uint64_t rows = sp_cs_n_rows(cs);
    sp_bits_enforce_eq(cs, a, b, 300);
    if (sp_cs_n_rows(cs) - rows != 2)
        sp_cs_fail(cs, SP_ERR_INVALID_ARG, "300 bits compared in %llu constraints",
                   (unsigned long long)(sp_cs_n_rows(cs) - rows));
    sp_cs_pop(cs);
}

static void test_pack(sp_rng *rng)
{
    pack_ctx x;
    uint64_t nv, nr;
    for (int t = 0; t < 6; t++) {
        if (t == 0)
            sp_fr_set_zero(&x.xv);
        else if (t == 1)
            sp_fr_set_one(&x.xv), sp_fr_neg(&x.xv, &x.xv); /* r - 1 */
        else
            sp_fr_random(&x.xv, rng);
        sp_fr *w = gadget_run3(pack_circuit, &x, &nv, &nr);
        CHECKF(x.wrong == 0, "pack case %d", t);
        CHECKF(x.strict_rows == 388, "strict unpacking took %llu", (unsigned long long)x.strict_rows);
        CHECK(x.swap_rows == 2 && x.eq_rows == 2); /* 255 bits: two chunks */
        free(w);
    }
    /* a prover claiming the bits of x + r: the packing holds mod r, the
     * range check does not (the top bits of x + r exceed r - 1's) */
    cheat_ctx ch;
    do {
        sp_fr_random(&ch.xv, rng);
        sp_fr_to_canonical(ch.c, &ch.xv);
    } while (ch.c[3] >> 59); /* x < 2^251, so x + r < 2^255 (r < 0.9 * 2^255) */
    unsigned __int128 carry = 0;
    for (int i = 0; i < 4; i++) {
        carry += (unsigned __int128)ch.c[i] + SP_FR_MODULUS[i];
        ch.c[i] = (uint64_t)carry;
        carry >>= 64;
    }
    char path[SP_CS_PATH_MAX];
    uint64_t bad;
    CHECK(check_run(strict_cheat_circuit, &ch, path, &bad) == SP_ERR_UNSATISFIED);
    CHECKF(!strcmp(path, "strict") && bad + 1 < ch.rows, "failed at %s row %llu", path, (unsigned long long)bad);
    sp_fr_to_canonical(ch.c, &ch.xv); /* the honest bits pass */
    CHECK(check_run(strict_cheat_circuit, &ch, NULL, NULL) == SP_OK);

    /* bit-vector equality: 300 bits in 2 constraints, a difference fails */
    eq_ctx e;
    for (int i = 0; i < 300; i++)
        e.v[i] = (uint8_t)(sp_rng_u64(rng) & 1);
    e.flip = -1;
    sp_fr *w = gadget_run3(eq_circuit, &e, &nv, &nr);
    free(w);
    do
        e.flip = (int)(sp_rng_u64(rng) % 300);
    while (e.flip % 5 < 2);
    CHECKF(check_run(eq_circuit, &e, path, NULL) == SP_ERR_UNSATISFIED && !strcmp(path, "eq"), "flip %d", e.flip);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_bits", &rng);
    test_small_consts();
    test_bit_ops(&rng);
    test_words(&rng);
    test_pack(&rng);
    return sp_test_done();
}
