/*
 * Deterministic PRNG for tests and benchmarks (xoshiro256**), and the OS
 * CSPRNG for secrets. Never use sp_rng for r, s or toxic waste.
 */
#ifndef SP_UTIL_RNG_H
#define SP_UTIL_RNG_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"

typedef struct { uint64_t s[4]; } sp_rng;

/* On output: *rng is seeded from seed (any value, 0 included). */
void sp_rng_seed(sp_rng *rng, uint64_t seed);
/* Returns the next 64 pseudo-random bits. */
uint64_t sp_rng_u64(sp_rng *rng);
/* On output: out[0..len) filled with pseudo-random bytes. */
void sp_rng_bytes(sp_rng *rng, uint8_t *out, size_t len);

/* Test seeds: returns $SP_SEED if set, else a fresh seed from the OS.
 * Callers print it so a failing run can be replayed. */
uint64_t sp_rng_test_seed(void);

/* On output: out[0..len) from getrandom(2). Returns SP_OK or SP_ERR_IO. */
sp_status sp_os_random(uint8_t *out, size_t len) SP_WARN_UNUSED;

#endif
