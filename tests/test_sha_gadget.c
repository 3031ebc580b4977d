/* The SHA-256 gadget (circuit/sha256_gadget.h) against FIPS 180-4 vectors
 * and util/sha256.c on random messages of random bit lengths; bellman's
 * constraint count; the three modes agreeing; a wrong witness value named
 * by its gadget path; Filecoin's tree_d Merkle path (circuit/merkle_sha256.h)
 * against its native counterpart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/merkle_sha256.h"
#include "circuit/sha256_gadget.h"
#include "test_gadget.h"
#include "util/sha256.h"

/* ---- a slow obvious reference for messages of any bit length ---- */

/* SHA-256 of the first n_bits of msg (bit 0 = MSB of msg[0]), padded by
 * hand and compressed by util/sha256.c. */
static void ref_sha256_bits(uint8_t out[32], const uint8_t *msg, uint64_t n_bits)
{
    uint64_t total = (n_bits + 65 + 511) / 512 * 512;
    uint8_t *p = calloc(total / 8, 1);
    for (uint64_t i = 0; i < n_bits; i++)
        if ((msg[i / 8] >> (7 - i % 8)) & 1)
            p[i / 8] |= (uint8_t)(0x80 >> (i % 8));
    p[n_bits / 8] |= (uint8_t)(0x80 >> (n_bits % 8));
    for (int k = 0; k < 8; k++)
        p[total / 8 - 1 - k] = (uint8_t)(n_bits >> (8 * k));
    uint32_t h[8];
    memcpy(h, SP_SHA256_IV, sizeof h);
    for (uint64_t b = 0; b < total / 512; b++)
        sp_sha256_compress(h, p + 64 * b);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = (uint8_t)(h[i] >> (24 - 8 * k));
    free(p);
}

static int digest_bits_eq(const sp_bit d[256], const uint8_t want[32])
{
    for (int i = 0; i < 256; i++)
        if (d[i].val != ((want[i / 8] >> (7 - i % 8)) & 1))
            return 0;
    return 1;
}

/* ---- hashing a message in a circuit ---- */

#define MAX_BITS 1600

typedef struct {
    uint8_t msg[MAX_BITS / 8];
    uint64_t n_bits;
    uint64_t const_seed; /* bit i constant where this hash says so; 0: none, 1: all */
    sp_bit digest[256];
} hash_ctx;

static int is_const_bit(const hash_ctx *x, uint64_t i)
{
    if (x->const_seed <= 1)
        return (int)x->const_seed;
    uint64_t z = (x->const_seed ^ i) * 0x9e3779b97f4a7c15ULL;
    return (z >> 61) == 0; /* 1 in 8 */
}

static void hash_circuit(sp_cs *cs, void *vctx)
{
    hash_ctx *x = vctx;
    static sp_bit m[MAX_BITS];
    for (uint64_t i = 0; i < x->n_bits; i++) {
        int v = (x->msg[i / 8] >> (7 - i % 8)) & 1;
        if (is_const_bit(x, i))
            m[i] = sp_bit_const(v);
        else
            sp_bit_alloc(cs, &m[i], v);
    }
    sp_sha256_gadget(cs, x->digest, m, x->n_bits);
}

/* Hashes in WITNESS mode with check (no outputs); returns the rows. */
static uint64_t hash_check(hash_ctx *x)
{
    sp_cs cs;
    CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
    hash_circuit(&cs, x);
    CHECKF(sp_cs_status(&cs) == SP_OK, "%s", cs.err);
    uint64_t rows = sp_cs_n_rows(&cs);
    sp_cs_close(&cs);
    return rows;
}

