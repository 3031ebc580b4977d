/* Byte counts written by people (bytes.h). */
#include <stdint.h>
#include "util/bytes.h"

/* Decimal digits s[0..] up to the first non-digit: *end points there.
 * Returns 0, or -1 when there is no digit or the value passes SIZE_MAX. */
static int digits(size_t *v, const char **end, const char *s)
{
    size_t x = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x > (SIZE_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    if (p == s)
        return -1;
    *v = x;
    *end = p;
    return 0;
}

sp_status sp_bytes_parse(size_t *out, const char *s)
{
    size_t v;
    const char *end;
    if (s[0] == '2' && s[1] == '^') {
        if (digits(&v, &end, s + 2) || *end || v >= sizeof(size_t) * 8)
            return SP_ERR_INVALID_ARG;
        *out = (size_t)1 << v;
        return SP_OK;
    }
    if (digits(&v, &end, s))
        return SP_ERR_INVALID_ARG;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    case 'T': case 't': shift = 40; break;
    default: return SP_ERR_INVALID_ARG;
    }
    if (shift) {
        end++;
        if ((end[0] == 'i' || end[0] == 'I') && (end[1] == 'b' || end[1] == 'B'))
            end += 2;
    }
    if (*end || shift >= sizeof(size_t) * 8 || v > (SIZE_MAX >> shift))
        return SP_ERR_INVALID_ARG;
    *out = v << shift;
    return SP_OK;
}
