/*
 * CRC-32C (Castagnoli: reflected polynomial 0x82F63B78, initial value and
 * final xor ~0), the checksum of the key cache's entries
 * (groth16/keycache.h). An entry's checksum guards against accidents (a
 * torn write, bit rot), not an attacker, and CRC-32C is built for exactly
 * that: it detects every burst of up to 32 bits and misses other damage
 * with probability 2^-32, at a fraction of SHA-256's cost. On x86-64 CPUs
 * with SSE4.2 the crc32 instruction computes it (8 bytes a step, about 5x
 * SHA-256 with the SHA extensions), chosen at run time like the field's
 * assembly path; $SP_NO_ASM=1 or sp_crc32c_use_hw(0) forces the portable
 * table code, which stays the reference the tests compare the fast path
 * against.
 */
#ifndef SP_UTIL_CRC32C_H
#define SP_UTIL_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/*
 * On input: crc, the checksum of the bytes before these (0 for none), and
 * len bytes at data (data may be NULL when len is 0).
 * Returns the checksum of the bytes before followed by these, so
 * sp_crc32c(sp_crc32c(0, a, n), b, m) is the checksum of a then b.
 * sp_crc32c(0, "123456789", 9) = 0xE3069283.
 */
uint32_t sp_crc32c(uint32_t crc, const void *data, size_t len);

/*
 * The checksum of a then b from sp_crc32c(0, a, ...) = crc_a,
 * sp_crc32c(0, b, len_b) = crc_b and len_b: so parts of one message can be
 * checksummed apart (on two threads) and joined. About 64 small products
 * mod the polynomial, whatever len_b.
 */
uint32_t sp_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

/* Whether the SSE4.2 path is in use. */
int sp_crc32c_hw_active(void);
/* Returns the previous setting; enabling on a CPU without SSE4.2 is
 * ignored. */
int sp_crc32c_use_hw(int on);

#endif
