/* SHA-256 circuit (sha256_gadget.h). */
#include <string.h>
#include "circuit/gadget.h"
#include "circuit/sha256_gadget.h"
#include "util/sha256.h"

void sp_sha256_gadget_iv(sp_u32 iv[8])
{
    for (int i = 0; i < 8; i++)
        sp_u32_const(&iv[i], SP_SHA256_IV[i]);
}

/* x rotr p ^ x rotr q ^ (x rotr s, or x shr s when shift): the Sigma and
 * sigma functions, two xors (constant bits of the shift fold away). */
static void sigma(sp_cs *cs, sp_u32 *r, const sp_u32 *x, unsigned p, unsigned q, unsigned s, int shift)
{
    sp_u32 t, u;
    sp_u32_rotr(&t, x, p);
    sp_u32_rotr(&u, x, q);
    sp_u32_xor(cs, &t, &t, &u);
    if (shift)
        sp_u32_shr(&u, x, s);
    else
        sp_u32_rotr(&u, x, s);
    sp_u32_xor(cs, r, &t, &u);
}

/* W_16..W_63 from W_0..W_15 (w[0..15] set on input). */
static void schedule(sp_cs *cs, sp_multieq *m, sp_u32 w[64])
{
    sp_cs_push(cs, "schedule");
    for (int t = 16; t < 64; t++) {
        sp_cs_pushf(cs, "w %d", t);
        sp_u32 s0, s1;
        sigma(cs, &s0, &w[t - 15], 7, 18, 3, 1);
        sigma(cs, &s1, &w[t - 2], 17, 19, 10, 1);
        const sp_u32 *ops[4] = {&w[t - 16], &s0, &w[t - 7], &s1};
        sp_u32_add(cs, m, &w[t], ops, 4);
        sp_cs_pop(cs);
    }
    sp_cs_pop(cs);
}

/*
 * The terms of the round that made the pending a and e (bellman's
 * deferred additions: T1 = h + S1 + ch + K + W; e = T1 + d, a = T1 + S0 +
 * maj), kept as words until the next round needs a and e as bits.
 */
typedef struct {
    sp_u32 h, s1, ch, k, d, s0, maj;
    const sp_u32 *w;
} pending;

/* *r = the pending e (+ extra when not NULL). */
static void pending_e(sp_cs *cs, sp_multieq *m, sp_u32 *r, const pending *p, const sp_u32 *extra)
{
    const sp_u32 *ops[7] = {&p->h, &p->s1, &p->ch, &p->k, p->w, &p->d, extra};
    sp_u32_add(cs, m, r, ops, extra ? 7 : 6);
}

static void pending_a(sp_cs *cs, sp_multieq *m, sp_u32 *r, const pending *p, const sp_u32 *extra)
{
    const sp_u32 *ops[8] = {&p->h, &p->s1, &p->ch, &p->k, p->w, &p->s0, &p->maj, extra};
    sp_u32_add(cs, m, r, ops, extra ? 8 : 7);
}

