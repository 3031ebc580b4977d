/*
 * SHA-256 (FIPS 180-4), plain C: the reference the SHA-256 circuit gadget
 * is tested against, native hashing for witness generation (PoRep-like
 * labels and tree_d), and file digests (the key cache binds an entry to its
 * key file's SHA-256). On x86-64 CPUs with the SHA extensions the
 * compression runs on them (about 10x the portable code), chosen at run
 * time like the field's assembly path; $SP_NO_ASM=1 or sp_sha256_use_hw(0)
 * forces the portable code, which stays the reference the tests compare
 * the fast path against.
 */
#ifndef SP_UTIL_SHA256_H
#define SP_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SP_SHA256_BYTES 32
#define SP_SHA256_BLOCK 64

typedef struct {
    uint32_t h[8];
    uint64_t len;        /* bytes absorbed */
    uint8_t buf[64];
    size_t fill;
} sp_sha256_ctx;

/* The initial hash value H(0) of FIPS 180-4 section 5.3.3. */
extern const uint32_t SP_SHA256_IV[8];
/* The round constants K of section 4.2.2. */
extern const uint32_t SP_SHA256_K[64];

/* Whether the SHA-extension path is in use. */
int sp_sha256_hw_active(void);
/* Returns the previous setting; enabling on a CPU without the SHA
 * extensions is ignored. */
int sp_sha256_use_hw(int on);

/* One compression: state h (8 words) absorbs one 64-byte block. */
void sp_sha256_compress(uint32_t h[8], const uint8_t block[64]);
/* As sp_sha256_compress on a block given as 16 big-endian words (always
 * the portable code). */
void sp_sha256_compress_words(uint32_t h[8], const uint32_t w[16]);

void sp_sha256_init(sp_sha256_ctx *c);
void sp_sha256_update(sp_sha256_ctx *c, const void *data, size_t len);
/* Pads (section 5.1.1) and writes the digest; c must be re-initialised
 * before further use. */
void sp_sha256_final(uint8_t out[32], sp_sha256_ctx *c);
/* out = SHA-256(data[0..len)). */
void sp_sha256(uint8_t out[32], const void *data, size_t len);

#endif
