/* A growing text buffer written with printf formats (buf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "util/buf.h"

void sp_buf_printf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (!*buf && *cap))
        return;
    if (*len + (size_t)n + 1 > *cap) {
        size_t nc = *cap ? *cap : 8192;
        while (nc < *len + (size_t)n + 1)
            nc *= 2;
        char *nb = realloc(*buf, nc);
        if (!nb) {
            free(*buf);
            *buf = NULL;
            *cap = 1; /* failed: later calls do nothing */
            return;
        }
        *buf = nb;
        *cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(*buf + *len, *cap - *len, fmt, ap);
    va_end(ap);
    *len += (size_t)n;
}
