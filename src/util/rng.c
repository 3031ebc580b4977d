#include "util/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void sp_rng_seed(sp_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sp_rng_u64(sp_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void sp_rng_bytes(sp_rng *rng, uint8_t *out, size_t len)
{
    while (len) {
        uint64_t v = sp_rng_u64(rng);
        size_t k = len < 8 ? len : 8;
        memcpy(out, &v, k);
        out += k;
        len -= k;
    }
}

uint64_t sp_rng_test_seed(void)
{
    const char *e = getenv("SP_SEED");
    if (e && *e)
        return strtoull(e, NULL, 0);
    uint64_t s = 0;
    if (sp_os_random((uint8_t *)&s, sizeof s) != SP_OK)
        abort();
    return s;
}

sp_status sp_os_random(uint8_t *out, size_t len)
{
    while (len) {
        ssize_t n = getrandom(out, len, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return SP_ERR_IO;
        }
        out += n;
        len -= (size_t)n;
    }
    return SP_OK;
}
