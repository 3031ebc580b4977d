/*
 * The small util/ helpers without a test of their own: the byte-count
 * syntax (src/util/bytes.h), with its edges: every unit, the 2^k form,
 * the largest values that fit and the smallest that do not, and junk.
 */
#include <stdint.h>
#include <stdio.h>
#include "test.h"
#include "util/bytes.h"

static void test_bytes_good(void)
{
    static const struct {
        const char *s;
        size_t v;
    } good[] = {
        {"0", 0}, {"123", 123}, {"1000000", 1000000}, {"007", 7},
        {"64K", (size_t)64 << 10}, {"64k", (size_t)64 << 10}, {"64KiB", (size_t)64 << 10}, {"64kib", (size_t)64 << 10},
        {"256m", (size_t)256 << 20}, {"512MiB", (size_t)512 << 20}, {"2G", (size_t)2 << 30},
        {"2GiB", (size_t)2 << 30}, {"1T", (size_t)1 << 40}, {"3TiB", (size_t)3 << 40}, {"0G", 0},
        {"2^0", 1}, {"2^30", (size_t)1 << 30}, {"2^63", (size_t)1 << 63},
        {"18446744073709551615", SIZE_MAX},           /* the largest plain value */
        {"16777215T", (size_t)16777215 << 40},        /* the largest in T */
        {"17179869183G", (size_t)17179869183 << 30},  /* and in G */
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t v = 1;
        CHECKF(sp_bytes_parse(&v, good[i].s) == SP_OK && v == good[i].v, "sp_bytes_parse(\"%s\")", good[i].s);
    }
}

static void test_bytes_bad(void)
{
    static const char *const bad[] = {
        "", "x", "K", "-1", "+1", " 1", "1 ", "1 K", "1.5G", "0x10", "12Q", "10XB",
        "1KB", "3GB", "1MB", "1TB", "1b", "1Ki", "1KiBB", "1KK", "1P", "2^", "2^64", "2^x", "2^-1", "2^3K",
        "18446744073709551616",  /* SIZE_MAX + 1 */
        "99999999999999999999", "16777216T", "17179869184G", "99999999999T",
        "1e9", "auto",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 7;
        CHECKF(sp_bytes_parse(&v, bad[i]) == SP_ERR_INVALID_ARG && v == 7, "sp_bytes_parse(\"%s\") accepted", bad[i]);
    }
}

int main(void)
{
    _Static_assert(sizeof(size_t) == 8, "the known answers assume a 64-bit size_t");
    sp_test_begin("test_util", NULL);
    test_bytes_good();
    test_bytes_bad();
    return sp_test_done();
}