/* The 64 rounds and the final additions: out = h + rounds(h, w). */
static void rounds(sp_cs *cs, sp_multieq *m, sp_u32 out[8], const sp_u32 h[8], const sp_u32 w[64])
{
    sp_u32 s[8]; /* a b c d e f g h; a and e stale while `have` (pending) */
    pending p;
    int have = 0;
    memcpy(s, h, sizeof s);
    for (int t = 0; t < 64; t++) {
        sp_cs_pushf(cs, "round %d", t);
        sp_u32 s1, ch, s0, maj; /* this round's terms; p still holds the last round's */
        if (have) {
            sp_cs_push(cs, "e");
            pending_e(cs, m, &s[4], &p, NULL);
            sp_cs_pop(cs);
        }
        sp_cs_push(cs, "s1");
        sigma(cs, &s1, &s[4], 6, 11, 25, 0);
        sp_cs_pop(cs);
        sp_cs_push(cs, "ch");
        sp_u32_ch(cs, &ch, &s[4], &s[5], &s[6]);
        sp_cs_pop(cs);
        if (have) {
            sp_cs_push(cs, "a");
            pending_a(cs, m, &s[0], &p, NULL);
            sp_cs_pop(cs);
        }
        sp_cs_push(cs, "s0");
        sigma(cs, &s0, &s[0], 2, 13, 22, 0);
        sp_cs_pop(cs);
        sp_cs_push(cs, "maj");
        sp_u32_maj(cs, &maj, &s[0], &s[1], &s[2]);
        sp_cs_pop(cs);
        p.h = s[7], p.d = s[3], p.w = &w[t];
        p.s1 = s1, p.ch = ch, p.s0 = s0, p.maj = maj;
        sp_u32_const(&p.k, SP_SHA256_K[t]);
        /* h = g, g = f, f = e, d = c, c = b, b = a; a and e pending */
        s[7] = s[6], s[6] = s[5], s[5] = s[4];
        s[3] = s[2], s[2] = s[1], s[1] = s[0];
        have = 1;
        sp_cs_pop(cs);
    }
    /* The pending a and e take H0 and H4 as one more operand each. */
    sp_cs_push(cs, "final");
    for (int i = 0; i < 8; i++) {
        if (i == 0) {
            pending_a(cs, m, &out[0], &p, &h[0]);
        } else if (i == 4) {
            pending_e(cs, m, &out[4], &p, &h[4]);
        } else {
            const sp_u32 *ops[2] = {&h[i], &s[i]};
            sp_u32_add(cs, m, &out[i], ops, 2);
        }
    }
    sp_cs_pop(cs);
}

void sp_sha256_gadget_compress(sp_cs *cs, sp_u32 out[8], const sp_u32 h[8], const sp_u32 w[16])
{
    sp_u32 ww[64], hh[8];
    memcpy(ww, w, 16 * sizeof *ww);
    memcpy(hh, h, sizeof hh); /* out may alias h */
    sp_multieq m;
    sp_multieq_init(&m);
    schedule(cs, &m, ww);
    rounds(cs, &m, out, hh, ww);
    sp_multieq_finish(cs, &m);
}

void sp_sha256_gadget_compress_bits(sp_cs *cs, sp_u32 out[8], const sp_u32 h[8], const sp_bit block[512])
{
    sp_u32 w[16];
    for (int j = 0; j < 16; j++)
        sp_u32_from_bits_be(&w[j], block + 32 * j);
    sp_sha256_gadget_compress(cs, out, h, w);
}

void sp_sha256_gadget_digest_bits(sp_bit out[256], const sp_u32 h[8])
{
    for (int i = 0; i < 8; i++)
        sp_u32_to_bits_be(out + 32 * i, &h[i]);
}

void sp_sha256_gadget(sp_cs *cs, sp_bit out[256], const sp_bit *msg, uint64_t n_bits)
{
    /* padded: msg, a 1 bit, zeros, the 64-bit length; a multiple of 512 */
    uint64_t total = (n_bits + 1 + 64 + 511) / 512 * 512;
    sp_u32 h[8];
    sp_sha256_gadget_iv(h);
    sp_cs_push(cs, "sha256");
    for (uint64_t blk = 0; blk < total / 512; blk++) {
        sp_bit block[512];
        for (unsigned k = 0; k < 512; k++) {
            uint64_t pos = blk * 512 + k;
            if (pos < n_bits)
                block[k] = msg[pos];
            else if (pos == n_bits)
                block[k] = sp_bit_const(1);
            else if (pos >= total - 64)
                block[k] = sp_bit_const((int)(n_bits >> (total - 1 - pos)) & 1);
            else
                block[k] = sp_bit_const(0);
        }
        sp_cs_pushf(cs, "block %llu", (unsigned long long)blk);
        sp_sha256_gadget_compress_bits(cs, h, h, block);
        sp_cs_pop(cs);
    }
    sp_cs_pop(cs);
    sp_sha256_gadget_digest_bits(out, h);
}
