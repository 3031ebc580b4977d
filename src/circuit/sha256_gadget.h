/*
 * SHA-256 (FIPS 180-4) as a circuit on the sp_cs API, built from the word
 * gadgets of u32.h the way bellman/bellperson's sha256 gadget is (the
 * circuit Filecoin's proofs use): the same folding of constants, the
 * additions of a round deferred so that each new a and e is one
 * multi-operand addition, and the packing equations of one compression
 * shared 7 to a constraint. So its constraint counts are bellman's:
 * 25,840 for a compression from the constant IV with 512 variable message
 * bits (bellman's test_full_block), 26,192 when the chaining value is
 * variable too, 44,874 for the hash of a 64-byte message of variables
 * (tests/test_sha_gadget.c checks the first and prints all three).
 *
 * Bits are in SHA-256's order: a message is a string of bits, bit 0 the
 * most significant bit of its first byte; the digest likewise (bit 8j + k
 * is bit 7 - k of digest byte j). util/sha256.h is the native function.
 *
 * Gadget paths (debug names): sp_sha256_gadget pushes "sha256", then
 * "block N"; a compression pushes "schedule/w T" and
 * "round R/{e,s1,ch,a,s0,maj}" and "final".
 */
#ifndef SP_CIRCUIT_SHA256_GADGET_H
#define SP_CIRCUIT_SHA256_GADGET_H

#include <stddef.h>
#include <stdint.h>
#include "circuit/bits.h"
#include "circuit/cs.h"
#include "circuit/u32.h"

/* On output: iv = the constant initial hash value H(0) (no variables). */
void sp_sha256_gadget_iv(sp_u32 iv[8]);

/*
 * One compression.
 * On input: h the chaining value (8 words; the IV from sp_sha256_gadget_iv
 *   or the output of a previous block), w the block as 16 big-endian
 *   words (W_0..W_15 of FIPS 180-4).
 * On output: out = the next chaining value; out may alias h.
 */
void sp_sha256_gadget_compress(sp_cs *cs, sp_u32 out[8], const sp_u32 h[8], const sp_u32 w[16]);
/* As sp_sha256_gadget_compress with the block as 512 bits (SHA order). */
void sp_sha256_gadget_compress_bits(sp_cs *cs, sp_u32 out[8], const sp_u32 h[8], const sp_bit block[512]);

/* The digest bits (SHA order) of a final chaining value (free). */
void sp_sha256_gadget_digest_bits(sp_bit out[256], const sp_u32 h[8]);

/*
 * The hash of a message of any number of bits.
 * On input: msg[0..n_bits) in SHA order (may be constants, variables or
 *   both); n_bits < 2^64 - 512.
 * On output: out = SHA-256(msg) in SHA order. The padding is constant
 *   bits (free); ceil((n_bits + 65) / 512) compressions.
 */
void sp_sha256_gadget(sp_cs *cs, sp_bit out[256], const sp_bit *msg, uint64_t n_bits);

#endif