static void test_fips(void)
{
    static const struct {
        const char *msg;
        const char *hex;
    } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
         "nopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    for (size_t t = 0; t < sizeof v / sizeof v[0]; t++) {
        static hash_ctx x;
        uint8_t want[32];
        for (int i = 0; i < 32; i++)
            sscanf(v[t].hex + 2 * i, "%2hhx", &want[i]);
        x.n_bits = 8 * strlen(v[t].msg);
        memcpy(x.msg, v[t].msg, x.n_bits / 8);
        for (uint64_t cst = 0; cst < 2; cst++) {
            x.const_seed = cst;
            uint64_t rows = hash_check(&x);
            CHECKF(digest_bits_eq(x.digest, want), "FIPS vector %zu (%s)", t, cst ? "constant" : "variable");
            if (cst) /* a constant message is hashed at build time: nothing to prove */
                CHECKF(rows == 0, "constant message made %llu constraints", (unsigned long long)rows);
        }
    }
}

static void test_random_messages(sp_rng *rng)
{
    static hash_ctx x;
    for (int t = 0; t < sp_test_iters(12); t++) {
        x.n_bits = sp_rng_u64(rng) % (t < 6 ? 600 : MAX_BITS);
        if (t & 1)
            x.n_bits &= ~(uint64_t)7; /* whole bytes: util/sha256.c directly too */
        sp_rng_bytes(rng, x.msg, sizeof x.msg);
        x.const_seed = t % 3 == 0 ? 0 : sp_rng_u64(rng) | 2;
        uint8_t want[32], util[32];
        ref_sha256_bits(want, x.msg, x.n_bits);
        if (x.n_bits % 8 == 0) {
            sp_sha256(util, x.msg, x.n_bits / 8);
            CHECK(memcmp(util, want, 32) == 0);
        }
        hash_check(&x);
        CHECKF(digest_bits_eq(x.digest, want), "random message of %llu bits", (unsigned long long)x.n_bits);
    }
}

/* ---- constraint counts and the three modes ---- */

typedef struct {
    uint32_t block[16], iv[8];
    int var_iv;
    sp_u32 out[8];
} comp_ctx;

/* One compression of a block of variables, from the constant IV or a
 * variable chaining value. */
static void comp_circuit(sp_cs *cs, void *vctx)
{
    comp_ctx *x = vctx;
    sp_u32 h[8], w[16];
    for (int j = 0; j < 16; j++)
        sp_u32_alloc(cs, &w[j], x->block[j]);
    for (int i = 0; i < 8; i++) {
        if (x->var_iv)
            sp_u32_alloc(cs, &h[i], x->iv[i]);
        else
            sp_u32_const(&h[i], x->iv[i]);
    }
    sp_cs_push(cs, "compress");
    sp_sha256_gadget_compress(cs, x->out, h, w);
    sp_cs_pop(cs);
}

static void test_counts_and_modes(sp_rng *rng)
{
    comp_ctx c;
    for (int j = 0; j < 16; j++)
        c.block[j] = (uint32_t)sp_rng_u64(rng);
    uint64_t nv, nr;
    for (c.var_iv = 0; c.var_iv < 2; c.var_iv++) {
        uint32_t h[8];
        for (int i = 0; i < 8; i++)
            c.iv[i] = c.var_iv ? (uint32_t)sp_rng_u64(rng) : SP_SHA256_IV[i];
        memcpy(h, c.iv, sizeof h);
        sp_sha256_compress_words(h, c.block);
        sp_fr *w = gadget_run3(comp_circuit, &c, &nv, &nr);
        int ok = 1;
        for (int i = 0; i < 8; i++) {
            ok &= c.out[i].val == h[i];
            for (unsigned k = 0; k < 32; k++) {
                sp_bit b = sp_u32_bit(&c.out[i], k);
                ok &= bit_in_w(&b, w);
            }
        }
        CHECKF(ok, "compression (%s IV) against util/sha256.c", c.var_iv ? "variable" : "constant");
        free(w);
        uint64_t own = 512 + 256 * (uint64_t)c.var_iv; /* the inputs' booleanity */
        printf("sha256: one compression, %s IV: %llu constraints\n", c.var_iv ? "variable" : "constant",
               (unsigned long long)(nr - own));
        if (!c.var_iv) /* bellman's test_full_block: 25840 */
            CHECKF(nr - own == 25840, "%llu constraints, bellman's 25840", (unsigned long long)(nr - own));
    }
    /* a 64-byte message: two compressions, the second all padding */
    static hash_ctx x;
    x.n_bits = 512, x.const_seed = 0;
    sp_rng_bytes(rng, x.msg, 64);
    sp_fr *w = gadget_run3(hash_circuit, &x, &nv, &nr);
    uint8_t want[32];
    sp_sha256(want, x.msg, 64);
    CHECK(digest_bits_eq(x.digest, want));
    int ok = 1;
    for (int i = 0; i < 256; i++)
        ok &= bit_in_w(&x.digest[i], w);
    CHECK(ok);
    free(w);
    printf("sha256: 64-byte message (2 blocks): %llu constraints\n", (unsigned long long)(nr - 512));
    /* a random length with constants mixed in, through the three modes */
    x.n_bits = 1 + sp_rng_u64(rng) % 1000, x.const_seed = sp_rng_u64(rng) | 2;
    sp_rng_bytes(rng, x.msg, sizeof x.msg);
    w = gadget_run3(hash_circuit, &x, &nv, &nr);
    ref_sha256_bits(want, x.msg, x.n_bits);
    CHECK(digest_bits_eq(x.digest, want));
    free(w);
}

