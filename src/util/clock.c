/* Deadlines for timed waits (clock.h). */
#include "util/clock.h"

struct timespec sp_clock_after(clockid_t clk, long ms)
{
    struct timespec t;
    clock_gettime(clk, &t);
    if (ms <= 0)
        return t;
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}
