/*
 * Shared helpers for the libFuzzer targets in tests/fuzz (built by
 * `make fuzz`, run by scripts/fuzz.sh).
 *
 * Every target feeds untrusted bytes to one reader. A reader may refuse
 * them (that is its job) but must never crash, leak or read out of bounds;
 * the sanitizers catch those. When a reader accepts, the target checks a
 * few invariants of what it returned (usually: written back and read
 * again, it is the same), and FUZZ_CHECK aborts on a violation so that
 * libFuzzer records the input as a crash.
 */
#ifndef SP_FUZZ_H
#define SP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "snarkpipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/* FNV-1a of the input: picks reader options (flags, threads) so that one
 * input always takes the same path. */
static inline uint64_t fuzz_hash(const uint8_t *d, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 0x100000001b3ULL;
    return h;
}

/* 1 when the little-endian limbs a[0..n) are below m[0..n). */
static inline int fuzz_limbs_lt(const uint64_t *a, const uint64_t *m, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (a[i] != m[i])
            return a[i] < m[i];
    return 0;
}

static inline char *fuzz_tmp_name(void)
{
    static char name[64];
    return name;
}

static inline void fuzz_tmp_remove(void)
{
    if (fuzz_tmp_name()[0])
        unlink(fuzz_tmp_name());
}

/* A scratch file private to this process, for the writers that take a
 * path; removed at exit. */
static inline const char *fuzz_tmp_path(void)
{
    char *name = fuzz_tmp_name();
    if (!name[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(name, 64, "%s/sp-fuzz-XXXXXX", dir && strlen(dir) < 40 ? dir : "/tmp");
        int fd = mkstemp(name);
        FUZZ_CHECK(fd >= 0);
        close(fd);
        atexit(fuzz_tmp_remove);
    }
    return name;
}

/* Reads the whole file at path into a new buffer (caller frees). */
static inline uint8_t *fuzz_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f);
    FUZZ_CHECK(n >= 0);
    rewind(f);
    uint8_t *buf = malloc((size_t)n + 1);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

#endif