/* ---- a wrong witness value, named ---- */

static void test_tamper(sp_rng *rng)
{
    static hash_ctx x;
    x.n_bits = 512, x.const_seed = 0;
    sp_rng_bytes(rng, x.msg, 64);
    uint64_t nv, nr;
    sp_cs cs;
    CHECK(sp_cs_open(&cs, SP_CS_RECORD, 0) == SP_OK);
    hash_circuit(&cs, &x);
    nv = sp_cs_n_vars(&cs), nr = sp_cs_n_rows(&cs);
    sp_cs_rec *rec = sp_cs_take_rec(&cs);
    sp_cs_close(&cs);

    /* the maj of round 17 of the second block gets a wrong value: debug
     * mode names it, and the recorded matrices fail at the same row on the
     * witness made with it */
    static const char *target = "sha256/block 1/round 17/maj";
    sp_fr *w = calloc(nv, sizeof *w);
    size_t n = nr + 1;
    sp_fr *abc = calloc(3 * n, sizeof *abc);
    CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
    sp_cs_set_outputs(&cs, w, nv, abc, abc + n, abc + 2 * n, n);
    sp_bits_debug_tamper(UINT64_MAX, target);
    hash_circuit(&cs, &x);
    CHECK(sp_cs_status(&cs) == SP_ERR_UNSATISFIED);
    CHECKF(!strcmp(cs.bad_path, target), "failed at %s", cs.bad_path);
    printf("tamper: %s\n", cs.err);
    uint64_t bad_dbg = cs.bad_row, bad_rec = 0;
    sp_cs_close(&cs);
    char err[SP_ERR_LEN];
    CHECK(sp_cs_rec_abc(abc, abc + n, abc + 2 * n, n, rec, w, 1, 1, &bad_rec, err) == SP_ERR_UNSATISFIED);
    CHECKF(bad_rec == bad_dbg, "matrices fail at row %llu, debug mode at %llu", (unsigned long long)bad_rec,
           (unsigned long long)bad_dbg);

    /* any wire of the hash: the first failing constraint is in the hash */
    uint64_t wire = 513 + sp_rng_u64(rng) % (nv - 513);
    CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
    sp_bits_debug_tamper(wire, NULL);
    hash_circuit(&cs, &x);
    CHECKF(sp_cs_status(&cs) == SP_ERR_UNSATISFIED && !strncmp(cs.bad_path, "sha256/block ", 13),
           "wire %llu: %s", (unsigned long long)wire, cs.err);
    printf("tamper wire %llu: %s\n", (unsigned long long)wire, cs.err);
    sp_cs_close(&cs);
    sp_bits_debug_tamper(UINT64_MAX, NULL);
    free(w), free(abc);
    sp_cs_rec_free(rec);
}

/* ---- Merkle paths ---- */

#define MAX_DEPTH 4

