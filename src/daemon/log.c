/* The daemon's stderr log (log.h). */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "daemon/log.h"

static atomic_int level_ = SP_DMN_LOG_INFO;

void sp_dmn_log_set_level(sp_dmn_log_level lv) { atomic_store(&level_, (int)lv); }
sp_dmn_log_level sp_dmn_log_get_level(void) { return (sp_dmn_log_level)atomic_load(&level_); }

const char *sp_dmn_log_level_name(sp_dmn_log_level lv)
{
    static const char *names[] = {"error", "warn", "info", "debug"};
    return (unsigned)lv < 4 ? names[lv] : "?";
}

void sp_dmn_log(sp_dmn_log_level lv, const char *fmt, ...)
{
    if ((int)lv > atomic_load(&level_))
        return;
    char line[1024];
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    size_t n = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%S", &tm);
    n += (size_t)snprintf(line + n, sizeof line - n, ".%03ldZ %-5s ", (long)(tv.tv_usec / 1000),
                          sp_dmn_log_level_name(lv));
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
    va_end(ap);
    n = k < 0 ? n : n + (size_t)k >= sizeof line - 1 ? sizeof line - 2 : n + (size_t)k;
    for (size_t i = 0; i < n; i++) /* one message, one line; no terminal control from a client's text */
        if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
            line[i] = ' ';
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, n);
    (void)w;
}