typedef struct {
    uint8_t leaf[32], path[MAX_DEPTH][32], root[32];
    uint64_t index;
    size_t depth;
    int wrong_sibling;
    sp_num got;
} merkle_ctx;

static void fr_of_node(sp_fr *r, const uint8_t b[32])
{
    sp_status st = sp_fr_from_bytes_le(r, b);
    CHECK(st == SP_OK);
}

static void merkle_circuit(sp_cs *cs, void *vctx)
{
    merkle_ctx *x = vctx;
    sp_fr v;
    fr_of_node(&v, x->root);
    sp_var pub = sp_cs_public(cs, &v); /* the root, a public input */
    sp_num root = {pub, v}, leaf, path[MAX_DEPTH];
    sp_bit index[MAX_DEPTH];
    fr_of_node(&v, x->leaf);
    sp_num_alloc(cs, &leaf, &v);
    for (size_t i = 0; i < x->depth; i++) {
        fr_of_node(&v, x->path[i]);
        if ((int)i == x->wrong_sibling)
            sp_fr_add(&v, &v, sp_cs_fr_one());
        sp_num_alloc(cs, &path[i], &v);
        sp_bit_alloc(cs, &index[i], (int)(x->index >> i) & 1);
    }
    sp_merkle_sha256_gadget_root(cs, &x->got, &leaf, path, index, x->depth);
    sp_cs_push(cs, "root");
    sp_num_enforce_eq(cs, &x->got, &root);
    sp_cs_pop(cs);
}

static void rand_node(sp_rng *rng, uint8_t b[32])
{
    sp_rng_bytes(rng, b, 32);
    b[31] &= 0x3f; /* a Sha256Domain value */
}

static void test_merkle(sp_rng *rng)
{
    static merkle_ctx x;
    uint64_t nv, nr, one_level = 0;
    for (int t = 0; t < 3; t++) {
        x.depth = t == 0 ? 1 : 1 + sp_rng_u64(rng) % MAX_DEPTH;
        x.index = sp_rng_u64(rng) & ((1u << x.depth) - 1);
        rand_node(rng, x.leaf);
        for (size_t i = 0; i < x.depth; i++)
            rand_node(rng, x.path[i]);
        sp_merkle_sha256_root(x.root, x.leaf, (const uint8_t(*)[32])x.path, x.depth, x.index);
        CHECK((x.root[31] & 0xc0) == 0);
        x.wrong_sibling = -1;
        sp_fr *w = gadget_run3(merkle_circuit, &x, &nv, &nr);
        sp_fr want;
        fr_of_node(&want, x.root);
        CHECKF(sp_fr_eq(&x.got.val, &want) && sp_fr_eq(&w[x.got.var], &want), "merkle depth %zu index %llu",
               x.depth, (unsigned long long)x.index);
        free(w);
        if (t == 0) /* leaf, sibling and bit allocated by the test; the root check */
            one_level = nr - 2;
        x.wrong_sibling = (int)(sp_rng_u64(rng) % x.depth);
        sp_cs cs;
        CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
        merkle_circuit(&cs, &x);
        CHECKF(sp_cs_status(&cs) == SP_ERR_UNSATISFIED && !strcmp(cs.bad_path, "root"), "%s", cs.err);
        sp_cs_close(&cs);
    }
    printf("merkle: one level (swap, 2 unpackings, 2-block SHA-256, packing): %llu constraints\n",
           (unsigned long long)one_level);
    /* Filecoin's node on a known pair: the native node is SHA-256 truncated */
    uint8_t l[32], r[32], got[32], want[32], buf[64];
    rand_node(rng, l), rand_node(rng, r);
    memcpy(buf, l, 32), memcpy(buf + 32, r, 32);
    sp_sha256(want, buf, 64);
    want[31] &= 0x3f;
    sp_merkle_sha256_node(got, l, r);
    CHECK(memcmp(got, want, 32) == 0);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_sha_gadget", &rng);
    test_fips();
    test_random_messages(&rng);
    test_counts_and_modes(&rng);
    test_tamper(&rng);
    test_merkle(&rng);
    return sp_test_done();
}
